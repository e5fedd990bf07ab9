// A non-local exit out of two nested instrumented functions: main's region M
// calls f (region F), which calls g (region G), which longjmps back into main
// (a minimal setjmp/longjmp in Hexagon assembly below). F and G never reach
// their end probes: the next probe of main (a function whose stack lies
// above theirs) closes them, as unwound, at its own counter value, and M's
// total still includes them (a child never exceeds its parent).
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
//
// The next probe of main is M's end: the end handler closes G and F first.
// Everything is recorded, and the figures equal those computed from the
// records (which close G and F at M's end record).
// (Region lines in reverse ID order: each check uses the totals captured on
// the lines before.)
// RUN: env LWP_OUTPUT=%t.end.dump %qemu_hexagon %t.elf end | FileCheck %s --check-prefix=OUT
// RUN: %dumpdump %t.end.dump --figures-only --nonzero-counts > %t.end.table
// RUN: %dumpdump %t.end.dump --figures-only --nonzero-counts --from-records > %t.end.records
// RUN: diff %t.end.table %t.end.records
// RUN: grep '^region' %t.end.table | sort -k2,2nr | FileCheck %s --check-prefix=END
//
// The next probe of main is the start of another region N: the start handler
// closes G and F (their stack lies below the caller's) before it pushes N.
// RUN: env LWP_OUTPUT=%t.start.dump %qemu_hexagon %t.elf start | FileCheck %s --check-prefix=OUT
// RUN: %dumpdump %t.start.dump --figures-only --nonzero-counts | FileCheck %s --check-prefix=COUNTS
// RUN: %dumpdump %t.start.dump --figures-only --nonzero-counts | grep '^region' | sort -k2,2nr | FileCheck %s --check-prefix=START
//
// OUT: back in main after 1 longjmp, depth 0
//
// Probes inside: F holds G's start only (G has no end), M holds f's and g's
// starts (and N's pair).
// END:      region 3 total=[[#TG:]]
// END-SAME: self=[[#TG]] nested=0 children=0 outer=1 unwound=1
// END-NEXT: region 2 total=[[#TF:]]
// END-SAME: self=[[#TF-TG]] nested=1 children=1 outer=1 unwound=1
// END-NEXT: region 1 total=[[#TM:]]
// END-SAME: self=[[#TM-TF]] nested=2 children=1 outer=1 unwound=0
//
// COUNTS:      count 1 1
// COUNTS-NEXT: count 2 1
// COUNTS-NEXT: count 3 1
// COUNTS-NEXT: count 4 1
// COUNTS:      thread 0 top_cycles=[[#]] top_instances=1 top_nested=4
// START:      region 4 total=[[#TN:]]
// START-SAME: self=[[#TN]] nested=0 children=0 outer=1 unwound=0
// START-NEXT: region 3 total=[[#TG:]]
// START-SAME: self=[[#TG]] nested=0 children=0 outer=1 unwound=1
// START-NEXT: region 2 total=[[#TF:]]
// START-SAME: self=[[#TF-TG]] nested=1 children=1 outer=1 unwound=1
// START-NEXT: region 1 total=[[#TM:]]
// START-SAME: self=[[#TM-TF-TN]] nested=4 children=2 outer=1 unwound=0
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

// test_setjmp(buf) saves r16-r27, r31:30 (LR, FP) and r29 (SP) in buf and
// returns 0; test_longjmp(buf, v) restores them and returns v from it.
__asm__("  .text\n"
        "  .globl test_setjmp\n"
        "  .type test_setjmp, @function\n"
        "  .p2align 4\n"
        "test_setjmp:\n"
        "  { memd(r0+#0) = r17:16; memd(r0+#8) = r19:18 }\n"
        "  { memd(r0+#16) = r21:20; memd(r0+#24) = r23:22 }\n"
        "  { memd(r0+#32) = r25:24; memd(r0+#40) = r27:26 }\n"
        "  { memd(r0+#48) = r31:30; memw(r0+#56) = r29 }\n"
        "  { r0 = #0; jumpr r31 }\n"
        "  .size test_setjmp, . - test_setjmp\n"
        "  .globl test_longjmp\n"
        "  .type test_longjmp, @function\n"
        "  .p2align 4\n"
        "test_longjmp:\n"
        "  { r17:16 = memd(r0+#0); r19:18 = memd(r0+#8) }\n"
        "  { r21:20 = memd(r0+#16); r23:22 = memd(r0+#24) }\n"
        "  { r25:24 = memd(r0+#32); r27:26 = memd(r0+#40) }\n"
        "  { r31:30 = memd(r0+#48); r29 = memw(r0+#56) }\n"
        "  { r0 = r1; jumpr r31 }\n"
        "  .size test_longjmp, . - test_longjmp\n");
__attribute__((returns_twice)) int test_setjmp(uint32_t *Buf);
__attribute__((noreturn)) void test_longjmp(uint32_t *Buf, int V);

// M (ID 1), F (2), G (3), N (4).
LWP_TEST_MODULE(Jmp, 4)
#define PROBE(Kind, K) LWP_TEST_PROBE(Kind, &Jmp.Slots[K])

static uint32_t Env[16];
static volatile int Jumps;

// (The volatile locals keep a frame, which saves the return address, around
// the inline-asm probes.)
__attribute__((noinline)) static void g(void) {
  volatile int Frame = 0;
  PROBE(start, 2);
  ++Jumps;
  test_longjmp(Env, 1);
}

__attribute__((noinline)) static void f(void) {
  volatile int Frame = 0;
  PROBE(start, 1);
  g();
  PROBE(end, 1); // never reached
  (void)Frame;
}

int main(int Argc, char **Argv) {
  int NextIsStart = Argc > 1 && Argv[1][0] == 's';
  PROBE(start, 0);
  if (!test_setjmp(Env))
    f();
  if (NextIsStart) {
    PROBE(start, 3);
    PROBE(end, 3);
  }
  PROBE(end, 0);
  lwp_hex_puts(1, "back in main after ");
  lwp_hex_put_udec(1, (uint64_t)Jumps);
  lwp_hex_puts(1, " longjmp, depth ");
  lwp_hex_put_udec(1, lwp_hex_stack_depth());
  lwp_hex_puts(1, "\n");
  return 0;
}
