// Loops are found under any op with regions: scf.if (both branches),
// scf.execute_region, memref.alloca_scope, scf.index_switch; their depth
// counts loops only, not the ops between them.
// RUN: lwp-opt %s --lwp-instrument="stats-level=100 lwp-no-function-regions" | FileCheck %s
// RUN: lwp-opt %s --lwp-instrument="stats-level=100 lwp-no-function-regions" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: func.func @under
// CHECK:       scf.if
// CHECK-NEXT:    lwp.probe_start loop 0
// CHECK-NEXT:    scf.for
// CHECK:         lwp.probe_end loop 0
// CHECK:       } else {
// CHECK-NEXT:    lwp.probe_start loop 1
// CHECK-NEXT:    affine.for
// CHECK:         lwp.probe_end loop 1
// CHECK:       scf.execute_region
// CHECK-NEXT:    lwp.probe_start loop 2
// CHECK-NEXT:    scf.for
// CHECK:         lwp.probe_end loop 2
// CHECK:       memref.alloca_scope
// CHECK-NEXT:    lwp.probe_start loop 3
// CHECK-NEXT:    scf.for
// CHECK:         lwp.probe_end loop 3
// CHECK:       lwp.probe_start loop 4
// CHECK-NEXT:  scf.for
// CHECK:         scf.index_switch
// CHECK:           lwp.probe_start loop 5
// CHECK-NEXT:      scf.for
// CHECK:           lwp.probe_end loop 5

// MAP:      0  loop  under  0  0  -
// MAP-NEXT: 1  loop  under  0  0  -
// MAP-NEXT: 2  loop  under  0  0  -
// MAP-NEXT: 3  loop  under  0  0  -
// MAP-NEXT: 4  loop  under  0  1  -
// MAP-NEXT: 5  loop  under  1  0  4

func.func @under(%c: i1, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %c {
    scf.for %i = %c0 to %n step %c1 {
    }
  } else {
    affine.for %k = 0 to 4 {
    }
  }
  scf.execute_region {
    scf.for %i = %c0 to %n step %c1 {
    }
    scf.yield
  }
  memref.alloca_scope {
    scf.for %i = %c0 to %n step %c1 {
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.index_switch %s
    case 2 {
      scf.for %j = %c0 to %n step %c1 {
      }
      scf.yield
    }
    default {
    }
  }
  return
}
