#!/usr/bin/env bash
# Scaling of `apnsbench run --workers N` (issue 5, item 5; a measurement, not a test).
#
# Runs the profile with each worker count in turn, ROUNDS times interleaved (1, 2, 1, 2, ...), and prints
# per run and as medians: pushes/s (the report's throughput), the process's CPU µs per push (engine threads,
# producer and the embedded simulator together), each thread group's CPU seconds ("engine": the engine or
# worker threads plus the main thread, and with one worker the producing too, which then runs on the engine's
# thread; "producer": the pool's producer thread; "sim": the simulator's event loop) and the load average,
# so that a run slowed by other work on the machine shows.
#
# usage: scripts/bench-workers.sh [--bin PATH] [--rounds N] [--workers "1 2"] PROFILE [run options...]
# e.g.   scripts/bench-workers.sh --rounds 5 /tmp/oc-big.yaml --fast-simulator
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.build/release/apnsbench rounds=3 workers="1 2"
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --workers) workers=$2; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) break ;;
    esac
    shift
done
[ $# -ge 1 ] || { echo "bench-workers: give a profile" >&2; exit 64; }
profile=$1; shift
[ -x "$bin" ] || { echo "bench-workers: $bin is missing: swift build -c release --product apnsbench" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run: prints "pushes/s cpu_us_per_push engine_s producer_s simulator_s load".
one() {
    local w=$1; shift
    "$bin" run "$profile" --workers "$w" --out "$work/out" "$@" > "$work/log" 2>&1 &
    local pid=$!
    # Per-thread CPU from /proc, sampled until the process exits; a thread's last sample counts (threads
    # that end early keep theirs), so up to 0.1 s of a thread's CPU may be missed.
    : > "$work/samples"
    while kill -0 "$pid" 2>/dev/null; do
        for t in /proc/"$pid"/task/*; do
            n=$(cat "$t/comm" 2>/dev/null) || continue
            s=$(awk '{print $14+$15}' "$t/stat" 2>/dev/null) || continue
            [ -n "$s" ] && echo "${t##*/} $n $s" >> "$work/samples"
        done
        sleep 0.1
    done
    wait "$pid" || { cat "$work/log" >&2; echo "bench-workers: run failed" >&2; exit 1; }
    local pps planned
    pps=$(sed -n 's/^  throughput \([0-9.]*\) pushes\/s/\1/p' "$work/log")
    planned=$(python3 -c "import json; r=json.load(open('$work/out/report.json')); print(r['throughput']['sent'])")
    awk -v pps="$pps" -v sent="$planned" -v load="$(cut -d' ' -f1 /proc/loadavg)" -v tck="$(getconf CLK_TCK)" '
        { name[$1] = $2; cpu[$1] = $3 / tck }
        END { for (t in cpu) { s = cpu[t]; total += s
                  if (name[t] ~ /^NIO-/) sim += s; else if (name[t] == "apnsbench-prod") prod += s; else eng += s }
              printf "%.0f %.1f %.2f %.2f %.2f %s\n", pps, total * 1e6 / sent, eng, prod, sim, load }' "$work/samples"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "bench-workers: $bin $profile $*, $rounds rounds, workers: $workers; $(nproc) CPUs shared by the embedded simulator"
printf '%-6s %-8s %10s %12s %10s %10s %10s %6s\n' round workers pushes/s "CPU µs/push" "engine s" "producer s" "sim s" load
for r in $(seq "$rounds"); do
    for w in $workers; do
        line=$(one "$w" "$@")
        echo "$w $line" >> "$work/all"
        printf '%-6s %-8s %10s %12s %10s %10s %10s %6s\n' "$r" "$w" $line
    done
done
echo
echo "medians of $rounds:"
for w in $workers; do
    pps=$(awk -v w="$w" '$1 == w {print $2}' "$work/all" | median)
    cpu=$(awk -v w="$w" '$1 == w {print $3}' "$work/all" | median)
    printf '  --workers %-3s %10s pushes/s %8s CPU µs/push\n' "$w" "$pps" "$cpu"
done
