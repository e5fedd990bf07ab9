// Loops nested inside a parallel loop get no probes, whatever the level: the
// runtime is not thread-safe yet. The parallel loop itself is instrumented
// from outside, and so are loops around it.
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" | FileCheck %s
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: func.func @par
// CHECK-NEXT:  lwp.probe_start function 0
// CHECK:       lwp.probe_start loop 1
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    lwp.probe_start loop 2
// CHECK-NEXT:    scf.parallel
// CHECK-NOT:       lwp.probe
// CHECK:         lwp.probe_end loop 2
// CHECK:       lwp.probe_end loop 1
// CHECK-NEXT:  lwp.probe_start loop 3
// CHECK-NEXT:  affine.parallel
// CHECK-NOT:     lwp.probe
// CHECK:       lwp.probe_end loop 3
// CHECK-NEXT:  lwp.probe_start loop 4
// CHECK-NEXT:  scf.forall
// CHECK-NOT:     lwp.probe
// CHECK:       lwp.probe_end loop 4
// CHECK-NEXT:  lwp.probe_end function 0

// MAP:      1  loop      par  0  3  0
// MAP-NEXT: 2  loop      par  1  2  1
// MAP-NEXT: 3  loop      par  0  1  0
// MAP-NEXT: 4  loop      par  0  1  0
// MAP-NOT:  5

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
