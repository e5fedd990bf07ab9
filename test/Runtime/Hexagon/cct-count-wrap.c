// A calling-context node's count past 2^32: the replay adds 1 to the count's
// low word alone (lwp_replay.S with a memory add, the C path the same way),
// and the runtime carries the low word's wraps into the high word at each
// fold of the probe count and before a dump. The program runs 5 instances of
// a region (a leaf pair: the assembly's block, and the C path with
// LWP_HEXAGON_REPLAY=general), sets its node's count to 2^32 - 2 as if that
// many had run (white box: struct lwp_hex_node of lwp_hexagon_runtime.c),
// runs 5 more, and the dump counts 2^32 + 3 for the node.
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: env LWP_OUTPUT=%t.dump %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
// RUN: %dumpdump %t.dump --figures-only --nodes | FileCheck %s
// RUN: env LWP_OUTPUT=%t.g.dump LWP_HEXAGON_REPLAY=general %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
// RUN: %dumpdump %t.g.dump --figures-only --nodes | FileCheck %s
//
// OUT: node 1 count 5
// The region table counts the 10 executions that ran; the node, the 2^32 - 2
// set and the 5 after.
// (No --check-nodes: the count set makes the node's count exceed its
// region's.)
// CHECK: count 1 10
// CHECK: node 0 path=- count=10
// CHECK-NEXT: node 1 path=1 count=4294967299
#include "lwp/Runtime/DumpFormat.h"
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

LWP_TEST_MODULE(Module, 1)

/* struct lwp_hex_node (lwp_hexagon_runtime.c), 48 bytes. */
struct Node {
  struct lwp_dump_node D;
  uint32_t First, Next, LastLow, Pad;
};
extern struct Node lwp_hex_nodes[];

/* One instance of region 1, empty. */
__attribute__((noinline)) static void pair(void) {
  volatile int Frame = 0;
  (void)Frame;
  LWP_TEST_PROBE(start, &Module.Slots[0]);
  LWP_TEST_PROBE(end, &Module.Slots[0]);
}

int main(void) {
  for (int I = 0; I != 5; ++I)
    pair();
  /* Replays the journal: node 1 (the first node after the root) exists. */
  lwp_hex_stack_depth();
  lwp_hex_puts(1, "node 1 count ");
  lwp_hex_put_udec(1, lwp_hex_nodes[1].D.count);
  lwp_hex_puts(1, "\n");
  /* As after 2^32 - 2 instances and a carry (the low word at the last
   * carry: the count's). */
  lwp_hex_nodes[1].D.count = 0xfffffffeu;
  lwp_hex_nodes[1].LastLow = 0xfffffffeu;
  for (int I = 0; I != 5; ++I)
    pair();
  return 0;
}
