#!/usr/bin/env bash
# The test suite: installs what is missing, builds the tests (debug) and runs them all, including the
# end-to-end runs of the engine against the simulator on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
# The allocation gate below needs the nested Benchmarks package built in release, which compiles the root
# package and its dependencies a second time (about 12 minutes on a fresh 2-core clone). It shares nothing
# with the debug build but the CPU, so it starts now, beside the debug build, and is waited for before any
# test runs (nothing timed runs beside a build).
bench_pid=""
bench_log="${TMPDIR:-/tmp}/apnsbench-benchmarks-build.$$.log"
if [ "${SKIP_BENCH_CHECK:-0}" != 1 ] && [ $# -eq 0 ]; then
    echo "test.sh: building Benchmarks/ in release in the background (log: $bench_log)" >&2
    # The targets, then the tool the benchmark plugin runs (both release, as `swift package benchmark` builds them).
    (cd Benchmarks && swift build -c release && swift build -c release --product BenchmarkTool) > "$bench_log" 2>&1 &
    bench_pid=$!
    trap 'if [ -n "$bench_pid" ]; then kill "$bench_pid" 2>/dev/null || true; fi' EXIT
fi
echo "test.sh: building tests (debug; the first build takes several minutes)" >&2
swift build --build-tests
if [ -n "$bench_pid" ]; then
    echo "test.sh: waiting for the Benchmarks release build" >&2
    # A failure here is not final: the allocation gate builds again and reports the error itself.
    status=0; wait "$bench_pid" || status=$?
    bench_pid=""
    [ "$status" = 0 ] || { echo "test.sh: the background Benchmarks build failed (the gate below builds again); last lines:" >&2; tail -5 "$bench_log" >&2; }
fi
swift test --skip-build "$@"
# The Kubernetes manifests (deploy/kubernetes/): rendered for 4 shards and checked offline against the API
# schemas and the run's own rules (scripts/kube-validate.sh; a few seconds, no cluster).
if [ "${SKIP_KUBE:-0}" != 1 ] && [ $# -eq 0 ]; then
    echo "test.sh: the Kubernetes manifests (scripts/kube-validate.sh)" >&2
    scripts/kube-validate.sh
fi
# The soak's 30-s variant (scripts/soak.sh: faults, descriptor and retry checks) with the debug build.
if [ "${SKIP_SOAK:-0}" != 1 ] && [ $# -eq 0 ]; then
    echo "test.sh: the 30-s soak (scripts/soak.sh --seconds 30)" >&2
    scripts/soak.sh --seconds 30 --debug --skip-build --out "${TMPDIR:-/tmp}/apnsbench-soak-ci"
fi
# The fuzzers (Fuzz/, scripts/fuzz.sh), briefly: FUZZ_SECONDS each (default 10; 0 skips them). They reuse the
# debug build above for the packages: building them and the runs add about 3 minutes on a fresh clone.
if [ "${FUZZ_SECONDS:-10}" != 0 ] && [ $# -eq 0 ]; then
    echo "test.sh: fuzzing each target for ${FUZZ_SECONDS:-10} s (scripts/fuzz.sh)" >&2
    scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-10}"
fi
# The allocation gate: package-benchmark's malloc counts against Benchmarks/Thresholds (counts do not move
# with the machine's load; times are never checked). Builds the Benchmarks package in release the first time.
if [ "${SKIP_BENCH_CHECK:-0}" != 1 ] && [ $# -eq 0 ]; then
    echo "test.sh: checking malloc thresholds (Benchmarks/; the first release build takes several minutes)" >&2
    (cd Benchmarks && APNSBENCH_BIN="$(pwd)/../.build/debug/apnsbench" swift package benchmark thresholds check --no-progress)
fi
