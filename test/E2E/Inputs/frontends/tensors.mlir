// Elementwise arithmetic on tensors, tensor.pad, tensor.concat and slices,
// as frontends emit them; printed through the runner utilities.
func.func @compute(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<12x10xf32> {
  %prod = arith.mulf %x, %y : tensor<4x8xf32>
  %sum = arith.addf %prod, %x : tensor<4x8xf32>
  %one = arith.constant 1.0 : f32
  %padded = tensor.pad %sum low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<4x8xf32> to tensor<6x10xf32>
  %cat = tensor.concat dim(0) %padded, %padded
    : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<12x10xf32>
  %slice = tensor.extract_slice %cat[2, 2] [2, 4] [1, 1]
    : tensor<12x10xf32> to tensor<2x4xf32>
  %twice = arith.addf %slice, %slice : tensor<2x4xf32>
  %out = tensor.insert_slice %twice into %cat[8, 0] [2, 4] [1, 1]
    : tensor<2x4xf32> into tensor<12x10xf32>
  return %out : tensor<12x10xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                             [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0],
                             [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5],
                             [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]]> : tensor<4x8xf32>
  %y = arith.constant dense<2.0> : tensor<4x8xf32>
  %r = call @compute(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<12x10xf32>
  %p = tensor.cast %r : tensor<12x10xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
