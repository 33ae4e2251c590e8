#!/usr/bin/env bash
# The whole `apnsbench run` on its default settings beside its peers, on one simulator (a measurement, not a test).
#
# Starts `apnsbench simulate` (TLS, validating; --latency P50,P99 gives it the lognormal answer time, default
# 40,200; --latency 0 answers at once) pinned to one core, and on the other runs, for each point CxS of --points
# (closed loop, C connections x S streams):
#   - h2load -c C -m S;
#   - the bare libcurl loops (poll, epoll) of Benchmarks' engine-vs-reference;
#   - the Go peer (shared/anchors/gopeer: golang.org/x/net/http2, one connection a process, so C processes);
#   - `apnsbench run profiles/order-changes.yaml --closed-loop --connections C --streams S`, default settings;
# and for each rate of --rates (open loop, 1 connection x 1000 streams): the Go peer paced and
# `apnsbench run --rate R`. CPU per push is the whole process's (user + system, /usr/bin/time) over the pushes
# it sent; the medians of --rounds runs, and the ratios the targets are set on (CPU per push against the Go
# peer's: at most 1.15x closed loop, 1.25x paced).
# --counts adds, per rate, one more paced run of each under `perf stat`: system calls, reads, writes, polls,
# epoll waits and context switches per push (counts, steady where times are not).
# --compare BIN (repeatable) runs another apnsbench binary (a build before a change) in every round beside the
# default one, on the same simulator, and prints its figures and the default run's ratios against it.
#
# usage: scripts/bench-peers.sh [--latency P50,P99|0] [--points "1x100 1x1000 4x1000 8x500"] [--rates "2000 5000"]
#                               [--rounds N] [--seconds S] [--counts] [--compare BIN]... [--skip-build]
# env:   SERVER_CPU=0 CLIENT_CPU=1, APNSBENCH_BIN, GOPEER (a built gopeer; default: built into .build-gopeer/)
set -euo pipefail
cd "$(dirname "$0")/.."
latency=40,200 points="1x100 1x1000 4x1000 8x500" rates="2000 5000" rounds=5 seconds=10 skip_build=0 counts=0
compare=()
while [ $# -gt 0 ]; do
    case "$1" in
        --latency) latency=$2; shift ;;
        --points) points=$2; shift ;;
        --rates) rates=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --skip-build) skip_build=1 ;;
        --counts) counts=1 ;;
        --compare) [ -x "$2" ] || { echo "bench-peers: --compare '$2' is not an executable" >&2; exit 64; }
            compare+=("$2"); shift ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-peers: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
    shift
done
bench=bench-peers
source scripts/lib/bench-common.sh
say() { printf 'bench-peers: %s\n' "$*" >&2; }
bench_need "apt-get install nghttp2-client golang-go golang-golang-x-net-dev" taskset h2load go
[ "$counts" = 0 ] || bench_need "apt-get install linux-perf" perf
[ "$skip_build" = 1 ] || bench_build
gopeer=${GOPEER:-$root/.build-gopeer/gopeer}
if [ ! -x "$gopeer" ]; then
    mkdir -p "$(dirname "$gopeer")"
    (cd ../shared/anchors/gopeer && GO111MODULE=off GOPATH=/usr/share/gocode go build -o "$gopeer" main.go) >&2
fi

bench_workdir
if [ "$latency" = 0 ]; then : > "$work/sim.yaml"; else
    printf 'faults:\n  latency: { lognormal_ms: { p50: %s, p99: %s } }\n' "${latency%,*}" "${latency#*,}" > "$work/sim.yaml"
fi
bench_start_simulator simulate --port 0 --threads 1 --config "$work/sim.yaml" --ca-out "$work/ca.pem"
bench_demo_key
# The Go peer's and h2load's provider token: engine-vs-reference signs one with the demo key (never printed).
"$evr" --url "$url" --ca "$work/ca.pem" --key "$keyp:$kid:$tid" --connections 1 --streams 10 --pushes 10 --warmup 0 --rounds 1 \
    --modes poll --write-body "$work/body.json" --print-bearer > "$work/probe.out" 2>&1 || { shown "$work/probe.out"; exit 1; }
