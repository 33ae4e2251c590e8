#!/usr/bin/env bash
# The scale run: the shipped order-changes recording (6000 events, 300 devices) grown by `apnsbench scale` to
# about 1M and 5M events (50,100 and 250,200 devices), replayed against the embedded simulator, with peak RSS
# (from /usr/bin/time) and the achieved rate of each run.
# Streaming means peak RSS should not grow with the stream's length.
#
# usage: scripts/scale-run.sh [EVENTS...]        (default: 1000000 5000000)
# env:   RUN_ARGS  extra `apnsbench run` options, e.g. "--fast-simulator --coalesce 60s --workers 2"
#        WORK      folder for the streams and reports (default /tmp/apnsbench-scale)
#        SKIP_BUILD=1
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 1000000 5000000
work=${WORK:-/tmp/apnsbench-scale}
mkdir -p "$work"
[ "${SKIP_BUILD:-0}" = 1 ] || swift build -c release -debug-info-format none --product apnsbench >&2
bin=.build/release/apnsbench

for events in "$@"; do
    factor=$(( (events + 5999) / 6000 ))
    stream="$work/order-changes-x$factor.ndjson"
    if [ ! -s "$stream" ]; then
        echo "scale-run: scaling order-changes $factor times ($((factor * 6000)) events)" >&2
        "$bin" scale profiles/streams/order-changes.ndjson --profile profiles/order-changes.yaml --factor "$factor" \
            --out "$stream.tmp" --dead-tokens "$work/order-changes-x$factor.dead-tokens" 2> "$work/scale.log" \
            || { cat "$work/scale.log" >&2; exit 1; }
        mv "$stream.tmp" "$stream"
    fi
    profile="$work/order-changes-$events.yaml"
    cat > "$profile" <<EOF
name: order-changes-scale-$events
recipe: $(pwd)/profiles/recipes/order-changes.yaml
stream: $stream
dead_tokens: $work/order-changes-x$factor.dead-tokens
push_type: liveactivity
bundle_id: com.example.ordermanager
priority: 10
connections: 2
streams: 100
EOF
    out="$work/report-$events"
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$work/time-$events.txt" "$bin" run "$profile" --out "$out" --force ${RUN_ARGS:-} | grep -v '^ *[0-9.]* s  sent' || true
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time-$events.txt")
    python3 - "$out/report.json" "$((factor * 6000))" "$rss" "$(wc -c < "$stream")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); p = r["pushes"]
print(f"scale-run: {int(sys.argv[2]):,} events ({int(sys.argv[4]) / 1e6:.0f} MB stream): events read {r['events']['read']:,}, "
      f"pushes planned {p['planned']:,}, delivered {p['delivered']:,}, rejected {sum(v['count'] for v in p['rejected'].values()):,}, "
      f"not sent {sum(p['notSent'].values()):,} {p['notSent']}, balanced {p['balanced']}; "
      f"{r['durationSeconds']:.0f} s, {r['throughput']['pushesPerSecond']:.0f} pushes/s; peak RSS {int(sys.argv[3]) / 1024:.1f} MB")
PY
done
