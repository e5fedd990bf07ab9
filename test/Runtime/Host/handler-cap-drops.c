// The host handlers called directly on a hand-made module (a map blob with
// four region slots, registered by a constructor as compiled code does):
// program-wide IDs from 1, exact counts past the cap, the drop counter (cap
// reached, a slot of a module that never registered), lwp_dump on demand,
// lwp_reset, and a second registration of the same blob ignored.
// RUN: clang -O1 -I%lwp_include %s %lwp_host_lib -lpthread -o %t
// RUN: env LWP_CAP=3 LWP_OUTPUT=%t.exit.dump %t %t.mid.dump
// RUN: lwp-report --raw %t.mid.dump | FileCheck %s --check-prefix=MID
// RUN: lwp-report --raw %t.exit.dump | FileCheck %s --check-prefix=EXIT

#include "lwp/Runtime/MapFormat.h"
#include "lwp/Runtime/lwp_runtime.h"

#include <stdint.h>

__attribute__((preserve_all)) void __lwp_probe_start(struct lwp_slot *);
__attribute__((preserve_all)) void __lwp_probe_end(struct lwp_slot *);

/// A blob without entries' text (the runtime reads only the header and the
/// slots): header, then 4 slots at offset 32.
struct Module {
  struct lwp_map_blob_header Header;
  struct lwp_slot Slots[4];
};

#define MODULE_INIT                                                            \
  {{"LWPMAP", LWP_MAP_BLOB_VERSION, sizeof(struct Module), 4, 32, 32, 0}, {}}

__attribute__((section("lwp_map"), aligned(16))) static struct Module Mod =
    MODULE_INIT;
/// Never registered: its probes count as drops.
static struct Module Unregistered = MODULE_INIT;

__attribute__((constructor(1))) static void registerModule(void) {
  __lwp_register_module(&Mod);
  __lwp_register_module(&Mod); // ignored
}

int main(int argc, char **argv) {
  if (Mod.Slots[0].index != 1 || Mod.Slots[3].index != 4)
    return 2;
  // Region 2 (slot 1) runs 7 times; with cap 3, 3 starts and 3 ends are
  // recorded, the other 8 records are dropped.
  for (int I = 0; I != 7; ++I) {
    __lwp_probe_start(&Mod.Slots[1]);
    __lwp_probe_end(&Mod.Slots[1]);
  }
  // A module that never registered: dropped, nothing written.
  __lwp_probe_start(&Unregistered.Slots[0]);
  __lwp_probe_end(&Unregistered.Slots[0]);
  if (lwp_dump(argv[1]))
    return 1;
  lwp_reset();
  // After the reset, region 4 twice, nested in region 3 once.
  __lwp_probe_start(&Mod.Slots[2]);
  __lwp_probe_start(&Mod.Slots[3]);
  __lwp_probe_end(&Mod.Slots[3]);
  __lwp_probe_start(&Mod.Slots[3]);
  __lwp_probe_end(&Mod.Slots[3]);
  __lwp_probe_end(&Mod.Slots[2]);
  return 0;
}

// MID:      dump: version 4, target x86_64, counter TSC, {{[1-9][0-9]*}} Hz, record size 24, cap 3, dropped 10, probe pair cost {{[0-9]+}}
// MID:      image 0: bias {{.*}}, build-id {{[0-9a-f]+}}, {{.*}}handler-cap-drops.c.tmp
// MID-NEXT: module 0: image 0, blob 0x{{[0-9a-f]+}}, IDs 1-4
// MID-NEXT: count 2: 7
// MID-NEXT: thread 0: tid {{[0-9]+}}, 6 records
// MID-NEXT:   start      2
// MID-NEXT:   end        2
// MID-NEXT:   start      2
// MID-NEXT:   end        2
// MID-NEXT:   start      2
// MID-NEXT:   end        2
// MID-NOT:  {{start|end}}

// EXIT:      cap 3, dropped 0,
// EXIT-NOT:  count 2
// EXIT:      count 3: 1
// EXIT-NEXT: count 4: 2
// EXIT-NEXT: thread 0: tid {{[0-9]+}}, 6 records
// EXIT-NEXT:   start      3
// EXIT-NEXT:   start      4
// EXIT-NEXT:   end        4
// EXIT-NEXT:   start      4
// EXIT-NEXT:   end        4
// EXIT-NEXT:   end        3
