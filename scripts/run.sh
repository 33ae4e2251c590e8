#!/usr/bin/env bash
# The main job: installs what is missing, builds apnsbench (release) and replays a profile against the
# embedded APNs simulator, writing reports/latest/ (report.json, summary.md, report.html, latency.hlog).
# Arguments go to `apnsbench run`. When the first one is not a profile (none, or a flag) it replays
# profiles/demo.yaml: the five apps' recordings mixed, about 13 s at 600 pushes/s against the simulator's
# `near` APNs model with a few faults, so every chart of report.html has a shape. For example
#   scripts/run.sh                                     # the demo
#   scripts/run.sh --rate 1200                         # the demo, faster
#   scripts/run.sh profiles/leave-requests.yaml --connections 4 --out reports/leave
# Prints each phase's duration at the end (install, build, run), as scripts/test.sh does; the exit code is
# the run's.
set -euo pipefail
cd "$(dirname "$0")/.."

phases=() job_start=$SECONDS phase_start=0 phase_name="" in_phase=0
begin() { phase_name=$1 phase_start=$SECONDS in_phase=1; echo "run.sh: $1" >&2; }
end() { phases+=("$(printf '%-48s %5d s' "$phase_name" $((SECONDS - phase_start)))"); in_phase=0; }
print_phases() {
    local rc=$?
    [ "$in_phase" = 0 ] || phases+=("$(printf '%-48s %5d s  exit %d' "$phase_name" $((SECONDS - phase_start)) "$rc")")
    echo >&2
    echo "run.sh: phase durations" >&2
    printf '  %s\n' "${phases[@]}" >&2
    printf '  %-48s %5d s\n' "total" $((SECONDS - job_start)) >&2
}
trap print_phases EXIT

begin "install (scripts/install-deps.sh)"
scripts/install-deps.sh
end

# Without debug information (DWARF): a run does not read it, and writing it is a large part of a release
# build's compile time (crash reports keep function names). Every script that builds the release apnsbench
# passes the same flags, so each reuses the others' build.
begin "build (release, apnsbench)"
swift build -c release -debug-info-format none --product apnsbench >&2
end

if [ $# -eq 0 ] || [[ $1 == -* ]]; then set -- profiles/demo.yaml "$@"; fi
begin "run (apnsbench run $1)"
.build/release/apnsbench run "$@"
