#!/usr/bin/env bash
# The test suite: installs what is missing, builds the tests (debug) and runs them all, including the
# end-to-end runs of the engine against the simulator on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
echo "test.sh: building tests (debug; the first build takes several minutes)" >&2
swift build --build-tests
swift test --skip-build "$@"
