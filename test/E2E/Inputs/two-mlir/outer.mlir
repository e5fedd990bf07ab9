// The first of two MLIR modules linked into one program (two-mlir.test):
// a loop that calls the second module's function once per iteration.
func.func private @inner_sum(index) -> i64

func.func @outer_run(%n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> i64 {
    %h = func.call @inner_sum(%i) : (index) -> i64
    %s = arith.addi %acc, %h : i64
    scf.yield %s : i64
  }
  return %r : i64
}
