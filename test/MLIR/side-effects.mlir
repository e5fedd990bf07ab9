// Probes survive canonicalization, CSE, DCE, loop-invariant code motion and
// control-flow sinking: none of them deletes, merges, hoists or sinks a probe.
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" --canonicalize --cse --loop-invariant-code-motion --control-flow-sink --symbol-dce | FileCheck %s

// The pair inside the loop body is not hoisted; the empty loop is erased by
// canonicalization (it computes nothing) but its probes stay, as a region of
// zero length. Constants may be hoisted above the function's start probe.
// CHECK-LABEL: func.func @f
// CHECK:         lwp.probe_start function 0
// CHECK-NEXT:    lwp.probe_start loop 1
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      lwp.probe_start loop 2
// CHECK-NEXT:      scf.for
// CHECK:           lwp.probe_end loop 2
// CHECK:         lwp.probe_end loop 1
// CHECK-NEXT:    lwp.probe_start loop 3
// CHECK-NEXT:    lwp.probe_end loop 3
// CHECK-NEXT:    lwp.probe_end function 0
// CHECK-NEXT:    return
func.func @f(%m: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %f, %m[%c0] : memref<8xf32>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}

// Identical probe pairs in a row are neither merged nor deleted.
// CHECK-LABEL: func.func @bare
// CHECK-NEXT:    lwp.probe_start function 4
// CHECK-NEXT:    lwp.probe_start loop 7
// CHECK-NEXT:    lwp.probe_end loop 7
// CHECK-NEXT:    lwp.probe_start loop 7
// CHECK-NEXT:    lwp.probe_end loop 7
func.func @bare() {
  lwp.probe_start loop 7
  lwp.probe_end loop 7
  lwp.probe_start loop 7
  lwp.probe_end loop 7
  return
}
