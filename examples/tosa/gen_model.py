#!/usr/bin/env python3
"""Writes model.mlir: a small TOSA model as a TFLite-to-TOSA frontend emits
it (conv2d, depthwise_conv2d, add, clamp, avg_pool2d, reshape and a fully
connected layer as tosa.matmul), with fixed pseudo-random weights, and an
mlir-runner style @main that feeds it one image and prints the logits.

  python3 examples/tosa/gen_model.py > examples/tosa/model.mlir
"""

STATE = [12345]


def rand():
    """A small LCG: the same weights on every machine."""
    STATE[0] = (STATE[0] * 1103515245 + 12345) % (1 << 31)
    return (STATE[0] >> 8) % 201 / 100.0 - 1.0


def dense(shape):
    def build(dims):
        if not dims:
            return "%.2f" % rand()
        return "[" + ", ".join(build(dims[1:]) for _ in range(dims[0])) + "]"
    ty = "tensor<%sxf32>" % "x".join(str(d) for d in shape)
    return "dense<%s> : %s" % (build(list(shape)), ty), ty


def const(name, shape):
    value, ty = dense(shape)
    return ('  %%%s = "tosa.const"() {values = %s} : () -> %s' %
            (name, value, ty))


image, image_ty = dense([1, 8, 8, 3])
print("""// A small TOSA model (examples/tosa/gen_model.py writes this file): an
// 8x8 RGB image through conv2d (3x3, 4 channels) + bias, a depthwise 3x3
// conv, a residual add, ReLU6 (clamp), 2x2 average pooling, a reshape and a
// fully connected layer (tosa.matmul + bias) to 10 logits. @main runs it as
// mlir-runner does and prints the logits (printMemrefF32).
//
//   utils/lwp-run examples/tosa/model.mlir --check-output
//   utils/lwp-run --target=hexagon examples/tosa/model.mlir --check-output
""")
print("func.func @model(%image: tensor<1x8x8x3xf32>) -> tensor<1x10xf32> {")
print(const("w1", [4, 3, 3, 3]))
print(const("b1", [4]))
print('  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> '
      'tensor<1xf32>')
print("  %conv = tosa.conv2d %image, %w1, %b1, %zp, %zp {acc_type = f32, "
      "dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = "
      "array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, "
      "tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>")
print(const("w2", [3, 3, 4, 1]))
print(const("b2", [4]))
print("  %dw = tosa.depthwise_conv2d %conv, %w2, %b2, %zp, %zp {acc_type = "
      "f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, "
      "stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, "
      "tensor<3x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> "
      "tensor<1x8x8x4xf32>")
print("  %sum = tosa.add %conv, %dw : (tensor<1x8x8x4xf32>, "
      "tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>")
print("  %relu = tosa.clamp %sum {min_val = 0.0 : f32, max_val = 6.0 : f32} "
      ": (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>")
print("  %pool = tosa.avg_pool2d %relu, %zp, %zp {acc_type = f32, kernel = "
      "array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: "
      "2, 2>} : (tensor<1x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> "
      "tensor<1x4x4x4xf32>")
print("  %s64 = tosa.const_shape {values = dense<[1, 1, 64]> : "
      "tensor<3xindex>} : () -> !tosa.shape<3>")
print("  %flat = tosa.reshape %pool, %s64 : (tensor<1x4x4x4xf32>, "
      "!tosa.shape<3>) -> tensor<1x1x64xf32>")
print(const("w3", [1, 64, 10]))
print("  %fc = tosa.matmul %flat, %w3, %zp, %zp : (tensor<1x1x64xf32>, "
      "tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> "
      "tensor<1x1x10xf32>")
print(const("b3", [1, 1, 10]))
print("  %logits3 = tosa.add %fc, %b3 : (tensor<1x1x10xf32>, "
      "tensor<1x1x10xf32>) -> tensor<1x1x10xf32>")
print("  %s10 = tosa.const_shape {values = dense<[1, 10]> : tensor<2xindex>} "
      ": () -> !tosa.shape<2>")
print("  %logits = tosa.reshape %logits3, %s10 : (tensor<1x1x10xf32>, "
      "!tosa.shape<2>) -> tensor<1x10xf32>")
print("  return %logits : tensor<1x10xf32>")
print("}")
print()
print("func.func private @printMemrefF32(tensor<*xf32>)")
print()
print("func.func @main() {")
print("  %%image = arith.constant %s" % image)
print("  %logits = call @model(%image) : (tensor<1x8x8x3xf32>) -> "
      "tensor<1x10xf32>")
print("  %printable = tensor.cast %logits : tensor<1x10xf32> to tensor<*xf32>")
print("  call @printMemrefF32(%printable) : (tensor<*xf32>) -> ()")
print("  return")
print("}")