bearer=$(sed -n 's/^authorization: bearer //p' "$work/probe.out")
bench_h2load_push "$work/body.json" "bearer $bearer"
say "simulator $url (latency ${latency} ms, cpu $server_cpu), clients on cpu $client_cpu, $rounds rounds; load: $(uptime)"

declare -A P C K
# One timed client run: "pushes/s CPU-µs/push", from its own count of pushes and /usr/bin/time.
# What runs a client: `wrap` (empty, or `perf stat ... --` for --counts) then the client.
wrap=()
timed() { taskset -c "$client_cpu" /usr/bin/time -f 'cpu %U %S wall %e' "${wrap[@]}" "$@" > "$work/client.out" 2>&1; }
events=raw_syscalls:sys_enter,context-switches,syscalls:sys_enter_read,syscalls:sys_enter_recvfrom,syscalls:sys_enter_write
events+=,syscalls:sys_enter_sendto,syscalls:sys_enter_poll,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait
# "LABEL: per push ..." from perf stat's CSV over N pushes.
per_push() {  # LABEL N
    awk -F, -v label="$1" -v n="$2" '$3 != "" { v[$3] = $1 } END {
        e = "syscalls:sys_enter_"
        printf "%s: per push %.2f system calls (reads %.2f, writes %.2f, poll %.2f, epoll waits %.2f), %.2f context switches\n", label,
            v["raw_syscalls:sys_enter"] / n, (v[e "read"] + v[e "recvfrom"]) / n, (v[e "write"] + v[e "sendto"]) / n,
            v[e "poll"] / n, (v[e "epoll_wait"] + v[e "epoll_pwait"]) / n, v["context-switches"] / n }' "$work/perf.csv"
}
cpu_of() { awk '/^cpu /{print $2+$3}' "$work/client.out"; }
wall_of() { awk '/^cpu /{print $5}' "$work/client.out"; }

# The Go peer: C processes of S in flight each, TOTAL/C pushes each (RATE/C each when paced).
go_run() {  # C S TOTAL [RATE]
    local c=$1 s=$2 total=$3 rate=${4:-} each=$(( $3 / $1 ))
    local per_rate=""; [ -n "$rate" ] && per_rate=$(( rate / c ))
    timed env SSL_CERT_FILE="$work/ca.pem" BEARER="$bearer" \
        bash -c 'for i in $(seq '"$c"'); do "$0" "$1" '"$each"' '"$s"' '"$per_rate"' & done; wait' "$gopeer" "$url"
    local ok; ok=$(grep -o 'ok=[0-9]*' "$work/client.out" | awk -F= '{s+=$2} END {print s+0}')
    [ "$ok" -gt 0 ] || { say "gopeer sent nothing:"; cat "$work/client.out" >&2; exit 1; }
    awk -v n="$ok" -v cpu="$(cpu_of)" -v wall="$(wall_of)" 'BEGIN { printf "%.0f %.1f", n / wall, cpu * 1e6 / n }'
}
# apnsbench run, default settings but the schedule, connections and streams: its report's sent count.
run_run() {  # C S schedule-flags...
    run_with "$bin" "$@"
}
run_with() {  # BIN C S schedule-flags...
    local exe=$1 c=$2 s=$3; shift 3
    rm -rf "$work/run"
    timed "$exe" run profiles/order-changes.yaml --target "$url" --ca-cert "$work/ca.pem" --key-path "$keyp" --key-id "$kid" --team-id "$tid" \
        --connections "$c" --streams "$s" --loop --duration "${seconds}s" --quiet --out "$work/run" "$@" || true
    [ -f "$work/run/report.json" ] || { say "apnsbench run wrote no report:"; cat "$work/client.out" >&2; exit 1; }
    python3 - "$work/run/report.json" "$(cpu_of)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); sent = r["engine"]["sent"]
print("%.0f %.1f" % (r["throughput"]["pushesPerSecond"], float(sys.argv[2]) * 1e6 / max(1, sent)))
PY
}

