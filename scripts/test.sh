#!/usr/bin/env bash
# The test suite: installs what is missing, checks that docs/architecture.md's layout table names real paths,
# builds the tests (debug) and runs them all, including the end-to-end runs of the engine against the
# simulator on loopback; then the Kubernetes manifests, the 30-s soak, and the allocation gate with the
# fuzzers beside it.
# Prints each phase's duration at the end.
#
#   scripts/test.sh              everything (what CI runs)
#   scripts/test.sh ARGS...      only `swift test ARGS...` (e.g. --filter ProviderTokenTests)
#
# Phases can be skipped: SKIP_KUBE=1, SKIP_SOAK=1, FUZZ_SECONDS=0, SKIP_BENCH_CHECK=1.
#
# The builds of the last two phases (the fuzzers; the allocation gate's release build of Benchmarks/) start
# early in the background under Linux's idle scheduling class (SCHED_IDLE, and nice 19): they run only on a
# core nothing else wants (the debug build's serial stretches, the tests' waits on loopback servers) and give
# it up the moment a test or the build wants it. Each phase then waits for its build. BACKGROUND_BUILDS=0
# builds each in its phase instead.
set -euo pipefail
cd "$(dirname "$0")/.."

phases=() suite_start=$SECONDS phase_start=0 phase_name="" in_phase=0 bg_pids=() background_lines=()
begin() { phase_name=$1 phase_start=$SECONDS in_phase=1; echo "test.sh: $1" >&2; }
end() { phases+=("$(printf '%-48s %5d s' "$phase_name" $((SECONDS - phase_start)))"); in_phase=0; }
print_phases() {
    local rc=$?
    [ "$in_phase" = 0 ] || phases+=("$(printf '%-48s %5d s  FAILED (exit %d)' "$phase_name" $((SECONDS - phase_start)) "$rc")")
    stop_background
    echo
    echo "test.sh: phase durations"
    printf '  %s\n' "${phases[@]}"
    printf '  %-48s %5d s\n' "total" $((SECONDS - suite_start))
    [ ${#background_lines[@]} = 0 ] \
        || { echo "test.sh: builds in the background (SCHED_IDLE) beside the phases above"; printf '  %s\n' "${background_lines[@]}"; }
}
trap print_phases EXIT
all=1; [ $# -eq 0 ] || all=0
fuzz=0; [ "${FUZZ_SECONDS:-10}" != 0 ] && [ $all = 1 ] && fuzz=1
gate=0; [ "${SKIP_BENCH_CHECK:-0}" != 1 ] && [ $all = 1 ] && gate=1
background=1; [ "${BACKGROUND_BUILDS:-1}" != 0 ] || background=0
debug_flags=(-debug-info-format none)

# A build started in the background, in a process group of its own (setsid, so that it can be stopped
# whole): its log in .build/NAME.log, its start and end (seconds of this script) in .build/NAME.times;
# waited for by await_build, which shows the log's end when it failed (the phase then builds it itself, so
# that a failure is the phase's own, named by its own build).
start_build() {
    local name=$1 idle=(chrt --idle 0); shift
    "${idle[@]}" true 2>/dev/null || idle=()  # where the idle class is refused, nice 19 alone
    mkdir -p .build
    rm -f ".build/$name.times"
    setsid -w bash -c 'start=$1 name=$2; shift 2; nice -n 19 "$@" >".build/$name.log" 2>&1; rc=$?
        echo "$start $((start + SECONDS))" >".build/$name.times"; exit $rc' _ "$SECONDS" "$name" "${idle[@]}" "$@" &
    bg_pids+=($!)
    printf -v "bg_$name" '%s' $!
    echo "test.sh: $name started in the background (SCHED_IDLE; log .build/$name.log)" >&2
}
await_build() {
    local name=$1 var="bg_$1" times
    [ -n "${!var:-}" ] || return 0
    if ! wait "${!var}"; then
        tail -30 ".build/$name.log" >&2
        echo "test.sh: $name failed in the background (log: .build/$name.log); building in the phase instead" >&2
        return 1
    fi
    read -r -a times <".build/$name.times"
    background_lines+=("$(printf '%-48s %5d s  (from %d s to %d s of the suite)' "$name" $((times[1] - times[0])) "${times[0]}" "${times[1]}")")
}
stop_background() { local p; for p in "${bg_pids[@]-}"; do [ -z "$p" ] || kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done; }

begin "install (scripts/install-deps.sh --test)"
scripts/install-deps.sh --test
end

# The docs' layout table names only paths that exist, no function of Sources runs over 60 lines without
# a stated reason, at most 8 in all, and no line of the code runs over 160 characters; and the soak's growth
# check passes healthy churn and fails leaks, on series made in memory; the XCTest phase's runner reads a
# class's output right (no build needed, a second).
begin "layout, lengths, trend check, test runner (check-architecture-layout.py, function-lengths.py, line-lengths.py, soak_trend.py, xctest-by-class.py)"
python3 scripts/check-architecture-layout.py
python3 scripts/function-lengths.py --self-test
python3 scripts/function-lengths.py --check
python3 scripts/line-lengths.py --self-test
python3 scripts/line-lengths.py --check
python3 scripts/soak_trend.py --self-test
python3 scripts/xctest-by-class.py --self-test
end

begin "build (debug, with the tests)"
# Without debug information (DWARF), as the release builds: the whole debug build took 404 s of CPU (user +
# sys) without it while other builds ran, 459 s with it on a quiet machine; the cost is line numbers in a
# crashing test's backtrace (XCTest's own failure messages keep file and line). fuzz.sh and soak.sh --debug
# build with the same flags, so that each reuses this build.
# The gate's package needs nothing from the debug build: its release build starts now.
[ $gate = 1 ] && [ $background = 1 ] && start_build bench_build scripts/bench-gate.sh --build-only
swift build --build-tests "${debug_flags[@]}"
end
# The fuzzers link the debug build's packages: their build starts once it is there.
[ $fuzz = 1 ] && [ $background = 1 ] && start_build fuzz_build env FUZZ_SKIP_PACKAGE_BUILD=1 scripts/fuzz.sh --build-only

# Test classes run in parallel processes, one process per class (most of their time is spent waiting on
# loopback servers), the longest first by the last run's JUnit file; `swift test --parallel` would start a
# process per test method, each loading the whole test binary (scripts/xctest-by-class.py says how much that
# costs). With arguments, `swift test` runs them as given. The JUnit file gives the count, printed as one
# closing line.
xunit=.build/xctest-results.xml
set +e
if [ $all = 1 ]; then
    begin "XCTest (scripts/xctest-by-class.py, a process per class)"
    python3 scripts/xctest-by-class.py --workers "$(nproc)" --xunit "$xunit"
else
    begin "XCTest (swift test --parallel)"
    rm -f "$xunit"
    swift test --skip-build "${debug_flags[@]}" --parallel --num-workers "$(nproc)" --xunit-output "$xunit" "$@"
fi
xctest_rc=$?
set -e
python3 - "$xunit" <<'PY' || true
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:
    print(f"test.sh: no XCTest results in {sys.argv[1]} ({e})")
    sys.exit(0)
cases = root.findall(".//testcase")
failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
skipped = [c for c in cases if c.find("skipped") is not None and c not in failed]
for c in failed:
    print(f"test.sh: FAILED {c.get('classname')}.{c.get('name')}")
for c in skipped:
    print(f"test.sh: skipped {c.get('classname')}.{c.get('name')}: {c.find('skipped').get('message') or ''}")
print(f"XCTest: {len(cases) - len(failed) - len(skipped)} passed, {len(failed)} failed" + (f", {len(skipped)} skipped" if skipped else ""))
# The slowest tests, by the time each took in its process (docs/testing.md says what each waits on).
timed = sorted(cases, key=lambda c: -float(c.get("time") or 0))[:15]
if timed:
    print(f"XCTest: the {len(timed)} slowest (of {len(cases)}; {sum(float(c.get('time') or 0) for c in cases):.0f} s in all, over the workers)")
    for c in timed:
        print(f"  {float(c.get('time') or 0):7.1f} s  {c.get('classname')}.{c.get('name')}")
PY
[ "$xctest_rc" = 0 ] || exit "$xctest_rc"
end

# The Kubernetes manifests (deploy/kubernetes/): rendered for 4 shards and checked offline against the API
# schemas and the run's own rules (a few seconds, no cluster).
if [ "${SKIP_KUBE:-0}" != 1 ] && [ $all = 1 ]; then
    begin "Kubernetes manifests (scripts/kube-validate.sh)"
    scripts/kube-validate.sh
    end
fi
# The soak's 30-s variant (faults, descriptor and retry checks) with the debug build.
if [ "${SKIP_SOAK:-0}" != 1 ] && [ $all = 1 ]; then
    begin "soak, 30 s (scripts/soak.sh)"
    scripts/soak.sh --seconds 30 --debug --skip-build --out "${TMPDIR:-/tmp}/apnsbench-soak-ci"
    end
fi
# The fuzzers, briefly: FUZZ_SECONDS each (default 10; 0 skips them), one at a time on one core, beside the
# allocation gate (which counts allocations and wake-ups, never times, and leaves the other core). They link
# the debug build's packages.
if [ $fuzz = 1 ]; then
    if ! { [ $background = 1 ] && await_build fuzz_build; }; then
        begin "fuzzers' build (scripts/fuzz.sh --build-only)"
        FUZZ_SKIP_PACKAGE_BUILD=1 scripts/fuzz.sh --build-only
        end
    fi
    fuzz_start=$SECONDS
    scripts/fuzz.sh --skip-build --seconds "${FUZZ_SECONDS:-10}" --jobs 1 > .build/fuzz_run.log 2>&1 &
    fuzz_pid=$!
    bg_pids+=("$fuzz_pid")
    echo "test.sh: fuzzers, ${FUZZ_SECONDS:-10} s each, started beside the gate (log .build/fuzz_run.log)" >&2
fi
# The allocation and wake-up gate: the benchmarks that have thresholds (Benchmarks/Thresholds), built in
# release, their counts checked; times are never checked.
if [ $gate = 1 ]; then
    begin "allocation gate (scripts/bench-gate.sh)"
    await_build bench_build || true  # the gate builds what is missing
    APNSBENCH_BIN="$(pwd)/.build/debug/apnsbench" scripts/bench-gate.sh
    end
fi
if [ $fuzz = 1 ]; then
    begin "fuzzers, ${FUZZ_SECONDS:-10} s each (scripts/fuzz.sh), the rest of them after the gate"
    fuzz_rc=0
    wait "$fuzz_pid" || fuzz_rc=$?
    cat .build/fuzz_run.log
    echo "test.sh: the fuzzers ended $((SECONDS - fuzz_start)) s after they started beside the gate" >&2
    [ "$fuzz_rc" = 0 ] || exit "$fuzz_rc"
    end
fi
