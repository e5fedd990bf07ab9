// An mlir-runner entry with a result (mlir-runner -e answer
// -entry-point-result=i32 prints it): a loop sums 1..8.
func.func @answer() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i32) {
    %k = arith.index_cast %i : index to i32
    %one = arith.constant 1 : i32
    %k1 = arith.addi %k, %one : i32
    %next = arith.addi %acc, %k1 : i32
    scf.yield %next : i32
  }
  return %sum : i32
}
