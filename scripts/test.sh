#!/usr/bin/env bash
# Installs what is missing, builds minicluster with AddressSanitizer and UBSan, checks the
# formatting, and runs the whole test suite. CI runs exactly this (.ci/run).
# MC_TEST_PRESET=debug|release picks another build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
preset=${MC_TEST_PRESET:-asan}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
scripts/check-format.sh
ctest --preset "$preset" -j2 -LE bench # benchmarks: bench/ scripts, not CI
