#!/usr/bin/env bash
# The allocation and wake-up gate: builds Benchmarks/ in release and runs only the benchmarks that have a
# threshold file in Benchmarks/Thresholds/ (TARGET.NAME.p90.json), checking their counts with
# `swift package benchmark thresholds check`. Times are never checked. The benchmarks without a threshold
# (the APNs-latency ones) stay runnable by hand: cd Benchmarks && swift package benchmark --filter NAME.
#
#   scripts/bench-gate.sh [--runs N] [--build-only]
#
# --runs N checks N times in a row (the build once) and prints each gated metric's spread over the runs.
# --build-only builds what the gate runs (package-benchmark's BenchmarkTool and the gated targets, in release,
# through the plugin, so a later gate finds them built) and runs nothing; scripts/test.sh starts it early.
# The engine benchmarks start the simulator from APNSBENCH_BIN (default: the root's release build, built
# when missing). Exit 0 when every run is within its thresholds; package-benchmark's 2 (regression) or
# 4 (improvement) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1 build_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --build-only) build_only=1; shift ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-gate: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$runs" in ''|*[!0-9]*|0) echo "bench-gate: --runs takes a whole number from 1, found '$runs'" >&2; exit 64 ;; esac
say() { printf 'bench-gate: %s\n' "$*" >&2; }

if [ -z "${APNSBENCH_BIN:-}" ] && [ $build_only = 0 ]; then
    [ -x .build/release/apnsbench ] \
        || { say "building apnsbench (release) for the simulator"; swift build -c release -debug-info-format none --product apnsbench >&2; }
    APNSBENCH_BIN="$(pwd)/.build/release/apnsbench"
fi
export APNSBENCH_BIN

# The gated benchmarks, by name, and the targets they live in, from the threshold files.
names=() targets=()
for f in Benchmarks/Thresholds/*.p90.json; do
    base=$(basename "$f" .p90.json)
    names+=("${base#*.}")
    case " ${targets[*]-} " in *" ${base%%.*} "*) ;; *) targets+=("${base%%.*}") ;; esac
done
[ ${#names[@]} -gt 0 ] || { say "no threshold files in Benchmarks/Thresholds"; exit 1; }
filter="^($(IFS='|'; echo "${names[*]}"))\$"
target_args=(); for t in "${targets[@]}"; do target_args+=(--target "$t"); done
say "${#names[@]} gated benchmarks in ${targets[*]}: ${names[*]}"

cd Benchmarks
if [ $build_only = 1 ]; then
    # `list` builds exactly what the gate's runs build (the plugin's own build of BenchmarkTool and of each
    # target), then only lists the benchmarks.
    swift package benchmark list "${target_args[@]}" --no-progress >&2
    say "built ${targets[*]} (release)"
    exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
common=("${target_args[@]}" --filter "$filter" --no-progress)
rc=0
for r in $(seq "$runs"); do
    [ "$runs" = 1 ] || say "run $r of $runs"
    # Run once into a baseline (git-ignored), check it against the thresholds, and export its p90 counts.
    swift package --allow-writing-to-package-directory benchmark baseline update "gate-$r" "${common[@]}" >&2
    set +e
    swift package benchmark thresholds check "gate-$r" "${common[@]}" 2>&1 | grep -v '^\[' | tee "$out/check-$r.log"
    code=${PIPESTATUS[0]}
    set -e
    [ "$code" = 0 ] || rc=$code
    echo "$code" >> "$out/exits"
    swift package --allow-writing-to-package-directory benchmark thresholds update "gate-$r" "${common[@]}" \
        --path "$out/p90-$r" > /dev/null 2>&1 || say "could not export run $r's counts"
done
# The gated counts of each run beside the pinned ones (Thresholds/): the spread over the runs.
python3 - "$out" "$runs" <<'PY'
import json, os, sys, glob
out, runs = sys.argv[1], int(sys.argv[2])
rows = []
for pinned_file in sorted(glob.glob("Thresholds/*.p90.json")):
    name = os.path.basename(pinned_file)
    pinned = json.load(open(pinned_file))
    for metric in ("mallocCountTotal", "wakeUpsPer1000Pushes"):
        if metric not in pinned:
            continue
        got = []
        for r in range(1, runs + 1):
            f = os.path.join(out, f"p90-{r}", name)
            if os.path.exists(f):
                got.append(json.load(open(f)).get(metric))
        got = [g for g in got if g is not None]
        rows.append((name[: -len(".p90.json")], metric, pinned[metric], got))
print()
print(f"bench-gate: gated counts (p90) over {runs} run(s), exits {' '.join(open(os.path.join(out, 'exits')).read().split())}")
print(f"| {'benchmark':42} | {'metric':20} | {'pinned':>7} | {'min':>7} | {'max':>7} | runs |")
print(f"| {'-'*42} | {'-'*20} | {'-'*7}:| {'-'*7}:| {'-'*7}:| --- |")
for b, m, p, got in rows:
    lo = min(got) if got else "-"
    hi = max(got) if got else "-"
    print(f"| {b:42} | {m:20} | {p:>7} | {lo:>7} | {hi:>7} | {' '.join(str(g) for g in got)} |")
PY
exit $rc
