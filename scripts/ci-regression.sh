#!/usr/bin/env bash
# The CI regression gate: runs profiles/ci.yaml N times, each against a fresh `apnsbench simulate --h2c`,
# compares the runs with the committed baseline (`apnsbench compare`), prints the Markdown (and appends it
# to $GITHUB_STEP_SUMMARY when set) and exits with compare's code: 0 no regression, 2 regression,
# 5 incomparable (another machine, libcurl or configuration: make a baseline there), 1 bad input;
# a run that fails exits with its own code (99: its SLO was missed).
#
#   scripts/ci-regression.sh [--runs N] [--fast] [--baseline DIR] [--out DIR] [--sim-config FILE]
#                            [--update-baseline] [-- COMPARE_FLAGS...]
#
#   --runs N           runs of the profile (default 3: with 3 or more a side compare tells noise apart)
#   --fast             the fast simulator (200 for everything) and a closed loop: the client's throughput;
#                      baseline reports/baselines/ci-fast
#   --sim-config FILE  the simulator's model (default profiles/ci-simulator.yaml); a planted regression
#                      is a copy with more latency or injected 5xx
#   --update-baseline  write the runs to the baseline folder instead of comparing (commit them)
#
# APNSBENCH_BIN picks the binary (default .build/debug/apnsbench, built if missing: the tests build it).
# A baseline is only comparable with runs of the same build configuration on the same kind of machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 fast=0 update=0 baseline="" out="" sim_config=profiles/ci-simulator.yaml
compare_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --fast) fast=1; shift ;;
        --baseline) baseline=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --sim-config) sim_config=$2; shift 2 ;;
        --update-baseline) update=1; shift ;;
        --) shift; compare_flags=("$@"); break ;;
        *) echo "ci-regression: unknown argument $1 (see the comment at the top of $0)" >&2; exit 64 ;;
    esac
done
variant=validating; [ "$fast" = 1 ] && variant=fast
baseline=${baseline:-reports/baselines/ci-$variant}
out=${out:-reports/ci-$variant-$(date +%Y%m%d-%H%M%S)}
bin=${APNSBENCH_BIN:-.build/debug/apnsbench}
if [ ! -x "$bin" ]; then
    echo "ci-regression: building $bin" >&2
    swift build --product apnsbench >&2
fi

# The provider key both the simulator and the runs use (the fast simulator makes no demo key).
key_dir=$(mktemp -d)
key_id=CIGATE0001 team_id=CITEAM0001
key_path=$key_dir/AuthKey_$key_id.p8
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out "$key_path"

sim_pid=""
stop_sim() { if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; sim_pid=""; fi; }
trap 'stop_sim; rm -rf "$key_dir"' EXIT

# One run: a fresh simulator on a free port, the profile against it, the simulator stopped.
run_once() {
    local dir=$1 log
    log=$(mktemp)
    local sim_args=(simulate --h2c --port 0 --config "$sim_config" --key-path "$key_path" --key-id "$key_id" --team-id "$team_id")
    local run_args=()
    if [ "$fast" = 1 ]; then sim_args+=(--fast); run_args+=(--closed-loop); fi
    "$bin" "${sim_args[@]}" > "$log" 2>&1 &
    sim_pid=$!
    for _ in $(seq 1 300); do grep -q '^ready' "$log" && break; sleep 0.1; done
    grep -q '^ready' "$log" || { echo "ci-regression: the simulator did not start:" >&2; cat "$log" >&2; exit 1; }
    local url
    url=$(sed -n 's/^url: //p' "$log")
    "$bin" run profiles/ci.yaml --target "$url" --key-path "$key_path" --key-id "$key_id" --team-id "$team_id" \
        "${run_args[@]}" --out "$dir" --quiet > "$dir.log" 2>&1 || { local rc=$?; cat "$dir.log" >&2; exit $rc; }
    stop_sim
    rm -f "$log"
}

target=$out; [ "$update" = 1 ] && target=$baseline
mkdir -p "$target"
for i in $(seq 1 "$runs"); do
    echo "ci-regression: run $i of $runs ($variant simulator) -> $target/run-$i" >&2
    rm -rf "$target/run-$i"
    run_once "$target/run-$i"
    rm -f "$target/run-$i.log"
done

if [ "$update" = 1 ]; then
    # A baseline keeps report.json only (summary.md, latency.hlog and report.html are rendered from it).
    rm -f "$target"/run-*/summary.md "$target"/run-*/latency.hlog "$target"/run-*/report.html
    echo "ci-regression: baseline written to $baseline ($runs runs); commit it" >&2
    exit 0
fi

set +e
"$bin" compare "$baseline" "$out" --format md --out "$out/compare.md" ${compare_flags[@]+"${compare_flags[@]}"}
status=$?
set -e
[ -f "$out/compare.md" ] && cat "$out/compare.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/compare.md" ]; then cat "$out/compare.md" >> "$GITHUB_STEP_SUMMARY"; fi
exit $status
