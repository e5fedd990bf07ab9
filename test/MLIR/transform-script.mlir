// Only code gets regions: a module that holds a transform script gets
// probes in func.func and llvm.func, none in transform.named_sequence (which
// used to get a start probe without an end, then fail lwp-to-llvm).
// RUN: lwp-opt %s --lwp-instrument | FileCheck %s
// RUN: lwp-opt %s --lwp-instrument --lwp-to-llvm=target=x86_64 | FileCheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @f
// CHECK:         lwp.probe_start function 0
// CHECK:         lwp.probe_start loop 1
// CHECK:         lwp.probe_end loop 1
// CHECK:         lwp.probe_end function 0
// CHECK-LABEL: llvm.func @g
// CHECK:         lwp.probe_start function 2
// CHECK:         lwp.probe_end function 2
// CHECK-LABEL: transform.named_sequence @__transform_main
// CHECK-NOT:     lwp.probe
// CHECK:         transform.yield
// LOWERED: transform.named_sequence @__transform_main
// LOWERED-NOT: lwp.probe
module attributes {transform.with_named_sequence} {
  func.func @f(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }
  llvm.func @g() {
    llvm.return
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
