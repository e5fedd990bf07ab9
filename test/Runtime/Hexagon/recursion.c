// Exact figures of a recursive region: a function region R that calls itself
// N deep, inside a region W of main. R's count is exact; its total is the
// inclusive time of its outermost instance only (a region nested in itself
// counts once); the self time of all its instances adds up to that total (R
// has no other child); W's self and R's total add up to W's total; nested
// counts every probe inside (2 per nested instance). The inner starts of R
// take the handlers' slow path (the region is open).
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
//
// 300 deep, everything recorded: the region table equals the figures
// computed from the records.
// RUN: env LWP_CAP=1000 LWP_OUTPUT=%t.300.dump %qemu_hexagon %t.elf 300 | FileCheck %s --check-prefix=OUT300
// RUN: %dumpdump %t.300.dump --figures-only --nonzero-counts > %t.300.table
// RUN: %dumpdump %t.300.dump --figures-only --nonzero-counts --from-records > %t.300.records
// RUN: diff %t.300.table %t.300.records
// RUN: FileCheck %s --check-prefix=R300 < %t.300.table
//
// 300 deep with cap 10: the first 10 instances of R are recorded, the
// outermost first, and so is each one's end, though R's count passed the cap
// while they were open (their ends take the replay's general path): every
// recorded start pairs with its end, and the report repairs none.
// RUN: env LWP_CAP=10 LWP_OUTPUT=%t.cap.dump %qemu_hexagon %t.elf 300 | FileCheck %s --check-prefix=OUT300
// RUN: lwp-report --raw %t.cap.dump | FileCheck %s --check-prefix=CAP
// CAP:           thread 0: tid 0, 22 records,
// CAP-NEXT:      {{^}}  start 1 site
// CAP-COUNT-10:  {{^}}  start 2 site
// CAP-COUNT-10:  {{^}}  end 2 site
// CAP-NEXT:      {{^}}  end 1 site
//
// 100000 deep: deeper than the shadow stack (4096 frames: W and 4095
// instances of R); the starts past it are counted but push nothing, and
// their ends do no accounting. The figures are still exact.
// RUN: env LWP_OUTPUT=%t.big.dump %qemu_hexagon %t.elf 100000 | FileCheck %s --check-prefix=OUTBIG
// RUN: %dumpdump %t.big.dump --figures-only --nonzero-counts | FileCheck %s --check-prefix=BIG
//
// OUT300: result 299, depth after 0
// R300:      count 1 1
// R300-NEXT: count 2 300
// R300-NEXT: region 1 total=[[#TW:]] self=[[#SW:]] nested=600 children=1 outer=1 unwound=0
// R300-NEXT: region 2 total=[[#TW-SW]] self=[[#TW-SW]] nested=598 children=299 outer=1 unwound=0
// R300-NEXT: thread 0 top_cycles=[[#TW]] top_instances=1 top_nested=600
//
// OUTBIG: result 99999, depth after 0
// BIG:      count 1 1
// BIG-NEXT: count 2 100000
// BIG-NEXT: region 1 total=[[#TW:]] self=[[#SW:]] nested=200000 children=1 outer=1 unwound=0
// BIG-NEXT: region 2 total=[[#TW-SW]] self=[[#TW-SW]] nested=199998 children=4094 outer=1 unwound=0
// BIG-NEXT: thread 0 top_cycles=[[#TW]] top_instances=1 top_nested=200000
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

// W (ID 1) and R (ID 2).
LWP_TEST_MODULE(Rec, 2)

// N + 1 instances of R, the outermost first. (The probes are inline asm
// calls that keep r31, so rec's frame may be set up around the recursive
// call only; the volatile local gives it one on every path, as before the
// probe packet kept r31.)
__attribute__((noinline)) static unsigned rec(unsigned N) {
  volatile unsigned Frame = N;
  LWP_TEST_PROBE(start, &Rec.Slots[1]);
  unsigned V = N ? rec(N - 1) + 1 : 0;
  LWP_TEST_PROBE(end, &Rec.Slots[1]);
  return V + Frame - N;
}

int main(int Argc, char **Argv) {
  unsigned N = 0;
  for (const char *P = Argc > 1 ? Argv[1] : "1"; *P; ++P)
    N = N * 10 + (unsigned)(*P - '0');
  LWP_TEST_PROBE(start, &Rec.Slots[0]);
  unsigned V = rec(N - 1);
  LWP_TEST_PROBE(end, &Rec.Slots[0]);
  lwp_hex_puts(1, "result ");
  lwp_hex_put_udec(1, V);
  lwp_hex_puts(1, ", depth after ");
  lwp_hex_put_udec(1, lwp_hex_stack_depth());
  lwp_hex_puts(1, "\n");
  return 0;
}
