# The parts scripts/bench-engine.sh and scripts/bench-peers.sh share, sourced by both once they have read
# their arguments: the two cores, the release build, the scratch folder and its cleanup, the simulator
# pinned to its core, the push h2load sends, medians and ratios. The sourcing script has cd'ed to the
# repository's root and sets `bench` (its name, the prefix of its messages).
#
# env: SERVER_CPU=0 CLIENT_CPU=1, APNSBENCH_BIN (the apnsbench binary; default .build/release/apnsbench)

root=$PWD
server_cpu=${SERVER_CPU:-0}
client_cpu=${CLIENT_CPU:-1}
bin=${APNSBENCH_BIN:-$root/.build/release/apnsbench}
evr=$root/Benchmarks/.build/release/engine-vs-reference

# Exits, saying how to get it, when a tool is not on PATH.
bench_need() {  # HINT TOOL...
    local hint=$1 tool; shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$bench: $tool is missing: $hint" >&2; exit 1; }
    done
}

# apnsbench and Benchmarks' engine-vs-reference, release (no debug info, as scripts/run.sh builds them).
bench_build() {
    swift build -c release -debug-info-format none --product apnsbench >&2
    (cd Benchmarks && swift build -c release --product engine-vs-reference) >&2
}

# `work`, a scratch folder removed on exit, with the simulator (if one was started) stopped first.
bench_workdir() {
    work=$(mktemp -d)
    sim_pid=""
    trap bench_cleanup EXIT
}
bench_cleanup() { [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }

# `apnsbench ARGS...` pinned to the server core, its output in $work/sim.out; waits for its `ready` line
# (10 s at most), then sets `sim_pid` and `url`.
bench_start_simulator() {  # ARGS...
    taskset -c "$server_cpu" "$bin" "$@" > "$work/sim.out" 2>&1 &
    sim_pid=$!
    for _ in $(seq 100); do grep -q '^ready' "$work/sim.out" 2>/dev/null && break; sleep 0.1; done
    grep -q '^ready' "$work/sim.out" || { echo "$bench: the simulator did not start:" >&2; cat "$work/sim.out" >&2; exit 1; }
    url=$(sed -n 's/^url: //p' "$work/sim.out")
}

# The simulator's demo key (validating mode prints it): `keyp` (the .p8's path), `kid`, `tid`.
bench_demo_key() {
    read -r keyp kid tid <<< "$(sed -n 's/^demo key: \([^ ]*\) key id \([^ ]*\) team id \([^ ]*\)$/\1 \2 \3/p' "$work/sim.out")"
}

# A client's output, shown with its provider token (kept for h2load's header) left out: no full JWT is printed.
shown() { grep -v '^authorization: ' "$1" >&2 || true; }

# `h2load_push`: h2load's arguments for the push every client sends (the body engine-vs-reference wrote,
# APNs' headers, one device token), with the whole `authorization` value given.
bench_h2load_push() {  # BODY AUTHORIZATION
    h2load_push=(-d "$1" -H 'apns-push-type: alert' -H 'apns-topic: com.example.app' -H 'apns-priority: 10'
        -H "authorization: $2" -H 'content-type: application/json' "$url/3/device/$(printf 'ab%.0s' $(seq 32))")
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR==0) print 0; else print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a/b; else printf "-" }'; }
