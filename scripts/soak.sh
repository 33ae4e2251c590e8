#!/usr/bin/env bash
# The soak: order-changes replayed at a fixed rate, looping a short recording pass after pass, against the
# embedded simulator under faults (GOAWAY every 30 s, 2% 503, 0.1% connection resets, latency spikes, dead
# tokens answered 410, and the clock stepped past the provider token's expiry half way), sampled from
# outside every second (resident memory, open descriptors, CPU time, pushes ended from its /metrics), then
# checked:
#   - the report holds every invariant (`apnsbench report --check`): every planned push ends in exactly one
#     class, only retryable answers were retried, attempts = first sends + retries, each 503 the engine
#     resent or ended was answered by the simulator, histograms and timeline against the totals;
#   - nothing due was lost: no push due before the end unsent (run_stopped) or timed out, and the run met
#     its SLO (delivered share of pushes owed >= 80%: the recording's dead tokens and stores without
#     followers are never delivered, 7% of its pushes over a whole pass and 14% of its first 3,500, while
#     its devices are still registering: the 30-s soak replays no more than those);
#   - no growth: over the steady part (after the first fifth of the schedule, before its end), open descriptors
#     and resident memory are judged by their trend, a Theil-Sen slope (the median of the slopes between every
#     pair of samples: a GOAWAY's overlap of old and new connections or a reset's reconnect moves single
#     samples, not that median), held to 0.2 descriptors and --max-rss-slope MiB a minute (default 1.0) plus
#     4 descriptors and 4 MiB over the span (scripts/soak_trend.py); from 5 minutes of steady samples on, CPU
#     per push may rise across the steady part by at most half its median; and the run's own count of
#     descriptors is no higher after than before;
#   - at most one push ended 503 (5 attempts of a 2% fault should almost never all fail);
#   - every fault fired (GOAWAYs, resets, 503s, 410s, the clock step's new provider token).
# Prints the numbers and the samples at start, middle and end as Markdown tables, and writes
# OUT/samples.tsv and OUT/soak.svg (resident memory, descriptors and CPU per push over time).
#
#   scripts/soak.sh [--minutes 10 | --seconds 600] [--rate 100] [--out reports/soak] [--max-rss-slope 1.0]
#                   [--debug] [--skip-build] [--plant-leak descriptors|memory]
#
# --plant-leak tests the check itself: a shim compiled here (cc) and preloaded into the run (LD_PRELOAD) opens
# /dev/null every 2 s, or keeps 512 KiB every second (30 descriptors, 30 MiB a minute), and the soak must fail.
# --debug uses the debug build (the test suite's 30-s variant); by default a release build; APNSBENCH_BIN names
# another binary (the build is then skipped with --skip-build). Exit 0 when every check holds, 1 when one
# fails (named), 64 for a bad flag.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=600 rate=100 out=reports/soak config=release build=1 max_rss_slope=1.0 leak=""
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --minutes)
            case "${2:-}" in ''|*[!0-9]*) echo "soak.sh: --minutes must be a whole number, found '${2:-}'" >&2; exit 64 ;; esac
            seconds=$(( $2 * 60 )); shift 2 ;;
        --max-rss-slope) max_rss_slope="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --debug) config=debug; shift ;;
        --skip-build) build=0; shift ;;
        --plant-leak)
            case "${2:-}" in descriptors|memory) leak="$2" ;; *) echo "soak.sh: --plant-leak takes descriptors or memory, found '${2:-}'" >&2; exit 64 ;; esac
            shift 2 ;;
        -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$seconds" in ''|*[!0-9]*) echo "soak.sh: --seconds must be a whole number, found '$seconds'" >&2; exit 64 ;; esac
case "$rate" in ''|*[!0-9]*) echo "soak.sh: --rate must be a whole number, found '$rate'" >&2; exit 64 ;; esac
[ "$seconds" -ge 20 ] || { echo "soak.sh: --seconds must be at least 20" >&2; exit 64; }
python3 -c "import sys; v=float(sys.argv[1]); sys.exit(0 if v > 0 else 1)" "$max_rss_slope" 2>/dev/null \
    || { echo "soak.sh: --max-rss-slope must be a positive number of MiB a minute, found '$max_rss_slope'" >&2; exit 64; }

scripts/install-deps.sh >&2
if [ "$build" = 1 ]; then
    echo "soak.sh: building apnsbench ($config)" >&2
    # Without debug information, as every script builds it (scripts/run.sh and scripts/test.sh say why).
    swift build -c "$config" -debug-info-format none --product apnsbench >&2
