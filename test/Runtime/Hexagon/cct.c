// The calling-context tree (issue 30): one node per path of regions, root
// to the region, with its instances' count and inclusive cycles (compensated
// packets, exact under QEMU). c is called from a and from b, both from main
// and from d: each path of c has its node and its count, and c's nodes add
// up to c's count. Built with the LLVM pass plugin at -stats-level=40 (IDs
// in the module's order: c 1, a 2, b 3, d 4, main 5).
//
// RUN: %hexagon_cc -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=40 -c %s -o %t.o 2>/dev/null
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env LWP_OUTPUT=%t.d/exit.dump %qemu_hexagon %t.elf %t.d/mid.dump
// RUN: %dumpdump %t.d/exit.dump --figures-only --nodes --check-nodes > %t.d/exit.txt
// RUN: FileCheck %s --check-prefix=TREE < %t.d/exit.txt
// RUN: %dumpdump %t.d/mid.dump --figures-only --nodes --check-nodes | FileCheck %s --check-prefix=MID
//
// The C replay alone gives the same tree (c's node changes with every call
// of the second loop: c's slot caches one node, so those starts take the C
// path in the assembly replay too), and so does a replay every 5 probes
// (without the dump inside main, whose time in main depends on what the
// journal holds then).
// RUN: env LWP_OUTPUT=%t.d/general.dump LWP_HEXAGON_REPLAY=general %qemu_hexagon %t.elf %t.d/gmid.dump
// RUN: %dumpdump %t.d/general.dump --figures-only --nodes --check-nodes | diff %t.d/exit.txt -
// RUN: env LWP_OUTPUT=%t.d/nomid.dump %qemu_hexagon %t.elf
// RUN: %dumpdump %t.d/nomid.dump --figures-only --nodes --check-nodes > %t.d/nomid.txt
// RUN: env LWP_OUTPUT=%t.d/j5.dump LWP_HEXAGON_JOURNAL=5 %qemu_hexagon %t.elf
// RUN: %dumpdump %t.d/j5.dump --figures-only --nodes --check-nodes | diff %t.d/nomid.txt -
//
// lwp-report's folded stacks are the nodes' self cycles by path.
// RUN: lwp-report %t.elf %t.d/nomid.dump --format=folded | FileCheck %s --check-prefix=FOLDED
// FOLDED:      main [[#]]
// FOLDED-NEXT: main;a 1500
// FOLDED-NEXT: main;a;c 500
// FOLDED-NEXT: main;b 600
// FOLDED-NEXT: main;b;c 200
// FOLDED-NEXT: main;d 700
// FOLDED-NEXT: main;d;a 300
// FOLDED-NEXT: main;d;a;c 100
// FOLDED-NEXT: main;d;b 300
// FOLDED-NEXT: main;d;b;c 100
//
// main calls a 300 times, then b and a 200 times each, then d (a and b) 100
// times: c runs 500 times under main/a, 200 under main/b, 100 under each of
// main/d/a and main/d/b. c takes 1 packet (its add), a and b 4 (their call
// of c, c, c's return, their own arithmetic), d 15 (a and b, and 7 of its
// own: its two calls, a's and b's frames and returns, its xor).
// TREE:      count 1 900
// TREE-NEXT: count 2 600
// TREE-NEXT: count 3 300
// TREE-NEXT: count 4 100
// TREE-NEXT: count 5 1
// TREE:      region 1 total=900 self=900
// TREE-NEXT: region 2 total=2400 self=1800
// TREE-NEXT: region 3 total=1200 self=900
// TREE-NEXT: region 4 total=1500 self=700
// TREE-NEXT: region 5 total=[[#MAIN:]]
// TREE-NEXT: thread 0 top_cycles=[[#MAIN]] top_instances=1
// TREE-NEXT: nodes ok 11
// TREE-NEXT: node 0 path=- count=1 cycles=[[#MAIN]] self=0
// TREE-NEXT: node 1 path=5 count=1 cycles=[[#MAIN]] self=[[#MAIN-4300]]
// TREE-NEXT: node 2 path=5/2 count=500 cycles=2000 self=1500
// TREE-NEXT: node 3 path=5/2/1 count=500 cycles=500 self=500
// TREE-NEXT: node 4 path=5/3 count=200 cycles=800 self=600
// TREE-NEXT: node 5 path=5/3/1 count=200 cycles=200 self=200
// TREE-NEXT: node 6 path=5/4 count=100 cycles=1500 self=700
// TREE-NEXT: node 7 path=5/4/2 count=100 cycles=400 self=300
// TREE-NEXT: node 8 path=5/4/2/1 count=100 cycles=100 self=100
// TREE-NEXT: node 9 path=5/4/3 count=100 cycles=400 self=300
// TREE-NEXT: node 10 path=5/4/3/1 count=100 cycles=100 self=100
// TREE-NOT: node
//
// lwp_dump after the first loop, inside main: main's open instance is closed
// in the written tree only (the dump at exit counts main once).
// MID:      region 5 total=[[#MID:]]
// MID-SAME: unwound=1
// MID:      nodes ok 4
// MID-NEXT: node 0 path=- count=1 cycles=[[#MID]] self=0
// MID-NEXT: node 1 path=5 count=1 cycles=[[#MID]] self=[[#MID-1200]]
// MID-NEXT: node 2 path=5/2 count=300 cycles=1200 self=900
// MID-NEXT: node 3 path=5/2/1 count=300 cycles=300 self=300
// MID-NOT: node
//
// The node budget (LWP_CCT_NODES, the root included; here from the
// environment, at most the build's LWP_CCT_NODES): with 8 nodes, the paths
// found last fold into the deepest node of theirs that exists, which is
// flagged and counts them; their time stays in its self cycles, so the tree
// still adds up (the children's cycles never above their parent's, the root
// the thread's figures) and the region table does not change. main/d/a/c
// folds into main/d/a, main/d/b into main/d and so does main/d/b/c, inside
// it (folded counts the outermost folded instances: 100 each).
// RUN: env LWP_OUTPUT=%t.d/small.dump LWP_CCT_NODES=8 %qemu_hexagon %t.elf
// RUN: %dumpdump %t.d/small.dump --figures-only --nodes --check-nodes > %t.d/small.txt
// RUN: FileCheck %s --check-prefix=SMALL < %t.d/small.txt
// RUN: env LWP_OUTPUT=%t.d/gsmall.dump LWP_CCT_NODES=8 LWP_HEXAGON_REPLAY=general %qemu_hexagon %t.elf
// RUN: %dumpdump %t.d/gsmall.dump --figures-only --nodes --check-nodes | diff %t.d/small.txt -
// SMALL:      region 1 total=900 self=900
// SMALL-NEXT: region 2 total=2400 self=1800
// SMALL-NEXT: region 3 total=1200 self=900
// SMALL-NEXT: region 4 total=1500 self=700
// SMALL-NEXT: region 5 total=[[#MAIN:]]
// SMALL:      nodes ok 8
// SMALL-NEXT: node 0 path=- count=1 cycles=[[#MAIN]] self=0
// SMALL-NEXT: node 1 path=5 count=1 cycles=[[#MAIN]] self=[[#MAIN-4300]]
// SMALL-NEXT: node 2 path=5/2 count=500 cycles=2000 self=1500
// SMALL-NEXT: node 3 path=5/2/1 count=500 cycles=500 self=500
// SMALL-NEXT: node 4 path=5/3 count=200 cycles=800 self=600
// SMALL-NEXT: node 5 path=5/3/1 count=200 cycles=200 self=200
// SMALL-NEXT: node 6 path=5/4 count=100 cycles=1500 self=1100 folded=100
// SMALL-NEXT: node 7 path=5/4/2 count=100 cycles=400 self=400 folded=100
// SMALL-NOT: node
//
// One node: every instance (main's, and the 1900 inside it) folds into the
// root, whose time is all self time; main's is the one folded instance
// counted.
// RUN: env LWP_OUTPUT=%t.d/one.dump LWP_CCT_NODES=1 %qemu_hexagon %t.elf
// RUN: %dumpdump %t.d/one.dump --figures-only --nodes --check-nodes | FileCheck %s --check-prefix=ONE
// ONE:      nodes ok 1
// ONE-NEXT: node 0 path=- count=1 cycles=[[#ROOT:]]
// ONE-SAME: self=[[#ROOT]] folded=1
//
// Values outside [1, LWP_CCT_NODES]: one warning line, the build's budget.
// RUN: env LWP_OUTPUT= LWP_CCT_NODES=0 %qemu_hexagon %t.elf 2>&1 | FileCheck %s --check-prefix=BAD0
// RUN: env LWP_OUTPUT= LWP_CCT_NODES=16385 %qemu_hexagon %t.elf 2>&1 | FileCheck %s --check-prefix=BADBIG
// BAD0: lwp: ignoring LWP_CCT_NODES='0': not an integer in [1, 16384]; using 16384
// BADBIG: lwp: ignoring LWP_CCT_NODES='16385': not an integer in [1, 16384]; using 16384
#include "lwp/Runtime/lwp_runtime.h"

#define NOINLINE __attribute__((noinline))

static volatile int Sink;

NOINLINE int c(int X) { return X + 1; }
NOINLINE int a(int X) { return c(X) * 3; }
NOINLINE int b(int X) { return c(X) + 5; }
NOINLINE int d(int X) { return a(X) ^ b(X); }

int main(int Argc, char **Argv) {
  int X = 0;
  for (int I = 0; I != 300; ++I)
    X = a(X);
  if (Argc > 1)
    lwp_dump(Argv[1]);
  for (int I = 0; I != 200; ++I)
    X = b(X) + a(X);
  for (int I = 0; I != 100; ++I)
    X = d(X);
  Sink = X;
  return 0;
}
