#!/usr/bin/env bash
# Runs every shipped run profile (profiles/*.yaml with a workload) closed loop with two apnsbench binaries and
# compares their report.json: `pushes` and `events` with `apnsbench compare --exact-counts` (AFTER_BIN's), and
# the engine's counters that do not depend on timing with jq. A change that keeps behaviour must leave them
# identical.
#
#   scripts/compare-counts.sh BEFORE_BIN AFTER_BIN [OUT_DIR] [BEFORE_TREE]
#
# BEFORE_TREE (default: this checkout) is the checkout whose profiles/ BEFORE_BIN replays: a binary built
# before a change of the profile format replays its own tree's profiles, with the same recordings.
#
# What timing decides, and is therefore not compared as is:
# - how many pushes to a planted dead token go out before its first 410 comes back: with many streams in
#   flight a push to a dead token ends either as rejected Unregistered or as not sent `dead_token`. Their
#   sum is compared (`--dead-token-split`), and so is sent + dead_token; order-changes also runs with one
#   connection and one stream, where the split itself is fixed and compared exactly.
# - the engine's CPU times, wake-ups and peak in flight.
# - in a profile whose simulator sends a GOAWAY every N seconds, how many connections it opened: that is how
#   long the run took.
# - in a profile whose simulator injects faults at random (a `*_fraction:` key, e.g. demo's 503s and dead
#   devices), how many 503s are drawn, so retries, and the dead-token split too; the rest is compared.
# Exit codes are not compared: a p99 SLO can be missed by timing (99).
set -euo pipefail
usage="usage: scripts/compare-counts.sh BEFORE_BIN AFTER_BIN [OUT_DIR] [BEFORE_TREE]"
before=$(realpath "${1:?$usage}")
after=$(realpath "${2:?$usage}")
out=${3:-$(mktemp -d /tmp/apnsbench-compare-XXXXXX)}
mkdir -p "$out"
out=$(realpath "$out")
before_tree=$(realpath "${4:-$(dirname "$0")/..}")
cd "$(dirname "$0")/.."
here=$(pwd)
profiles=()
# The run profiles of this checkout that the before tree has too.
for p in profiles/*.yaml; do
    grep -qE '^(workload|recipe):' "$p" && [ -f "$before_tree/$p" ] && profiles+=("$(basename "$p" .yaml)")
done
for side in before after; do
    bin=$before; tree=$before_tree; [ "$side" = after ] && bin=$after && tree=$here
    cd "$tree"
    mkdir -p "$out/$side"
    for p in "${profiles[@]}"; do
        rc=0; "$bin" run "profiles/$p.yaml" --closed-loop --quiet --out "$out/$side/$p" --force > "$out/$side/$p.log" 2>&1 || rc=$?
        # 0, or 99: the report was written and only an SLO was missed.
        [ $rc -eq 0 ] || [ $rc -eq 99 ] || { echo "compare-counts: $side $p exited $rc, see $out/$side/$p.log" >&2; exit 1; }
    done
    "$bin" run profiles/order-changes.yaml --closed-loop --connections 1 --streams 1 --quiet \
        --out "$out/$side/order-changes-serial" > "$out/$side/order-changes-serial.log" 2>&1 || true
    [ -f "$out/$side/order-changes-serial/report.json" ] || { echo "compare-counts: $side order-changes-serial wrote no report" >&2; exit 1; }
done
cd "$here"
engine='(.pushes.notSent.dead_token // 0) as $dead | .engine | .sentPlusDeadTokenNotSent = (.sent + $dead)
    | del(.sent, .engineCPUMillis, .busiestEngineCPUMillis, .producerCPUMillis, .wakeUps, .peakInFlight)'
same_all=0
for n in "${profiles[@]}" order-changes-serial; do
    split=()
    # Many streams in flight: only the timing-dependent split may differ.
    [ "$n" != order-changes-serial ] && grep -qE 'dead_tokens:|_fraction:' "profiles/$n.yaml" 2>/dev/null && split=(--dead-token-split)
    random=0; [ "$n" != order-changes-serial ] && grep -qE '_fraction:' "profiles/$n.yaml" && random=1
    filter=$engine; [ $random = 1 ] && filter="$engine | del(.retriesTotal, .retries, .sentPlusDeadTokenNotSent)"
    # A GOAWAY every N seconds: how many a run sees, so its reconnects, is how long it ran.
    grep -qE 'goaway_after(_seconds)?:' "profiles/$n.yaml" 2>/dev/null && filter="$filter | del(.connectionsOpened, .reconnects)"
    counts=same; "$after" compare --exact-counts "${split[@]}" "$out/before/$n" "$out/after/$n" > "$out/$n.compare" 2>&1 || counts=DIFF
    engine_same=same
    diff <(jq -S "$filter" "$out/before/$n/report.json") <(jq -S "$filter" "$out/after/$n/report.json") > "$out/$n.engine.diff" || engine_same=DIFF
    printf '%-26s pushes+events %-5s engine %-5s planned %s, delivered %s\n' "$n:" "$counts${split:+*}" "$engine_same$([ $random = 1 ] && echo '†')" \
        "$(jq .pushes.planned "$out/after/$n/report.json")" "$(jq .pushes.delivered "$out/after/$n/report.json")"
    [ "$counts" = same ] && [ "$engine_same" = same ] || { same_all=1; cat "$out/$n.compare" "$out/$n.engine.diff" | head -20; }
done
echo "(* dead-token answers and not-sents compared as one count: which a push to a dead token gets is timing)"
echo "(† the simulator injects faults at random: retries left out of the engine's comparison)"
echo "reports: $out/before, $out/after"
exit "$same_all"
