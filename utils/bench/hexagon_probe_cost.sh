#!/usr/bin/env bash
# Run time a Hexagon probe costs, the whole journey (issue 23): the handler,
# the journal's replays, the folds and the dump, per probe, against an
# uninstrumented twin, under qemu-hexagon with QEMU's packet counter c20
# (deterministic: a rerun prints the same figures). Not a test; prints
#
#   hexagon-probe-cost: in_region=I run_time=R packets/probe
#
# (I: the handler with its call packet, inside the measured region; R: the
# flat workload's packets per probe of run time) and a table of the flat,
# nested and deep workloads of utils/bench/hexagon_journey.c, the default
# cap, then every probe recorded (LWP_CAP past every count, all records in
# the buffer), then the general path forced (LWP_HEXAGON_REPLAY=general,
# packets-wide, the replay's C engine for every probe).
#
#   utils/bench/hexagon_probe_cost.sh [BUILD_DIR]     (default <repo>/build)
# Environment: CALLS (default 65536), LWP_HEXAGON_COST_ONLY=1 prints the one
# line only (test/Runtime/Hexagon/probe-cost.test).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
CALLS=${CALLS:-65536}
LLVM=/usr/lib/llvm-22/bin
LIB="$BUILD/lib"
for f in "$LIB/LWPLLVMPlugin.so" "$LIB/liblwp_hexagon.a" "$LIB/lwp_hexagon_crt0.o"; do
  [ -f "$f" ] || { echo "hexagon_probe_cost: error: $f not built" >&2; exit 1; }
done
command -v qemu-hexagon > /dev/null ||
  { echo "hexagon_probe_cost: error: qemu-hexagon not found" >&2; exit 1; }
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
# The programs run from $T as ./lwp and ./plain and write ./journey.dump:
# the dump holds argv[0] (the image's name), whose length moves the dump's
# packets by a few hundred, so the figures are the same whatever $TMPDIR is
# (lit's included).
cd "$T"

CC=("$LLVM/clang" --target=hexagon-unknown-linux-musl -mcpu=hexagonv67
    -ffreestanding -nostdlib -fno-pic -G0 -O2 -gline-tables-only -I "$ROOT/include"
    -I "$ROOT/runtime/hexagon/include")
link() { "$LLVM/ld.lld" -static --build-id "$LIB/lwp_hexagon_crt0.o" "$1" \
           "$LIB/liblwp_hexagon.a" -o "$2"; }
"${CC[@]}" -c "$HERE/hexagon_journey.c" -o "$T/plain.o"
"${CC[@]}" -fpass-plugin="$LIB/LWPLLVMPlugin.so" -mllvm -stats-level=40 \
  -DLWP_JOURNEY_INSTRUMENTED -DLWP_JOURNEY_DUMP="\"journey.dump\"" \
  -c "$HERE/hexagon_journey.c" -o "$T/lwp.o"
link "$T/plain.o" "$T/plain"
link "$T/lwp.o" "$T/lwp"

field() { awk -v k="$1" '$1 == k { print $2 }'; }
# run WORKLOAD CALLS [ENV...]: "<probes> <packets per probe of run time>"
# (one decimal) and the in-region figure in $T/in_region.
run() {
  local w=$1 n=$2 x=; shift 2
  [ "${1:-}" = nodump ] && { x=nodump; shift; }
  local out plain
  out=$(env LWP_OUTPUT= "$@" qemu-hexagon ./lwp "$w" "$n" $x)
  plain=$(env LWP_OUTPUT= qemu-hexagon ./plain "$w" "$n" $x)
  echo "$out" | field in_region > "$T/in_region"
  awk -v a="$(echo "$out" | field span)" -v b="$(echo "$plain" | field span)" \
      -v p="$(echo "$out" | field probes)" \
      'BEGIN { printf "%d %.1f %d %d\n", p, (a - b) / p, a, b }'
}

flat=$(run flat "$CALLS")
in_region=$(awk '{ printf "%.1f", $1 / 8 }' "$T/in_region")
echo "hexagon-probe-cost: in_region=$in_region run_time=$(echo "$flat" | cut -d' ' -f2) packets/probe"
[ "${LWP_HEXAGON_COST_ONLY:-0}" = 1 ] && exit 0

printf '\n%-8s %-22s %9s %12s %12s %14s\n' workload mode probes packets twin "per probe"
row() { # WORKLOAD MODE CALLS ENV...
  local w=$1 m=$2 n=$3; shift 3
  read -r p r a b <<< "$(run "$w" "$n" "$@")"
  printf '%-8s %-22s %9d %12d %12d %14s\n' "$w" "$m" "$p" "$a" "$b" "$r"
}
# Every probe recorded: the buffer holds 65536 records (the default
# LWP_HEXAGON_BUFFER_RECORDS), so the calls stay under it.
for w in flat nested deep; do
  case $w in flat) rec=32000 ;; nested) rec=16000 ;; deep) rec=4000 ;; esac
  row $w "cap 100" "$CALLS"
  row $w "all recorded" $rec LWP_CAP=2147483647
  row $w "all recorded, no dump" $rec nodump LWP_CAP=2147483647
  row $w "general path forced" "$CALLS" LWP_HEXAGON_REPLAY=general
done
echo
echo "per probe = (instrumented span - twin span) / probes; spans in QEMU"
echo "packets (c20) from before the calls to after lwp_dump (the dump of the"
echo "instrumented build included, but in the rows \"no dump\"); -stats-level=40,"
echo "one region a function."
