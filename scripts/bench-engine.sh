#!/usr/bin/env bash
# Benchmark of the engine against the transport's ceiling (a measurement, not a test).
#
# Starts `apnsbench simulate --fast` pinned to one core and, pinned to the other, runs
#   1. Benchmarks' engine-vs-reference: rounds alternating the bare libcurl loop driven by
#      curl_multi_perform/poll (what the engine does), the same loop driven by curl_multi_socket_action/epoll,
#      the engine, and the loop with knobs (--knobs): waitfirst=1 waits in curl_multi_poll before refilling
#      the window and seturl=1 sets CURLOPT_URL per push (both as the engine does today), buf/upbuf set
#      CURLOPT_BUFFERSIZE/CURLOPT_UPLOAD_BUFFERSIZE; pushes/s and CPU µs per push, medians and ratios;
#   2. the same with jemalloc preloaded vs glibc malloc, processes alternating;
#   3. h2load with the same connections, streams, headers and body: req/s and CPU µs per request;
# and prints one table. Same server, same connections and streams for all.
#
# With --latency P50,P99 (APNs-like: --latency 40,200), the simulator is the validating one with a
# lognormal answer time instead, and for each point of --points (default "1x1000 4x1000") the script runs
# engine-vs-reference (bare loop poll and epoll, the engine on each drive, rounds interleaved) and h2load
# (same headers, body, connections and streams; its --log-file gives p50/p99), and prints per point:
# pushes/s, CPU µs per push, wake-ups per push and service-time p50/p99 on each side, then the ratios
# against the engine's targets (pushes/s at least 0.95x the bare loop's, CPU per push at most 1.1x its) and h2load.
#
# usage: scripts/bench-engine.sh [--h2c] [--rounds N] [--pushes N] [--connections C] [--streams S]
#                                [--knobs "poll:buf=4096:upbuf=16384 ..."] [--no-jemalloc] [--no-h2load] [--skip-build]
#        scripts/bench-engine.sh --latency 40,200 [--points "1x100 1x1000 4x1000"] [--rounds N] [--pushes N] [--skip-build]
# env:   SERVER_CPU=0 CLIENT_CPU=1, APNSBENCH_BIN (the apnsbench binary; default .build/release/apnsbench)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

h2c=0 rounds=5 pushes=100000 connections=1 streams=100 skip_build=0 jemalloc=1 h2load=1 latency="" points="1x1000 4x1000" pushes_set=0
knobs="poll:waitfirst=1 poll:seturl=1 poll:buf=4096:upbuf=16384 poll:buf=131072:upbuf=131072"
while [ $# -gt 0 ]; do
    case "$1" in
        --h2c) h2c=1 ;;
        --rounds) rounds=$2; shift ;;
        --pushes) pushes=$2; pushes_set=1; shift ;;
        --latency) latency=$2; shift ;;
        --points) points=$2; shift ;;
        --connections) connections=$2; shift ;;
        --streams) streams=$2; shift ;;
        --knobs) knobs=$2; shift ;;
        --no-jemalloc) jemalloc=0 ;;
        --no-h2load) h2load=0 ;;
        --skip-build) skip_build=1 ;;
        -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
        *) echo "bench-engine: unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done
bench=bench-engine
source scripts/lib/bench-common.sh

bench_need "run scripts/install-deps.sh --test" taskset h2load
[ "$skip_build" = 1 ] || bench_build
bench_workdir

