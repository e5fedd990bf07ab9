// A model of lwp-import-onnx's contract, written by hand: @main_graph with
// the C interface, three inputs (float32 [2,3], float32 [2,3], int64 []) and
// three outputs (their sum, x > y as bool, and the int64 input forwarded).
// contract.json is its signature.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main_graph(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>,
                      %n: tensor<i64>)
    -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<i64>)
    attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<2x3xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map, #map],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %eb = tensor.empty() : tensor<2x3xi1>
  %gt = linalg.generic {indexing_maps = [#map, #map, #map],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%eb : tensor<2x3xi1>) {
  ^bb0(%a: f32, %b: f32, %o: i1):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg.yield %c : i1
  } -> tensor<2x3xi1>
  return %sum, %gt, %n : tensor<2x3xf32>, tensor<2x3xi1>, tensor<i64>
}
