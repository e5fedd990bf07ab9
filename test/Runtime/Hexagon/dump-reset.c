// lwp_dump on demand, lwp_reset (also inside an open instance), and the
// capped start path's overflow handling (bias kept below 2^30, counts exact
// past 2^31), on a hand-made module of 7 regions: slot K - 1 has ID K.
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d
// RUN: env LWP_CAP=3 LWP_OUTPUT=%t.d/exit.dump sh -c '%qemu_hexagon %t.elf first.dump; echo status $?' | FileCheck %s
// RUN: %dumpdump %t.d/first.dump --nonzero-counts --nodes --check-nodes | FileCheck %s --check-prefix=FIRST
// RUN: %dumpdump %t.d/second.dump --nonzero-counts --nodes --check-nodes | FileCheck %s --check-prefix=SECOND
// RUN: %dumpdump %t.d/exit.dump --nonzero-counts --nodes --check-nodes | FileCheck %s --check-prefix=EXIT
//
// CHECK: dump first 0
// CHECK-NEXT: dump bad -1
// CHECK-NEXT: after reset: depth 0
// CHECK-NEXT: after reset: count 1 = 0, bias 1 = -3, records 1, dropped 0
// CHECK-NEXT: dump second 0
// CHECK-NEXT: overflow: count 7 = 3221225475, records 0, dropped 3
// CHECK-NEXT: exit 5
// CHECK-NEXT: status 5
//
// Five pairs of ID 1 with cap 3: 3 pairs kept, 4 records dropped; every
// figure exact, in compensated time (an empty instance: 0 packets, 6 as
// read, all of them its own probes').
// FIRST: num_ids=8 cap=3 dropped=4
// FIRST: module 0 image=0 blob={{[0-9a-f]+}} first_id=1 num_regions=7
// FIRST-NEXT: count 1 5
// FIRST-NEXT: region 1 total=0 self=0 nested=0 children=0 outer=5 unwound=0
// FIRST-NEXT: thread 0 records=6 top_cycles=0 top_instances=5 top_nested=0
// FIRST-NEXT: nodes ok 2
// FIRST-NEXT: node 0 path=- count=5 cycles=0 self=0
// FIRST-NEXT: node 1 path=1 count=5 cycles=0 self=0
// FIRST-NEXT: summary id=1 starts=3 ends=3
// After lwp_reset: two pairs of ID 2 only, and the end of ID 3, whose start
// came before the reset: recorded, not counted; the dump is written again.
// SECOND: cap=3 dropped=0
// SECOND: count 2 2
// SECOND-NEXT: region 2 total=0 self=0 nested=0 children=0 outer=2 unwound=0
// SECOND-NEXT: thread 0 records=5 top_cycles=0 top_instances=2 top_nested=0
// The calling-context tree is reset too: ID 1's node is gone.
// SECOND-NEXT: nodes ok 2
// SECOND-NEXT: node 0 path=- count=2 cycles=0 self=0
// SECOND-NEXT: node 1 path=2 count=2 cycles=0 self=0
// SECOND-NEXT: summary id=2 starts=2 ends=2
// SECOND-NEXT: summary id=3 starts=0 ends=1
// At exit: ID 2 and the overflowed ID 7, started twice at the same stack
// position (the second start closes the first, unwound) and ended once. Its
// outermost instances are counted as its count minus its inner instances:
// the executions the program pretended (the bias it set) count too.
// EXIT: cap=3 dropped=3
// EXIT: count 2 2
// EXIT-NEXT: count 7 3221225475
// EXIT-NEXT: region 2 total=0 self=0 nested=0 children=0 outer=2 unwound=0
// EXIT-NEXT: region 7 total=[[#T7:]]
// EXIT-SAME: self=[[#T7]] nested=0 children=0 outer=3221225475 unwound=1
// EXIT-NEXT: thread 0 records=5 top_cycles=[[#T7]] top_instances=4 top_nested=0
// EXIT-NEXT: nodes ok 3
// EXIT-NEXT: node 0 path=- count=4 cycles=[[#T7]] self=0
// EXIT-NEXT: node 1 path=2 count=2 cycles=0 self=0
// EXIT-NEXT: node 2 path=7 count=2 cycles=[[#T7]] self=[[#T7]]
#include "lwp/Runtime/lwp_runtime.h"
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

LWP_TEST_MODULE(Module, 7)

#define PROBE(kind, id) LWP_TEST_PROBE(kind, &Module.Slots[(id) - 1])

static void print(const char *S, int64_t V) {
  lwp_hex_puts(1, S);
  lwp_hex_put_dec(1, V);
  lwp_hex_put_char(1, '\n');
}

int main(int Argc, char **Argv) {
  for (int I = 0; I != 5; ++I) {
    PROBE(start, 1);
    PROBE(end, 1);
  }
  print("dump first ", lwp_dump(Argv[1]));
  print("dump bad ", lwp_dump("/nonexistent/dir/x.dump"));
  // A reset inside an open instance of ID 3: the stack is emptied, so its
  // end finds no open instance (recorded, not accounted).
  PROBE(start, 3);
  lwp_reset();
  print("after reset: depth ", lwp_hex_stack_depth());
  PROBE(end, 3);
  lwp_hex_puts(1, "after reset: count 1 = ");
  lwp_hex_put_udec(1, lwp_hex_count(1));
  lwp_hex_puts(1, ", bias 1 = ");
  lwp_hex_put_dec(1, Module.Slots[0].bias);
  lwp_hex_puts(1, ", records ");
  lwp_hex_put_udec(1, lwp_hex_num_records());
  lwp_hex_puts(1, ", dropped ");
  lwp_hex_put_udec(1, lwp_hex_dropped());
  lwp_hex_puts(1, "\n");
  PROBE(start, 2);
  PROBE(end, 2);
  PROBE(start, 2);
  PROBE(end, 2);
  print("dump second ", lwp_dump("second.dump"));

  // Pretend ID 7 ran 3 + 0x3ffffffe times past cap 3 (bias 0x3ffffffe):
  // the next start makes the bias 2^30 - 1 (the start handler moves
  // nothing), the one after (the slow path: the region is open at the same
  // stack position) 2^30, which it moves 2^29 of to the slot's overflow word
  // (as the fold would), then the count is exact. Then 2^31 more executions
  // through the overflow word.
  Module.Slots[6].bias = 0x3ffffffe;
  Module.Slots[6].overflow = 4; // 4 * 2^29 = 2^31
  PROBE(start, 7);
  PROBE(start, 7);
  PROBE(end, 7);
  lwp_hex_puts(1, "overflow: count 7 = ");
  lwp_hex_put_udec(1, lwp_hex_count(7));
  lwp_hex_puts(1, ", records ");
  lwp_hex_put_udec(1, lwp_hex_num_records() - 5);
  lwp_hex_puts(1, ", dropped ");
  lwp_hex_put_udec(1, lwp_hex_dropped());
  lwp_hex_puts(1, "\n");
  // The bias must have been moved: below 2^30, above 0 (capped).
  if (Module.Slots[6].bias != 0x20000000 || Module.Slots[6].overflow != 5)
    return 1;
  lwp_hex_puts(1, "exit 5\n");
  return 5;
}
