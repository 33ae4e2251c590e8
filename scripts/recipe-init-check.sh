#!/usr/bin/env bash
# `apnsbench recipe init` on every shipped recording: the skeleton it writes must load, and `plan` with it must
# match every line of the recording (0 bad lines); then the skeleton's events and fields are shown against the
# shipped recipe's (scripts/recipe-diff.py). Exits non-zero when a skeleton fails to load or leaves a bad line.
#
#   scripts/recipe-init-check.sh BIN [OUT_DIR]
#
# Needs python3 with PyYAML (Debian python3-yaml) for the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:?usage: scripts/recipe-init-check.sh BIN [OUT_DIR]}")
out=${2:-$(mktemp -d /tmp/apnsbench-recipe-init-XXXXXX)}
mkdir -p "$out"
out=$(realpath "$out")
failed=0
declare -A seen
for p in profiles/*.yaml profiles/examples/*/*.yaml; do
    recipe=$(sed -n 's/^recipe: *\([^ #]*\).*/\1/p' "$p")
    stream=$(sed -n 's/^stream: *\([^ #]*\).*/\1/p' "$p")
    [ -n "$recipe" ] && [ -n "$stream" ] || continue
    dir=$(dirname "$p")
    recipe=$(realpath "$dir/$recipe")
    stream=$(realpath "$dir/$stream")
    [ -z "${seen[$stream]:-}" ] || continue
    seen[$stream]=1
    name=$(basename "$stream" .ndjson)
    "$bin" recipe init "$stream" --out "$out/$name.recipe.yaml" > "$out/$name.init.log" 2>&1 \
        || { echo "$name: recipe init failed: $(tail -1 "$out/$name.init.log")"; failed=1; continue; }
    printf 'name: %s\nrecipe: %s\nstream: %s\nbundle_id: com.example.scaffold\n' "$name" "$out/$name.recipe.yaml" "$stream" > "$out/$name.profile.yaml"
    if ! "$bin" plan "$out/$name.profile.yaml" > "$out/$name.plan.log" 2>&1; then
        echo "$name: plan refused the skeleton: $(tail -1 "$out/$name.plan.log")"; failed=1; continue
    fi
    summary=$(head -1 "$out/$name.plan.log")
    bad=$(grep -o 'bad_line [0-9]*' "$out/$name.plan.log" | head -1 | awk '{print $2}' || true)
    echo "== $name: ${summary#plan *: }${bad:+ — $bad BAD LINES}"
    [ -z "$bad" ] || failed=1
    python3 scripts/recipe-diff.py "$recipe" "$out/$name.recipe.yaml" | sed 's/^/   /'
done
exit $failed
