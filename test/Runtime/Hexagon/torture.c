// Register torture: an assembly kernel keeps values live in r0-r13, r16-r27,
// P0-P3, M0/M1, USR, SA0/LC0/SA1/LC1 and in two nested hardware loops whose
// bodies call the probes, once with probe calls ({ r28 = r31; r14 = ##slot;
// call handler }, the packet compiled code emits) and once with nops in their
// place. Every register the LLVM 22 call contract (PS_call_instrprof_custom:
// Defs = r0, r14, r15, r28, r29-r31, pc) keeps must come out identical, and r0,
// which LWP's probes keep too (they clobber r14, r15 and r28 only). The probes
// take every handler path: recording, capped (LWP_CAP=2), the c20 and the
// UPCYCLE tail, a full buffer (the runtime rebuilt with 8 records), a journal
// replayed after every probe (the C code that saves every register), and what
// the replay does besides: a slot whose module never registered, a recursive
// instance (an inner function starts and ends the region open in the kernel), a
// start of the open region at the same stack position (closing it as unwound),
// an end without an open instance, the fold of the second run (the drop count
// is set just below 2^30 before it), a region whose bias the program sets to
// 2^30 - 1 (its next start moves 2^29 of it into its overflow word). The
// regions: slots 0-2 of a registered module (IDs 1-3) and slot 0 of a blob
// nothing registers.
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: env LWP_CAP=2 LWP_OUTPUT=%t.dump %qemu_hexagon %t.elf | FileCheck %s
// RUN: %dumpdump %t.dump --nonzero-counts | FileCheck %s --check-prefix=DUMP
// RUN: env LWP_CAP=2 LWP_HEXAGON_JOURNAL=1 LWP_OUTPUT=%t.j1.dump %qemu_hexagon %t.elf | FileCheck %s
// RUN: %dumpdump %t.j1.dump --nonzero-counts | FileCheck %s --check-prefix=DUMP
// RUN: env LWP_CAP=2 LWP_HEXAGON_COUNTER=upcycle LWP_OUTPUT=%t.up.dump %qemu_hexagon %t.elf | FileCheck %s --check-prefix=UP
// RUN: %dumpdump %t.up.dump --nonzero-counts --records | FileCheck %s --check-prefix=UPDUMP
//
// Full buffer: the same program against a runtime with an 8-record buffer.
// RUN: rm -rf %t.small && mkdir %t.small
// RUN: %hexagon_cc -DLWP_BUFFER_RECORDS=8 -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/hexagon/lwp_hexagon_runtime.c -o %t.small/rt.o
// RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_handler.S -o %t.small/h.o
// RUN: %hexagon_cc -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/common/lwp_dump_writer.c -o %t.small/w.o
// RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_crt0.S -o %t.small/crt0.o
// RUN: ld.lld -static %t.small/crt0.o %t.o %t.small/rt.o %t.small/h.o %t.small/w.o %lwp_hexagon_lib -o %t.small.elf
// RUN: env LWP_OUTPUT=%t.small.dump %qemu_hexagon %t.small.elf | FileCheck %s --check-prefix=FULL
// RUN: %dumpdump %t.small.dump --nonzero-counts --records | FileCheck %s --check-prefix=FULLDUMP
//
// CHECK: counter 4
// CHECK-NEXT: checked 39 values, 0 differ
// CHECK-NEXT: inner trips 12, outer trips 3
// CHECK-NEXT: ids 1 2 3 0
// CHECK-NEXT: second run: 0 differ
// CHECK-NEXT: count 1: 2, count 2: 24, count 3: 1073741831, dropped in the second run: 32
// CHECK-NEXT: fold: bias 536870917, overflow 1, depth 0
// UP: counter 3
// UP-NEXT: checked 39 values, 0 differ
// UP-NEXT: inner trips 12, outer trips 3
// UP-NEXT: ids 1 2 3 0
// UP-NEXT: second run: 0 differ
// FULL: counter 4
// FULL-NEXT: checked 39 values, 0 differ
// FULL-NEXT: inner trips 12, outer trips 3
// FULL-NEXT: ids 1 2 3 0
// FULL-NEXT: second run: 0 differ
// Cap 100: the buffer full after 8 records, 2 more drops in the second run.
// FULL-NEXT: count 1: 2, count 2: 24, count 3: 1073741929, dropped in the second run: 34
// FULL-NEXT: fold: bias 536870917, overflow 1, depth 0
//
// Per torture run: ID 1 one pair, ID 2 12 pairs in the loops, the
// unregistered slot one pair (counted nowhere), ID 3 (counted past the cap:
// its bias was set to 2^30 - 1) an instance, an inner one in the inner
// function, an instance started at the same stack position (which closes the
// first as unwound, 2 in all) and an end without an open instance. Two runs;
// cap 2 keeps 2 pairs of ID 1 and of ID 2. ID 3: cap + bias + 2^29 x
// overflow = 2 + (2^29 + 5) + 2^29, its outermost instances counted as its count minus
// its inner ones (the bias set by the program holds no instance). Every
// figure is exact in both modes and with a full buffer (the same packets),
// in compensated time (header flags 5, costs 0): an instance of ID 1 and ID
// 2 holds nothing but its own probes, 0 packets (6 as read); ID 3 holds the
// inner pairs (4 probes, none of their packets), one child each run.
// DUMP: cap=2 dropped=1072693279 {{.*}} probe_pair_cost=0 probe_nested_cost=0
// DUMP: flags=5
// DUMP: module 0 image=0 blob={{[0-9a-f]+}} first_id=1 num_regions=3
// DUMP-NEXT: count 1 2
// DUMP-NEXT: count 2 24
// DUMP-NEXT: count 3 1073741831
// DUMP-NEXT: region 1 total=0 self=0 nested=0 children=0 outer=2 unwound=0
// DUMP-NEXT: region 2 total=0 self=0 nested=0 children=0 outer=24 unwound=0
// DUMP-NEXT: region 3 total=[[#T3:]]
// DUMP-SAME: self=[[#T3]] nested=4 children=2 outer=1073741829 unwound=2
// DUMP-NEXT: thread 0 records=8 top_cycles=[[#T3]] top_instances=30 top_nested=4
// DUMP-NEXT: summary id=1 starts=2 ends=2
// DUMP-NEXT: summary id=2 starts=2 ends=2
// UPDUMP: header {{.*}} counter=3
// UPDUMP: region 3 total=0 self=0 nested=4 children=2 outer=1073741829 unwound=2
// UPDUMP-NEXT: thread 0 records=8 top_cycles=0 top_instances=30 top_nested=4
// UPDUMP: record 0 S id=1 site={{[0-9a-f]+}} cycles=0
// UPDUMP: record 7 E id=1 site={{[0-9a-f]+}} cycles=0
// FULLDUMP: cap=100 dropped=1072693281
// FULLDUMP: count 1 2
// FULLDUMP-NEXT: count 2 24
// FULLDUMP-NEXT: count 3 1073741929
// FULLDUMP-NEXT: region 1 total=0 self=0 nested=0 children=0 outer=2 unwound=0
// FULLDUMP-NEXT: region 2 total=0 self=0 nested=0 children=0 outer=24 unwound=0
// FULLDUMP-NEXT: region 3 total=[[#T3F:]]
// FULLDUMP-SAME: self=[[#T3F]] nested=4 children=2 outer=1073741927 unwound=2
// FULLDUMP-NEXT: thread 0 records=8 top_cycles=[[#T3F]] top_instances=30 top_nested=4
// FULLDUMP-NEXT: record 0 S id=1
// FULLDUMP-NEXT: record 1 E id=1
// FULLDUMP-NEXT: record 2 S id=2
// FULLDUMP-NEXT: record 3 E id=2
// FULLDUMP-NEXT: record 4 S id=2
// FULLDUMP-NEXT: record 5 E id=2
// FULLDUMP-NEXT: record 6 S id=2
// FULLDUMP-NEXT: record 7 E id=2
// FULLDUMP-NEXT: summary
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

