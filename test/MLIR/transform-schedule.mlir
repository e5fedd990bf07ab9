// lwp-transform-schedule (issue 22): a module that carries a transform
// schedule, as upstream tests tile, has it applied by the transform
// interpreter and then erased, so that nothing of the transform dialect
// reaches mlir-translate. apply=false erases it unapplied.
// RUN: lwp-opt %s --lwp-transform-schedule | FileCheck %s
// RUN: lwp-opt %s --lwp-transform-schedule=apply=false | FileCheck %s --check-prefix=ERASE
// The pipeline applies it by default; the operator label follows the tiles.
// RUN: lwp-opt %s --lwp-linalg-to-loops -stats-level=70 -max-loop-depth=2 --lwp-print-map -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MAP
// RUN: lwp-opt %s --lwp-linalg-to-loops=apply-transforms=false -stats-level=70 -max-loop-depth=2 \
// RUN:   --lwp-print-map -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNTILED
// Lowered to LLVM IR, with no workaround.
// RUN: lwp-opt %s --lwp-linalg-to-loops -stats-level=70 --lwp-to-llvm=target=x86_64 \
// RUN:   | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// CHECK-NOT: transform.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4:.*]] {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8:.*]] {
// CHECK:             linalg.matmul {{.*}}memref<4x16xf32{{.*}}memref<16x8xf32
// CHECK-NOT: transform.

// ERASE-NOT: transform
// ERASE: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<16x16xf32>, memref<16x16xf32>)
// ERASE-NOT: transform
// ERASE-NOT: scf.for

// The tiled nest: two tile loops, then the matmul's three loops; all are
// the matmul's.
// MAP:      1  operator  matmul         -       -       0  {{.*}}.mlir:[[#LINE:]]:3  linalg.matmul
// MAP-NEXT: 2  loop      matmul         0       4       1  {{.*}}.mlir:[[#LINE]]:3  linalg.matmul
// MAP-NEXT: 3  loop      matmul         1       3       2  {{.*}}.mlir:[[#LINE]]:3  linalg.matmul
// MAP-NEXT: 4  loop      matmul         2       2       3  {{.*}}.mlir:[[#LINE]]:3  linalg.matmul
// MAP-NOT:  loop

// UNTILED:      2  loop      matmul         0       2       1
// UNTILED-NEXT: 3  loop      matmul         1       1       2
// UNTILED-NEXT: 4  loop      matmul         2       0       3

// LLVMIR: define void @matmul(
// LLVMIR-NOT: transform

func.func @matmul(%A: memref<16x16xf32>, %B: memref<16x16xf32>,
                  %C: memref<16x16xf32>) {
  linalg.matmul ins(%A, %B : memref<16x16xf32>, memref<16x16xf32>)
                outs(%C : memref<16x16xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.tile_using_for %mm
      tile_sizes [4, 8]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                !transform.any_op)
    transform.yield
  }
}
