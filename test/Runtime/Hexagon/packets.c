// Packet costs of the handlers, measured with QEMU's packet counter c20
// around probe packets of the form compiled code emits
// ({ r28 = r31; r14 = ##slot; call handler }). Deterministic under qemu-hexagon: the
// figures are exact. c20 counts whichever counter the handlers record, so the
// program runs twice: recording c20 (the QEMU tail of the handlers) and with
// UPCYCLE forced (the hardware tail).
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: env LWP_OUTPUT=%t.dump %qemu_hexagon %t.elf | FileCheck %s --check-prefixes=CHECK,FIG,C20,COMP
// RUN: %dumpdump %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: env LWP_OUTPUT=%t.up.dump LWP_HEXAGON_COUNTER=upcycle %qemu_hexagon %t.elf | FileCheck %s --check-prefixes=CHECK,FIG,UP
// RUN: %dumpdump %t.up.dump | FileCheck %s --check-prefix=UPDUMP
// Without compensation (LWP_COMPENSATE=0): the counter as read, less the
// replays; the header holds the calibrated costs for a reader to subtract.
// RUN: env LWP_OUTPUT=%t.raw.dump LWP_COMPENSATE=0 %qemu_hexagon %t.elf | FileCheck %s --check-prefixes=CHECK,FIG,C20,RAW
// RUN: %dumpdump %t.raw.dump | FileCheck %s --check-prefix=RAWDUMP
// RUN: env LWP_OUTPUT= LWP_COMPENSATE=2 %qemu_hexagon %t.elf 2>&1 >/dev/null | FileCheck %s --check-prefix=BADCOMP
// BADCOMP: lwp: ignoring LWP_COMPENSATE='2': not an integer in [0, 1]; using 1
//
// A journal replayed after every probe (LWP_HEXAGON_JOURNAL=1): each probe
// then pays the replay, in C, in the program's time; the figures, which
// leave the replays out, are the same to the packet (the same dump).
// RUN: env LWP_OUTPUT=%t.j1.dump LWP_HEXAGON_JOURNAL=1 %qemu_hexagon %t.elf | FileCheck %s --check-prefixes=CHECK,J1,C20,COMP
// RUN: %dumpdump %t.j1.dump | FileCheck %s --check-prefix=DUMP
// Values outside [1, 4096]: one warning line each, and the whole journal.
// RUN: env LWP_OUTPUT= LWP_HEXAGON_JOURNAL=0 %qemu_hexagon %t.elf 2>&1 >/dev/null | FileCheck %s --check-prefix=BADJ0
// RUN: env LWP_OUTPUT= LWP_HEXAGON_JOURNAL=99999999999999999999 %qemu_hexagon %t.elf 2>&1 >/dev/null | FileCheck %s --check-prefix=BADJBIG
// RUN: env LWP_OUTPUT= LWP_HEXAGON_JOURNAL=12x %qemu_hexagon %t.elf 2>&1 | FileCheck %s --check-prefixes=BADJX,CHECK,FIG,C20,COMP
// BADJ0: lwp: ignoring LWP_HEXAGON_JOURNAL='0': not an integer in [1, 4096]; using 4096
// BADJ0-NOT: lwp:
// BADJBIG: lwp: ignoring LWP_HEXAGON_JOURNAL='99999999999999999999': not an integer in [1, 4096]; using 4096
// BADJX: lwp: ignoring LWP_HEXAGON_JOURNAL='12x': not an integer in [1, 4096]; using 4096
// LWP_CAP the same way (the bias is a signed 32-bit word): the default cap
// of 100 then keeps the records of the run above (dropped 6).
// RUN: env LWP_OUTPUT=%t.badcap.dump LWP_CAP=2147483648 %qemu_hexagon %t.elf 2>&1 >/dev/null | FileCheck %s --check-prefix=BADCAP
// RUN: %dumpdump %t.badcap.dump | FileCheck %s --check-prefix=DUMP
// RUN: env LWP_OUTPUT= LWP_CAP=-1 %qemu_hexagon %t.elf 2>&1 >/dev/null | FileCheck %s --check-prefix=BADCAPNEG
// BADCAP: lwp: ignoring LWP_CAP='2147483648': not an integer in [0, 2147483647]; using 100
// BADCAP-NOT: lwp:
// BADCAPNEG: lwp: ignoring LWP_CAP='-1': not an integer in [0, 2147483647]; using 100
//
// Two c20 reads with nothing between them differ by 2 (the read packet and
// the copy packet): the baseline. Every figure below is
// (c20 after - c20 before - baseline), so a probe counts its call packet.
// C20: counter 4
// UP: counter 3
// CHECK-NEXT: baseline 2
// A probe: 5 handler packets (the handler journals the probe) + 1 call
// packet, recording or not (docs/hexagon-runtime.md, "Packets").
// FIG-NEXT: start 6
// FIG-NEXT: end 6
// FIG-NEXT: pair 12
// A pair inside a pair: four probes.
// FIG-NEXT: nested-pairs 24
// Capped (count > cap): the same packets.
// FIG-NEXT: capped-start 6
// FIG-NEXT: capped-end 6
// FIG-NEXT: capped-pair 12
// FIG-NEXT: at most 6 packets per probe: yes
// What the replay did in C before (a slot whose module never registered, a
// region started again at the same stack position while open, as after a
// longjmp back into its function: the start closes the open instance as
// unwound, the second end finds none) costs the handlers nothing more.
// FIG-NEXT: unregistered-pair 12
// FIG-NEXT: reentered-pair 12
// J1-NEXT: start [[#]]
// J1:      at most 6 packets per probe: NO
// J1-NEXT: unregistered-pair [[#]]
// J1-NEXT: reentered-pair [[#]]
// The calibrated empty pair: counter of the end record - counter of the
// start (UPCYCLE does not move under QEMU); and what a pair nested in a
// region adds to it, both as read. The cost of one probe that the replay
// takes out of the figures: half the nested pair (0 without compensation).
// C20-NEXT: probe_pair_cost 6
// C20-NEXT: probe_nested_cost 12
// COMP-NEXT: probe_cost 6
// RAW-NEXT: probe_cost 0
// UP-NEXT: probe_pair_cost 0
// UP-NEXT: probe_nested_cost 0
// UP-NEXT: probe_cost 0
// CHECK-NEXT: ids 1 2 4 0
// CHECK-NEXT: count1 1
// CHECK-NEXT: count3 102
// CHECK-NEXT: dropped 6
// CHECK-NEXT: depth 0
//
// Compensated (flags 5: figures and LWP_DUMP_FLAG_COMPENSATED): every probe's
// 6 packets are out of every figure, so an empty region (6, a pair with
// nothing between) is 0 and a pair nested in a region (5 around 6) adds 0
// to it; nothing is left for a reader to subtract (costs 0).
// DUMP: header {{.*}} counter=4 record_size=24 counter_hz=0
// DUMP: header num_ids=17 cap=100 dropped=6 {{.*}} probe_pair_cost=0 probe_nested_cost=0
// DUMP: header num_modules=1 flags=5 pid=set
// DUMP: module 0 image=0 blob={{[0-9a-f]+}} first_id=1 num_regions=16
// DUMP-NOT: module 1
// DUMP: count 2 1
// DUMP-NEXT: count 3 1
// DUMP-NEXT: count 4 102
// DUMP-NEXT: count 5 1
// DUMP-NEXT: count 6 1
// DUMP-NEXT: count 7 3
// DUMP: region 5 total=0 self=0 nested=2 children=1 outer=1 unwound=0
// DUMP-NEXT: region 6 total=0 self=0 nested=0 children=0 outer=1 unwound=0
// DUMP-NEXT: region 7 total=0 self=0 nested=0 children=0 outer=3 unwound=1
// DUMP-NEXT: thread 0 records=214 top_cycles={{[0-9]+}} top_instances=108 top_nested=2
// DUMP: summary id=2 starts=1 ends=1
// DUMP-NEXT: summary id=3 starts=1 ends=1
// DUMP-NEXT: summary id=4 starts=100 ends=100
// DUMP-NEXT: summary id=5 starts=1 ends=1
// DUMP-NEXT: summary id=6 starts=1 ends=1
// DUMP-NEXT: summary id=7 starts=3 ends=3
// DUMP-NOT: summary
// UPDUMP: header {{.*}} counter=3 record_size=24 counter_hz=0
// UPDUMP: header num_ids=17 cap=100 dropped=6
// As read: the empty pair 6, the nested pair 12 more (5: 6 + 12), the
// reentered region (7) its three instances' own probes, 6 each.
// RAWDUMP: header num_ids=17 cap=100 dropped=6 {{.*}} probe_pair_cost=6 probe_nested_cost=12
// RAWDUMP: header num_modules=1 flags=1 pid=set
// RAWDUMP: region 5 total=18 self=12 nested=2 children=1 outer=1 unwound=0
// RAWDUMP-NEXT: region 6 total=6 self=6 nested=0 children=0 outer=1 unwound=0
// RAWDUMP-NEXT: region 7 total=18 self=18 nested=0 children=0 outer=3 unwound=1
#include "lwp/Runtime/DumpFormat.h"
#include "lwp_hexagon.h"