enum { NumOut = 40 };

// The registered module (IDs 1 and 2) and the blob nothing registers.
LWP_TEST_MODULE(TortureModule, 3)
LWP_TEST_BLOB(Unregistered, 1);

// torture_<name>(uint32_t *out): r0 = out. Saves the callee-saved registers,
// sets every register under test, runs the probes in nested hardware loops
// and after re-setting SA/LC, then stores every register under test to out.
#define STR(x) #x
#define TORTURE(name, START, END)                                              \
  "  .text\n  .globl " #name "\n  .type " #name ",@function\n  .p2align 4\n"   \
  #name ":\n"                                                                  \
  "  { allocframe(#64) }\n"                                                    \
  "  { memd(r29+#0) = r17:16; memd(r29+#8) = r19:18 }\n"                       \
  "  { memd(r29+#16) = r21:20; memd(r29+#24) = r23:22 }\n"                     \
  "  { memd(r29+#32) = r25:24; memd(r29+#40) = r27:26 }\n"                     \
  "  { memw(r29+#48) = r0 }\n"                                                 \
  "  { r28 = ##0x5a3c96e1 }\n  { p3:0 = r28 }\n"                               \
  "  { r28 = ##0x13572468 }\n  { m0 = r28 }\n"                                 \
  "  { r28 = ##0x2468ace0 }\n  { m1 = r28 }\n"                                 \
  "  { r28 = ##0x00400001 }\n  { usr = r28 }\n"                                \
  "  { r1 = ##0xa1010101; r2 = ##0xa2020202 }\n"                               \
  "  { r3 = ##0xa3030303; r4 = ##0xa4040404 }\n"                               \
  "  { r5 = ##0xa5050505; r6 = ##0xa6060606 }\n"                               \
  "  { r7 = ##0xa7070707; r8 = ##0xa8080808 }\n"                               \
  "  { r9 = ##0xa9090909; r10 = ##0xaa0a0a0a }\n"                              \
  "  { r11 = ##0xab0b0b0b; r12 = #0 }\n"                                       \
  "  { r0 = ##0xa0000a0a }\n"                                                  \
  "  { r13 = #0; r16 = ##0xb0101010 }\n"                                       \
  "  { r17 = ##0xb1111111; r18 = ##0xb2121212 }\n"                             \
  "  { r19 = ##0xb3131313; r20 = ##0xb4141414 }\n"                             \
  "  { r21 = ##0xb5151515; r22 = ##0xb6161616 }\n"                             \
  "  { r23 = ##0xb7171717; r24 = ##0xb8181818 }\n"                             \
  "  { r25 = ##0xb9191919; r26 = ##0xba1a1a1a }\n"                             \
  "  { r27 = ##0xbb1b1b1b }\n"                                                 \
  START(TortureModule, 3, 0) END(TortureModule, 3, 0)                         \
  "  { loop1(1f, #3) }\n"                                                      \
  "1:\n  { loop0(2f, #4) }\n"                                                  \
  "2:\n" START(TortureModule, 3, 1) END(TortureModule, 3, 1)                   \
  "  { r13 = add(r13, #1) }:endloop0\n"                                        \
  "  { r12 = add(r12, #1) }:endloop1\n"                                        \
  "  { r28 = ##0x00011110 }\n  { sa0 = r28 }\n"                                \
  "  { r28 = ##0x00022220 }\n  { sa1 = r28 }\n"                                \
  "  { r28 = #33 }\n  { lc0 = r28 }\n"                                         \
  "  { r28 = #44 }\n  { lc1 = r28 }\n"                                         \
  START(Unregistered, 1, 0) END(Unregistered, 1, 0)                           \
  START(TortureModule, 3, 2)                                                  \
  "  { call " #name "_inner }\n"                                               \
  START(TortureModule, 3, 2) END(TortureModule, 3, 2)                         \
  END(TortureModule, 3, 2)                                                    \
  "  { r28 = memw(r29+#48) }\n"                                                \
  "  { memw(r28+#0) = r0 }\n"                                                  \
  "  { memw(r28+#4) = r1; memw(r28+#8) = r2 }\n"                               \
  "  { memw(r28+#12) = r3; memw(r28+#16) = r4 }\n"                             \
  "  { memw(r28+#20) = r5; memw(r28+#24) = r6 }\n"                             \
  "  { memw(r28+#28) = r7; memw(r28+#32) = r8 }\n"                             \
  "  { memw(r28+#36) = r9; memw(r28+#40) = r10 }\n"                            \
  "  { memw(r28+#44) = r11; memw(r28+#48) = r12 }\n"                           \
  "  { memw(r28+#52) = r13; memw(r28+#64) = r16 }\n"                           \
  "  { memw(r28+#68) = r17; memw(r28+#72) = r18 }\n"                           \
  "  { memw(r28+#76) = r19; memw(r28+#80) = r20 }\n"                           \
  "  { memw(r28+#84) = r21; memw(r28+#88) = r22 }\n"                           \
  "  { memw(r28+#92) = r23; memw(r28+#96) = r24 }\n"                           \
  "  { memw(r28+#100) = r25; memw(r28+#104) = r26 }\n"                         \
  "  { memw(r28+#108) = r27; r0 = p3:0 }\n"                                    \
  "  { memw(r28+#112) = r0; r0 = m0 }\n"                                       \
  "  { memw(r28+#116) = r0; r0 = m1 }\n"                                       \
  "  { memw(r28+#120) = r0; r0 = usr }\n"                                      \
  "  { memw(r28+#124) = r0; r0 = sa0 }\n"                                      \
  "  { memw(r28+#128) = r0; r0 = lc0 }\n"                                      \
  "  { memw(r28+#132) = r0; r0 = sa1 }\n"                                      \
  "  { memw(r28+#136) = r0; r0 = lc1 }\n"                                      \
  "  { memw(r28+#140) = r0; r0 = r29 }\n"                                      \
  "  { memw(r28+#144) = r0 }\n"                                                \
  "  { r17:16 = memd(r29+#0); r19:18 = memd(r29+#8) }\n"                       \
  "  { r21:20 = memd(r29+#16); r23:22 = memd(r29+#24) }\n"                     \
  "  { r25:24 = memd(r29+#32); r27:26 = memd(r29+#40) }\n"                     \
  "  { r28 = #0 }\n  { usr = r28 }\n"                                          \
  "  { dealloc_return }\n"                                                     \
  "  .size " #name ", . - " #name "\n"

