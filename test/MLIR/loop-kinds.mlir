// Every loop kind is a region: scf.for, scf.while, scf.parallel, scf.forall,
// affine.for, affine.parallel. Each is outermost here (depth 0).
// RUN: lwp-opt %s --lwp-instrument="lwp-no-function-regions" | FileCheck %s
// RUN: lwp-opt %s --lwp-instrument="lwp-no-function-regions" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: func.func @kinds
// CHECK:      lwp.probe_start loop 0
// CHECK-NEXT: scf.for
// CHECK:      lwp.probe_end loop 0
// CHECK-NEXT: lwp.probe_start loop 1
// CHECK-NEXT: scf.while
// CHECK:      lwp.probe_end loop 1
// CHECK-NEXT: lwp.probe_start loop 2
// CHECK-NEXT: scf.parallel
// CHECK:      lwp.probe_end loop 2
// CHECK-NEXT: lwp.probe_start loop 3
// CHECK-NEXT: scf.forall
// CHECK:      lwp.probe_end loop 3
// CHECK-NEXT: lwp.probe_start loop 4
// CHECK-NEXT: affine.for
// CHECK:      lwp.probe_end loop 4
// CHECK-NEXT: lwp.probe_start loop 5
// CHECK-NEXT: affine.parallel
// CHECK:      lwp.probe_end loop 5
// CHECK-NEXT: return

// MAP:      ID  kind  function  depth  height  parent  location
// MAP-NEXT:  0  loop  kinds         0       0       -  {{.*}}loop-kinds.mlir:39:3
// MAP-NEXT:  1  loop  kinds         0       0       -  {{.*}}loop-kinds.mlir:41:8
// MAP-NEXT:  2  loop  kinds         0       0       -  {{.*}}loop-kinds.mlir:49:3
// MAP-NEXT:  3  loop  kinds         0       0       -  {{.*}}loop-kinds.mlir:51:3
// MAP-NEXT:  4  loop  kinds         0       0       -  {{.*}}loop-kinds.mlir:53:3
// MAP-NEXT:  5  loop  kinds         0       0       -  {{.*}}loop-kinds.mlir:55:3
// MAP-NOT:  loop

func.func @kinds(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  %r = scf.while (%a = %c0) : (index) -> index {
    %cond = arith.cmpi slt, %a, %n : index
    scf.condition(%cond) %a : index
  } do {
  ^bb0(%b: index):
    %next = arith.addi %b, %c1 : index
    scf.yield %next : index
  }
  scf.parallel (%p) = (%c0) to (%n) step (%c1) {
  }
  scf.forall (%q) in (%n) {
  }
  affine.for %k = 0 to 16 {
  }
  affine.parallel (%x) = (0) to (16) {
  }
  return
}
