// A small CNN block in linalg on tensors, static shapes:
//   conv2d 3x3 (NHWC input 1x16x16x4, HWCF filter 3x3x4x8) -> 1x14x14x8
//   + bias, ReLU
//   max-pool 2x2, stride 2                                  -> 1x7x7x8
//   flatten, dense (matmul 1x392 * 392x10) + bias           -> 1x10
//   softmax                                                 -> 1x10
// `forward` is called through its C interface (llvm.emit_c_interface) by
// main.c with deterministic data. Bufferized and lowered to loops by
// lwp-opt's lwp-linalg-to-loops pipeline (utils/lwp-run does it all).
// `lwp.operator` names an op in the profile (`linalg.matmul "dense"`); a
// NameLoc from a front end (loc("dense"(...))) does the same.

#map_nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#map_bias4 = affine_map<(n, h, w, c) -> (c)>
#map_2d = affine_map<(i, j) -> (i, j)>
#map_bias2 = affine_map<(i, j) -> (j)>
#map_row = affine_map<(i, j) -> (i)>

func.func @conv_bias_relu(%input: tensor<1x16x16x4xf32>,
                          %filter: tensor<3x3x4x8xf32>,
                          %bias: tensor<8xf32>) -> tensor<1x14x14x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x14x14x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x14x14x8xf32>)
      -> tensor<1x14x14x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
       lwp.operator = "conv1"}
      ins(%input, %filter : tensor<1x16x16x4xf32>, tensor<3x3x4x8xf32>)
      outs(%init : tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32>
  %act = linalg.generic
      {indexing_maps = [#map_nhwc, #map_bias4, #map_nhwc],
       iterator_types = ["parallel", "parallel", "parallel", "parallel"],
       lwp.operator = "conv1.bias_relu"}
      ins(%conv, %bias : tensor<1x14x14x8xf32>, tensor<8xf32>)
      outs(%empty : tensor<1x14x14x8xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %sum = arith.addf %x, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x14x14x8xf32>
  return %act : tensor<1x14x14x8xf32>
}

func.func @max_pool(%x: tensor<1x14x14x8xf32>) -> tensor<1x7x7x8xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %empty = tensor.empty() : tensor<1x7x7x8xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%empty : tensor<1x7x7x8xf32>)
      -> tensor<1x7x7x8xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nhwc_max
      {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>,
       lwp.operator = "pool1"}
      ins(%x, %window : tensor<1x14x14x8xf32>, tensor<2x2xf32>)
      outs(%init : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %pool : tensor<1x7x7x8xf32>
}

func.func @dense(%x: tensor<1x392xf32>, %w: tensor<392x10xf32>,
                 %bias: tensor<10xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x10xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x10xf32>)
      -> tensor<1x10xf32>
  %mm = linalg.matmul {lwp.operator = "dense"}
      ins(%x, %w : tensor<1x392xf32>, tensor<392x10xf32>)
      outs(%init : tensor<1x10xf32>) -> tensor<1x10xf32>
  %out = linalg.generic
      {indexing_maps = [#map_2d, #map_bias2, #map_2d],
       iterator_types = ["parallel", "parallel"],
       lwp.operator = "dense.bias"}
      ins(%mm, %bias : tensor<1x10xf32>, tensor<10xf32>)
      outs(%empty : tensor<1x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x10xf32>
  return %out : tensor<1x10xf32>
}

// softmax(x)_j = exp(x_j - max x) / sum_k exp(x_k - max x), over each row.
func.func @softmax(%x: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %row = tensor.empty() : tensor<1xf32>
  %max_init = linalg.fill ins(%lowest : f32) outs(%row : tensor<1xf32>)
      -> tensor<1xf32>
  %max = linalg.generic
      {indexing_maps = [#map_2d, #map_row],
       iterator_types = ["parallel", "reduction"],
       lwp.operator = "softmax.max"}
      ins(%x : tensor<1x10xf32>) outs(%max_init : tensor<1xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %empty = tensor.empty() : tensor<1x10xf32>
  %exp = linalg.generic
      {indexing_maps = [#map_2d, #map_row, #map_2d],
       iterator_types = ["parallel", "parallel"],
       lwp.operator = "softmax.exp"}
      ins(%x, %max : tensor<1x10xf32>, tensor<1xf32>)
      outs(%empty : tensor<1x10xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x10xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%row : tensor<1xf32>)
      -> tensor<1xf32>
  %sum = linalg.generic
      {indexing_maps = [#map_2d, #map_row],
       iterator_types = ["parallel", "reduction"],
       lwp.operator = "softmax.sum"}
      ins(%exp : tensor<1x10xf32>) outs(%sum_init : tensor<1xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %out = linalg.generic
      {indexing_maps = [#map_2d, #map_row, #map_2d],
       iterator_types = ["parallel", "parallel"],
       lwp.operator = "softmax.div"}
      ins(%exp, %sum : tensor<1x10xf32>, tensor<1xf32>)
      outs(%empty : tensor<1x10xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x10xf32>
  return %out : tensor<1x10xf32>
}

func.func @forward(%input: tensor<1x16x16x4xf32>, %filter: tensor<3x3x4x8xf32>,
                   %conv_bias: tensor<8xf32>, %w: tensor<392x10xf32>,
                   %dense_bias: tensor<10xf32>) -> tensor<1x10xf32>
    attributes {llvm.emit_c_interface} {
  %act = call @conv_bias_relu(%input, %filter, %conv_bias)
      : (tensor<1x16x16x4xf32>, tensor<3x3x4x8xf32>, tensor<8xf32>)
      -> tensor<1x14x14x8xf32>
  %pooled = call @max_pool(%act) : (tensor<1x14x14x8xf32>) -> tensor<1x7x7x8xf32>
  %flat = tensor.collapse_shape %pooled [[0], [1, 2, 3]]
      : tensor<1x7x7x8xf32> into tensor<1x392xf32>
  %logits = call @dense(%flat, %w, %dense_bias)
      : (tensor<1x392xf32>, tensor<392x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %probs = call @softmax(%logits) : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %probs : tensor<1x10xf32>
}
