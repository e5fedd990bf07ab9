#!/usr/bin/env bash
# The main job on the bundled example: the conv2d + matmul graph in
# examples/model/conv_matmul.mlir is bufferized, lowered to loops, instrumented
# at -stats-level=70 -max-loop-depth=1, and its instrumentation map printed as
# a table. The instrumented IR and the map JSON are left in out/demo/.
#
#   utils/lwp-demo.sh [model.mlir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LWP_BUILD_DIR:-$root/build}
model=${1:-$root/examples/model/conv_matmul.mlir}
out=$root/out/demo
mkdir -p "$out"

step() { printf '== %s\n' "$*"; }

step "build"
"$root/utils/build.sh" >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }

step "bufferize, lower to loops, instrument (stats-level=70 max-loop-depth=1): $model"
"$build/bin/lwp-opt" "$model" \
  --lwp-linalg-to-loops \
  --lwp-instrument="stats-level=70 max-loop-depth=1 map-file=$out/map.json" \
  -o "$out/instrumented.mlir"

step "instrumentation map"
"$build/bin/lwp-opt" "$out/instrumented.mlir" --lwp-print-map -o /dev/null
echo
echo "instrumented IR: $out/instrumented.mlir"
echo "map (JSON):      $out/map.json"
