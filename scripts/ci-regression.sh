#!/usr/bin/env bash
# The CI regression gate. With --base REV it builds the base revision beside the candidate (the working tree)
# in the same job, on the same runner, runs the two interleaved (base, candidate, base, candidate, ...), each
# run against a fresh `apnsbench simulate --h2c` of its own revision, and compares them with `apnsbench
# compare`: no committed baseline, no cross-machine comparability. Without --base the candidate's runs are
# compared with a committed baseline folder (--baseline; written by --update-baseline).
#
#   scripts/ci-regression.sh [--base REV] [--profile FILE] [--runs N] [--duration S] [--out DIR]
#                            [--sim-config FILE] [--sim-config-new FILE] [--fast]
#                            [--baseline DIR] [--update-baseline] [--compare-only] [--help] [-- COMPARE_FLAGS...]
#
#   --base REV           build REV (a git worktree in .build-base/src, built in .build-base/build, kept between
#                        invocations so a second build is incremental) and compare its runs with the candidate's
#   --profile FILE       the run profile (default profiles/ci.yaml: a mix of the five apps' workloads at 125/s)
#   --runs N             runs a side (default 3: with 3 or more a side compare tells noise apart by a bootstrap)
#   --duration S         each run stops after S seconds (default 5; 0: the whole profile, about 60 s for
#                        profiles/ci.yaml)
#   --out DIR            where the runs and compare.md go (default reports/ci-<variant>-<time>)
#   --sim-config FILE    the simulator's model for both sides (default profiles/ci-simulator.yaml: a fixed 20 ms)
#   --sim-config-new F   the candidate side's model instead (to plant a regression when measuring the gate)
#   --fast               the fast simulator (200 for everything) and a closed loop: the client's throughput
#   --baseline DIR       without --base: the committed baseline (default reports/baselines/ci-<variant>)
#   --update-baseline    without --base: write the candidate's runs to the baseline folder instead of comparing
#   --compare-only       build and run nothing: compare OUT/base with OUT/candidate (the runs of an earlier
#                        --base invocation with the same --out) at the gate's defaults, as a re-judgement
#   -- COMPARE_FLAGS     passed to `apnsbench compare` after the gate's own defaults, which they override:
#                        --max-p99-regression 8% --timing-min-runs 3 (with fewer runs a side, latency is
#                        shown, not judged; the measured false-alarm tables in docs/ci-gate.md are for these
#                        defaults: 3 runs a side of 5 s, interleaved, and --runs 1)
#
# Prints compare's Markdown (appended to $GITHUB_STEP_SUMMARY when set, once; --summary form in DIR/summary.md;
# the same judgement as JUnit in DIR/compare.xml, for a CI's test report)
# and exits with compare's code: 0 no regression, 2 regression, 4 improvements only (with
# --fail-on-improvement), 5 incomparable; a run that fails exits with its own code (99: its SLO was missed);
# 1 bad input or a failed build; 64 a bad argument.
#
# APNSBENCH_BIN is the candidate's binary (default .build/debug/apnsbench, built if missing); APNSBENCH_BASE_BIN
# skips building --base (a binary already built from REV). Both sides use the same build configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() { echo "ci-regression: $*" >&2; exit 1; }
profile=profiles/ci.yaml runs=3 duration=5 base="" fast=0 update=0 compare_only=0 baseline="" out="" sim_config=profiles/ci-simulator.yaml sim_config_new=""
gate_flags=(--max-p99-regression 8% --timing-min-runs 3)
compare_flags=()
need() { [ $# -ge 2 ] && [ -n "$2" ] || { echo "ci-regression: $1 needs a value (see --help)" >&2; exit 64; }; }
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --base) need "$@"; base=$2; shift 2 ;;
        --profile) need "$@"; profile=$2; shift 2 ;;
        --runs) need "$@"; runs=$2; shift 2 ;;
        --duration) need "$@"; duration=$2; shift 2 ;;
        --out) need "$@"; out=$2; shift 2 ;;
        --sim-config) need "$@"; sim_config=$2; shift 2 ;;
        --sim-config-new) need "$@"; sim_config_new=$2; shift 2 ;;
        --fast) fast=1; shift ;;
        --baseline) need "$@"; baseline=$2; shift 2 ;;
        --update-baseline) update=1; shift ;;
        --compare-only) compare_only=1; shift ;;
        --) shift; compare_flags=("$@"); break ;;
        *) echo "ci-regression: unknown argument $1 (see --help)" >&2; exit 64 ;;
    esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "ci-regression: --runs must be a whole number of at least 1, found '$runs'" >&2; exit 64; }
