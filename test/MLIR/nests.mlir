// Depth, height, siblings and parents in nested, sibling and imperfect nests.
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" --lwp-print-map -o /dev/null | FileCheck %s

// @imperfect { L1 { op; L2 { L3 }; op; L4 }; L5 }
// CHECK:      ID  kind      function    depth  height  parent  location
// CHECK-NEXT:  0  function  imperfect       -       -       -  {{.*}}nests.mlir:21:1
// L1: outermost, height 2 from L2 { L3 } -- not from its sibling L5.
// CHECK-NEXT:  1  loop      imperfect       0       2       0  {{.*}}nests.mlir:26:3
// CHECK-NEXT:  2  loop      imperfect       1       1       1  {{.*}}nests.mlir:28:5
// CHECK-NEXT:  3  loop      imperfect       2       0       2  {{.*}}nests.mlir:29:7
// L4 follows a taller sibling but has height 0 (TVM kept a running maximum).
// CHECK-NEXT:  4  loop      imperfect       1       0       1  {{.*}}nests.mlir:34:5
// CHECK-NEXT:  5  loop      imperfect       0       0       0  {{.*}}nests.mlir:38:3
// @perfect { L7 { L8 { L9 } } }
// CHECK-NEXT:  6  function  perfect         -       -       -  {{.*}}nests.mlir:43:1
// CHECK-NEXT:  7  loop      perfect         0       2       6  {{.*}}nests.mlir:46:3
// CHECK-NEXT:  8  loop      perfect         1       1       7  {{.*}}nests.mlir:47:5
// CHECK-NEXT:  9  loop      perfect         2       0       8  {{.*}}nests.mlir:48:7
// CHECK-NOT:  loop

func.func @imperfect(%m: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %f, %m[%i, %c0] : memref<16x16xf32>
    scf.for %j = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        memref.store %f, %m[%j, %k] : memref<16x16xf32>
      }
    }
    memref.store %f, %m[%c0, %i] : memref<16x16xf32>
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %f, %m[%i, %j] : memref<16x16xf32>
    }
  }
  scf.for %i = %c0 to %c16 step %c1 {
  }
  return
}

func.func @perfect(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
      }
    }
  }
  return
}
