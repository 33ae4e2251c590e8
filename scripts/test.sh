#!/usr/bin/env bash
# The test suite: installs what is missing, checks that docs/architecture.md's layout table names real paths,
# builds the tests (debug) and runs them all, including the end-to-end runs of the engine against the
# simulator on loopback; then the Kubernetes manifests, the 30-s soak, the fuzzers and the allocation gate.
# Prints each phase's duration at the end.
#
#   scripts/test.sh              everything (what CI runs)
#   scripts/test.sh ARGS...      only `swift test ARGS...` (e.g. --filter ProviderTokenTests)
#
# Phases can be skipped: SKIP_KUBE=1, SKIP_SOAK=1, FUZZ_SECONDS=0, SKIP_BENCH_CHECK=1.
set -euo pipefail
cd "$(dirname "$0")/.."

phases=() suite_start=$SECONDS phase_start=0 phase_name="" in_phase=0
begin() { phase_name=$1 phase_start=$SECONDS in_phase=1; echo "test.sh: $1" >&2; }
end() { phases+=("$(printf '%-48s %5d s' "$phase_name" $((SECONDS - phase_start)))"); in_phase=0; }
print_phases() {
    local rc=$?
    [ "$in_phase" = 0 ] || phases+=("$(printf '%-48s %5d s  FAILED (exit %d)' "$phase_name" $((SECONDS - phase_start)) "$rc")")
    echo
    echo "test.sh: phase durations"
    printf '  %s\n' "${phases[@]}"
    printf '  %-48s %5d s\n' "total" $((SECONDS - suite_start))
}
trap print_phases EXIT
all=1; [ $# -eq 0 ] || all=0

begin "install (scripts/install-deps.sh --test)"
scripts/install-deps.sh --test
end

# The docs' layout table names only paths that exist (no build needed, a second).
begin "layout table (scripts/check-architecture-layout.py)"
python3 scripts/check-architecture-layout.py
end

begin "build (debug, with the tests)"
swift build --build-tests
end

# Test classes run in parallel processes (most of their time is spent waiting on loopback servers); the
# JUnit file they write gives the count, printed as one closing line.
begin "XCTest (swift test --parallel)"
xunit=.build/xctest-results.xml
rm -f "$xunit"
set +e
swift test --skip-build --parallel --num-workers "$(nproc)" --xunit-output "$xunit" "$@"
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
for c in failed:
    print(f"test.sh: FAILED {c.get('classname')}.{c.get('name')}")
print(f"XCTest: {len(cases) - len(failed)} passed, {len(failed)} failed")
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
# The fuzzers, briefly: FUZZ_SECONDS each (default 10; 0 skips them). They link the debug build's packages.
if [ "${FUZZ_SECONDS:-10}" != 0 ] && [ $all = 1 ]; then
    begin "fuzzers, ${FUZZ_SECONDS:-10} s each (scripts/fuzz.sh)"
    scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-10}"
    end
fi
# The allocation and wake-up gate: the benchmarks that have thresholds (Benchmarks/Thresholds), built in
# release, their counts checked; times are never checked.
if [ "${SKIP_BENCH_CHECK:-0}" != 1 ] && [ $all = 1 ]; then
    begin "allocation gate (scripts/bench-gate.sh)"
    APNSBENCH_BIN="$(pwd)/.build/debug/apnsbench" scripts/bench-gate.sh
    end
fi
