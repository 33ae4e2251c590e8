#!/usr/bin/env bash
# The soak: order-changes replayed at a fixed rate for 10 minutes against the embedded simulator under
# faults (GOAWAY every 30 s, 2% 503, 0.1% connection resets, latency spikes, and the clock stepped past the
# provider token's expiry half way), then checked:
#   - the report holds every invariant (`apnsbench report --check`): every planned push ends in exactly one
#     class, only retryable answers were retried, attempts = first sends + retries, each 503 the engine
#     resent or ended was answered by the simulator, histograms and timeline against the totals;
#   - no file descriptor leaked: the run's own count before and after (report.json openDescriptors), and
#     the process's count sampled from outside every few seconds stays flat;
#   - at most one push ended 503 (5 attempts of a 2% fault should almost never all fail);
#   - every fault fired (GOAWAYs, resets, 503s, the clock step's new provider token).
# Prints the numbers as a Markdown table (summary.md and report.html are in the output folder too).
#
#   scripts/soak.sh [--seconds 600] [--rate 100] [--out reports/soak] [--debug] [--skip-build]
#
# --debug uses the debug build (the test suite's 30-s variant); by default a release build. Exit 0 when every
# check holds, 1 when one fails (named), 64 for a bad flag.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=600 rate=100 out=reports/soak config=release build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --debug) config=debug; shift ;;
        --skip-build) build=0; shift ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$seconds" in ''|*[!0-9]*) echo "soak.sh: --seconds must be a whole number, found '$seconds'" >&2; exit 64 ;; esac
case "$rate" in ''|*[!0-9]*) echo "soak.sh: --rate must be a whole number, found '$rate'" >&2; exit 64 ;; esac
[ "$seconds" -ge 20 ] || { echo "soak.sh: --seconds must be at least 20" >&2; exit 64; }

scripts/install-deps.sh >&2
if [ "$build" = 1 ]; then
    echo "soak.sh: building apnsbench ($config)" >&2
    swift build -c "$config" --product apnsbench >&2
fi
bin="$(pwd)/.build/$config/apnsbench"
[ -x "$bin" ] || { echo "soak.sh: $bin is missing (build it, or drop --skip-build)" >&2; exit 1; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# A recording long enough for the whole soak at the rate (order-changes plans about 3 pushes an event).
events=$(( seconds * rate / 3 + 2000 ))
"$bin" generate order-changes --events "$events" --devices 1000 --stores 40 --seed 11 \
    --out "$out/stream.ndjson" --dead-tokens "$out/stream.dead-tokens" >&2
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
push_timeout_ms: 30000
retry_attempts: 5
retry_backoff: 250ms
schedule: rate
rate: $rate
duration: ${seconds}s
report_interval: 5s
simulator:
  seed: 1
  faults:
    latency: { lognormal_ms: { p50: 20, p99: 120 } }
    latency_spike: { fraction: 0.002, ms: 3000 }   # a spike now and then
    goaway_after_seconds: $goaway                  # GOAWAY (Shutdown) for each connection this long after it opened
    service_unavailable_fraction: 0.02             # 2% 503 ServiceUnavailable
    connection_reset_fraction: 0.001               # 0.1% of requests: TCP reset, no answer
    clock_step: { after_seconds: $step, by_seconds: 3700 }   # the clock jumps past the provider token's hour
EOF

echo "soak.sh: running $out/soak.yaml ($seconds s at $rate pushes/s)" >&2
"$bin" run "$out/soak.yaml" --out "$out" > "$out/run.log" 2>&1 &
pid=$!
# The process's descriptors from outside, every 2 s while it runs.
: > "$out/descriptors.txt"
while kill -0 "$pid" 2>/dev/null; do
    n=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l || true)
    [ "$n" -gt 0 ] && echo "$(date +%s) $n" >> "$out/descriptors.txt"
    sleep 2
done
set +e
wait "$pid"
rc=$?
set -e
tail -n 15 "$out/run.log" >&2
if [ "$rc" != 0 ] && [ "$rc" != 99 ]; then
    echo "soak.sh: the run exited $rc (see $out/run.log)" >&2
    exit 1
