#!/usr/bin/env bash
# Runs every LWP benchmark (issue 7) and prints their figures; not a test.
#
#   utils/bench/run-all.sh [BUILD_DIR]      (default: <repo>/build)
#
# Needs a built tree (ninja -C build): LWPLLVMPlugin.so, liblwp_host.a,
# liblwp_hexagon.a + lwp_hexagon_crt0.o, lwp-report, lwp-opt. Builds the
# benchmark programs into a temporary directory (removed at exit) and runs:
#   1. probe cost: x86-64 ticks per pair vs a bare rdtsc pair; Hexagon packets
#   2. run-time overhead on gemm/conv2d/stencil/reduce (LWP levels, XRay)
#   3. accuracy against an in-program rdtsc bracket
#   4. report throughput (1M/10M/100M records) and llvm-xray account
#   5. compile-time share (opt -O2 -time-passes, lwp-opt -mlir-timing)
# Environment: BENCH_ROUNDS (overhead rounds, default 5), BENCH_PROBE_RUNS
# (probe-cost runs summarized by repeat.py, default 5), BENCH_RUNS (timed runs
# per throughput and TVM input, default 5), BENCH_TVM_SIZES (default
# 1000000,10000000), TVM_LWP_SCRIPT (apache/tvm's
# python/tvm/contrib/hexagon/profiling/process_lwp_data.py, run side by side
# when given), BENCH_SIZES
# (default 1000000,10000000,100000000), BENCH_XRAY_SIZES (default
# 1000000,10000000). About 4 minutes on the 2-core VM (docs/performance.md).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd)" || {
  echo "run-all: error: build directory '${1:-$ROOT/build}' not found; build first: ninja -C build" >&2; exit 1; }
LIB="$BUILD/lib"; BIN="$BUILD/bin"
for f in "$LIB/LWPLLVMPlugin.so" "$LIB/liblwp_host.a" "$LIB/liblwp_hexagon.a" \
         "$LIB/lwp_hexagon_crt0.o" "$BIN/lwp-report" "$BIN/lwp-opt"; do
  [ -e "$f" ] || { echo "run-all: error: $f missing: build it first (ninja -C $BUILD)" >&2; exit 1; }
done
for t in clang-22 ld.lld-22 opt-22 llvm-xray-22 llvm-objdump-22 qemu-hexagon python3; do
  command -v "$t" >/dev/null || { echo "run-all: error: $t not found (utils/setup.sh)" >&2; exit 1; }
done
[ -e /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.xray-x86_64.a ] || {
  echo "run-all: error: XRay runtime missing (libclang-rt-22-dev)" >&2; exit 1; }

T="$(mktemp -d "${TMPDIR:-/tmp}/lwp-bench.XXXXXX")"
trap 'rm -rf "$T"' EXIT
START=$SECONDS
run() { echo "+ $*" | sed "s|$T|\$T|g; s|$ROOT/||g"; "$@"; }
section() { echo; echo "=== $* ==="; }

section "build (into \$T)"
CC=clang-22
PLUGIN="$LIB/LWPLLVMPlugin.so"; HOST="$LIB/liblwp_host.a"
run $CC -O2 -I"$ROOT/include" -o "$T/probe_cost_x86" "$HERE/probe_cost_x86.c" "$HOST" -lpthread
# The same probes in a shared object loaded with dlopen (its own runtime copy).
run $CC -O2 -fPIC -shared -I"$ROOT/include" -Dmain=bench_main \
    -o "$T/libprobe_cost_x86.so" "$HERE/probe_cost_x86.c" "$HOST"
run $CC -O2 -o "$T/dlopen_loader" "$HERE/dlopen_loader.c"
HCC=($CC --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -ffreestanding
     -nostdlib -fno-pic -G0 -O2 -I"$ROOT/include" -I"$ROOT/runtime/hexagon/include")
