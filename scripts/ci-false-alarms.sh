#!/usr/bin/env bash
# The CI gate's false-alarm table: K honest trials and K trials with a planted regression, each one
# `scripts/ci-regression.sh` (N fresh runs of profiles/ci.yaml compared with the committed baseline), and
# a Markdown table of their exit codes and the response-time p99 row. The planted regression is the CI
# simulator model answering after 28 ms instead of 20 ms (measured: the client's p50/p90 +25%, its p99
# +15-20%),
# and answering 3% of pushes 503 ServiceUnavailable, a reason the baseline never saw.
#
#   scripts/ci-false-alarms.sh [--trials K] [--runs N] [--sides honest,planted] [--out DIR]
#
#   --sides   which trials to run (default both); a table row is printed for each side run
#
# Default 10 trials a side, 3 runs a trial: with profiles/ci.yaml's 60-s runs, about an hour on a quiet
# 2-core machine. A trial's folder keeps its compare.md. Exits 0 when every honest trial exited 0 and every
# planted one exited 2, else 1.
set -euo pipefail
cd "$(dirname "$0")/.."
trials=10 runs=3 sides="honest planted" out=reports/ci-false-alarms-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
    case "$1" in
        --trials) trials=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --sides) sides=${2//,/ }; shift 2 ;;
        *) echo "ci-false-alarms: unknown argument $1 (see the comment at the top of $0)" >&2; exit 64 ;;
    esac
done
mkdir -p "$out"
planted=$out/planted-simulator.yaml
sed -e 's/fixed_ms: 20/fixed_ms: 28/' -e 's/^faults:/faults:\n  service_unavailable_fraction: 0.03/' profiles/ci-simulator.yaml > "$planted"
grep -q 'fixed_ms: 28' "$planted" && grep -q 'service_unavailable_fraction: 0.03' "$planted" \
    || { echo "ci-false-alarms: could not plant the regression in a copy of profiles/ci-simulator.yaml" >&2; exit 1; }

declare -A codes=()
p99_row() { grep -m1 '^| response time p99 |' "$1" 2>/dev/null | awk -F'|' '{for (i = 3; i <= 7; i++) gsub(/^ +| +$/, "", $i); print $3 " → " $4 ", " $6 ": " $7}'; }
for kind in $sides; do
    for i in $(seq 1 "$trials"); do
        dir=$out/$kind-$i
        args=(--runs "$runs" --out "$dir")
        [ "$kind" = planted ] && args+=(--sim-config "$planted")
        set +e
        scripts/ci-regression.sh "${args[@]}" > "$out/$kind-$i.log" 2>&1
        code=$?
        set -e
        codes[$kind-$i]=$code
        echo "ci-false-alarms: $kind trial $i of $trials: exit $code; p99 $(p99_row "$dir/compare.md")" >&2
    done
done

ok=0
{
    echo "| trials | exit 0 (no regression) | exit 2 (regression) | other exits | response time p99 change (verdict) per trial |"
    echo "| --- | --: | --: | --: | --- |"
    for kind in $sides; do
        zero=0 two=0 other=0 rows=()
        for i in $(seq 1 "$trials"); do
            case ${codes[$kind-$i]} in 0) zero=$((zero + 1)) ;; 2) two=$((two + 1)) ;; *) other=$((other + 1)) ;; esac
            rows+=("$(p99_row "$out/$kind-$i/compare.md")")
        done
        joined=$(printf '%s; ' "${rows[@]}")
        echo "| $trials $kind | $zero | $two | $other | ${joined%; } |"
        if [ "$kind" = honest ] && [ "$zero" != "$trials" ]; then ok=1; fi
        if [ "$kind" = planted ] && [ "$two" != "$trials" ]; then ok=1; fi
    done
} | tee "$out/table.md"
exit $ok
