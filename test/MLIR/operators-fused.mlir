// Operators through elementwise fusion (issue 13): the fused generic keeps
// the producer's body ops, which lwp-mark-operators tagged as body ops, so
// the fused nest lists both operators: the consumer's ("relu", whose
// location the fused op takes) first, then the producer's ("bias").
// RUN: lwp-opt %s --lwp-mark-operators --linalg-fuse-elementwise-ops --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=2" --lwp-print-map -o /dev/null | FileCheck %s
// Unfused, each generic is an operator region of its own.
// RUN: lwp-opt %s --lwp-mark-operators --lwp-linalg-to-loops --lwp-instrument --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=UNFUSED

// CHECK:      ID  kind      function   depth  height  parent  location {{.*}}operator
// CHECK-NEXT:  0  function  bias_relu      -       -       -  {{.*}}:{{[0-9]+}}:1 -
// CHECK-NEXT:  1  operator  bias_relu      -       -       0  {{.*}}:{{[0-9]+}}:11 linalg.generic "relu" + linalg.generic "bias"
// CHECK-NEXT:  2  loop      bias_relu      0       1       1  {{.*}}:{{[0-9]+}}:11 linalg.generic "relu" + linalg.generic "bias"
// CHECK-NEXT:  3  loop      bias_relu      1       0       2  {{.*}}:{{[0-9]+}}:11 linalg.generic "relu" + linalg.generic "bias"
// CHECK-NOT:  {{^ *4 }}

#id = affine_map<(i, j) -> (i, j)>
func.func @bias_relu(%x: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel", "parallel"],
                         lwp.operator = "bias"}
      ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel"],
                          lwp.operator = "relu"}
      ins(%sum : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %relu : tensor<4x8xf32>
}

// UNFUSED:      1  operator  bias_relu {{.*}} linalg.generic "bias"
// UNFUSED-NEXT: 2  loop      bias_relu {{.*}} linalg.generic "bias"
// UNFUSED-NEXT: 3  operator  bias_relu {{.*}} linalg.generic "relu"
// UNFUSED-NEXT: 4  loop      bias_relu {{.*}} linalg.generic "relu"