if [ -n "$latency" ]; then
    # APNs-like latency: the validating simulator (fast mode answers at once), its demo key signs.
    p50=${latency%,*} p99=${latency#*,}
    [ "$pushes_set" = 1 ] || pushes=30000
    printf 'faults:\n  latency: { lognormal_ms: { p50: %s, p99: %s } }\n' "$p50" "$p99" > "$work/sim.yaml"
    bench_start_simulator simulate --port 0 --threads 1 --config "$work/sim.yaml" --ca-out "$work/ca.pem"
    bench_demo_key
    key=$keyp:$kid:$tid
    echo "simulator: $url (validating, lognormal p50 $p50 ms p99 $p99 ms, pid $sim_pid, cpu $server_cpu); clients on cpu $client_cpu; $pushes" \
        "pushes per run, $rounds rounds" >&2
    echo "other load: $(uptime)" >&2
    modes="poll,epoll,engine:drive=poll,engine:drive=socket-action"
    declare -A P C W L50 L99
    for point in $points; do
        c=${point%x*} m=${point#*x}
        out="$work/evr-$point.out"
        taskset -c "$client_cpu" "$evr" --url "$url" --ca "$work/ca.pem" --key "$key" --connections "$c" --streams "$m" \
            --pushes "$pushes" --warmup $((pushes / 5)) --rounds "$rounds" --modes "$modes" \
            --write-body "$work/body.json" --print-bearer > "$out" 2>&1 || { shown "$out"; echo "bench-engine: engine-vs-reference failed" >&2; exit 1; }
        shown "$out"
        for mode in ${modes//,/ }; do
            num='\([0-9.]*\)'
            read -r P[$point/$mode] C[$point/$mode] W[$point/$mode] L50[$point/$mode] L99[$point/$mode] <<< \
                "$(sed -n "s/^RESULT mode=$mode pps=$num cpu_us=$num wake=$num p50_ms=$num p99_ms=$num$/\1 \2 \3 \4 \5/p" "$out")"
        done
        bench_h2load_push "$work/body.json" "$(sed -n 's/^authorization: //p' "$out")"
        hr=() hc=() h50=() h99=()
        if [ "$h2load" = 1 ]; then
            for r in $(seq "$rounds"); do
                rm -f "$work/h2.log"
                taskset -c "$client_cpu" /usr/bin/time -f 'cpu %U %S' h2load -t 1 -c "$c" -m "$m" -n "$pushes" --log-file "$work/h2.log" \
                    "${h2load_push[@]}" > "$work/h2load.out" 2>&1
                grep -q "status codes: $pushes 2xx" "$work/h2load.out" \
                    || { echo "bench-engine: h2load: not all 2xx" >&2; tail -8 "$work/h2load.out" >&2; exit 1; }
                hr+=("$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$work/h2load.out")")
                hc+=("$(awk -v n="$pushes" '/^cpu /{printf "%.3f", ($2+$3)*1e6/n}' "$work/h2load.out")")
                # --log-file: start (µs since epoch), status, µs until the end of the response.
                read -r a b <<< "$(cut -f3 "$work/h2.log" | sort -n | awk '{v[NR]=$1} END {printf "%.1f %.1f", v[int(NR*0.5)]/1000, v[int(NR*0.99)]/1000}')"
                h50+=("$a"); h99+=("$b")
                echo "h2load $point run $r: ${hr[-1]} req/s, ${hc[-1]} µs CPU/request, p50 $a ms, p99 $b ms" >&2
            done
            P[$point/h2load]=$(median "${hr[@]}"); C[$point/h2load]=$(median "${hc[@]}"); W[$point/h2load]="-"
            L50[$point/h2load]=$(median "${h50[@]}"); L99[$point/h2load]=$(median "${h99[@]}")
        fi
    done
    echo
    echo "APNs-like latency (lognormal p50 $p50 ms, p99 $p99 ms), TLS, validating simulator on cpu $server_cpu, clients on cpu $client_cpu; medians" \
        "of $rounds rounds of $pushes pushes"
    printf '%-7s %-30s %10s %12s %14s %8s %8s\n' "point" "client" "pushes/s" "CPU µs/push" "wake-ups/push" "p50 ms" "p99 ms"
    clients="h2load poll epoll engine:drive=poll engine:drive=socket-action"
    [ "$h2load" = 1 ] || clients=${clients#h2load }
    for point in $points; do
        for k in $clients; do
            label=$k
            case $k in poll|epoll) label="bare libcurl loop ($k)" ;; engine:drive=*) label="engine (${k#engine:drive=})" ;; esac
            printf '%-7s %-30s %10.0f %12.1f %14s %8s %8s\n' "$point" "$label" \
                "${P[$point/$k]}" "${C[$point/$k]}" "${W[$point/$k]}" "${L50[$point/$k]}" "${L99[$point/$k]}"
        done
    done
    echo
    for point in $points; do
        for d in poll socket-action; do
            for ref in poll epoll; do
                echo "$point engine($d)/bare($ref): pushes/s $(ratio "${P[$point/engine:drive=$d]}" "${P[$point/$ref]}") (target >= 0.95), CPU/push" \
                    "$(ratio "${C[$point/engine:drive=$d]}" "${C[$point/$ref]}") (target <= 1.1)"
            done
        done
        if [ "$h2load" = 1 ]; then
            echo "$point vs h2load: bare(poll) pushes/s $(ratio "${P[$point/poll]}" "${P[$point/h2load]}"), bare(epoll)" \
                "$(ratio "${P[$point/epoll]}" "${P[$point/h2load]}"), engine(poll) $(ratio "${P[$point/engine:drive=poll]}" "${P[$point/h2load]}")," \
                "engine(socket-action) $(ratio "${P[$point/engine:drive=socket-action]}" "${P[$point/h2load]}"); CPU/push engine(poll)" \
                "$(ratio "${C[$point/engine:drive=poll]}" "${C[$point/h2load]}")x h2load's"
        fi
    done
    # Each point against the one before it (4x1000 against 1x1000: target >= 1.3, unless h2load shows the
    # simulator bounds both).
    prev=""
    for point in $points; do
        if [ -n "$prev" ]; then
            for d in poll socket-action; do
                echo "engine($d) $point/$prev: pushes/s x$(ratio "${P[$point/engine:drive=$d]}" "${P[$prev/engine:drive=$d]}")"
            done
            if [ "$h2load" = 1 ]; then
                hr_ratio=$(ratio "${P[$point/h2load]}" "${P[$prev/h2load]}")
                echo "h2load $point/$prev: req/s" \
                    "x$hr_ratio$(awk -v r="$hr_ratio" 'BEGIN { if (r + 0 < 1.3) printf " (below 1.3 too: the simulator is the bound)" }')"
            fi
        fi
        prev=$point
    done
    echo "other load at the end: $(uptime)"
    exit 0
fi

# The simulator on the server core; its url: and (TLS) ca: lines.
sim_args=(simulate --fast --port 0 --threads 1)
[ "$h2c" = 1 ] && sim_args+=(--h2c)
bench_start_simulator "${sim_args[@]}" --ca-out "$work/ca.pem"
ca=$(sed -n 's/^ca: //p' "$work/sim.out")
ca_args=(); [ -n "$ca" ] && ca_args=(--ca "$ca")
common=(--url "$url" "${ca_args[@]}" --connections "$connections" --streams "$streams" --pushes "$pushes")
echo "simulator: $url (fast, pid $sim_pid, cpu $server_cpu); clients on cpu $client_cpu; $connections connection(s) x $streams streams, $pushes" \
    "pushes per run" >&2

# engine-vs-reference on the client core; echoes its output to stderr, keeps it in $work/$1.out.
compare() {
    local name=$1; shift
    taskset -c "$client_cpu" env "$@" > "$work/$name.out" 2>&1 || { shown "$work/$name.out"; echo "bench-engine: $name failed" >&2; exit 1; }
    shown "$work/$name.out"
}
result() { sed -n "s/^RESULT mode=$2 pps=\([0-9.]*\) cpu_us=\([0-9.]*\) .*$/\1 \2/p" "$work/$1.out"; }

# 1. Reference poll / epoll / engine / knobs, rounds alternating in one process.
modes="poll,epoll,engine"
for k in $knobs; do modes="$modes,$k"; done
echo "== engine vs reference (glibc malloc), $rounds rounds" >&2
compare main "$evr" "${common[@]}" --rounds "$rounds" --modes "$modes" --write-body "$work/body.json" --print-bearer
bench_h2load_push "$work/body.json" "$(sed -n 's/^authorization: //p' "$work/main.out")"

# 2. jemalloc vs glibc malloc: one process each, alternating, one round per process.
jemalloc_lib=""
if [ "$jemalloc" = 1 ]; then
    jemalloc_lib=$(find /usr/lib -name 'libjemalloc.so.2' 2>/dev/null | head -1)
    if [ -z "$jemalloc_lib" ] && [ "$(id -u)" = 0 ]; then
        echo "bench-engine: installing libjemalloc2" >&2
        apt-get install -y libjemalloc2 >&2 || true
        jemalloc_lib=$(find /usr/lib -name 'libjemalloc.so.2' 2>/dev/null | head -1)
    fi
    [ -n "$jemalloc_lib" ] || echo "bench-engine: no libjemalloc.so.2: skipping jemalloc (apt-get install libjemalloc2)" >&2
fi
if [ -n "$jemalloc_lib" ]; then
    echo "== jemalloc ($jemalloc_lib) vs glibc malloc, $rounds alternating process pairs" >&2
    for r in $(seq "$rounds"); do
        compare "glibc$r" "$evr" "${common[@]}" --rounds 1 --warmup 5000 --modes poll,epoll,engine
        compare "jemalloc$r" LD_PRELOAD="$jemalloc_lib" "$evr" "${common[@]}" --rounds 1 --warmup 5000 --modes poll,epoll,engine
    done
fi

# 3. h2load: same connections, streams, headers and body; CPU from /usr/bin/time.
h2_rate=() h2_cpu=()
if [ "$h2load" = 1 ]; then
    echo "== h2load -c $connections -m $streams -n $pushes, $rounds runs" >&2
    for r in $(seq "$rounds"); do
        taskset -c "$client_cpu" /usr/bin/time -f 'cpu %U %S' h2load -t 1 -c "$connections" -m "$streams" -n "$pushes" \
            "${h2load_push[@]}" > "$work/h2load.out" 2>&1
        grep -q "status codes: $pushes 2xx" "$work/h2load.out" \
            || { echo "bench-engine: h2load: not all 2xx" >&2; tail -8 "$work/h2load.out" >&2; exit 1; }
        rate=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$work/h2load.out")
        cpu=$(awk -v n="$pushes" '/^cpu /{printf "%.3f", ($2+$3)*1e6/n}' "$work/h2load.out")
        echo "h2load run $r: $rate req/s, $cpu µs CPU/request" >&2
        h2_rate+=("$rate"); h2_cpu+=("$cpu")
    done
fi

# The table.
col() { local i=$1; shift; for x in "$@"; do echo "$x" | cut -d' ' -f"$i"; done; }
row() {
    awk -v n="$1" -v p="$2" -v c="$3" \
        'BEGIN { if (c > 0) printf "%-36s %10.0f %12.2f %14.0f\n", n, p, c, 1e6/c; else printf "%-36s %10s %12s %14s\n", n, "-", "-", "-" }'
}

proto=$([ "$h2c" = 1 ] && echo "h2c" || echo "TLS")
echo
echo "engine vs libcurl reference: $proto, $connections connection(s) x $streams streams, $pushes pushes per run, medians of $rounds; server cpu" \
    "$server_cpu, client cpu $client_cpu"
echo "libcurl: $(sed -n 's/^engine-vs-reference: [^ ]* ([^)]*), libcurl \(.*\)$/\1/p' "$work/main.out" | head -1)"
printf '%-36s %10s %12s %14s\n' "client" "pushes/s" "CPU µs/push" "pushes/CPU-s"
declare -A P C
for m in ${modes//,/ }; do
    read -r P[$m] C[$m] <<< "$(result main "$m")"
    label="reference $m"; [ "$m" = engine ] && label="engine (CurlEngine)"
    row "$label" "${P[$m]}" "${C[$m]}"
done
if [ "$h2load" = 1 ]; then
    hp=$(median "${h2_rate[@]}"); hc=$(median "${h2_cpu[@]}")
    row "h2load" "$hp" "$hc"
fi
echo
echo "engine/reference(poll):  pushes/s $(ratio "${P[engine]}" "${P[poll]}") (target >= 0.95)   CPU/push $(ratio "${C[engine]}" "${C[poll]}") (target <= 1.05)"
echo "engine/reference(epoll): pushes/s $(ratio "${P[engine]}" "${P[epoll]}")                   CPU/push $(ratio "${C[engine]}" "${C[epoll]}")"
echo "epoll vs poll (reference): pushes/s x$(ratio "${P[epoll]}" "${P[poll]}")   CPU/push x$(ratio "${C[epoll]}" "${C[poll]}")"
for k in $knobs; do
    base=${k%%:*}
    echo "$k vs $base: pushes/s x$(ratio "${P[$k]}" "${P[$base]}")   CPU/push x$(ratio "${C[$k]}" "${C[$base]}")"
done
if [ "$h2load" = 1 ]; then
    echo "reference(poll)/h2load: pushes/s $(ratio "${P[poll]}" "$hp")   CPU/push $(ratio "${C[poll]}" "$hc");   engine/h2load: pushes/s" \
        "$(ratio "${P[engine]}" "$hp")   CPU/push $(ratio "${C[engine]}" "$hc")"
fi
if [ -n "$jemalloc_lib" ]; then
    for m in poll epoll engine; do
        gp=() gc=() jp=() jc=()
        for r in $(seq "$rounds"); do
            read -r a b <<< "$(result "glibc$r" "$m")"; gp+=("$a"); gc+=("$b")
            read -r a b <<< "$(result "jemalloc$r" "$m")"; jp+=("$a"); jc+=("$b")
        done
        echo "jemalloc vs glibc, $m: pushes/s x$(ratio "$(median "${jp[@]}")" "$(median "${gp[@]}")")   CPU/push" \
            "x$(ratio "$(median "${jc[@]}")" "$(median "${gc[@]}")")   (glibc $(median "${gp[@]}")/s $(median "${gc[@]}") µs, jemalloc" \
            "$(median "${jp[@]}")/s $(median "${jc[@]}") µs)"
    done
fi