#define CALL_START(Blob, N, K) "  " LWP_TEST_PROBE_ASM(start, Blob, N, K)
#define CALL_END(Blob, N, K) "  " LWP_TEST_PROBE_ASM(end, Blob, N, K)
#define NOP_START(Blob, N, K) "  { nop }\n"
#define NOP_END(Blob, N, K) "  { nop }\n"

// <name>_inner: starts and ends slot 2 one stack frame below the kernel
// (recursion: both probes take the slow path); keeps every register.
#define INNER(name, START, END)                                                \
  "  .text\n  .type " #name "_inner,@function\n  .p2align 4\n"                 \
  #name "_inner:\n"                                                            \
  "  { allocframe(#0) }\n"                                                     \
  START(TortureModule, 3, 2) END(TortureModule, 3, 2)                         \
  "  { dealloc_return }\n"                                                     \
  "  .size " #name "_inner, . - " #name "_inner\n"

__asm__(INNER(torture_probes, CALL_START, CALL_END));
__asm__(INNER(torture_plain, NOP_START, NOP_END));
__asm__(TORTURE(torture_probes, CALL_START, CALL_END));
__asm__(TORTURE(torture_plain, NOP_START, NOP_END));

void torture_probes(uint32_t *Out);
void torture_plain(uint32_t *Out);

