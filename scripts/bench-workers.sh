#!/usr/bin/env bash
# Scaling of `apnsbench run --workers N` (a measurement, not a test).
#
# Runs the profile with each worker count in turn, ROUNDS times interleaved (1, 2, 1, 2, ...), and prints
# per run and as medians: pushes/s (the report's throughput), the process's CPU µs per push (engine threads,
# producer and the embedded simulator together), each thread group's CPU seconds ("engine": the engine or
# worker threads plus the main thread, and with one worker the producing too, which then runs on the engine's
# thread; "producer": the pool's producer thread; "sim": the simulator's event loop) and "others": the CPU
# seconds the rest of the machine used during the run, so that a run slowed by other work shows.
# --idle P waits before each run until the machine was at least P% idle over 2 s (up to 10 minutes), and
# the medians then count only runs during which the others used under 5% of the machine.
#
# usage: scripts/bench-workers.sh [--bin PATH] [--rounds N] [--workers "1 2"] [--idle P] PROFILE [run options...]
# e.g.   scripts/bench-workers.sh --rounds 5 --idle 90 /tmp/oc-big.yaml --fast-simulator
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.build/release/apnsbench rounds=3 workers="1 2" idle=0
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --workers) workers=$2; shift ;;
        --idle) idle=$2; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) break ;;
    esac
    shift
done
[ $# -ge 1 ] || { echo "bench-workers: give a profile" >&2; exit 64; }
profile=$1; shift
[ -x "$bin" ] || { echo "bench-workers: $bin is missing: swift build -c release -debug-info-format none --product apnsbench" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Busy and total jiffies of the whole machine so far.
machine() { awk '/^cpu / {busy = $2 + $3 + $4 + $7 + $8; total = busy + $5 + $6; print busy, total}' /proc/stat; }

# Waits until the machine was at least $idle% idle over 2 s (gives up after 10 minutes).
wait_idle() {
    [ "$idle" -gt 0 ] || return 0
    local start b0 t0 b1 t1
    start=$(date +%s)
    while true; do
        read -r b0 t0 <<< "$(machine)"; sleep 2; read -r b1 t1 <<< "$(machine)"
        awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) -v p="$idle" 'BEGIN { exit !(t > 0 && 100 * (1 - b / t) >= p) }' && return 0
        [ $(( $(date +%s) - start )) -lt 600 ] || { echo "bench-workers: the machine stayed busy; running anyway" >&2; return 0; }
    done
}

# One run: prints "pushes/s cpu_us_per_push engine_s producer_s simulator_s others_s wall_s".
one() {
    local w=$1; shift
    wait_idle
    local b0 t0 b1 t1 w0 w1
    read -r b0 t0 <<< "$(machine)"
    w0=$(date +%s.%N)
    "$bin" run "$profile" --workers "$w" --out "$work/out" --force "$@" > "$work/log" 2>&1 &
    local pid=$!
    # Per-thread CPU from /proc (utime + stime of each task; thread names have no spaces), sampled every
    # 0.25 s by one awk until the process exits; a thread's last sample counts, so threads that end early
    # keep theirs and up to 0.25 s of a thread's CPU may be missed.
    : > "$work/samples"
    while kill -0 "$pid" 2>/dev/null; do
        awk '{ gsub(/[()]/, "", $2); print FILENAME, $2, $14 + $15 }' /proc/"$pid"/task/*/stat >> "$work/samples" 2>/dev/null || true
        sleep 0.25
    done
    wait "$pid" || { cat "$work/log" >&2; echo "bench-workers: run failed" >&2; exit 1; }
    read -r b1 t1 <<< "$(machine)"
    w1=$(date +%s.%N)
    local pps planned
    pps=$(sed -n 's/^  throughput \([0-9.]*\) pushes\/s/\1/p' "$work/log")
    planned=$(python3 -c "import json; r=json.load(open('$work/out/report.json')); print(r['throughput']['sent'])")
    awk -v pps="$pps" -v sent="$planned" -v busy=$((b1 - b0)) -v wall="$(echo "$w1 - $w0" | bc)" -v tck="$(getconf CLK_TCK)" '
        { name[$1] = $2; cpu[$1] = $3 / tck }
        END { for (t in cpu) { s = cpu[t]; total += s
                  if (name[t] ~ /^NIO-/) sim += s; else if (name[t] == "apnsbench-prod") prod += s; else eng += s }
              others = busy / tck - total; if (others < 0) others = 0
              printf "%.0f %.1f %.2f %.2f %.2f %.2f %.1f\n", pps, total * 1e6 / sent, eng, prod, sim, others, wall }' "$work/samples"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "bench-workers: $bin $profile $*, $rounds rounds, workers: $workers; $(nproc) CPUs shared by the embedded simulator"
printf '%-6s %-8s %10s %12s %10s %10s %10s %10s %8s\n' round workers pushes/s "CPU µs/push" "engine s" "producer s" "sim s" "others s" "wall s"
for r in $(seq "$rounds"); do
    for w in $workers; do
        line=$(one "$w" "$@")
        echo "$w $line" >> "$work/all"
        printf '%-6s %-8s %10s %12s %10s %10s %10s %10s %8s\n' "$r" "$w" $line
    done
done
echo
# A run is quiet when the others used under 5% of the machine's CPU time during it.
n=$(nproc)
echo "medians of $rounds:"
for w in $workers; do
    pps=$(awk -v w="$w" '$1 == w {print $2}' "$work/all" | median)
    cpu=$(awk -v w="$w" '$1 == w {print $3}' "$work/all" | median)
    qn=$(awk -v w="$w" -v n="$n" '$1 == w && $7 < 0.05 * n * $8 {q++} END {print q + 0}' "$work/all")
    qpps=$( (awk -v w="$w" -v n="$n" '$1 == w && $7 < 0.05 * n * $8 {print $2}' "$work/all"; true) | median)
    printf '  --workers %-3s %10s pushes/s %8s CPU µs/push; quiet runs (others < 5%%): %s, median %s pushes/s\n' "$w" "$pps" "$cpu" "$qn" "$qpps"
done
