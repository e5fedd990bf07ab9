// A model with constant data (a dense global table) and an assertion
// (cf.assert): lowered, the table lands in read-only data and the
// assertion calls puts and abort (mlir-assert.test).
memref.global "private" constant @table : memref<8xf64> = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]>

// The mean of the first n table entries; n must be in 1 .. 8.
func.func @model_mean(%n: index) -> f64 {
  %t = memref.get_global @table : memref<8xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %ok = arith.cmpi ule, %n, %c8 : index
  cf.assert %ok, "model_mean: n must be at most 8"
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %t[%i] : memref<8xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  }
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %mean = arith.divf %sum, %nf : f64
  return %mean : f64
}
