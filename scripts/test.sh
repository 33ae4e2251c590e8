#!/usr/bin/env bash
# The test suite: installs what is missing, builds the tests (debug) and runs them all, including the
# end-to-end runs of the engine against the simulator on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
echo "test.sh: building tests (debug; the first build takes several minutes)" >&2
swift build --build-tests
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
