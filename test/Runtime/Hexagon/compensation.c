// Compensated time (issue 30): the figures do not depend on how much is
// instrumented. Every probe's packets are taken out of the counter where the
// probe ran (6 QEMU packets: its call packet and the handler, from one
// counter read to the next), so a region that calls an instrumented function
// 3000 times (past the cap of 100: its probes are journaled, not recorded)
// has the figure it has when that function is not instrumented, and its
// recorded instance (the records' counter values are compensated too) the
// figure of the region table.
//
// This file: outer (region 1, C) calls leaf (region 2, assembly) 3000
// times; leaf's code is the same in both builds, with its two probe packets
// (-DPROBED) or without them, so outer's figure is the same to the packet.
// RUN: %hexagon_cc -c %s -o %t.alone.o
// RUN: %hexagon_cc -DPROBED -c %s -o %t.probed.o
// RUN: %hexagon_link %t.alone.o -o %t.alone.elf
// RUN: %hexagon_link %t.probed.o -o %t.probed.elf
// RUN: env LWP_OUTPUT=%t.alone.dump %qemu_hexagon %t.alone.elf
// RUN: env LWP_OUTPUT=%t.probed.dump %qemu_hexagon %t.probed.elf
// RUN: env LWP_OUTPUT=%t.j1.dump LWP_HEXAGON_JOURNAL=1 %qemu_hexagon %t.probed.elf
// RUN: env LWP_OUTPUT=%t.gen.dump LWP_HEXAGON_REPLAY=general %qemu_hexagon %t.probed.elf
// RUN: env LWP_OUTPUT=%t.up.dump LWP_HEXAGON_COUNTER=upcycle %qemu_hexagon %t.probed.elf
// RUN: env LWP_OUTPUT=%t.raw.dump LWP_COMPENSATE=0 %qemu_hexagon %t.probed.elf
// RUN: echo "run alone" > %t.txt
// RUN: %dumpdump %t.alone.dump --nonzero-counts --figures-only >> %t.txt
// RUN: %dumpdump %t.alone.dump --pairs | grep '^pair' | sort | uniq -c >> %t.txt
// RUN: echo "run probed" >> %t.txt
// RUN: %dumpdump %t.probed.dump --nonzero-counts --figures-only >> %t.txt
// RUN: %dumpdump %t.probed.dump --pairs | grep '^pair' | sort | uniq -c >> %t.txt
// RUN: echo "run journal 1" >> %t.txt
// RUN: %dumpdump %t.j1.dump --nonzero-counts --figures-only >> %t.txt
// RUN: %dumpdump %t.j1.dump --pairs | grep '^pair' | sort | uniq -c >> %t.txt
// RUN: echo "run general" >> %t.txt
// RUN: %dumpdump %t.gen.dump --nonzero-counts --figures-only >> %t.txt
// RUN: echo "run raw" >> %t.txt
// RUN: %dumpdump %t.raw.dump --nonzero-counts >> %t.txt
// RUN: echo "run upcycle" >> %t.txt
// RUN: %dumpdump %t.up.dump >> %t.txt
// RUN: FileCheck %s < %t.txt
//
// Outer alone: its exact figure and its recorded instance agree.
// CHECK-LABEL: run alone
// CHECK: count 1 1
// CHECK-NEXT: region 1 total=[[#OUTER:]]
// CHECK-SAME: self=[[#OUTER]] nested=0 children=0 outer=1 unwound=0
// CHECK: 1 pair id=1 delta=[[#OUTER]]
//
// Leaf instrumented: outer the same to the packet, recorded and exact, its
// self time less leaf's; leaf 1 packet a call (its add), in the table and
// in each of its 100 recorded instances; 6000 probes inside outer, none of
// whose 36000 packets is in any figure.
// CHECK-LABEL: run probed
// CHECK: count 1 1
// CHECK-NEXT: count 2 3000
// CHECK-NEXT: region 1 total=[[#OUTER]] self=[[#OUTER-3000]] nested=6000 children=3000 outer=1 unwound=0
// CHECK-NEXT: region 2 total=3000 self=3000 nested=0 children=0 outer=3000 unwound=0
// CHECK-NEXT: thread 0 top_cycles=[[#OUTER]] top_instances=1 top_nested=6000
// CHECK: 1 pair id=1 delta=[[#OUTER]]
// CHECK-NEXT: 100 pair id=2 delta=1
//
// A replay after every probe, and the C replay alone: the same figures.
// CHECK-LABEL: run journal 1
// CHECK: region 1 total=[[#OUTER]] self=[[#OUTER-3000]] nested=6000
// CHECK-NEXT: region 2 total=3000 self=3000
// CHECK: 1 pair id=1 delta=[[#OUTER]]
// CHECK-NEXT: 100 pair id=2 delta=1
// CHECK-LABEL: run general
// CHECK: region 1 total=[[#OUTER]] self=[[#OUTER-3000]] nested=6000
// CHECK-NEXT: region 2 total=3000 self=3000
//
// As read (LWP_COMPENSATE=0): outer 6 packets more for each of the 6000
// probes inside it and 6 for its own two (one probe's worth, from the
// start's counter read to the end's), leaf 6 more a call (7 each); outer's
// self time is then its total less leaf's 21000.
// CHECK-LABEL: run raw
// CHECK: probe_pair_cost=6 probe_nested_cost=12
// CHECK: flags=1
// CHECK: region 1 total=[[#OUTER+36006]] self=[[#OUTER+15006]] nested=6000
// CHECK-NEXT: region 2 total=21000 self=21000
//
// UPCYCLE does not move under QEMU: nothing to compensate (cost 0), every
// figure 0, the flag set all the same.
// CHECK-LABEL: run upcycle
// CHECK: counter=3
// CHECK: probe_pair_cost=0 probe_nested_cost=0
// CHECK: flags=5
// CHECK: region 1 total=0 self=0 nested=6000
//
// The same with compiled code: Inputs/compensation_calls.c, outer calling
// leaf 3000 times through the LLVM pass plugin at -stats-level=40, with leaf
// and outer instrumented (leaf ID 1, outer ID 2, in the module's order) and
// with outer alone (-lwp-function-filter). Compiled probes change how leaf's
// code is packed: its allocframe and dealloc_return no longer share packets
// with its call and its add (a probe packet stands between), 2 packets a
// call more (5 outside its probes, 3 without them), and those are leaf's time,
// not the probes': outer's figure is the outer-alone figure + 2 x 3000,
// exactly. leaf takes 3 packets (its call packet, work, its add).
// RUN: %hexagon_cc -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=40 -mllvm -lwp-function-filter='^(leaf|outer)$' -c %S/Inputs/compensation_calls.c -o %t.cfull.o 2>/dev/null
// RUN: %hexagon_cc -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=40 -mllvm -lwp-function-filter='^outer$' -c %S/Inputs/compensation_calls.c -o %t.calone.o 2>/dev/null
// RUN: %hexagon_link %t.cfull.o -o %t.cfull.elf
// RUN: %hexagon_link %t.calone.o -o %t.calone.elf
// RUN: env LWP_OUTPUT=%t.cfull.dump %qemu_hexagon %t.cfull.elf
// RUN: env LWP_OUTPUT=%t.calone.dump %qemu_hexagon %t.calone.elf
// RUN: echo "compiled alone" > %t.c.txt
// RUN: %dumpdump %t.calone.dump --nonzero-counts --figures-only >> %t.c.txt
// RUN: %dumpdump %t.calone.dump --pairs | grep '^pair' | sort | uniq -c >> %t.c.txt
// RUN: echo "compiled both" >> %t.c.txt
// RUN: %dumpdump %t.cfull.dump --nonzero-counts --figures-only >> %t.c.txt
// RUN: %dumpdump %t.cfull.dump --pairs | grep '^pair' | sort | uniq -c >> %t.c.txt
// RUN: FileCheck %s --check-prefix=COMPILED < %t.c.txt
// COMPILED-LABEL: compiled alone
// COMPILED: count 1 1
// COMPILED-NEXT: region 1 total=[[#ALONE:]]
// COMPILED-SAME: self=[[#ALONE]] nested=0 children=0 outer=1 unwound=0
// COMPILED: 1 pair id=1 delta=[[#ALONE]]
// COMPILED-LABEL: compiled both
// COMPILED: count 1 3000
// COMPILED-NEXT: count 2 1
// COMPILED-NEXT: region 1 total=9000 self=9000 nested=0 children=0 outer=3000 unwound=0
// COMPILED-NEXT: region 2 total=[[#ALONE+6000]] self=[[#ALONE-3000]] nested=6000 children=3000 outer=1 unwound=0
// COMPILED: 100 pair id=1 delta=3
// COMPILED-NEXT: 1 pair id=2 delta=[[#ALONE+6000]]
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

LWP_TEST_MODULE(Module, 2)

#ifdef PROBED
#define LEAF_START LWP_TEST_PROBE_ASM(start, Module, 2, 1)
#define LEAF_END LWP_TEST_PROBE_ASM(end, Module, 2, 1)
#else
#define LEAF_START
#define LEAF_END
#endif

/* leaf(X) = X + 1 with a stack frame of its own, the add between its probes
 * (when PROBED). */
int leaf(int X);
__asm__("  .text\n  .globl leaf\n  .type leaf,@function\n  .p2align 4\n"
        "leaf:\n"
        "  { allocframe(#0) }\n"
        "  " LEAF_START "{ r0 = add(r0, #1) }\n"
        "  " LEAF_END "{ dealloc_return }\n"
        "  .size leaf, . - leaf\n");

static volatile int Sink;

/* Region 1 around N calls of leaf. */
__attribute__((noinline)) static int outer(int N) {
  volatile int Frame = 0;
  LWP_TEST_PROBE(start, &Module.Slots[0]);
  int S = Frame;
  for (int I = 0; I != N; ++I)
    S += leaf(I);
  LWP_TEST_PROBE(end, &Module.Slots[0]);
  return S;
}

int main(void) {
  Sink = outer(3000);
  return 0;
}
