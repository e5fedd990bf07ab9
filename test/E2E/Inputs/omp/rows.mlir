// Rows of a matrix scaled in parallel: scf.parallel over the rows, an
// scf.for over the columns of each row.
func.func @scale_rows(%m: memref<64x256xf32>, %s: f32) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c256 step %c1 {
      %v = memref.load %m[%i, %j] : memref<64x256xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %m[%i, %j] : memref<64x256xf32>
    }
  }
  return
}
