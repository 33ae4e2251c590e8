#!/usr/bin/env bash
# What each shipped run profile plans, sending nothing: BIN plans every profile with a workload (`apnsbench
# plan PROFILE --show-tokens --out OUT_DIR/NAME.ndjson`) and one line per profile gives the push lines, the
# not-sent lines among them and the SHA-256 of the file. Two binaries that plan the same pushes (same
# order, tokens, headers, payloads and origins) print the same lines.
#
#   scripts/plan-digest.sh BIN [OUT_DIR] [TREE]
#
# TREE (default: this checkout) is the checkout whose profiles/ BIN plans: a binary built before a change of
# the profile format plans its own tree's profiles.
#
# The files hold full device tokens: OUT_DIR defaults to a fresh folder under /tmp.
set -euo pipefail
bin=${1:?usage: scripts/plan-digest.sh BIN [OUT_DIR] [TREE]}
bin=$(realpath "$bin")
out=${2:-$(mktemp -d /tmp/apnsbench-plan-XXXXXX)}
mkdir -p "$out"
out=$(realpath "$out")
tree=$(realpath "${3:-$(dirname "$0")/..}")
cd "$tree"
status=0
for p in profiles/*.yaml; do
    grep -qE '^(workload|recipe):' "$p" || continue
    name=$(basename "$p" .yaml)
    rc=0; "$bin" plan "$p" --show-tokens --out "$out/$name.ndjson" > "$out/$name.log" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
        echo "plan-digest: $name exited $rc, see $out/$name.log" >&2
        status=1
        continue
    fi
    lines=$(wc -l < "$out/$name.ndjson")
    not_sent=$(grep -c '"not_sent":' "$out/$name.ndjson" || true)
    sha=$(sha256sum "$out/$name.ndjson" | cut -d' ' -f1)
    printf '%-26s %9d pushes %8d not sent  %s\n' "$name" "$lines" "$not_sent" "$sha"
done
exit $status