[[ $duration =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "ci-regression: --duration must be seconds, found '$duration'" >&2; exit 64; }
[ -r "$profile" ] || die "--profile $profile cannot be read"
[ -r "$sim_config" ] || die "--sim-config $sim_config cannot be read"
[ -z "$sim_config_new" ] || [ -r "$sim_config_new" ] || die "--sim-config-new $sim_config_new cannot be read"
if [ -n "$base" ]; then
    [ "$update" = 0 ] || { echo "ci-regression: --update-baseline writes a committed baseline; --base makes one in the job" >&2; exit 64; }
    [ -z "$baseline" ] || { echo "ci-regression: --baseline goes without --base" >&2; exit 64; }
    git rev-parse --verify -q "$base^{commit}" >/dev/null || die "--base $base is not a revision of this repository"
fi
variant=validating; [ "$fast" = 1 ] && variant=fast
if [ "$compare_only" = 1 ]; then
    [ -n "$out" ] || { echo "ci-regression: --compare-only compares the runs in --out DIR" >&2; exit 64; }
    [ -d "$out/base" ] && [ -d "$out/candidate" ] || die "--compare-only: $out has no base/ and candidate/ runs to compare"
fi
baseline=${baseline:-reports/baselines/ci-$variant}
out=${out:-reports/ci-$variant-$(date +%Y%m%d-%H%M%S)}
bin=${APNSBENCH_BIN:-.build/debug/apnsbench}
compare_runs() {  # LEFT RIGHT: compare.md and summary.md in $out, compare's exit code
    set +e
    "$bin" compare "$1" "$2" --format md --out "$out/compare.md" "${gate_flags[@]}" ${compare_flags[@]+"${compare_flags[@]}"}
    local status=$?
    "$bin" compare "$1" "$2" --format md --summary --out "$out/summary.md" "${gate_flags[@]}" ${compare_flags[@]+"${compare_flags[@]}"} 2>/dev/null
    "$bin" compare "$1" "$2" --format junit --out "$out/compare.xml" "${gate_flags[@]}" ${compare_flags[@]+"${compare_flags[@]}"} 2>/dev/null
    set -e
    [ -f "$out/compare.md" ] && cat "$out/compare.md"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/compare.md" ]; then cat "$out/compare.md" >> "$GITHUB_STEP_SUMMARY"; fi
    echo "ci-regression: compare exited $status (0 no regression, 2 regression, 4 improvements only, 5 incomparable)" >&2
    return $status
}
if [ "$compare_only" = 1 ]; then
    [ -x "$bin" ] || die "$bin is not built"
    compare_runs "$out/base" "$out/candidate" && exit 0 || exit $?
fi
if [ ! -x "$bin" ]; then
    echo "ci-regression: building the candidate ($bin)" >&2
    swift build --product apnsbench >&2 || die "the candidate did not build"
fi

# The base revision: a worktree at a fixed path (so the next build is incremental), built apart.
base_bin=""
if [ -n "$base" ]; then
    base_bin=${APNSBENCH_BASE_BIN:-}
    if [ -z "$base_bin" ]; then
        rev=$(git rev-parse --short "$base^{commit}")
        src=$PWD/.build-base/src
        if [ -d "$src" ]; then git -C "$src" checkout -q --detach "$rev" || die "cannot check out $base in $src"
        else git worktree add -q --detach "$src" "$rev" >&2 || die "cannot make a worktree of $base in $src"; fi
        echo "ci-regression: building the base, $base ($rev), in $src" >&2
        swift build --package-path "$src" --scratch-path "$PWD/.build-base/build" --product apnsbench >&2 || die "the base $base ($rev) did not build"
        base_bin=$PWD/.build-base/build/debug/apnsbench
    fi
    [ -x "$base_bin" ] || die "the base's binary $base_bin is missing"
fi

# The provider key the simulators and the runs use (the fast simulator makes no demo key).
key_dir=$(mktemp -d)
key_id=CIGATE0001 team_id=CITEAM0001
key_path=$key_dir/AuthKey_$key_id.p8
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out "$key_path"

sim_pid=""
stop_sim() { if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; sim_pid=""; fi; }
trap 'stop_sim; rm -rf "$key_dir"' EXIT

# One run: BINARY SIM_CONFIG DIR. A fresh simulator of that binary on a free port, the profile against it.
run_once() {
    local run_bin=$1 model=$2 dir=$3 log
    log=$(mktemp)
    local sim_args=(simulate --h2c --port 0 --config "$model" --key-path "$key_path" --key-id "$key_id" --team-id "$team_id")
    local run_args=()
    if [ "$fast" = 1 ]; then sim_args+=(--fast); run_args+=(--closed-loop); fi
    [ "$duration" != 0 ] && run_args+=(--duration "${duration}s")
    "$run_bin" "${sim_args[@]}" > "$log" 2>&1 &
    sim_pid=$!
    for _ in $(seq 1 300); do grep -q '^ready' "$log" && break; sleep 0.1; done
    grep -q '^ready' "$log" || { echo "ci-regression: the simulator did not start:" >&2; cat "$log" >&2; exit 1; }
    local url
    url=$(sed -n 's/^url: //p' "$log")
    rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
    "$run_bin" run "$profile" --target "$url" --key-path "$key_path" --key-id "$key_id" --team-id "$team_id" \
        ${run_args[@]+"${run_args[@]}"} --out "$dir" --quiet > "$dir.log" 2>&1 || { local rc=$?; cat "$dir.log" >&2; exit $rc; }
    stop_sim
    rm -f "$log" "$dir.log"
}

if [ -n "$base" ]; then
    for i in $(seq 1 "$runs"); do
        echo "ci-regression: run $i of $runs: base ($base) -> $out/base/run-$i" >&2
        run_once "$base_bin" "$sim_config" "$out/base/run-$i"
        echo "ci-regression: run $i of $runs: candidate -> $out/candidate/run-$i" >&2
        run_once "$bin" "${sim_config_new:-$sim_config}" "$out/candidate/run-$i"
    done
    left=$out/base right=$out/candidate
else
    target=$out; [ "$update" = 1 ] && target=$baseline
    for i in $(seq 1 "$runs"); do
        echo "ci-regression: run $i of $runs ($variant simulator) -> $target/run-$i" >&2
        run_once "$bin" "${sim_config_new:-$sim_config}" "$target/run-$i"
    done
    if [ "$update" = 1 ]; then
        # A baseline keeps report.json only (summary.md, latency.hlog and report.html are rendered from it).
        rm -f "$target"/run-*/summary.md "$target"/run-*/latency.hlog "$target"/run-*/report.html
        echo "ci-regression: baseline written to $baseline ($runs runs); commit it" >&2
        exit 0
    fi
    left=$baseline right=$out
fi

compare_runs "$left" "$right" && exit 0 || exit $?
