// Program-wide region IDs by slot: two separately compiled modules (this file
// twice, the second with -DSECOND_MODULE), each with its own hand-made blob in
// lwp_map registered by its own priority-1 constructor, get distinct IDs in
// link order (A: 1-3, B: 4-5); counts are exact per region, in the runtime
// and in the dump, whose module table and record IDs follow. Also: a second
// registration of a blob changes nothing, a bad blob is refused with a line
// on stderr, probes in a constructor (after registration) and in a
// destructor (before the dump at exit) count, and the record of a slot whose
// module never registered has ID 0 in the dump.
//
// RUN: %hexagon_cc -c %s -o %t.a.o
// RUN: %hexagon_cc -DSECOND_MODULE -c %s -o %t.b.o
// RUN: %hexagon_link %t.a.o %t.b.o -o %t.elf
// RUN: env LWP_CAP=4 LWP_OUTPUT=%t.dump %qemu_hexagon %t.elf 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %dumpdump %t.dump --records | FileCheck %s --check-prefix=DUMP
//
// A runtime whose module table holds one module: B is refused, its probes
// count nowhere (its slots keep bias 0, so they never record).
// RUN: rm -rf %t.small && mkdir %t.small
// RUN: %hexagon_cc -DLWP_MAX_MODULES=1 -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/hexagon/lwp_hexagon_runtime.c -o %t.small/rt.o
// RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_handler.S -o %t.small/h.o
// RUN: %hexagon_cc -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/common/lwp_dump_writer.c -o %t.small/w.o
// RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_crt0.S -o %t.small/crt0.o
// RUN: ld.lld -static %t.small/crt0.o %t.a.o %t.b.o %t.small/rt.o %t.small/h.o %t.small/w.o %lwp_hexagon_lib -o %t.small.elf
// RUN: env LWP_CAP=4 LWP_OUTPUT=%t.small.dump %qemu_hexagon %t.small.elf 2>%t.small.err | FileCheck %s --check-prefix=FULL
// RUN: FileCheck %s --check-prefixes=ERR,FULLERR < %t.small.err
// RUN: %dumpdump %t.small.dump | FileCheck %s --check-prefix=FULLDUMP
//
// CHECK: modules 2, num_ids 6
// CHECK-NEXT: ids A 1 2 3, B 4 5, unregistered 0
// CHECK-NEXT: constructor count 1
// CHECK-NEXT: registered again: modules 2, num_ids 6, A 1
// CHECK-NEXT: count 0 0
// CHECK-NEXT: count 1 2
// CHECK-NEXT: count 2 6
// CHECK-NEXT: count 3 1
// CHECK-NEXT: count 4 3
// CHECK-NEXT: count 5 1
// CHECK-NEXT: count 6 0
// CHECK-NEXT: dropped 5
//
// ERR: lwp: bad map blob at 0x{{[0-9a-f]+}}; its regions are not counted
// FULLERR-NEXT: lwp: no room for the module at 0x{{[0-9a-f]+}}; module table full, its regions are not counted
// ERR-NOT: lwp:
//
// Exit dump (cap 4): ID 1 2 pairs, ID 2 6 pairs (4 kept, 4 records dropped),
// ID 3 one pair in a constructor and two in a destructor, ID 4 3 pairs, ID 5
// one pair; the unregistered slot: its end probe records (bias 0 is not yet
// past the cap) as ID 0, its start is dropped.
// DUMP: header num_ids=6 cap=4 dropped=5 {{.*}} probe_pair_cost=0 probe_nested_cost=0
// DUMP-NEXT: header num_modules=2 flags=5 pid=set
// DUMP-NEXT: image
// DUMP-NEXT: module 0 image=0 blob=[[A:[0-9a-f]+]] first_id=1 num_regions=3
// DUMP-NEXT: module 1 image=0 blob=[[B:[0-9a-f]+]] first_id=4 num_regions=2
// DUMP-NEXT: count 0 0
// DUMP-NEXT: count 1 2
// DUMP-NEXT: count 2 6
// DUMP-NEXT: count 3 3
// DUMP-NEXT: count 4 3
// DUMP-NEXT: count 5 1
// Every instance is an empty pair, no child: 0 packets in compensated time
// (6 as read, its own probes'; flags 5).
// DUMP-NEXT: region 0 total=0 self=0 nested=0 children=0 outer=0 unwound=0
// DUMP-NEXT: region 1 total=0 self=0 nested=0 children=0 outer=2 unwound=0
// DUMP-NEXT: region 2 total=0 self=0 nested=0 children=0 outer=6 unwound=0
// DUMP-NEXT: region 3 total=0 self=0 nested=0 children=0 outer=3 unwound=0
// DUMP-NEXT: region 4 total=0 self=0 nested=0 children=0 outer=3 unwound=0
// DUMP-NEXT: region 5 total=0 self=0 nested=0 children=0 outer=1 unwound=0
// DUMP-NEXT: thread 0 records=27 top_cycles=0 top_instances=15 top_nested=0
// DUMP-NEXT: record 0 S id=3
// DUMP-NEXT: record 1 E id=3
// DUMP-NEXT: record 2 S id=1
// DUMP-NEXT: record 3 E id=1
// DUMP:      record 22 E id=0
// DUMP-NEXT: record 23 S id=3
// DUMP:      record 26 E id=3
// DUMP-NEXT: summary id=0 starts=0 ends=1
// DUMP-NEXT: summary id=1 starts=2 ends=2
// DUMP-NEXT: summary id=2 starts=4 ends=4
// DUMP-NEXT: summary id=3 starts=3 ends=3
// DUMP-NEXT: summary id=4 starts=3 ends=3
// DUMP-NEXT: summary id=5 starts=1 ends=1
//
// FULL: modules 1, num_ids 4
// FULL-NEXT: ids A 1 2 3, B 0 0, unregistered 0
// FULL-NEXT: constructor count 1
// FULL-NEXT: registered again: modules 1, num_ids 4, A 1
// FULL-NEXT: count 0 0
// FULL-NEXT: count 1 2
// FULL-NEXT: count 2 6
// FULL-NEXT: count 3 1
// FULL-NEXT: count 4 0
// FULL-NEXT: count 5 0
// FULL-NEXT: count 6 0
// B's 4 pairs: 4 starts and 4 ends dropped.
// FULL-NEXT: dropped 13
// FULLDUMP: header num_ids=4 cap=4 dropped=13
// FULLDUMP: header num_modules=1
// FULLDUMP: module 0 image=0 blob={{[0-9a-f]+}} first_id=1 num_regions=3
// FULLDUMP-NEXT: count 0 0
// FULLDUMP-NEXT: count 1 2
// FULLDUMP-NEXT: count 2 6
// FULLDUMP-NEXT: count 3 3
// FULLDUMP-NEXT: region 0 total=0 self=0 nested=0 children=0 outer=0 unwound=0
// FULLDUMP-NEXT: region 1 total=0 self=0 nested=0 children=0 outer=2 unwound=0
// FULLDUMP-NEXT: region 2 total=0 self=0 nested=0 children=0 outer=6 unwound=0
// FULLDUMP-NEXT: region 3 total=0 self=0 nested=0 children=0 outer=3 unwound=0
// FULLDUMP-NEXT: thread 0 records=19 top_cycles=0 top_instances=11 top_nested=0
// FULLDUMP-NEXT: summary id=0 starts=0 ends=1
// FULLDUMP-NEXT: summary id=1 starts=2 ends=2
// FULLDUMP-NEXT: summary id=2 starts=4 ends=4
// FULLDUMP-NEXT: summary id=3 starts=3 ends=3
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

