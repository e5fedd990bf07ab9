// Kernels on tensors whose sizes they do not know (tensor<?xf32>), vectorized
// by the module's transform schedule with fixed vector sizes larger than the
// data (an add of 7 elements in vectors of 8, a 3x5 by 5x2 matmul in 4x4x8):
// the vectorizer masks every transfer and the matmul's reduction
// (vector.mask), as upstream's masked-vectorization tests write it.
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                       affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%init : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<7xf32>
  %b0 = arith.constant dense<[0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]> : tensor<7xf32>
  %a = tensor.cast %a0 : tensor<7xf32> to tensor<?xf32>
  %b = tensor.cast %b0 : tensor<7xf32> to tensor<?xf32>
  %c7 = arith.constant 7 : index
  %e = tensor.empty(%c7) : tensor<?xf32>
  %r = call @add(%a, %b, %e) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %p = tensor.cast %r : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  %ma0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [0.5, 1.5, 2.5, 3.5, 4.5], [2.0, 0.0, 1.0, 0.0, 2.0]]> : tensor<3x5xf32>
  %mb0 = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.5], [0.25, 4.0]]> : tensor<5x2xf32>
  %mc0 = arith.constant dense<1.0> : tensor<3x2xf32>
  %ma = tensor.cast %ma0 : tensor<3x5xf32> to tensor<?x?xf32>
  %mb = tensor.cast %mb0 : tensor<5x2xf32> to tensor<?x?xf32>
  %mc = tensor.cast %mc0 : tensor<3x2xf32> to tensor<?x?xf32>
  %m = call @matmul(%ma, %mb, %mc) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %mp = tensor.cast %m : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%mp) : (tensor<*xf32>) -> ()
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vector_sizes [8] : !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %mm vector_sizes [4, 4, 8]
      : !transform.any_op
    transform.yield
  }
}
