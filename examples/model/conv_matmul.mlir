// A small operator graph in linalg on tensors: a 3x3 convolution (NHWC input,
// HWCF filter) followed by a dense layer (matmul) on the flattened features.
// Lowered to loops by the pipeline in utils/lwp-demo.sh, then instrumented.
func.func @conv2d(%input: tensor<1x10x10x4xf32>, %filter: tensor<3x3x4x8xf32>)
    -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x8xf32>)
      -> tensor<1x8x8x8xf32>
  %out = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>)
      outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %out : tensor<1x8x8x8xf32>
}

func.func @dense(%x: tensor<1x512xf32>, %w: tensor<512x10xf32>)
    -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x10xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x10xf32>)
      -> tensor<1x10xf32>
  %out = linalg.matmul ins(%x, %w : tensor<1x512xf32>, tensor<512x10xf32>)
      outs(%init : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %out : tensor<1x10xf32>
}

func.func @graph(%input: tensor<1x10x10x4xf32>, %filter: tensor<3x3x4x8xf32>,
                 %w: tensor<512x10xf32>) -> tensor<1x10xf32>
    attributes {llvm.emit_c_interface} {
  %conv = call @conv2d(%input, %filter)
      : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %flat = tensor.collapse_shape %conv [[0], [1, 2, 3]]
      : tensor<1x8x8x8xf32> into tensor<1x512xf32>
  %logits = call @dense(%flat, %w)
      : (tensor<1x512xf32>, tensor<512x10xf32>) -> tensor<1x10xf32>
  return %logits : tensor<1x10xf32>
}
