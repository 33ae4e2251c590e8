#!/usr/bin/env bash
# report.html of a run of at least 1M pushes: its size, how long apnsbench takes to render it, and how long
# headless Chromium takes to load it. A measurement, not a test (the targets: under 2 MB, loads in
# under 2 s); times on a shared machine move with its load, so nothing here fails on a time.
#
# A real run, not a synthesized report: `apnsbench scale` grows the shipped order-changes recording (6000
# events) to about --events events, whose fan-out plans over a million pushes, and `apnsbench run` replays it closed loop against the embedded simulator in
# fast mode (release build), so the page is drawn from the real histograms, timeline and counters of a
# 1M-push run. Closed loop on 2 cores that run lasts a few minutes, so its timeline is short; --rate R paces
# it instead (--rate 300 stretches 1M pushes to about an hour). The size bound of a one-hour timeline is
# also checked, without a browser, by HtmlReportTests.testOneHourTimelineIsDownsampledUnderTwoMegabytes.
#
# Load time, two ways, medians of ROUNDS alternating runs: the wall time of `chromium --headless --dump-dom`
# on the page minus the same on an empty page (chromium's own start-up and exit), and inside the page, from
# navigation start to the load event with layout forced (performance.now(), read from a copy of the page with
# one more inline script). The dumped DOM must show that the page's script ran (data-ready="1") and the log
# must hold no console line.
#
# usage: scripts/bench-report-html.sh [--bin PATH] [--events N] [--rounds N] [--rate R] [--keep DIR] [--report REPORT.json]
#                                     [--stretch SECONDS]
#   --report: measure the report.html of an existing report.json instead of running (it is rendered again).
#   --stretch: also measure the run's report with its timeline repeated to SECONDS one-second intervals (each
#              a real interval of the run, histogram included): the page of an hour-long run at this rate.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.build/release/apnsbench events=400000 rounds=5 rate="" keep="" report="" stretch=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift ;;
        --events) events=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --rate) rate=$2; shift ;;
        --keep) keep=$2; shift ;;
        --report) report=$2; shift ;;
        --stretch) stretch=$2; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "bench-report-html: unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done
[ -x "$bin" ] || { echo "bench-report-html: $bin is missing: swift build -c release -debug-info-format none --product apnsbench" >&2; exit 1; }
command -v chromium >/dev/null 2>&1 || { echo "bench-report-html: chromium is missing: scripts/install-deps.sh --test" >&2; exit 1; }
if [ -n "$keep" ]; then work=$keep; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
repo=$(pwd)
say() { printf 'bench-report-html: %s\n' "$*" >&2; }
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

if [ -z "$report" ]; then
    factor=$(( (events + 5999) / 6000 ))
    say "scaling order-changes $factor times: $((factor * 6000)) events"
    "$bin" scale profiles/streams/order-changes.ndjson --profile profiles/order-changes.yaml --factor "$factor" \
        --out "$work/s.ndjson" --dead-tokens "$work/s.dead" 2> "$work/scale.log" || { cat "$work/scale.log" >&2; exit 1; }
    cat > "$work/p.yaml" <<YAML
name: order-changes-1m
description: scripts/bench-report-html.sh, $((factor * 6000)) order-changes events fanned out
recipe: $repo/profiles/recipes/order-changes.yaml
stream: $work/s.ndjson
dead_tokens: $work/s.dead
bundle_id: com.example.ordermanager
push_type: liveactivity
connections: 2
streams: 200
slo_p99: 1s
slo_min_delivered: 0.85
YAML
    schedule=(--closed-loop)
    [ -n "$rate" ] && schedule=(--rate "$rate")
    say "running it against the embedded simulator (fast mode, ${schedule[*]})"
    t0=$(now)
    "$bin" run "$work/p.yaml" --fast-simulator "${schedule[@]}" --out "$work/run" --force > "$work/run.log" 2>&1 || {
        status=$?; tail -20 "$work/run.log" >&2; [ $status = 99 ] || exit $status; }
    run_ms=$(ms "$t0" "$(now)")
    report=$work/run/report.json
