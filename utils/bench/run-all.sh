#!/usr/bin/env bash
# Runs every LWP benchmark and prints docs/performance.md's table: one row a
# figure, min / median / max over the runs, the reference measured in the
# same run, the command, and the machine. Not a test.
#
#   utils/bench/run-all.sh [--quick] [--rows FILE] [BUILD_DIR]
#                                                  (default: <repo>/build)
#
# Needs a built tree: LWPLLVMPlugin.so, liblwp_host.a, lwp-report, lwp-opt
# (ninja -C BUILD_DIR LWPLLVMPlugin lwp_host lwp-report lwp-opt). Builds the
# benchmark programs into a temporary directory (removed at exit) and runs:
#   1. probe cost: x86-64 ticks per pair vs a bare rdtsc pair (executable and
#      dlopen'ed library); Hexagon packets per probe through
#      utils/bench/hexagon_probe_cost.sh when it is there (packet counts are
#      deterministic: one run), else "not measured"
#   2. run-time overhead on gemm/conv2d/stencil/reduce (LWP levels, XRay)
#   3. accuracy against an uninstrumented twin in the same process
#   4. report throughput (lwp-report vs llvm-xray account), TVM import
#   5. compile-time share (opt -O2 -time-passes, lwp-opt -mlir-timing)
#   6. call-heavy program by -lwp-instruction-threshold (callheavy.py)
# Each benchmark prints its own figures as it goes; the table comes last
# (rows collected through utils/bench/rows.py).
#
# --quick: 3 runs a figure and small inputs (a smoke run, about 2 minutes;
# not for the doc, whose rows need at least 5 runs).
# --rows FILE: also writes the session's rows (JSON lines, rows.py) to FILE,
# so that `rows.py table S1 S2 S3` pools sessions run at different times
# (docs/performance.md's table is four sessions pooled).
# Environment: BENCH_ROUNDS (overhead rounds, 5), BENCH_PROBE_RUNS (probe-cost
# runs, 5), BENCH_RUNS (timed runs per throughput and TVM input, 5),
# BENCH_ACC_RUNS (accuracy runs, 7), BENCH_CALLHEAVY_RUNS (5),
# BENCH_THRESHOLDS (0,20,50,200), BENCH_SIZES (1000000,10000000,100000000),
# BENCH_XRAY_SIZES (1000000,10000000), BENCH_TVM_SIZES (1000000,10000000),
# TVM_LWP_SCRIPT (apache/tvm's python/tvm/contrib/hexagon/profiling/
# process_lwp_data.py, run side by side when given).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
QUICK=0 KEEP=
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; shift ;;
    --rows) [ $# -ge 2 ] || { echo "run-all: error: --rows needs a FILE" >&2; exit 1; }
            KEEP="$2"; shift 2 ;;
    -*) echo "run-all: error: unknown option '$1' (--quick, --rows FILE)" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ -n "$KEEP" ]; then
  : > "$KEEP" 2>/dev/null || { echo "run-all: error: cannot write '$KEEP'" >&2; exit 1; }
  KEEP="$(cd "$(dirname "$KEEP")" && pwd)/$(basename "$KEEP")"
fi
BUILD="$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd)" || {
  echo "run-all: error: build directory '${1:-$ROOT/build}' not found; build first: ninja -C build" >&2; exit 1; }
LIB="$BUILD/lib"; BIN="$BUILD/bin"
for f in "$LIB/LWPLLVMPlugin.so" "$LIB/liblwp_host.a" "$BIN/lwp-report" "$BIN/lwp-opt"; do
  [ -e "$f" ] || { echo "run-all: error: $f missing: build it first (ninja -C $BUILD)" >&2; exit 1; }
done
for t in clang-22 opt-22 llvm-xray-22 llvm-objdump-22 python3; do
  command -v "$t" >/dev/null || { echo "run-all: error: $t not found (utils/setup.sh)" >&2; exit 1; }
done
[ -e /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.xray-x86_64.a ] || {
  echo "run-all: error: XRay runtime missing (libclang-rt-22-dev)" >&2; exit 1; }

if [ $QUICK = 1 ]; then
  : "${BENCH_ROUNDS:=3}" "${BENCH_PROBE_RUNS:=3}" "${BENCH_RUNS:=3}" "${BENCH_ACC_RUNS:=3}"
  : "${BENCH_CALLHEAVY_RUNS:=3}" "${BENCH_SIZES:=1000000,10000000}" "${BENCH_XRAY_SIZES:=1000000}"
  : "${BENCH_TVM_SIZES:=1000000}"
fi
export BENCH_RUNS="${BENCH_RUNS:-5}" ACC_REPEAT="${BENCH_ACC_RUNS:-7}"

T="$(mktemp -d "${TMPDIR:-/tmp}/lwp-bench.XXXXXX")"
trap 'rm -rf "$T"' EXIT
export BENCH_ROWS="$T/rows.jsonl"
: > "$BENCH_ROWS"
START=$SECONDS
LOAD0="$(cut -d' ' -f1-3 /proc/loadavg)"
run() { echo "+ $*" | sed "s|$T|\$T|g; s|$ROOT/||g; s|$BUILD|BUILD|g"; "$@"; }
section() { echo; echo "=== $* ==="; }