/** Runs \p N pairs on region 0 of module B and one pair on its region 1. */
void runModuleB(unsigned N);
/** The ID of region \p K of module B (0 when B did not register). */
uint32_t moduleBId(unsigned K);

#ifdef SECOND_MODULE

LWP_TEST_MODULE(ModuleB, 2)

void runModuleB(unsigned N) {
  for (unsigned I = 0; I != N; ++I) {
    LWP_TEST_PROBE(start, &ModuleB.Slots[0]);
    LWP_TEST_PROBE(end, &ModuleB.Slots[0]);
  }
  LWP_TEST_PROBE(start, &ModuleB.Slots[1]);
  LWP_TEST_PROBE(end, &ModuleB.Slots[1]);
}

uint32_t moduleBId(unsigned K) { return ModuleB.Slots[K].index; }

#else

LWP_TEST_MODULE(ModuleA, 3)
// The blob of a module whose constructor never ran.
LWP_TEST_BLOB(Unregistered, 1);

// A blob the runtime must refuse: version 1 (no slots). Not in lwp_map.
static struct {
  struct lwp_map_blob_header Header;
  struct lwp_slot Slots[1];
} BadBlob __attribute__((aligned(16))) = {
    {LWP_MAP_MAGIC, 1, sizeof(BadBlob), 1, 32, 32, 0}, {{0, 0, 0, 0}}};

