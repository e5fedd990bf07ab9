#!/usr/bin/env bash
# Builds LWP and runs every test: the lit suites (MLIR, LLVM, ...) and the unit
# tests, through CTest. Exits non-zero when any test fails.
#
#   utils/check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LWP_BUILD_DIR:-$root/build}
"$root/utils/build.sh"
cd "$build"
ctest --output-on-failure