fi

echo '<!DOCTYPE html><html><head><title>empty</title></head><body></body></html>' > "$work/empty.html"
load() { # page name -> ms
    local t0 t1
    t0=$(now)
    timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --user-data-dir="$work/chromium-profile" --dump-dom "file://$1" > "$work/$2.dom" 2> "$work/$2.err"
    t1=$(now)
    if grep -q -e ':CONSOLE' -e 'Uncaught' "$work/$2.err"; then say "console lines loading $1:"; grep -e ':CONSOLE' -e 'Uncaught' "$work/$2.err" >&2; exit 1; fi
    ms "$t0" "$t1"
}
measure() { # REPORT.json NAME
    local report=$1 page=$work/$2.html t0
    render=()
    for _ in 1 2 3; do
        t0=$(now)
        "$bin" report "$report" --format html --out "$page"
        render+=("$(ms "$t0" "$(now)")")
    done
    render_ms=$(printf '%s\n' "${render[@]}" | median)
    read -r planned sent delivered seconds timeline < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["pushes"]["planned"], r["throughput"]["sent"], r["pushes"]["delivered"], round(r["durationSeconds"], 1), len(r["timeline"]))' "$report")
    size=$(stat -c %s "$page")

    # The page with a probe: navigation start -> load event, layout included, into <html data-load-ms>.
    probe='<script>addEventListener("load",function(){document.body.offsetHeight;'
    probe+='document.documentElement.dataset.loadMs=Math.round(performance.now())})</script>'
    sed "s|</body></html>|$probe</body></html>|" "$page" > "$work/timed.html"
    empty_times=() page_times=() inpage_times=()
    load "$work/empty.html" warmup > /dev/null
    for _ in $(seq "$rounds"); do
        empty_times+=("$(load "$work/empty.html" empty)")
        page_times+=("$(load "$page" page)")
        load "$work/timed.html" timed > /dev/null
        inpage_times+=("$(grep -o 'data-load-ms="[0-9]*"' "$work/timed.dom" | grep -o '[0-9]*' || echo -)")
    done
    grep -q 'data-ready="1"' "$work/page.dom" || { say "the page's script did not run"; exit 1; }
    inpage_ms=$(printf '%s\n' "${inpage_times[@]}" | median)
    empty_ms=$(printf '%s\n' "${empty_times[@]}" | median)
    page_ms=$(printf '%s\n' "${page_times[@]}" | median)

    echo "report:        $report"
    echo "run:           $planned pushes planned, $sent sent, $delivered delivered, ${seconds} s, $timeline timeline" \
        "intervals${run_ms:+ (apnsbench run wall ${run_ms} ms)}"
    echo "report.html:   $size bytes ($(awk -v b="$size" 'BEGIN { printf "%.2f", b / 1048576 }') MiB); rendered by apnsbench report in ${render_ms}" \
        "ms (median of 3)"
    echo "chromium:      --dump-dom ${page_ms} ms for the page, ${empty_ms} ms for an empty page (medians of $rounds)"
    echo "load time:     $(( page_ms - empty_ms )) ms (page minus empty page); in the page, navigation start to load event ${inpage_ms} ms"
    echo "load times ms: page ${page_times[*]} · empty ${empty_times[*]} · in-page ${inpage_times[*]} · load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

measure "$report" report
if [ -n "$stretch" ]; then
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
tl, n = r["timeline"], int(sys.argv[3])
r["timeline"] = [dict(tl[i % len(tl)], second=i) for i in range(n)]
json.dump(r, open(sys.argv[2], "w"))' "$report" "$work/stretched.json" "$stretch"
    echo "--- the same report with its timeline repeated to $stretch one-second intervals:"
    run_ms=""
    measure "$work/stretched.json" stretched
fi
