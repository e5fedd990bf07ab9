// The host handlers called directly: exact counts past the cap, the drop
// counter (cap reached, ID beyond the count table), lwp_dump on demand and
// lwp_reset.
// RUN: clang -O1 -I%lwp_include %s %lwp_host_lib -lpthread -o %t
// RUN: env LWP_CAP=3 LWP_OUTPUT=%t.exit.dump %t %t.mid.dump
// RUN: lwp-report --raw %t.mid.dump | FileCheck %s --check-prefix=MID
// RUN: lwp-report --raw %t.exit.dump | FileCheck %s --check-prefix=EXIT

#include "lwp/Runtime/lwp_runtime.h"

#include <stdint.h>

__attribute__((preserve_all)) void __lwp_probe_start(uint32_t Id);
__attribute__((preserve_all)) void __lwp_probe_end(uint32_t Id);

int main(int argc, char **argv) {
  // Region 5 runs 7 times; with cap 3, 3 starts and 3 ends are recorded,
  // the other 8 records are dropped.
  for (int I = 0; I != 7; ++I) {
    __lwp_probe_start(5);
    __lwp_probe_end(5);
  }
  // Beyond the count table (16384 IDs): dropped, nothing written.
  __lwp_probe_start(20000);
  __lwp_probe_end(20000);
  if (lwp_dump(argv[1]))
    return 1;
  lwp_reset();
  // After the reset, region 9 twice, nested in region 8 once.
  __lwp_probe_start(8);
  __lwp_probe_start(9);
  __lwp_probe_end(9);
  __lwp_probe_start(9);
  __lwp_probe_end(9);
  __lwp_probe_end(8);
  return 0;
}

// MID:      dump: version 1, target x86_64, counter TSC, {{[1-9][0-9]*}} Hz, record size 24, cap 3, dropped 10, probe pair cost {{[0-9]+}}
// MID:      image 0: bias {{.*}}, build-id {{[0-9a-f]+}}, {{.*}}handler-cap-drops.c.tmp
// MID:      count 5: 7
// MID-NEXT: thread 0: tid {{[0-9]+}}, 6 records
// MID-NEXT:   start      5
// MID-NEXT:   end        5
// MID-NEXT:   start      5
// MID-NEXT:   end        5
// MID-NEXT:   start      5
// MID-NEXT:   end        5
// MID-NOT:  {{start|end}}

// EXIT:      cap 3, dropped 0,
// EXIT-NOT:  count 5
// EXIT:      count 8: 1
// EXIT-NEXT: count 9: 2
// EXIT-NEXT: thread 0: tid {{[0-9]+}}, 6 records
// EXIT-NEXT:   start      8
// EXIT-NEXT:   start      9
// EXIT-NEXT:   end        9
// EXIT-NEXT:   start      9
// EXIT-NEXT:   end        9
// EXIT-NEXT:   end        8