#include "lwp_hexagon_measure.h"
#define MEASURE LWP_MEASURE
#define START LWP_START
#define END LWP_END

// The blob of a module that never registers (index 0, bias 0 in the file).
LWP_TEST_BLOB(Unregistered, 1);
#define UNREGISTERED_PAIR                                                      \
  LWP_TEST_PROBE_ASM(start, Unregistered, 1, 0)                                \
  LWP_TEST_PROBE_ASM(end, Unregistered, 1, 0)

static void print(const char *Name, uint64_t V) {
  lwp_hex_puts(1, Name);
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_udec(1, V);
  lwp_hex_put_char(1, '\n');
}

int main(void) {
  print("counter", lwp_hex_counter_kind());
  unsigned Base = MEASURE("");
  print("baseline", Base);
  // Set when a figure exceeds 6 packets per probe (call packet included).
  int Missed = 0;
  unsigned Cost;
#define FIGURE(Name, Body, Probes)                                             \
  Cost = MEASURE(Body) - Base;                                                 \
  print(Name, Cost);                                                           \
  Missed |= Cost > 6 * (Probes);
  FIGURE("start", START(1), 1);
  FIGURE("end", END(1), 1);
  FIGURE("pair", START(2) END(2), 2);
  FIGURE("nested-pairs", START(4) START(5) END(5) END(4), 4);
  for (int I = 0; I != 100; ++I)
    __asm__ volatile(START(3) END(3) ::: LWP_TEST_PROBE_CLOBBERS);
  FIGURE("capped-start", START(3), 1);
  FIGURE("capped-end", END(3), 1);
  FIGURE("capped-pair", START(3) END(3), 2);
  lwp_hex_puts(1, "at most 6 packets per probe: ");
  lwp_hex_puts(1, Missed ? "NO\n" : "yes\n");
  print("unregistered-pair", MEASURE(UNREGISTERED_PAIR) - Base);
  print("reentered-pair",
        MEASURE(START(6) START(6) END(6) END(6)) - Base -
            MEASURE(START(6) END(6)) + Base);
  print("probe_pair_cost", lwp_hex_probe_pair_cost());
  print("probe_nested_cost", lwp_hex_probe_nested_cost());
  print("probe_cost", lwp_hex_probe_cost());
  // Slots 1, 2, 3 of the measurement module; the unregistered slot has none.
  lwp_hex_puts(1, "ids ");
  lwp_hex_put_udec(1, lwp_measure_module.Slots[0].index);
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_udec(1, lwp_measure_module.Slots[1].index);
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_udec(1, lwp_measure_module.Slots[3].index);
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_udec(1, Unregistered.Slots[0].index);
  lwp_hex_put_char(1, '\n');
  print("count1", lwp_hex_count(lwp_measure_module.Slots[1].index));
  print("count3", lwp_hex_count(lwp_measure_module.Slots[3].index));
  print("dropped", lwp_hex_dropped());
  print("depth", lwp_hex_stack_depth());
  return 0;
}
