// Loops nested inside parallel loops (scf.parallel, affine.parallel,
// scf.forall) are instrumented like any other loop (issue 13): with a
// sequential lowering they are ordinary loops, with a threaded one each
// thread records its own instances (test/E2E/parallel-omp.test). Depth and
// height count the parallel loop like any loop; max-loop-depth applies.
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" | FileCheck %s
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP
// RUN: lwp-opt %s --lwp-instrument="stats-level=70 max-loop-depth=1" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=DEPTH1

// CHECK-LABEL: func.func @par
// CHECK-NEXT:  lwp.probe_start function 0
// CHECK:       lwp.probe_start loop 1
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    lwp.probe_start loop 2
// CHECK-NEXT:    scf.parallel
// CHECK-NEXT:      lwp.probe_start loop 3
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        lwp.probe_start loop 4
// CHECK-NEXT:        scf.for
// CHECK-NEXT:        }
// CHECK-NEXT:        lwp.probe_end loop 4
// CHECK-NEXT:      }
// CHECK-NEXT:      lwp.probe_end loop 3
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 2
// CHECK:       lwp.probe_end loop 1
// CHECK-NEXT:  lwp.probe_start loop 5
// CHECK-NEXT:  affine.parallel
// CHECK-NEXT:    lwp.probe_start loop 6
// CHECK-NEXT:    affine.for
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 6
// CHECK:       lwp.probe_end loop 5
// CHECK-NEXT:  lwp.probe_start loop 7
// CHECK-NEXT:  scf.forall
// CHECK-NEXT:    lwp.probe_start loop 8
// CHECK-NEXT:    scf.for
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 8
// CHECK:       lwp.probe_end loop 7
// CHECK-NEXT:  lwp.probe_end function 0

// MAP:      1  loop      par  0  3  0
// MAP-NEXT: 2  loop      par  1  2  1
// MAP-NEXT: 3  loop      par  2  1  2
// MAP-NEXT: 4  loop      par  3  0  3
// MAP-NEXT: 5  loop      par  0  1  0
// MAP-NEXT: 6  loop      par  1  0  5
// MAP-NEXT: 7  loop      par  0  1  0
// MAP-NEXT: 8  loop      par  1  0  7
// MAP-NOT:  {{^ *9 }}

// DEPTH1:      1  loop      par  0  3  0
// DEPTH1-NEXT: 2  loop      par  1  2  1
// DEPTH1-NEXT: 3  loop      par  0  1  0
// DEPTH1-NEXT: 4  loop      par  1  0  3
// DEPTH1-NEXT: 5  loop      par  0  1  0
// DEPTH1-NEXT: 6  loop      par  1  0  5
// DEPTH1-NOT:  {{^ *7 }}

func.func @par(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %o = %c0 to %n step %c1 {
    scf.parallel (%p) = (%c0) to (%n) step (%c1) {
      scf.for %i = %c0 to %n step %c1 {
        scf.for %j = %c0 to %n step %c1 {
        }
      }
    }
  }
  affine.parallel (%x) = (0) to (8) {
    affine.for %k = 0 to 8 {
    }
  }
  scf.forall (%q) in (%n) {
    scf.for %i = %c0 to %n step %c1 {
    }
  }
  return
}
