#!/usr/bin/env bash
# jemalloc against glibc malloc for the whole `apnsbench run` (a measurement, not a test).
#
# One standalone validating simulator with APNs-like latency (lognormal p50 40 ms, p99 200 ms, TLS) runs on
# one core; `apnsbench run` runs closed loop on the other, alternating the two allocators round by round, at
# each connections x streams point. Printed per run and as medians: pushes/s (the report's throughput) and
# the run process's CPU µs per push (user + system, whole process: producer, engine, report).
#
# The two sides are one binary: apnsbench links jemalloc, and the glibc side runs a build without it
# (APNSBENCH_MALLOC=system, built into .build-system-malloc/ when missing), or --glibc-bin PATH.
#
# usage: scripts/bench-allocator.sh [--rounds N] [--pushes N] [--points "1x100 1x1000"] [--bin PATH] [--glibc-bin PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

rounds=3 pushes=60000 points="1x100 1x1000" bin=.build/release/apnsbench glibc_bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --pushes) pushes=$2; shift 2 ;;
        --points) points=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --glibc-bin) glibc_bin=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "bench-allocator: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done
say() { printf 'bench-allocator: %s\n' "$*" >&2; }
[ "$(nproc)" -ge 2 ] || { say "needs 2 cores (client and simulator pinned apart)"; exit 1; }
if [ ! -x "$bin" ]; then
    say "building apnsbench (release)"
    swift build -c release -debug-info-format none --product apnsbench >&2
fi
if [ -z "$glibc_bin" ]; then
    glibc_bin=.build-system-malloc/release/apnsbench
    if [ ! -x "$glibc_bin" ]; then
        say "building apnsbench without jemalloc (APNSBENCH_MALLOC=system) into .build-system-malloc/"
        APNSBENCH_MALLOC=system swift build -c release -debug-info-format none --product apnsbench --scratch-path .build-system-malloc >&2
    fi
fi
uses_jemalloc() { ldd "$1" | grep -q libjemalloc; }
uses_jemalloc "$bin" || { say "$bin does not link jemalloc"; exit 1; }
! uses_jemalloc "$glibc_bin" || { say "$glibc_bin links jemalloc; give a build without it"; exit 1; }

work=$(mktemp -d)
sim_pid=""
cleanup() { [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# A recording of alert pushes, one a line (ksr-cranes: about 1% have no token and are not sent): the shipped
# 1500 lines grown K times, K the least that gives 2% more lines than --pushes.
factor=$(( (pushes * 102 / 100 + 1499) / 1500 ))
"$bin" scale profiles/streams/ksr-cranes.ndjson --profile profiles/ksr-cranes.yaml --factor "$factor" \
    --out "$work/stream.ndjson" 2> "$work/scale.log" || { cat "$work/scale.log" >&2; exit 1; }
sed -e "s|^stream: .*|stream: $work/stream.ndjson|" -e "s|^recipe: .*|recipe: $root/profiles/recipes/ksr-cranes.yaml|" \
    -e '/^slo_/d' profiles/ksr-cranes.yaml > "$work/profile.yaml"

printf 'faults:\n  latency: { lognormal_ms: { p50: 40, p99: 200 } }\n' > "$work/sim.yaml"
taskset -c 1 "$bin" simulate --port 0 --threads 1 --config "$work/sim.yaml" --ca-out "$work/ca.pem" > "$work/sim.out" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do grep -q '^ready' "$work/sim.out" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$work/sim.out" || { say "the simulator did not start:"; cat "$work/sim.out" >&2; exit 1; }
url=$(sed -n 's/^url: //p' "$work/sim.out")
read -r key key_id team_id <<< "$(sed -n 's/^demo key: \([^ ]*\) key id \([^ ]*\) team id \([^ ]*\)$/\1 \2 \3/p' "$work/sim.out")"
say "simulator $url on cpu 1 (validating, lognormal 40/200 ms); runs on cpu 0; $rounds rounds; $(uptime)"

# One run: prints "pushes/s cpu_us_per_push".
one() {
    local b=$1 c=$2 m=$3
    rm -rf "$work/out"
    taskset -c 0 /usr/bin/time -f 'cpu %U %S' -o "$work/time" "$b" run "$work/profile.yaml" --quiet --closed-loop \
        --target "$url" --ca-cert "$work/ca.pem" --key-path "$key" --key-id "$key_id" --team-id "$team_id" \
        --connections "$c" --streams "$m" --out "$work/out" > "$work/run.log" 2>&1 || { cat "$work/run.log" >&2; say "run failed"; exit 1; }
    python3 - "$work/out/report.json" "$work/time" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cpu = sum(float(x) for x in open(sys.argv[2]).read().split()[1:3])
sent = r["throughput"]["sent"]
print(f"{r['throughput']['pushesPerSecond']:.0f} {cpu * 1e6 / sent:.1f}")
PY
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

declare -A P C
for point in $points; do
    c=${point%x*} m=${point#*x}
    jr=() jc=() gr=() gc=()
    for r in $(seq "$rounds"); do
        read -r a b <<< "$(one "$bin" "$c" "$m")"; jr+=("$a"); jc+=("$b")
        say "$point round $r jemalloc: $a pushes/s, $b CPU µs/push"
        read -r a b <<< "$(one "$glibc_bin" "$c" "$m")"; gr+=("$a"); gc+=("$b")
        say "$point round $r glibc:    $a pushes/s, $b CPU µs/push"
    done
    P[$point/j]=$(median "${jr[@]}") C[$point/j]=$(median "${jc[@]}")
    P[$point/g]=$(median "${gr[@]}") C[$point/g]=$(median "${gc[@]}")
done
echo
echo "apnsbench run, closed loop, $pushes alert pushes, TLS; simulator: validating, lognormal p50 40 ms / p99 200 ms, cpu 1; run on cpu 0; medians" \
    "of $rounds rounds"
echo
echo "| connections x streams | allocator | pushes/s | CPU µs/push |"
echo "| --- | --- | --: | --: |"
for point in $points; do
    echo "| $point | jemalloc (linked) | ${P[$point/j]} | ${C[$point/j]} |"
    echo "| $point | glibc malloc | ${P[$point/g]} | ${C[$point/g]} |"
done
echo
for point in $points; do
    awk -v p="$point" -v jp="${P[$point/j]}" -v gp="${P[$point/g]}" -v jc="${C[$point/j]}" -v gc="${C[$point/g]}" \
        'BEGIN { printf "%s: jemalloc/glibc pushes/s %.3f, CPU per push %.3f\n", p, jp/gp, jc/gc }'
done