run "${HCC[@]}" -c "$HERE/probe_cost_hexagon.c" -o "$T/pch.o"
run ld.lld-22 -static --build-id "$LIB/lwp_hexagon_crt0.o" "$T/pch.o" \
    "$LIB/liblwp_hexagon.a" -o "$T/probe_cost_hexagon"
K="$HERE/kernels.c"
run $CC -O2 -o "$T/k_base" "$K"
run $CC -O2 -fpass-plugin="$PLUGIN" -mllvm -stats-level=40 -o "$T/k_l40" "$K" "$HOST" -lpthread
for d in 0 1 2; do
  run $CC -O2 -fpass-plugin="$PLUGIN" -mllvm -stats-level=70 -mllvm -max-loop-depth=$d \
      -o "$T/k_l70_d$d" "$K" "$HOST" -lpthread
done
run $CC -O2 -fxray-instrument -fxray-instruction-threshold=1 -o "$T/k_xray" "$K"
ACCF='^(longk|shortk|nestk|main)$'  # nestkRef stays uninstrumented
run $CC -O2 -fpass-plugin="$PLUGIN" -mllvm -stats-level=70 -mllvm -max-loop-depth=1 \
    -mllvm -lwp-function-filter="$ACCF" -o "$T/acc70" "$HERE/accuracy.c" "$HOST" -lpthread
run $CC -O2 -fpass-plugin="$PLUGIN" -mllvm -stats-level=40 \
    -mllvm -lwp-function-filter="$ACCF" -o "$T/acc40" "$HERE/accuracy.c" "$HOST" -lpthread
run $CC -O2 -I"$ROOT/include" -o "$T/nested_cost_x86" "$HERE/nested_cost_x86.c" "$HOST" -lpthread
run $CC -O2 -I"$ROOT/include" -I"$ROOT/runtime/common" -o "$T/mkbigdump" \
    "$HERE/mkbigdump.c" "$ROOT/runtime/common/lwp_dump_writer.c"

section "1. probe cost: x86-64"
LWP_OUTPUT= LWP_CAP=1000000000 LWP_BUFFER_RECORDS=4000000 \
    run python3 "$HERE/repeat.py" "${BENCH_PROBE_RUNS:-5}" "$T/probe_cost_x86"
section "1. probe cost: x86-64, in a dlopen'ed shared object"
LWP_OUTPUT= LWP_CAP=1000000000 LWP_BUFFER_RECORDS=4000000 \
    run "$T/dlopen_loader" "$T/libprobe_cost_x86.so"
section "1. probe cost: Hexagon (qemu-hexagon)"
LWP_OUTPUT= run qemu-hexagon "$T/probe_cost_hexagon"

section "2. run-time overhead"
run python3 "$HERE/overhead.py" "$T" "${BENCH_ROUNDS:-5}" "$BIN/lwp-report"

section "3. accuracy"
run python3 "$HERE/accuracy.py" "$T/acc70" "$T/acc40" "$BIN/lwp-report"
LWP_OUTPUT="$T/nc.dump" run "$T/nested_cost_x86"
run "$BIN/lwp-report" --raw --no-records "$T/nc.dump" | head -2

section "4. report throughput"
TMPDIR="$T" run python3 "$HERE/throughput.py" "$T" "$BIN/lwp-report" \
    "${BENCH_SIZES:-1000000,10000000,100000000}" "${BENCH_XRAY_SIZES:-1000000,10000000}"

section "4b. TVM import (lwp-report --tvm-json; TVM's own script when TVM_LWP_SCRIPT names it)"
TMPDIR="$T" run python3 "$HERE/tvm_import.py" "$T/mkbigdump" "$BIN/lwp-report" \
    "${BENCH_TVM_SIZES:-1000000,10000000}" "${TVM_LWP_SCRIPT:--}"

section "5. compile-time share"
run python3 "$HERE/compile_time.py" "$PLUGIN" "$BIN/lwp-opt" \
    "$ROOT/examples/model/conv_matmul.mlir" 3

echo
echo "run-all: done in $((SECONDS - START)) s"
