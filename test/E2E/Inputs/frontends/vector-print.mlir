// Printing with vector.print, as many upstream integration tests do:
// scalars, a 1-D and a 2-D vector, f16, a string.
func.func @main() {
  %f = arith.constant 42.5 : f32
  vector.print %f : f32
  %v = arith.constant dense<[1.0, 2.5, -3.0]> : vector<3xf32>
  vector.print %v : vector<3xf32>
  %m = arith.constant dense<[[1, 2], [3, -4]]> : vector<2x2xi32>
  vector.print %m : vector<2x2xi32>
  %h = arith.constant 0.333 : f16
  vector.print %h : f16
  %i = arith.constant -7 : i64
  vector.print %i : i64
  vector.print str "done\n"
  return
}