# --compare: a row per other binary (KEY LABEL), its CPU per push's range over the rounds after it.
compare_rows() {
    local i
    for i in "${!compare[@]}"; do
        printf '%-11s %-28s %10.0f %12.1f  (rounds %s)\n' "$2" "compared: $(basename "${compare[$i]}")" "${P[$1/cmp$i]}" "${C[$1/cmp$i]}" \
            "$(printf '%s\n' ${CC[$1/cmp$i]} | sort -g | tr '\n' ' ' | sed 's/ $//')"
    done
}
# The default run's ratios against each compared binary (KEY LABEL).
compare_ratios() {
    local i
    for i in "${!compare[@]}"; do
        echo "$2: run/$(basename "${compare[$i]}") CPU/push $(ratio "${C[$1/run]}" "${C[$1/cmp$i]}")," \
            "pushes/s $(ratio "${P[$1/run]}" "${P[$1/cmp$i]}"); $(basename "${compare[$i]}")/Go CPU/push $(ratio "${C[$1/cmp$i]}" "${C[$1/go]}")"
    done
}
# --compare: each other binary's run in this round (KEY C S schedule-flags...), kept as lists until their medians.
declare -A CP CC
compare_round() {
    local key=$1 i a b; shift
    for i in "${!compare[@]}"; do
        read -r a b <<< "$(run_with "${compare[$i]}" "$@")"
        CP[$key/cmp$i]+="$a " CC[$key/cmp$i]+="$b "
        say "$key round $r: ${compare[$i]} $a/s $b µs"
    done
}
compare_medians() {  # KEY
    local i
    for i in "${!compare[@]}"; do
        # shellcheck disable=SC2086
        P[$1/cmp$i]=$(median ${CP[$1/cmp$i]}) C[$1/cmp$i]=$(median ${CC[$1/cmp$i]})
    done
}

for point in $points; do
    c=${point%x*} s=${point#*x}
    pushes=$(( c * s * 30 ))
    # The bare loops, interleaved rounds in one process.
    # The bare epoll loop leaves some pushes unanswered on 4 and 8 connections (hundreds in 120 000 with no
    # latency; the engine's socket-action drive does not): they time out after 5 s and are counted and
    # printed, not fatal, up to 5 % of a run; that loop's figures there are then slower than its best.
    taskset -c "$client_cpu" "$evr" --url "$url" --ca "$work/ca.pem" --key "$keyp:$kid:$tid" --connections "$c" --streams "$s" \
        --pushes "$pushes" --warmup $((pushes / 5)) --rounds "$rounds" --modes poll,epoll --push-timeout-ms 5000 --max-failed $((pushes / 20)) \
        > "$work/evr.out" 2>&1 \
        || { shown "$work/evr.out"; exit 1; }
    grep 'pushes failed' "$work/evr.out" | sed "s/^/bench-peers: $point: /" >&2 || true
    for mode in poll epoll; do
        read -r P[$point/$mode] C[$point/$mode] <<< "$(sed -n "s/^RESULT mode=$mode pps=\([0-9.]*\) cpu_us=\([0-9.]*\) .*/\1 \2/p" "$work/evr.out")"
    done
    hp=() hc=() gp=() gc=() ap=() ac=()
    for r in $(seq "$rounds"); do
        timed h2load -t 1 -c "$c" -m "$s" -n "$pushes" "${h2load_push[@]}"
        hp+=("$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$work/client.out")")
        hc+=("$(awk -v n="$pushes" '/^cpu /{printf "%.1f", ($2+$3)*1e6/n}' "$work/client.out")")
        read -r a b <<< "$(go_run "$c" "$s" "$pushes")"; gp+=("$a"); gc+=("$b")
        read -r a b <<< "$(run_run "$c" "$s" --closed-loop)"; ap+=("$a"); ac+=("$b")
        say "$point round $r: h2load ${hp[-1]}/s ${hc[-1]} µs, go ${gp[-1]}/s ${gc[-1]} µs, apnsbench ${ap[-1]}/s ${ac[-1]} µs"
        compare_round "$point" "$c" "$s" --closed-loop
    done
    compare_medians "$point"
    P[$point/h2load]=$(median "${hp[@]}") C[$point/h2load]=$(median "${hc[@]}")
    P[$point/go]=$(median "${gp[@]}") C[$point/go]=$(median "${gc[@]}")
    P[$point/run]=$(median "${ap[@]}") C[$point/run]=$(median "${ac[@]}")
done
for rate in $rates; do
    gp=() gc=() ap=() ac=()
    for r in $(seq "$rounds"); do
        read -r a b <<< "$(go_run 1 1000 $(( rate * seconds )) "$rate")"; gp+=("$a"); gc+=("$b")
        read -r a b <<< "$(run_run 1 1000 --rate "$rate")"; ap+=("$a"); ac+=("$b")
        say "paced $rate/s round $r: go ${gp[-1]}/s ${gc[-1]} µs, apnsbench ${ap[-1]}/s ${ac[-1]} µs"
        compare_round "paced$rate" 1 1000 --rate "$rate"
    done
    compare_medians "paced$rate"
    P[paced$rate/go]=$(median "${gp[@]}") C[paced$rate/go]=$(median "${gc[@]}")
    P[paced$rate/run]=$(median "${ap[@]}") C[paced$rate/run]=$(median "${ac[@]}")
    if [ "$counts" = 1 ]; then
        wrap=(perf stat -x, -o "$work/perf.csv" -e "$events" --)
        go_run 1 1000 $(( rate * seconds )) "$rate" > /dev/null
        K[paced$rate/go]=$(per_push "Go peer" "$(grep -o 'ok=[0-9]*' "$work/client.out" | awk -F= '{s+=$2} END {print s+0}')")
        run_run 1 1000 --rate "$rate" > /dev/null
        K[paced$rate/run]=$(per_push "apnsbench run" \
            "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["engine"]["sent"])' "$work/run/report.json")")
        wrap=()
    fi
done

echo
echo "latency $latency ms (lognormal p50,p99; 0: at once), TLS, validating simulator on cpu $server_cpu, clients on cpu $client_cpu; medians of $rounds rounds"
printf '%-11s %-28s %10s %12s\n' "point" "client" "pushes/s" "CPU µs/push"
for point in $points; do
    for k in h2load poll epoll go run; do
        case $k in
            poll|epoll) label="bare libcurl loop ($k)" ;;
            go) label="Go peer (x/net/http2)" ;;
            run) label="apnsbench run (defaults)" ;;
            *) label=$k ;;
        esac
        printf '%-11s %-28s %10.0f %12.1f\n' "$point" "$label" "${P[$point/$k]}" "${C[$point/$k]}"
    done
    compare_rows "$point" "$point"
