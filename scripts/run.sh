#!/usr/bin/env bash
# The main job: installs what is missing, builds apnsbench (release) and replays a profile against the
# embedded APNs simulator, writing reports/latest/ (report.json, summary.md, report.html, latency.hlog).
# Arguments go to `apnsbench run`. When the first one is not a profile (none, or a flag) it replays
# profiles/demo.yaml: the five apps' recordings mixed, about 25 s at 300 pushes/s against the simulator's
# `near` APNs model with a few faults, so every chart of report.html has a shape. For example
#   scripts/run.sh                                     # the demo
#   scripts/run.sh --rate 600                          # the demo, faster
#   scripts/run.sh profiles/leave-requests.yaml --connections 4 --out reports/leave
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
echo "run.sh: building apnsbench (release; the first build takes several minutes)" >&2
swift build -c release --product apnsbench >&2
if [ $# -eq 0 ] || [[ $1 == -* ]]; then set -- profiles/demo.yaml "$@"; fi
exec .build/release/apnsbench run "$@"
