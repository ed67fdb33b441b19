#!/usr/bin/env bash
# Installs what is missing, builds minicluster with AddressSanitizer and UBSan, checks the
# formatting and that scripts/deps.sh names every package the build and the run use, and runs
# the whole test suite. CI runs exactly this (.ci/run).
# MC_TEST_PRESET=debug|release picks another build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
preset=${MC_TEST_PRESET:-asan}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
scripts/check-format.sh
# The run command's configuration (scripts/run.sh), configured only, for the packages check.
cmake --preset app >/dev/null
scripts/check-deps.py --run build/app --test "build/$preset"
ctest --preset "$preset" -j2 -LE bench # benchmarks: bench/ scripts, not CI
