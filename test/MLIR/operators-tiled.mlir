// Operators through tiling (issue 13): the transform dialect's tiling keeps
// the conv's location on the tile loops, so the operator region encloses the
// whole tiled nest (8x8 tiles of the 16x16 output) and every tile loop
// carries the conv. The transform script gets no region; lwp-linalg-to-loops
// applies it (issue 22) and erases it; upstream's -transform-interpreter
// before lwp-linalg-to-loops=apply-transforms=false tiles the same.
// RUN: lwp-opt %s --lwp-mark-operators --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=2" --lwp-print-map -o /dev/null | FileCheck %s
// RUN: lwp-opt %s --lwp-mark-operators --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=2" --mlir-print-debuginfo=false | FileCheck %s --check-prefix=IR
// RUN: lwp-opt %s --lwp-mark-operators --transform-interpreter --lwp-linalg-to-loops=apply-transforms=false --lwp-instrument="max-loop-depth=2" --lwp-print-map -o /dev/null | FileCheck %s

// CHECK:      ID  kind      function  depth  height  parent  location {{.*}}operator
// CHECK-NEXT:  0  function  conv          -       -       -  {{.*}}:{{[0-9]+}}:1 -
// CHECK-NEXT:  1  operator  conv          -       -       0  {{.*}}:{{[0-9]+}}:3 linalg.conv_2d_nhwc_hwcf "conv1"
// CHECK-NEXT:  2  loop      conv          0       7       1  {{.*}}:{{[0-9]+}}:3 linalg.conv_2d_nhwc_hwcf "conv1"
// CHECK-NEXT:  3  loop      conv          1       6       2  {{.*}}:{{[0-9]+}}:3 linalg.conv_2d_nhwc_hwcf "conv1"
// CHECK-NEXT:  4  loop      conv          2       5       3  {{.*}}:{{[0-9]+}}:3 linalg.conv_2d_nhwc_hwcf "conv1"
// CHECK-NOT:  transform

// IR-LABEL: func.func @conv
// IR:       lwp.probe_start operator 1
// IR-NEXT:  lwp.probe_start loop 2
// IR-NEXT:  scf.for %{{.*}} = %c0 to %c16 step %c8
// IR-NEXT:    lwp.probe_start loop 3
// IR-NEXT:    scf.for %{{.*}} = %c0 to %c16 step %c8
// IR:         lwp.probe_end loop 3
// IR:       lwp.probe_end loop 2
// IR-NEXT:  lwp.probe_end operator 1
// IR-NOT:   lwp.probe_start
// IR-NOT:   transform.

func.func @conv(%in: memref<1x18x18x4xf32>, %f: memref<3x3x4x8xf32>,
                %out: memref<1x16x16x8xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                            strides = dense<1> : tensor<2xi64>,
                            lwp.operator = "conv1"}
    ins(%in, %f : memref<1x18x18x4xf32>, memref<3x3x4x8xf32>)
    outs(%out : memref<1x16x16x8xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.tile_using_for %conv tile_sizes [0, 8, 8, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
