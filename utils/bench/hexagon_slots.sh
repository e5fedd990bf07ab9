#!/usr/bin/env bash
# Which Hexagon v67 instructions of the probe handlers may only issue in
# slots 2 and 3 (`git show 6310dfe:docs/performance.md`, "Hexagon: 10 packets
# per probe (issue 11, third round)"; docs/performance-history.md). These are the instructions of the handlers before the
# fifth round, which made them journal the probe instead (5 packets; section
# "Hexagon: 6 packets per probe"): kept as the record of that analysis. Each
# instruction is assembled by LLVM 22's assembler in
# one packet with two predicate-logic instructions (slots 2 and 3 only): the
# packet is accepted iff the instruction can take slot 0 or 1.
#
#   utils/bench/hexagon_slots.sh [clang]        (default /usr/lib/llvm-22/bin/clang)
set -euo pipefail
CLANG=${1:-/usr/lib/llvm-22/bin/clang}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
while IFS= read -r I; do
  [ -z "$I" ] && continue
  printf '  .text\nf:\n  { %s\n    p0 = or(p0, p1)\n    p1 = or(p2, p3) }\n' "$I" >"$T/c.S"
  if "$CLANG" --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -c "$T/c.S" \
      -o "$T/c.o" 2>/dev/null; then
    echo "any slot  $I"
  else
    echo "slots 2-3 $I"
  fi
done <<'INSNS'
r28 = p3:0
p3:0 = r28
jumpr r31
r15:14 = c15:14
p3 = tstbit(r15, #0)
r6 = setbit(r6, #31)
r14 += lsr(r2, #4)
r3 = extractu(r3, #10, #20)
r2 = add(r2, sub(#-1, r15))
r7:6 = sub(r15:14, r7:6)
r5:4 = add(r5:4, r7:6)
p3 = cmp.gtu(r3, ##0x1000)
p3 = cmp.gtu(r29, r5)
p3 = cmp.gt(r6, #0)
r4 = and(r4, #-16)
r7 = add(r7, #1)
r15 = add(r0, #1)
r7:6 = combine(r29, r0)
r15 = #0
if (p2) r2 = add(r2, #16)
INSNS
