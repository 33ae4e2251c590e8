#!/usr/bin/env bash
# How fast `apnsbench plan` walks a big recording: order-changes streams of about 1M and 5M events (the
# shipped profiles/streams/order-changes.ndjson grown by BIN's `apnsbench scale` once, kept in OUT_DIR; a BIN
# from before `scale` plans the streams a newer one left there), each planned with `--out /dev/null` (every line encoded and written) pinned to one core
# (taskset -c 1), best of RUNS (default 3) under /usr/bin/time -v. One markdown table row per size: events read a wall
# second, and the maximum resident set size. Use a release build:
#
#   swift build -c release -debug-info-format none --product apnsbench
#   scripts/bench-plan.sh .build/release/apnsbench [OUT_DIR] [TREE]
#
# TREE (default: this checkout) is BIN's own checkout: the profile names its order-changes recipe, or, in a
# checkout from before recipes, its workload and template. RECIPE=FILE plans the same streams with another
# recipe for the same events (profiles/examples/recipes/order-changes-expressions.yaml: the recipe written
# with expressions).
set -euo pipefail
bin=${1:?usage: scripts/bench-plan.sh BIN [OUT_DIR] [TREE]}
bin=$(realpath "$bin")
out=${2:-/tmp/apnsbench-bench-plan}
mkdir -p "$out"
out=$(realpath "$out")
cd "$(dirname "$0")/.."
repo=$(realpath "${3:-.}")
if [ -d "$repo/profiles/recipes" ]; then
    workload="recipe: $(realpath "${RECIPE:-$repo/profiles/recipes/order-changes.yaml}")"
else
    workload=$(printf 'workload: order-changes\ntemplate: %s' "$repo/profiles/templates/order-changes.json")
fi
runs=${RUNS:-3}
echo "| events | events/s (best of $runs) | max RSS MiB (best of $runs) |"
echo "| --: | --: | --: |"
for size in ${SIZES:-1000000 5000000}; do
    label=$((size / 1000000))M
    factor=$(( (size + 5999) / 6000 ))  # the shipped recording has 6000 lines
    stream="$out/order-changes-x$factor.ndjson"
    if [ ! -s "$stream" ]; then
        "$bin" scale profiles/streams/order-changes.ndjson --profile profiles/order-changes.yaml --factor "$factor" \
            --out "$stream.tmp" 2> "$out/scale.log" || { cat "$out/scale.log" >&2; exit 1; }
        mv "$stream.tmp" "$stream"
    fi
    profile="$out/order-changes-$label.yaml"
    cat > "$profile" <<YAML
# profiles/order-changes.yaml over its recording grown $factor times ($label events), without dead tokens or the device-contract model.
name: order-changes-$label
$workload
stream: $stream
push_type: liveactivity
bundle_id: com.example.ordermanager
priority: 10
bad_lines: skip
YAML
    best_rate=0; best_rss=0
    for _ in $(seq $runs); do
        /usr/bin/time -v -o "$out/time.txt" taskset -c 1 "$bin" plan "$profile" --out /dev/null > "$out/summary.txt"
        events=$(sed -n 's/^plan .*: \([0-9]*\) events read.*/\1/p' "$out/summary.txt")
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.txt")
        rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time.txt")
        seconds=$(awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' <<< "$wall")
        rate=$(awk -v e="$events" -v s="$seconds" 'BEGIN { printf "%d", e / s }')
        [ "$rate" -gt "$best_rate" ] && best_rate=$rate
        { [ "$best_rss" -eq 0 ] || [ "$rss" -lt "$best_rss" ]; } && best_rss=$rss
    done
    printf '| %s | %s | %s |\n' "$label" "$best_rate" "$(awk -v k="$best_rss" 'BEGIN { printf "%.1f", k / 1024 }')"
done
