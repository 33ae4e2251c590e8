#!/usr/bin/env bash
# The CI gate's measured false-alarm and detection rates: K honest A/A trials and K trials with a planted
# regression, each one `scripts/ci-regression.sh` at the gate's defaults (base and candidate interleaved, N runs a
# side of S seconds), and a Markdown table of their exit codes. An A/A trial runs the same binary on both sides
# (--base HEAD with APNSBENCH_BASE_BIN: what the gate sees when a change changes nothing); a planted trial
# runs the candidate side against the CI simulator model with 10% more latency (22 ms instead of 20) and 1% of
# pushes answered 503 ServiceUnavailable.
#
#   scripts/ci-false-alarms.sh [--trials K] [--runs N | --single-run] [--duration S] [--sides honest,planted]
#                              [--out DIR] [--rejudge DIR] [--help]
#
#   --trials K   trials a side (default 20)
#   --runs N     runs a side in each trial (default: the gate's, 3)
#   --single-run one run a side (--runs 1): single runs cut by --duration, judged by tolerances alone; the
#                exit then asks for no honest alarm and every planted trial caught
#   --duration S seconds a run (default: the gate's, 5)
#   --sides      which trials to run (default both); a table row is printed for each
#   --rejudge D  run nothing: compare each trial's runs kept in D (an earlier --out) again at the gate's
#                current defaults (ci-regression.sh --compare-only), and print the table
#
# About 40 s a trial on a quiet 2-core machine at the defaults (6 runs of 5 s, each with a fresh simulator):
# 40 trials in about half an hour. A trial's folder keeps its compare.md and summary.md. Prints, for each side,
# how many trials exited 0 (no regression), 2 (regression) and otherwise, and which metrics the regressions
# named. Exits 0 when no honest trial exited 2 and at least 19 in 20 planted ones did (every one with
# --single-run), else 1.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
trials=20 runs="" duration="" sides="honest planted" rejudge=0 single=0 out=reports/ci-false-alarms-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --trials) trials=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --single-run) runs=1 single=1; shift ;;
        --duration) duration=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --sides) sides=${2//,/ }; shift 2 ;;
        --rejudge) rejudge=1; out=$2; shift 2 ;;
        *) echo "ci-false-alarms: unknown argument $1 (see --help)" >&2; exit 64 ;;
    esac
done
[[ $trials =~ ^[1-9][0-9]*$ ]] || { echo "ci-false-alarms: --trials must be a whole number of at least 1, found '$trials'" >&2; exit 64; }
for side in $sides; do
    case $side in honest|planted) ;; *) echo "ci-false-alarms: --sides takes honest and planted, found '$side'" >&2; exit 64 ;; esac
done
bin=${APNSBENCH_BIN:-.build/debug/apnsbench}
[ -x "$bin" ] || { echo "ci-false-alarms: building $bin" >&2; swift build --product apnsbench >&2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
mkdir -p "$out"
planted=$out/planted-simulator.yaml
sed -e 's/fixed: 20ms/fixed: 22ms/' -e 's/^faults:/faults:\n  service_unavailable_fraction: 0.01/' profiles/ci-simulator.yaml > "$planted"
grep -q 'fixed: 22ms' "$planted" && grep -q 'service_unavailable_fraction: 0.01' "$planted" \
    || { echo "ci-false-alarms: could not plant the regression in a copy of profiles/ci-simulator.yaml" >&2; exit 1; }

declare -A codes=()
# The metrics a trial's regressions name, from its summary.md (the regressions only).
named() { grep '^| ' "$1" 2>/dev/null | grep -v '^| metric\|^| ---' | cut -d'|' -f2 | sed 's/^ *//; s/ *$//' | paste -sd, - | sed 's/,/, /g'; }
started=$(date +%s)
for kind in $sides; do
    for i in $(seq 1 "$trials"); do
        dir=$out/$kind-$i
        args=(--base HEAD --out "$dir")
        [ -n "$runs" ] && args+=(--runs "$runs")
        [ -n "$duration" ] && args+=(--duration "$duration")
        [ "$kind" = planted ] && args+=(--sim-config-new "$planted")
        [ "$rejudge" = 1 ] && args=(--out "$dir" --compare-only)
        set +e
        log=$out/$kind-$i.log; [ "$rejudge" = 1 ] && log=$out/$kind-$i.rejudged.log
        APNSBENCH_BIN=$bin APNSBENCH_BASE_BIN=$bin scripts/ci-regression.sh "${args[@]}" > "$log" 2>&1
        code=$?
        set -e
        codes[$kind-$i]=$code
        echo "ci-false-alarms: $kind trial $i of $trials: exit $code$( [ "$code" = 2 ] && echo "; regressions: $(named "$dir/summary.md")" )" \
            "($(( $(date +%s) - started )) s so far)" >&2
    done
done

ok=0
{
    echo "| trials (runs a side × seconds a run) | exit 0 (no regression) | exit 2 (regression) | other exits | trials naming a count regression" \
        "(which) | trials naming a latency regression |"
    echo "| --- | --: | --: | --: | --- | --: |"
    for kind in $sides; do
        zero=0 two=0 other=0 latency=0
        declare -A counts=()
        for i in $(seq 1 "$trials"); do
            case ${codes[$kind-$i]} in 0) zero=$((zero + 1)) ;; 2) two=$((two + 1)) ;; *) other=$((other + 1)) ;; esac
            [ "${codes[$kind-$i]}" = 2 ] || continue
            IFS=',' read -ra metrics <<< "$(named "$out/$kind-$i/summary.md")"
            flagged=0
            for m in "${metrics[@]}"; do
                m=${m# }
                if [[ $m == *" time p"* || $m == throughput ]]; then flagged=1; else counts[$m]=$(( ${counts[$m]:-0} + 1 )); fi
            done
            latency=$((latency + flagged))
        done
        listed=""
        for m in "${!counts[@]}"; do listed+="$m ${counts[$m]}, "; done
        label=$([ "$kind" = honest ] && echo "A/A, identical sides" || echo "planted: +10% latency, 1% 503")
        echo "| $trials $label (${runs:-3} × ${duration:-5} s) | $zero | $two | $other | ${listed%, } | $latency |"
        unset counts
        if [ "$kind" = honest ] && [ "$two" -gt 0 ]; then ok=1; fi
        if [ "$kind" = planted ] && [ $((two * 20)) -lt $((19 * trials)) ]; then ok=1; fi
        if [ "$kind" = planted ] && [ "$single" = 1 ] && [ "$two" -lt "$trials" ]; then ok=1; fi
    done
    echo
    echo "$(( $(date +%s) - started )) s for $(( trials * $(echo $sides | wc -w) )) trials:" \
        "\`scripts/ci-false-alarms.sh --trials $trials$( [ "$single" = 1 ] && echo " --single-run")\`"
} | tee "$out/table.md"
exit $ok