done
for rate in $rates; do
    for k in go run; do
        label=$([ $k = go ] && echo "Go peer (x/net/http2)" || echo "apnsbench run (defaults)")
        printf '%-11s %-28s %10.0f %12.1f\n' "paced $rate" "$label" "${P[paced$rate/$k]}" "${C[paced$rate/$k]}"
    done
    compare_rows "paced$rate" "paced $rate"
done
echo
met() {
    awk -v r="$1" -v t="$2" -v d="$3" \
        'BEGIN { if (r == "-") print "-"; else if ((d == "min" && r + 0 >= t) || (d == "max" && r + 0 <= t)) print "met"; else print "NOT met" }'
}
for point in $points; do
    best=poll; awk -v a="${P[$point/epoll]}" -v b="${P[$point/poll]}" 'BEGIN { exit !(a > b) }' && best=epoll
    pr=$(ratio "${P[$point/run]}" "${P[$point/$best]}") cr=$(ratio "${C[$point/run]}" "${C[$point/$best]}")
    gr=$(ratio "${C[$point/run]}" "${C[$point/go]}")
    echo "$point: run/bare($best) pushes/s $pr ($(met "$pr" 1.0 min) >= 1.0), CPU/push $cr ($(met "$cr" 1.05 max) <= 1.05); run/Go CPU/push $gr" \
        "($(met "$gr" 1.15 max) <= 1.15), pushes/s $(ratio "${P[$point/run]}" "${P[$point/go]}")"
    compare_ratios "$point" "$point"
done
for rate in $rates; do
    gr=$(ratio "${C[paced$rate/run]}" "${C[paced$rate/go]}")
    echo "paced $rate/s: run/Go CPU/push $gr ($(met "$gr" 1.25 max) <= 1.25), pushes/s $(ratio "${P[paced$rate/run]}" "${P[paced$rate/go]}")"
    compare_ratios "paced$rate" "paced $rate/s"
done
if [ "$counts" = 1 ]; then
    echo
    for rate in $rates; do echo "paced $rate/s, ${K[paced$rate/go]}"; echo "paced $rate/s, ${K[paced$rate/run]}"; done
fi
echo "load at the end: $(uptime)"
