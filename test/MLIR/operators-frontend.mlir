// Operators as frontends write them (issue 22): TOSA ops lowered through
// upstream's tosa-to-linalg pipelines, tensor.pad (a linalg.map after
// bufferization), tensor.concat and elementwise arithmetic on tensors
// (convert-elementwise-to-linalg) keep the op the user wrote as their
// operator, in the map and on every loop they became.
// RUN: lwp-opt %s -stats-level=70 --lwp-linalg-to-loops --lwp-print-map -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// Lowered to LLVM IR with no workaround.
// RUN: lwp-opt %s -stats-level=70 --lwp-linalg-to-loops --lwp-to-llvm=target=x86_64 \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null

// CHECK:      0 function tosa - - - {{.*}}operators-frontend.mlir:28:1 -
// CHECK-NEXT: 1 operator tosa - - 0 {{.*}}operators-frontend.mlir:33:8 tosa.conv2d
// CHECK-NEXT: 2 loop tosa 0 2 1 {{.*}}operators-frontend.mlir:33:8 tosa.conv2d
// CHECK-NEXT: 3 loop tosa 0 5 1 {{.*}}operators-frontend.mlir:33:8 tosa.conv2d
// CHECK-NEXT: 4 operator tosa - - 0 {{.*}}operators-frontend.mlir:34:8 tosa.clamp
// CHECK-NEXT: 5 loop tosa 0 2 4 {{.*}}operators-frontend.mlir:34:8 tosa.clamp
// CHECK-NEXT: 6 operator tosa - - 0 {{.*}}operators-frontend.mlir:35:8 tosa.matmul
// CHECK-NEXT: 7 loop tosa 0 1 6 {{.*}}operators-frontend.mlir:35:8 tosa.matmul
// CHECK-NEXT: 8 loop tosa 0 2 6 {{.*}}operators-frontend.mlir:35:8 tosa.matmul
// CHECK-NEXT: 9 function tensors - - - {{.*}}operators-frontend.mlir:39:1 -
// CHECK-NEXT: 10 operator tensors - - 9 {{.*}}operators-frontend.mlir:40:8 arith.mulf
// CHECK-NEXT: 11 loop tensors 0 1 10 {{.*}}operators-frontend.mlir:40:8 arith.mulf
// CHECK-NEXT: 12 operator tensors - - 9 {{.*}}operators-frontend.mlir:42:13 tensor.pad
// CHECK-NEXT: 13 loop tensors 0 1 12 {{.*}}operators-frontend.mlir:42:13 tensor.pad
// CHECK-NEXT: 14 operator tensors - - 9 {{.*}}operators-frontend.mlir:46:10 tensor.concat
// CHECK-NOT:     tosa.const
func.func @tosa(%x: tensor<1x6x6x2xf32>, %a: tensor<1x4x8xf32>,
                %b: tensor<1x8x3xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x3xf32>) {
  %w = "tosa.const"() {values = dense<0.5> : tensor<2x3x3x2xf32>} : () -> tensor<2x3x3x2xf32>
  %bias = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  return %r, %m : tensor<1x4x4x2xf32>, tensor<1x4x3xf32>
}

func.func @tensors(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<6x10xf32>, tensor<8x8xf32>) {
  %p = arith.mulf %x, %y : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %p low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x10xf32>
  %cat = tensor.concat dim(0) %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %padded, %cat : tensor<6x10xf32>, tensor<8x8xf32>
}
