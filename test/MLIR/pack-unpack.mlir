// linalg.pack and linalg.unpack (data tiling, issue 22): lowered before
// bufferization, which does not take them, to pad/expand_shape/transpose and
// transpose/collapse_shape/extract_slice; the loops they become carry the op
// the user wrote as their operator.
// RUN: lwp-opt %s --lwp-lower-pack-unpack | FileCheck %s --check-prefix=LOWER
// RUN: lwp-opt %s -stats-level=70 -max-loop-depth=1 --lwp-linalg-to-loops --lwp-print-map -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MAP
// Without the lowering, bufferization stops at the pack's line.
// RUN: not lwp-opt %s --one-shot-bufferize 2>&1 | FileCheck %s --check-prefix=NOLOWER

// LOWER-LABEL: func.func @pack(
// LOWER-NOT:   linalg.pack
// LOWER:       tensor.pad %{{.*}} low[0, 0] high[0, 2]
// LOWER:       tensor.expand_shape {{.*}} {{\[}}[0, 1], [2, 3]] output_shape [2, 4, 2, 4]
// LOWER:       linalg.transpose {{.*}} permutation = [0, 2, 1, 3]
// LOWER-LABEL: func.func @unpack(
// LOWER-NOT:   linalg.unpack
// LOWER:       linalg.transpose {{.*}} permutation = [0, 2, 1, 3]
// LOWER:       tensor.collapse_shape {{.*}} {{\[}}[0, 1], [2, 3]] : tensor<2x4x2x4xf32> into tensor<8x8xf32>
// LOWER:       tensor.extract_slice {{.*}}[0, 0] [8, 6] [1, 1]

// NOLOWER: pack-unpack.mlir:43:8: error: op was not bufferized

// The pack's pad (a fill, then a copy) and transpose, the unpack's transpose
// and copy: each a loop nest labeled by the op the user wrote.
// MAP:      0 function pack - - - {{.*}}pack-unpack.mlir:40:1 -
// MAP-NEXT: 1 operator pack - - 0 {{.*}}pack-unpack.mlir:43:8 linalg.pack
// MAP-NEXT: 2 loop pack 0 1 1 {{.*}}pack-unpack.mlir:43:8 linalg.pack
// MAP-NEXT: 3 loop pack 1 0 2 {{.*}}pack-unpack.mlir:43:8 linalg.pack
// MAP-NEXT: 4 loop pack 0 3 1 {{.*}}pack-unpack.mlir:43:8 linalg.pack
// MAP-NEXT: 5 loop pack 1 2 4 {{.*}}pack-unpack.mlir:43:8 linalg.pack
// MAP-NEXT: 6 function unpack - - - {{.*}}pack-unpack.mlir:48:1 -
// MAP-NEXT: 7 operator unpack - - 6 {{.*}}pack-unpack.mlir:50:8 linalg.unpack
// MAP-NEXT: 8 loop unpack 0 3 7 {{.*}}pack-unpack.mlir:50:8 linalg.unpack
// MAP-NEXT: 9 loop unpack 1 2 8 {{.*}}pack-unpack.mlir:50:8 linalg.unpack
// MAP-NEXT: 10 loop unpack 0 1 7 {{.*}}pack-unpack.mlir:50:8 linalg.unpack
// MAP-NEXT: 11 loop unpack 1 0 10 {{.*}}pack-unpack.mlir:50:8 linalg.unpack
// MAP-NOT:  loop

func.func @pack(%c: tensor<8x6xf32>) -> tensor<2x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x4x4xf32>
  %p = linalg.pack %c padding_value(%zero : f32) inner_dims_pos = [0, 1]
         inner_tiles = [4, 4] into %e : tensor<8x6xf32> -> tensor<2x2x4x4xf32>
  return %p : tensor<2x2x4x4xf32>
}

func.func @unpack(%p: tensor<2x2x4x4xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<8x6xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [4, 4]
         into %e : tensor<2x2x4x4xf32> -> tensor<8x6xf32>
  return %u : tensor<8x6xf32>
}
