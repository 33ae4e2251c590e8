#!/usr/bin/env bash
# What each shipped run profile sends, as a count and a digest: every profile is replayed closed loop by
# BIN against scripts/push-capture.py (an h2c server that answers 200 to everything and records each
# request's path, headers but `authorization`, and body digest); the lines are sorted, since concurrent
# streams reorder them, and hashed. Two binaries that send the same pushes print the same lines.
#
#   scripts/push-digest.sh BIN [OUT_DIR] [TREE] [PROFILE...]
#
# PROFILE... (default: every profiles/*.yaml) names the profiles to replay, relative to TREE, e.g.
# profiles/examples/parcels/parcels.yaml.
# TREE (default: this checkout) is the checkout whose profiles/ BIN replays: a binary built before a change
# of the profile format replays its own tree's profiles.
#
# Needs python3 with h2 (scripts/install-deps.sh --test installs it). A profile whose delivery is broadcast
# needs the channel API, which the capture server does not answer, and one that names an APNs model runs
# only against the embedded simulator: both are listed as skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:?usage: scripts/push-digest.sh BIN [OUT_DIR] [TREE]}")
out=${2:-$(mktemp -d /tmp/apnsbench-pushes-XXXXXX)}
mkdir -p "$out"
out=$(realpath "$out")
capture=$(realpath scripts/push-capture.py)
cd "${3:-.}"
# A throwaway provider key: the capture server checks no signature, and `authorization` is not recorded.
key="$out/AuthKey_CAPTURE000.p8"
[ -f "$key" ] || openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$key" 2>/dev/null
shift $(( $# < 3 ? $# : 3 ))
[ $# -gt 0 ] || set -- profiles/*.yaml
for p in "$@"; do
    grep -qE '^(workload|recipe):' "$p" || continue
    n=$(basename "$p" .yaml)
    if grep -q '^delivery: broadcast' "$p"; then echo "$n: skipped (broadcast delivery needs the channel API)"; continue; fi
    : > "$out/$n.requests"
    python3 "$capture" "$out/$n.requests" > "$out/$n.port" &
    server=$!
    for _ in $(seq 100); do [ -s "$out/$n.port" ] && break; sleep 0.1; done
    port=$(cat "$out/$n.port")
    rc=0
    "$bin" run "$p" --closed-loop --target "http://127.0.0.1:$port" \
        --key-path "$key" --key-id CAPTURE000 --team-id TEAMCAPTUR --quiet --out "$out/$n" > "$out/$n.log" 2>&1 || rc=$?
    kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true
    if grep -q "applies to the embedded simulator only" "$out/$n.log"; then
        echo "$n: skipped ($(grep -o "'[a-z_]*' applies to the embedded simulator only" "$out/$n.log"))"; continue
    fi
    [ $rc -eq 0 ] || [ $rc -eq 99 ] || { echo "$n: run exited $rc, see $out/$n.log"; continue; }
    printf '%-24s %6d pushes  %s\n' "$n:" "$(wc -l < "$out/$n.requests")" "$(sort "$out/$n.requests" | sha256sum | cut -c1-16)"
done