__attribute__((constructor(1))) static void registerBad(void) {
  __lwp_register_module(&BadBlob);
}

/* A constructor of default priority: runs after every module registered. */
__attribute__((constructor)) static void earlyPair(void) {
  LWP_TEST_PROBE(start, &ModuleA.Slots[2]);
  LWP_TEST_PROBE(end, &ModuleA.Slots[2]);
}

/* A destructor: runs at exit, before the dump. */
__attribute__((destructor)) static void latePairs(void) {
  for (int I = 0; I != 2; ++I) {
    LWP_TEST_PROBE(start, &ModuleA.Slots[2]);
    LWP_TEST_PROBE(end, &ModuleA.Slots[2]);
  }
}

static void print(const char *S) { lwp_hex_puts(1, S); }
static void printNum(uint64_t V) { lwp_hex_put_udec(1, V); }

static void printModules(void) {
  print("modules ");
  printNum(lwp_hex_num_modules());
  print(", num_ids ");
  printNum(lwp_hex_num_ids());
}

int main(void) {
  printModules();
  print("\nids A ");
  printNum(ModuleA.Slots[0].index);
  print(" ");
  printNum(ModuleA.Slots[1].index);
  print(" ");
  printNum(ModuleA.Slots[2].index);
  print(", B ");
  printNum(moduleBId(0));
  print(" ");
  printNum(moduleBId(1));
  print(", unregistered ");
  printNum(Unregistered.Slots[0].index);
  print("\nconstructor count ");
  printNum(lwp_hex_count(ModuleA.Slots[2].index));

  // Registering again (a module's constructor run twice) changes nothing.
  __lwp_register_module(&ModuleA);
  print("\nregistered again: ");
  printModules();
  print(", A ");
  printNum(ModuleA.Slots[0].index);
  print("\n");

  for (int I = 0; I != 2; ++I) {
    LWP_TEST_PROBE(start, &ModuleA.Slots[0]);
    LWP_TEST_PROBE(end, &ModuleA.Slots[0]);
  }
  for (int I = 0; I != 6; ++I) {
    LWP_TEST_PROBE(start, &ModuleA.Slots[1]);
    LWP_TEST_PROBE(end, &ModuleA.Slots[1]);
  }
  runModuleB(3);
  // An end first: bias 0 is not past the cap, so it records; the start
  // after it is capped.
  LWP_TEST_PROBE(end, &Unregistered.Slots[0]);
  LWP_TEST_PROBE(start, &Unregistered.Slots[0]);

  for (uint32_t Id = 0; Id != 7; ++Id) {
    print("count ");
    printNum(Id);
    print(" ");
    printNum(lwp_hex_count(Id));
    print("\n");
  }
  print("dropped ");
  printNum(lwp_hex_dropped());
  print("\n");
  return 0;
}

#endif
