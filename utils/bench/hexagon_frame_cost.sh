#!/usr/bin/env bash
# What keeping the frame around every Hexagon probe costs (issue 20): the
# probe packet's clobber of r16 (HexagonProbeConstraints) against the same
# lowered IR without it, on csmith programs. Not a test; prints figures.
#
#   utils/bench/hexagon_frame_cost.sh [BUILD_DIR] [PROGRAMS] [LEVELS]
#       defaults: <repo>/build, "1 2 3 4 5 6 7 8 examples/kernels", "O2 Os"
#
# A program is a csmith seed or a folder of C files (examples/kernels: loop
# kernels that call on every path, where the old form works). For each
# program and level: every file, instrumented (stats-level 100), is
# compiled to lowered IR once; llc builds it as is ("r16") and with ~{r16}
# removed from every probe ("none"; the old form, which breaks a function
# whose only call is conditional). Prints the .text bytes of both and, from
# each run's dump, the packets of main's region under qemu-hexagon (exact,
# probes' handlers included, replays excluded); a run that does not finish
# in 10 s (the old form's hang) is shown as "hang".
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
SEEDS="${2:-1 2 3 4 5 6 7 8 examples/kernels}"
LEVELS="${3:-O2 Os}"
LLVM=/usr/lib/llvm-22/bin
LIBC="$BUILD/lib/hexagon-libc"
CFLAGS=(--target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -ffreestanding
        -nostdlibinc -fno-pic -G0 -isystem "$LIBC/include" -I /usr/include/csmith
        -I "$ROOT/runtime/hexagon/include" -w)
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

packets() { # ELF DUMP: main's inclusive packets, or "hang"
  if ! env LWP_OUTPUT="$2" timeout 10 qemu-hexagon "$1" > /dev/null 2>&1; then
    echo hang; return
  fi
  "$BUILD/bin/lwp-report" "$1" "$2" --format=csv --no-overhead-correction |
    awk -F, '$2 == "function" && $3 == "\"main\"" { printf "%d", $10 }'
}
text() { "$LLVM/llvm-size" -A "$1" | awk '$1 == ".text" { print $2 }'; }

printf "%-7s %-3s %8s %8s %7s %10s %10s %7s\n" program lvl text-r16 text-none \
  ratio pkts-r16 pkts-none ratio
for seed in $SEEDS; do
  if [ -d "$ROOT/$seed" ]; then
    files=("$ROOT/$seed"/*.c); name=$(basename "$seed"); inc=(-I "$ROOT/$seed")
  else
    csmith --seed "$seed" --no-packed-struct -o "$TMP/p$seed.c" > /dev/null
    files=("$TMP/p$seed.c"); name=$seed; inc=()
  fi
  for lvl in $LEVELS; do
    base="$TMP/$name-$lvl"
    objs_r16=(); objs_none=()
    for f in "${files[@]}"; do
      unit="$base-$(basename "$f" .c)"
      "$LLVM/clang" "${CFLAGS[@]}" "${inc[@]}" -"$lvl" -fpass-plugin="$BUILD/lib/LWPLLVMPlugin.so" \
        -mllvm -stats-level=100 -S -emit-llvm "$f" -o "$unit.ll"
      sed 's/~{r15},~{r16},~{r28}/~{r15},~{r28}/g' "$unit.ll" > "$unit.none.ll"
      for v in r16 none; do
        src="$unit.ll"; [ "$v" = none ] && src="$unit.none.ll"
        "$LLVM/llc" -mtriple=hexagon-unknown-linux-musl -mcpu=hexagonv67 \
          -hexagon-small-data-threshold=0 -filetype=obj \
          -"$([ "$lvl" = O0 ] && echo O0 || echo O2)" "$src" -o "$unit.$v.o"
      done
      objs_r16+=("$unit.r16.o"); objs_none+=("$unit.none.o")
    done
    for v in r16 none; do
      objs=("${objs_r16[@]}"); [ "$v" = none ] && objs=("${objs_none[@]}")
      "$LLVM/ld.lld" -static -L"$LIBC/lib" "$BUILD/lib/lwp_hexagon_crt0.o" "${objs[@]}" \
        "$LIBC/lib/libc.a" "$LIBC/lib/libm.a" "$BUILD/lib/liblwp_hexagon.a" -o "$base.$v"
    done
    tr=$(text "$base.r16"); tn=$(text "$base.none")
    pr=$(packets "$base.r16" "$base.r16.dump"); pn=$(packets "$base.none" "$base.none.dump")
    pratio=-
    [ "$pn" != hang ] && [ "$pr" != hang ] && pratio=$(awk -v a="$pr" -v b="$pn" 'BEGIN { printf "%.4f", a / b }')
    printf "%-7s %-3s %8d %8d %7.4f %10s %10s %7s\n" "$name" "$lvl" "$tr" "$tn" \
      "$(awk -v a="$tr" -v b="$tn" 'BEGIN { print a / b }')" "$pr" "$pn" "$pratio"
  done
done