fi
bin="${APNSBENCH_BIN:-$(pwd)/.build/$config/apnsbench}"
[ -x "$bin" ] || { echo "soak.sh: $bin is missing (build it, or drop --skip-build)" >&2; exit 1; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# A recording of about two minutes at the rate (order-changes plans about 3 pushes an event), looped: a long
# soak replays it pass after pass, so state that should be dropped between passes is exercised too.
# The shipped recording (6000 events) grown by `apnsbench scale` to at least that many events.
events=$(( (seconds < 120 ? seconds : 120) * rate / 3 + 2000 ))
"$bin" scale profiles/streams/order-changes.ndjson --profile profiles/order-changes.yaml --factor $(( (events + 5999) / 6000 )) \
    --out "$out/stream.ndjson" --dead-tokens "$out/stream.dead-tokens" 2> "$out/scale.log" || { cat "$out/scale.log" >&2; exit 1; }
goaway=$(( seconds / 3 < 30 ? seconds / 3 : 30 ))
step=$(( seconds / 2 ))
cat > "$out/soak.yaml" <<EOF
# Written by scripts/soak.sh: order-changes at $rate pushes/s for $seconds s under faults.
name: soak
recipe: $(pwd)/profiles/recipes/order-changes.yaml
stream: $out/stream.ndjson
dead_tokens: $out/stream.dead-tokens
push_type: liveactivity
bundle_id: com.example.ordermanager
priority: 10
connections: 2
streams: 100
push_timeout: 30s
retry_attempts: 5
retry_backoff: 250ms
schedule: rate
rate: $rate
duration: ${seconds}s
loop_recording: true
slo_min_delivered: 0.8        # the recording's own dead tokens and stores without followers are not delivered
report_interval: 5s
simulator:
  seed: 1
  faults:
    latency: { lognormal_ms: { p50: 20, p99: 120 } }
    latency_spike: { fraction: 0.002, by: 3s }   # a spike now and then
    goaway_after: ${goaway}s                       # GOAWAY (Shutdown) for each connection this long after it opened
    service_unavailable_fraction: 0.02             # 2% 503 ServiceUnavailable
    connection_reset_fraction: 0.001               # 0.1% of requests: TCP reset, no answer
    clock_step: { after: ${step}s, by: 3700s }   # the clock jumps past the provider token's hour
EOF

echo "soak.sh: running $out/soak.yaml ($seconds s at $rate pushes/s)" >&2
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
preload=()
if [ -n "$leak" ]; then
    # A leak planted from outside the product: a thread started by a preloaded shim's constructor.
    cat > "$out/leak.c" <<'C'
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void *leak(void *kind) {
    for (;;) {
        if (*(const char *)kind == 'd') { sleep(2); (void)open("/dev/null", O_RDONLY); }
        else { sleep(1); char *p = malloc(512 << 10); if (p) memset(p, 1, 512 << 10); }
    }
    return 0;
}
__attribute__((constructor)) static void start(void) {
    const char *kind = getenv("SOAK_PLANTED_LEAK");
    pthread_t t;
    if (kind && *kind && pthread_create(&t, 0, leak, (void *)kind) == 0) pthread_detach(t);
}
C
    cc -shared -fPIC -O1 -o "$out/leak.so" "$out/leak.c" -lpthread || { echo "soak.sh: compiling the leak shim failed" >&2; exit 1; }
    preload=(env LD_PRELOAD="$out/leak.so" SOAK_PLANTED_LEAK="$leak")
    echo "soak.sh: planted a $leak leak ($out/leak.so): this soak must fail" >&2
fi
"${preload[@]}" "$bin" run "$out/soak.yaml" --out "$out/report" --force --metrics-listen "127.0.0.1:$port" > "$out/run.log" 2>&1 &
pid=$!
# From outside, every second while it runs: seconds, resident KiB, open descriptors, CPU ticks (user +
# system), pushes ended so far (the sum of apnsbench_pushes_total on its /metrics; curl where it is installed,
# a lighter process than Python's).
ticks=$(getconf CLK_TCK)
scrape() {
    if command -v curl >/dev/null 2>&1; then
        curl -s --max-time 1 "http://127.0.0.1:$port/metrics" | awk '/^apnsbench_pushes_total/ {s += $NF} END {printf "%d\n", s}'
    else
        python3 - "$port" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=1).read().decode()
print(int(sum(float(l.split()[-1]) for l in text.splitlines() if l.startswith("apnsbench_pushes_total"))))
PY
    fi
}
printf 'epoch\trss_kib\tfds\tcpu_ticks\tpushes\n' > "$out/samples.tsv"
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    n=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l || true)
    cpu=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
    pushes=$(scrape 2>/dev/null || true)
    [ -n "$rss" ] && [ "$n" -gt 0 ] && printf '%s\t%s\t%s\t%s\t%s\n' "$(date +%s.%N)" "$rss" "$n" "$cpu" "${pushes:-0}" >> "$out/samples.tsv"
    sleep 1
done
set +e
wait "$pid"
rc=$?
set -e
tail -n 15 "$out/run.log" >&2
if [ "$rc" != 0 ]; then
    echo "soak.sh: the run exited $rc (see $out/run.log; 99: its SLO was missed)" >&2
    exit 1
fi
# The report's invariants, by the same check report, compare and merge make on every read.
invariants=0
"$bin" report --check "$out/report/report.json" >&2 || invariants=1

exec python3 "$(pwd)/scripts/soak-check.py" "$out/report/report.json" "$out/samples.tsv" "$invariants" "$max_rss_slope" "$ticks" "$out/soak.svg"
