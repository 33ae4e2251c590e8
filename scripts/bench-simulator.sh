#!/usr/bin/env bash
# Benchmark of the APNs simulator (not a test): h2load against `apnsbench simulate` in fast mode and in
# validating mode, and against nghttpd with the same settings, the server pinned to one core and
# h2load to the other. Prints each run's req/s, the medians and the ratios
#   validating / fast   and   simulator (fast) / nghttpd.
# Rounds are interleaved so that background load on the machine hits all three alike.
#
# usage: scripts/bench-simulator.sh [ROUNDS=3] [REQUESTS=400000]
# env:   SERVER_CPU=0 CLIENT_CPU=1 CLIENTS=10 STREAMS=100 (h2load -c / -m), SKIP_BUILD=1,
#        VALIDATING_ARGS (extra `simulate` options for the validating runs, e.g. "--environment production"),
#        SCRATCH (SwiftPM scratch path to build in and run from, default .build), BIN (the apnsbench binary to
#        run; default $SCRATCH/release/apnsbench)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
requests=${2:-400000}
server_cpu=${SERVER_CPU:-0}
client_cpu=${CLIENT_CPU:-1}
clients=${CLIENTS:-10}
streams=${STREAMS:-100}

for tool in h2load nghttpd taskset; do
    command -v $tool >/dev/null || { echo "bench-simulator: $tool is missing: run scripts/install-deps.sh --test" >&2; exit 1; }
done
scratch=${SCRATCH:-.build}
[ "${SKIP_BUILD:-0}" = 1 ] || swift build -c release -debug-info-format none --product apnsbench --scratch-path "$scratch" >&2
bin=${BIN:-$scratch/release/apnsbench}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

token=$(python3 -c "print('ab'*32)")
printf '{"aps":{"alert":{"title":"Leave approved","body":"Your leave request was approved."},"sound":"default"}}' > "$work/payload.json"
mkdir -p "$work/docroot/3/device" && : > "$work/docroot/3/device/$token"

# Starts `apnsbench simulate` on the server core; sets url and auth.
start_simulator() {
    taskset -c "$server_cpu" "$bin" simulate --h2c --port 0 --threads 1 --bundle-id com.example.app "$@" > "$work/sim.out" 2>&1 &
    sim_pid=$!
    pids+=("$sim_pid")
    for _ in $(seq 100); do grep -q '^ready' "$work/sim.out" 2>/dev/null && break; sleep 0.1; done
    url=$(sed -n 's/^url: //p' "$work/sim.out")
    auth=$(sed -n 's/^token: //p' "$work/sim.out")
}
stop_simulator() { kill -TERM "$sim_pid"; wait "$sim_pid" 2>/dev/null || true; }

# h2load on the client core; prints req/s and fails unless every request got a 2xx.
load() {
    local out
    out=$(taskset -c "$client_cpu" h2load -t 1 -c "$clients" -m "$streams" -n "$requests" -d "$work/payload.json" \
        -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' -H 'apns-priority: 10' "$@" "$url/3/device/$token" 2>&1)
    echo "$out" | grep -q "status codes: $requests 2xx" || { echo "bench-simulator: not all 2xx:" >&2; echo "$out" | tail -6 >&2; exit 1; }
    echo "$out" | sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p'
}

fast=() validating=() nghttpd=()
# A token for fast mode's requests (fast mode makes no key): take the one a validating run prints.
start_simulator; fast_auth=$auth; stop_simulator
for r in $(seq "$rounds"); do
    # Both modes get the same requests (token included), so the ratio is the server's validation cost.
    start_simulator --fast; fast+=("$(load -H "authorization: $fast_auth")"); stop_simulator
    start_simulator ${VALIDATING_ARGS:-}; validating+=("$(load -H "authorization: $auth")"); fast_auth=$auth; stop_simulator
    taskset -c "$server_cpu" nghttpd --no-tls -n 1 -d "$work/docroot" 0 > "$work/ng.out" 2>&1 &
    ng_pid=$!; pids+=("$ng_pid")
    # nghttpd with port 0 does not print it: take it from the socket table.
    port=""
    for _ in $(seq 50); do
        port=$(ss -ltnp 2>/dev/null | awk -v p="pid=$ng_pid," '$0 ~ p {split($4,a,":"); print a[length(a)]; exit}')
        [ -n "$port" ] && break
        sleep 0.1
    done
    url="http://127.0.0.1:$port"; nghttpd+=("$(load -H "authorization: $fast_auth")"); kill "$ng_pid"; wait "$ng_pid" 2>/dev/null || true
    echo "round $r: fast ${fast[-1]} req/s, validating ${validating[-1]} req/s, nghttpd ${nghttpd[-1]} req/s" >&2
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mf=$(median "${fast[@]}"); mv=$(median "${validating[@]}"); mn=$(median "${nghttpd[@]}")
echo "h2load -t 1 -c $clients -m $streams -n $requests (h2c, POST $(wc -c < "$work/payload.json") B), server on cpu $server_cpu, h2load on cpu" \
    "$client_cpu, $rounds rounds"
echo "median req/s: simulator --fast $mf, simulator validating $mv, nghttpd $mn"
awk -v f="$mf" -v v="$mv" -v n="$mn" \
    'BEGIN { printf "validating/fast %.2f   simulator(fast)/nghttpd %.2f   simulator(validating)/nghttpd %.2f\n", v/f, f/n, v/n }'
