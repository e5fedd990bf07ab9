// Packet costs of the handlers, measured with QEMU's packet counter c20
// around probe calls of the form llc emits ({ call handler; r0 = #id }).
// Deterministic under qemu-hexagon: the figures are exact.
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: env LWP_OUTPUT=%t.dump %qemu_hexagon %t.elf | FileCheck %s
// RUN: %dumpdump %t.dump | FileCheck %s --check-prefix=DUMP
//
// Two c20 reads with nothing between them differ by 2 (the read packet and
// the copy packet): the baseline. Every figure below is
// (c20 after - c20 before - baseline), so a probe counts its call packet.
// CHECK: counter 4
// CHECK-NEXT: baseline 2
// The recording path: 7 handler packets + 1 call packet per probe.
// CHECK-NEXT: start 8
// CHECK-NEXT: end 8
// CHECK-NEXT: pair 16
// Capped (count > cap): the same 7 packets per handler.
// CHECK-NEXT: capped-start 8
// CHECK-NEXT: capped-end 8
// CHECK-NEXT: capped-pair 16
// ID >= num_ids: 3 packets to the bounds check's jump, 3-packet drop path.
// CHECK-NEXT: bad-pair 14
// The calibrated empty pair: counter of the end record - counter of the start.
// CHECK-NEXT: probe_pair_cost 8
// CHECK-NEXT: count1 1
// CHECK-NEXT: count3 102
// CHECK-NEXT: dropped 6
//
// DUMP: header {{.*}} counter=4 record_size=16 counter_hz=0
// DUMP: header num_ids=4096 cap=100 dropped=6 {{.*}} probe_pair_cost=8 probe_nested_cost=16
#include "lwp/Runtime/DumpFormat.h"
#include "lwp_hexagon.h"

#include "lwp_hexagon_measure.h"
#define MEASURE LWP_MEASURE
#define START LWP_START
#define END LWP_END

static void print(const char *Name, uint64_t V) {
  lwp_hex_puts(1, Name);
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_udec(1, V);
  lwp_hex_put_char(1, '\n');
}

int main(void) {
  print("counter", lwp_hex_counter_kind());
  if (lwp_hex_counter_kind() != LWP_COUNTER_QEMU_PACKETS)
    return 1;
  unsigned Base = MEASURE("");
  print("baseline", Base);
  print("start", MEASURE(START(1)) - Base);
  print("end", MEASURE(END(1)) - Base);
  print("pair", MEASURE(START(2) END(2)) - Base);
  for (int I = 0; I != 100; ++I)
    __asm__ volatile(START(3) END(3) ::: "r0", "r14", "r15", "r28", "r31",
                     "memory");
  print("capped-start", MEASURE(START(3)) - Base);
  print("capped-end", MEASURE(END(3)) - Base);
  print("capped-pair", MEASURE(START(3) END(3)) - Base);
  print("bad-pair", MEASURE(START(4096) END(4096)) - Base);
  print("probe_pair_cost", lwp_hex_probe_pair_cost());
  print("count1", lwp_hex_count(1));
  print("count3", lwp_hex_count(3));
  print("dropped", lwp_hex_dropped());
  return 0;
}