fi
# The report's invariants, by the same check report, compare and merge make on every read.
invariants=0
"$bin" report --check "$out/report.json" >&2 || invariants=1

python3 - "$out/report.json" "$out/descriptors.txt" "$invariants" <<'EOF'
import json, sys

report = json.load(open(sys.argv[1]))
samples = [int(l.split()[1]) for l in open(sys.argv[2]) if l.strip()]
p, e, sim = report["pushes"], report["engine"], report.get("simulator") or {}
failures = []

def check(ok, what):
    if not ok:
        failures.append(what)

check(sys.argv[3] == "0", "the report breaks an invariant (apnsbench report --check, above)")
rejected_by = {k: v["count"] for k, v in p["rejected"].items()}
not_sent = sum(p["notSent"].values())

fd = report.get("openDescriptors") or {}
check(fd and fd["atEnd"] == fd["atStart"], f"file descriptors leaked: {fd}")
# Sampled from outside: after the first 10 s (connections and simulator up), the count stays within a band
# set by the connections that may be open at once (2 + reconnects in flight), never growing with time.
steady = samples[5:] or samples
check(max(steady) - min(steady) <= 8, f"descriptor count moved by {max(steady) - min(steady)} while running: {min(steady)}..{max(steady)}")

answered_503 = sim.get("rejected_ServiceUnavailable", 0)
retried_503 = e["retries"].get("ServiceUnavailable", 0)
final_503 = rejected_by.get("ServiceUnavailable", 0)
check(final_503 <= 1, f"{final_503} pushes ended 503 though 5 attempts of a 2% fault should almost never all fail")
first_sends = p["planned"] - not_sent
goaways = sum(v for k, v in sim.items() if k.startswith("goaway"))
check(goaways >= 1, f"no GOAWAY was sent: {sim}")
check(sim.get("connections_reset", 0) >= 1, "no connection was reset")
check(answered_503 >= 1, "no 503 was answered")
check(e["providerTokenSignings"] >= 2, f"no new provider token after the clock step ({e['providerTokenSignings']} signing)")
check(p["failed"] == {} or all(k.startswith("curl_") for k in p["failed"]), f"failed: {p['failed']}")

lat = report["latency"].get("responseTime") or {}
def ms(us):
    return "-" if us is None else f"{us / 1000:.1f} ms"
rows = [
    ("duration", f"{report['durationSeconds']:.0f} s"),
    ("planned / delivered", f"{p['planned']} / {p['delivered']}"),
    ("rejected", json.dumps(rejected_by, sort_keys=True)),
    ("failed / timed out", f"{json.dumps(p['failed'], sort_keys=True)} / {p['timedOut']}"),
    ("not sent", json.dumps(p["notSent"], sort_keys=True)),
    ("attempts (sent)", f"{e['sent']} = {first_sends} first sends + {e['retriesTotal']} retries"),
    ("retries by cause", json.dumps(e["retries"], sort_keys=True)),
    ("503: answered by the simulator / resent / final", f"{answered_503} / {retried_503} / {final_503}"),
    ("GOAWAYs sent", goaways),
    ("connections opened / reconnects / reset by the simulator", f"{e['connectionsOpened']} / {e['reconnects']} / {sim.get('connections_reset', 0)}"),
    ("provider token signings / re-signed after expiry", f"{e['providerTokenSignings']} / {e['providerTokenRefreshes']}"),
    ("stalls given up", e.get("stalls", 0)),
    ("file descriptors at start / end (in-process)", f"{fd.get('atStart')} / {fd.get('atEnd')}"),
    ("file descriptors sampled while running", f"{min(steady)}..{max(steady)} over {len(samples)} samples"),
]
for key in ("p50", "p99", "p999", "max"):
    if key in lat:
        rows.append((f"response time {key}", ms(lat[key])))
print("| soak | value |")
print("| --- | --- |")
for k, v in rows:
    print(f"| {k} | {v} |")
if failures:
    for f in failures:
        print(f"soak.sh: FAILED: {f}", file=sys.stderr)
    sys.exit(1)
print("soak.sh: every check held", file=sys.stderr)
EOF
