#!/usr/bin/env bash
# Counts, with LLVM 22's assembler, the fast-path instructions of the
# "frames in the slots" handler layout (`git show
# 6310dfe:docs/performance.md`, "Hexagon: 10 packets per probe (issue 11,
# fourth round)"): for each instruction its
# words (a constant extender ## is one more), whether it is a memory
# operation, and whether it issues only in slots 2 and 3 (the test of
# utils/bench/hexagon_slots.sh). A layout of the fourth round, not taken (the
# fifth made the handlers journal the probe). Nothing here is built into the
# runtime: the
# lists are the paper schedule's instructions, unscheduled, both counter
# tails sharing everything but the read, recording and dropping sharing
# every instruction (predicated stores), as today.
#
#   utils/bench/hexagon_slot_frames.sh [clang]   (default /usr/lib/llvm-22/bin/clang)
#
# A 9-packet handler (10 packets a probe with the call) holds at most 36
# words, 18 memory operations and 18 slot-2/3 instructions.
# The slot column is the assembler's placement of the instruction alone
# (a compare-and-jump compound is accepted beside two predicate-logic
# instructions); the words and memory operations are what bound the count.
set -euo pipefail
CLANG=${1:-/usr/lib/llvm-22/bin/clang}
OBJDUMP=$(dirname "$CLANG")/llvm-objdump
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
asm() { "$CLANG" --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -c "$1" -o "$2" 2>/dev/null; }
count() {
  local words=0 mem=0 s23=0 n=0 sz c
  echo "== $1"
  while IFS= read -r I; do
    [ -z "$I" ] && continue
    n=$((n + 1))
    printf '  .text\nf:\n  { %s }\ng:\n  nop\n' "$I" >"$T/w.S"
    asm "$T/w.S" "$T/w.o" || { echo "rejected: $I"; exit 1; }
    sz=$(($("$OBJDUMP" -d "$T/w.o" | grep -cE '^ +[0-9a-f]+:') - 1))
    printf '  .text\nf:\n  { %s\n    p0 = or(p0, p1)\n    p1 = or(p2, p3) }\ng:\n  nop\n' "$I" >"$T/s.S"
    if asm "$T/s.S" "$T/s.o"; then c=any; else c=2-3; s23=$((s23 + 1)); fi
    case "$I" in *mem*) mem=$((mem + 1)) ;; esac
    words=$((words + sz))
    printf '  %-46s %d word(s)  slots %s\n' "$I" "$sz" "$c"
  done
  echo "  total: $n instructions, $words words, $mem memory operations, $s23 slot-2/3 only"
}
# State: +0 {next, cur} (cur: the current slot), +8 {drops, last|mode}.
# Slot: +0 {index|open, bias}, +8 {saved slot, sp|REC} (the frame),
# +56 start counter, +32 nested (low word), +40 children (low word).
count "start: 7 registers live at once (r2-r5, r7, r14, r15): a third saved pair, 2 more memory operations" <<'EOF'
r28 = p3:0
memd(r29+#-8) = r3:2
memd(r29+#-16) = r5:4
r3:2 = memd(##lwp_hex_state)
r5:4 = memd(##lwp_hex_state+8)
r15:14 = memd(r0+#0)
r7 = memw(r3+#12)
p0 = cmp.gt(r14, #0); if (!p0.new) jump:nt g
p1 = cmp.gtu(r29, r7); if (p1.new) jump:nt g
r14 = setbit(r14, #31)
r15 = add(r15, #1)
memd(r0+#0) = r15:14
p2 = cmp.gt(r15, #0)
p3 = cmp.gtu(r2, r5)
p3 = or(p3, p2)
r15:14 = combine(r29, r3)
if (!p2) r15 = add(r15, #1)
memd(r0+#8) = r15:14
memw(r3+#40) += #1
r4 += lsr(r2, #4)
memw(r0+#32) -= r4
r15:14 = combine(r0, r31)
memd(r2+#0) = r15:14
r4 = add(r4, #1)
if (p3) memw(##lwp_hex_state+8) = r4
if (!p3) r2 = add(r2, #16)
r3 = r0
memd(##lwp_hex_state) = r3:2
p0 = tstbit(r5, #0); if (p0.new) jump:nt g
r15:14 = c15:14
memd(r0+#56) = r15:14
if (!p3) memd(r2+#-8) = r15:14
r3:2 = memd(r29+#-8)
r5:4 = memd(r29+#-16)
p3:0 = r28
jumpr r31
EOF
count "end: 10 registers (r2-r9, r14, r15): at least a third saved pair, 2 more memory operations" <<'EOF'
r28 = p3:0
memd(r29+#-8) = r3:2
memd(r29+#-16) = r5:4
r3:2 = memd(##lwp_hex_state)
r5:4 = memd(##lwp_hex_state+8)
p0 = cmp.eq(r0, r3); if (!p0.new) jump:nt g
r7:6 = memd(r0+#8)
p0 = tstbit(r5, #0); if (p0.new) jump:nt g
r15:14 = c15:14
memd(r2+#8) = r15:14
r9:8 = memd(r0+#56)
r9:8 = sub(r15:14, r9:8)
r15:14 = memd(r0+#16)
r15:14 = add(r15:14, r9:8)
memd(r0+#16) = r15:14
r15:14 = memd(r6+#24)
r15:14 = sub(r15:14, r9:8)
memd(r6+#24) = r15:14
r4 += lsr(r2, #4)
memw(r0+#32) += r4
memw(r0+#0) = clrbit(#31)
p1 = tstbit(r7, #0)
p2 = cmp.gtu(r2, r5)
p1 = or(p2, !p1)
r15 = add(r0, #1)
r14 = r31
memd(r2+#0) = r15:14
r4 = add(r4, #1)
if (p1) memw(##lwp_hex_state+8) = r4
if (!p1) r2 = add(r2, #16)
r3 = r6
memd(##lwp_hex_state) = r3:2
r4 = extractu(r4, #10, #20)
p3 = cmp.eq(r4, #0)
p3 = and(p3, p1)
if (p3) jump:nt g
r3:2 = memd(r29+#-8)
r5:4 = memd(r29+#-16)
p3:0 = r28
jumpr r31
EOF
