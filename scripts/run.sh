#!/usr/bin/env bash
# The main job: installs what is missing, builds apnsbench (release) and replays a profile against the
# embedded APNs simulator, writing reports/latest/report.json and summary.md.
# Arguments go to `apnsbench run` (default profile: profiles/leave-requests.yaml), e.g.
#   scripts/run.sh profiles/leave-requests.yaml --connections 4 --out reports/leave
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
echo "run.sh: building apnsbench (release; the first build takes several minutes)" >&2
swift build -c release --product apnsbench >&2
exec .build/release/apnsbench run "$@"
