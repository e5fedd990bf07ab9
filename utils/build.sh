#!/usr/bin/env bash
# Configures (once) and builds LWP with clang 22 and Ninja.
#
#   utils/build.sh [extra cmake args...]
#
# Environment: LWP_BUILD_DIR (default: <repo>/build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LWP_BUILD_DIR:-$root/build}

for tool in cmake ninja clang++-22 /usr/lib/llvm-22/bin/mlir-opt; do
  command -v "$tool" >/dev/null || {
    echo "build: error: '$tool' not found; run utils/setup.sh (as root) first" >&2
    exit 1
  }
done

if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  echo "build: configuring $build"
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    "$@" >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2
    echo "build: error: cmake failed (log above)" >&2
    exit 1
  }
fi
echo "build: building in $build"
ninja -C "$build"