section "build (into \$T)"
CC=clang-22
PLUGIN="$LIB/LWPLLVMPlugin.so"; HOST="$LIB/liblwp_host.a"
run $CC -O2 -I"$ROOT/include" -o "$T/probe_cost_x86" "$HERE/probe_cost_x86.c" "$HOST" -lpthread
# The same probes in a shared object loaded with dlopen (its own runtime copy).
run $CC -O2 -fPIC -shared -I"$ROOT/include" -Dmain=bench_main \
    -o "$T/libprobe_cost_x86.so" "$HERE/probe_cost_x86.c" "$HOST"
run $CC -O2 -o "$T/dlopen_loader" "$HERE/dlopen_loader.c"
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
run $CC -O2 -I"$ROOT/include" -I"$ROOT/runtime/common" -o "$T/mkbigdump" \
    "$HERE/mkbigdump.c" "$ROOT/runtime/common/lwp_dump_writer.c"

section "1. probe cost: x86-64"
LWP_OUTPUT= LWP_CAP=1000000000 LWP_BUFFER_RECORDS=4000000 \
    run python3 "$HERE/repeat.py" "${BENCH_PROBE_RUNS:-5}" "$T/probe_cost_x86"
section "1. probe cost: x86-64, in a dlopen'ed shared object"
LWP_OUTPUT= LWP_CAP=1000000000 LWP_BUFFER_RECORDS=4000000 \
    run python3 "$HERE/repeat.py" "${BENCH_PROBE_RUNS:-5}" "$T/dlopen_loader" "$T/libprobe_cost_x86.so"

section "1. probe cost: Hexagon (qemu-hexagon, packet counter; deterministic: one run)"
HEX_CMD="utils/bench/hexagon_probe_cost.sh BUILD"
HEX_FIG="Hexagon packets per probe (handler + call packet, inside the region / whole journey of run time)"
HEX_REF="uninstrumented twin (same workload, same run); TVM's handler: 16 (issue 23, not measured here)"
if [ -x "$HERE/hexagon_probe_cost.sh" ] &&
   HEX_OUT="$(LWP_HEXAGON_COST_ONLY=1 "$HERE/hexagon_probe_cost.sh" "$BUILD" 2>"$T/hex.err")" &&
   [[ "$HEX_OUT" =~ in_region=([0-9.]+)\ run_time=([0-9.]+) ]]; then
  echo "$HEX_OUT"
  python3 "$HERE/rows.py" add "$BENCH_ROWS" "Hexagon packets per probe, inside the measured region" \
    "packets" "${BASH_REMATCH[1]}" "$HEX_REF" "$HEX_CMD"
  python3 "$HERE/rows.py" add "$BENCH_ROWS" "Hexagon packets per probe of run time (handler, replay, folds, dump)" \
    "packets" "${BASH_REMATCH[2]}" "$HEX_REF" "$HEX_CMD"
else
  WHY="utils/bench/hexagon_probe_cost.sh not there"
  [ -x "$HERE/hexagon_probe_cost.sh" ] && WHY="hexagon_probe_cost.sh failed: $(tail -1 "$T/hex.err" 2>/dev/null)"
  echo "not measured ($WHY)"
  python3 "$HERE/rows.py" add "$BENCH_ROWS" "$HEX_FIG" "packets" "" "not measured: $WHY" "$HEX_CMD"
fi

section "2. run-time overhead"
run python3 "$HERE/overhead.py" "$T" "${BENCH_ROUNDS:-5}" "$BIN/lwp-report"

section "3. accuracy"
run python3 "$HERE/accuracy.py" "$T/acc70" "$T/acc40" "$BIN/lwp-report"

section "4. report throughput"
TMPDIR="$T" run python3 "$HERE/throughput.py" "$T" "$BIN/lwp-report" \
    "${BENCH_SIZES:-1000000,10000000,100000000}" "${BENCH_XRAY_SIZES:-1000000,10000000}"

section "4b. TVM import (lwp-report --tvm-json; TVM's own script when TVM_LWP_SCRIPT names it)"
TMPDIR="$T" run python3 "$HERE/tvm_import.py" "$T/mkbigdump" "$BIN/lwp-report" \
    "${BENCH_TVM_SIZES:-1000000,10000000}" "${TVM_LWP_SCRIPT:--}"

section "5. compile-time share"
run python3 "$HERE/compile_time.py" "$PLUGIN" "$BIN/lwp-opt" \
    "$ROOT/examples/model/conv_matmul.mlir" "${BENCH_RUNS}"

section "6. call-heavy program by -lwp-instruction-threshold"
TMPDIR="$T" run python3 "$HERE/callheavy.py" "$BUILD" "${BENCH_CALLHEAVY_RUNS:-5}" \
    "${BENCH_THRESHOLDS:-0,20,50,200}"

section "table (docs/performance.md)"
SESSION="Commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$( [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && echo ' (checkout with uncommitted changes)'), $(date -u '+%Y-%m-%d %H:%M UTC'), run-all.sh$( [ $QUICK = 1 ] && echo ' --quick'), $((SECONDS - START)) s; load average (1/5/15 min) at the start $LOAD0, at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$SESSION"
python3 "$HERE/rows.py" table "$BENCH_ROWS"
if [ -n "$KEEP" ]; then
  python3 -c 'import json, sys; print(json.dumps({"session": sys.argv[1]}))' "$SESSION" > "$KEEP"
  cat "$BENCH_ROWS" >> "$KEEP"
  echo "rows: $KEEP"
fi
