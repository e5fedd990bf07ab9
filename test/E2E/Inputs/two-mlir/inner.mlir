// The second module (two-mlir.test): the sum 0 + 1 + ... + (m - 1).
func.func @inner_sum(%m: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %r = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %zero) -> i64 {
    %v = arith.index_cast %j : index to i64
    %s = arith.addi %acc, %v : i64
    scf.yield %s : i64
  }
  return %r : i64
}