static void print(const char *S) { lwp_hex_puts(1, S); }
static void printNum(uint64_t V) { lwp_hex_put_udec(1, V); }

int main(void) {
  uint32_t WithProbes[NumOut] = {0}, Plain[NumOut] = {0};
  torture_plain(Plain);
  TortureModule.Slots[2].bias = 0x3fffffff; // 2^30 - 1 past the cap
  torture_probes(WithProbes);
  // Slots 14 and 15 are not stored (r14, r15); 37 holds SP.
  static const unsigned Slots[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                   11, 12, 13, 16, 17, 18, 19, 20, 21, 22,
                                   23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                                   33, 34, 35, 36, 37, 16, 17, 18};
  unsigned Differ = 0, N = sizeof(Slots) / sizeof(Slots[0]);
  for (unsigned I = 0; I != N; ++I) {
    unsigned S = Slots[I];
    if (WithProbes[S] != Plain[S]) {
      ++Differ;
      print("differ: slot ");
      printNum(S);
      print(" probes ");
      lwp_hex_put_hex(1, WithProbes[S]);
      print(" plain ");
      lwp_hex_put_hex(1, Plain[S]);
      print("\n");
    }
  }
  // The values set must have arrived at all (a kernel that stored nothing
  // would compare equal).
  if (Plain[1] != 0xa1010101u || Plain[27] != 0xbb1b1b1bu ||
      Plain[28] != 0x5a3c96e1u || Plain[29] != 0x13572468u ||
      Plain[33] != 33 || Plain[35] != 44)
    ++Differ;
  print("counter ");
  printNum(lwp_hex_counter_kind());
  print("\nchecked ");
  printNum(N);
  print(" values, ");
  printNum(Differ);
  print(" differ\ninner trips ");
  printNum(WithProbes[13]);
  print(", outer trips ");
  printNum(WithProbes[12]);
  print("\nids ");
  printNum(TortureModule.Slots[0].index);
  print(" ");
  printNum(TortureModule.Slots[1].index);
  print(" ");
  printNum(TortureModule.Slots[2].index);
  print(" ");
  printNum(Unregistered.Slots[0].index);
  // A second run with probes, past every cap: its first drop brings the drop
  // count to a multiple of 2^30, the end that drops next folds.
  uint32_t Second[NumOut] = {0};
  lwp_hex_skip_drops(lwp_hex_drops_before_fold() - 1);
  uint64_t Skipped = lwp_hex_dropped();
  torture_probes(Second);
  for (unsigned I = 0; I != N; ++I)
    if (Second[Slots[I]] != Plain[Slots[I]])
      ++Differ;
  print("\nsecond run: ");
  printNum(Differ);
  print(" differ\ncount 1: ");
  printNum(lwp_hex_count(1));
  print(", count 2: ");
  printNum(lwp_hex_count(2));
  print(", count 3: ");
  printNum(lwp_hex_count(3));
  print(", dropped in the second run: ");
  printNum(lwp_hex_dropped() - Skipped);
  print("\nfold: bias ");
  printNum((uint32_t)TortureModule.Slots[2].bias);
  print(", overflow ");
  printNum(TortureModule.Slots[2].overflow);
  print(", depth ");
  printNum(lwp_hex_stack_depth());
  print("\n");
  return Differ != 0;
}
