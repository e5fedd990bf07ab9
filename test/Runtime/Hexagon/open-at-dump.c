// Instances open when a dump is written are closed in its figures, as
// unwound, at the dump's counter value: lwp_dump called from inside two
// regions (the live state is left alone: they end normally afterwards and
// the final dump has them whole), and exit() from inside two loops (the dump
// at exit closes them). An end probe whose region is not open is recorded
// but not accounted.
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env LWP_OUTPUT=%t.d/exit.dump sh -c '%qemu_hexagon %t.elf %t.d/inside.dump; echo status $?' | FileCheck %s --check-prefix=OUT
// (Region lines in reverse ID order: each check uses the totals captured on
// the lines before.)
// RUN: %dumpdump %t.d/inside.dump --figures-only --nonzero-counts | FileCheck %s --check-prefix=INSIDE
// RUN: %dumpdump %t.d/inside.dump --figures-only --nonzero-counts | grep '^region' | sort -k2,2nr | FileCheck %s --check-prefix=INSIDE-SUM
// RUN: %dumpdump %t.d/exit.dump --nonzero-counts --records | FileCheck %s --check-prefix=EXIT
// RUN: %dumpdump %t.d/exit.dump --figures-only --nonzero-counts | grep -v '^count' | sort -k2,2nr | FileCheck %s --check-prefix=EXIT-SUM
//
// OUT: dump inside 0, depth 2
// OUT-NEXT: after: depth 0
// OUT-NEXT: in the loops: depth 2
// OUT-NEXT: status 3
//
// The dump from inside A and B: both closed there, counted as unwound.
// INSIDE:      count 1 1
// INSIDE-NEXT: count 2 1
// INSIDE-NEXT: region 1 total={{[0-9]+}} self={{[0-9]+}} nested=1 children=1 outer=1 unwound=1
// INSIDE-NEXT: region 2 total={{[0-9]+}} self={{[0-9]+}} nested=0 children=0 outer=1 unwound=1
// INSIDE-NEXT: thread 0 top_cycles={{[0-9]+}} top_instances=1 top_nested=1
// INSIDE-SUM:      region 2 total=[[#TB:]]
// INSIDE-SUM-SAME: self=[[#TB]] nested=0
// INSIDE-SUM-NEXT: region 1 total=[[#TA:]]
// INSIDE-SUM-SAME: self=[[#TA-TB]] nested=1
//
// At exit: A and B whole; E's end recorded, not accounted (no count, no
// figure); C and D closed by the dump at exit.
// EXIT:      header num_ids=6 cap=100 dropped=0
// EXIT:      count 1 1
// EXIT-NEXT: count 2 1
// EXIT-NEXT: count 3 1
// EXIT-NEXT: count 4 1
// EXIT-NEXT: region 1 total={{[0-9]+}} self={{[0-9]+}} nested=2 children=1 outer=1 unwound=0
// EXIT-NEXT: region 2 total={{[0-9]+}} self={{[0-9]+}} nested=0 children=0 outer=1 unwound=0
// EXIT-NEXT: region 3 total={{[0-9]+}} self={{[0-9]+}} nested=1 children=1 outer=1 unwound=1
// EXIT-NEXT: region 4 total={{[0-9]+}} self={{[0-9]+}} nested=0 children=0 outer=1 unwound=1
// EXIT-NEXT: thread 0 records=7 top_cycles={{[0-9]+}} top_instances=2 top_nested=3
// EXIT-NEXT: record 0 S id=1
// EXIT-NEXT: record 1 S id=2
// EXIT-NEXT: record 2 E id=2
// EXIT-NEXT: record 3 E id=1
// EXIT-NEXT: record 4 E id=5
// EXIT-NEXT: record 5 S id=3
// EXIT-NEXT: record 6 S id=4
// EXIT-SUM:      region 4 total=[[#TD:]]
// EXIT-SUM-SAME: self=[[#TD]] nested=0
// EXIT-SUM-NEXT: region 3 total=[[#TC:]]
// EXIT-SUM-SAME: self=[[#TC-TD]] nested=1
// EXIT-SUM-NEXT: region 2 total=[[#TB:]]
// EXIT-SUM-SAME: self=[[#TB]] nested=0
// EXIT-SUM-NEXT: region 1 total=[[#TA:]]
// EXIT-SUM-SAME: self=[[#TA-TB]] nested=2
// EXIT-SUM-NEXT: thread 0 top_cycles=[[#TA+TC]] top_instances=2 top_nested=3
#include "lwp/Runtime/lwp_runtime.h"
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

// A (ID 1), B (2), C (3), D (4), E (5).
LWP_TEST_MODULE(Open, 5)
#define PROBE(Kind, K) LWP_TEST_PROBE(Kind, &Open.Slots[K])

static void print(const char *S, uint64_t V) {
  lwp_hex_puts(1, S);
  lwp_hex_put_udec(1, V);
  lwp_hex_puts(1, "\n");
}

// Ends the program from inside D, in C (the loops of a kernel).
__attribute__((noinline)) static void kernel(void) {
  volatile int Frame = 0;
  PROBE(start, 2);
  for (int I = 0; I != 3; ++I) {
    PROBE(start, 3);
    if (I == 0) {
      print("in the loops: depth ", lwp_hex_stack_depth());
      exit(3);
    }
    PROBE(end, 3);
  }
  PROBE(end, 2);
  (void)Frame;
}

int main(int Argc, char **Argv) {
  PROBE(start, 0);
  PROBE(start, 1);
  int Err = lwp_dump(Argc > 1 ? Argv[1] : "inside.dump");
  lwp_hex_puts(1, "dump inside ");
  lwp_hex_put_dec(1, Err);
  print(", depth ", lwp_hex_stack_depth());
  PROBE(end, 1);
  PROBE(end, 0);
  print("after: depth ", lwp_hex_stack_depth());
  PROBE(end, 4); // E is not open
  kernel();
  return 0;
}
