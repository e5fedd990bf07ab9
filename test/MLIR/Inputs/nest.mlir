// Shared input of the option tests.
// @conv { L0 { L1 { L2 } L3 } }   (L1 and L3 are siblings, L2 is an only child)
// @matmul { L4 { L5 } }
func.func @conv(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
      }
    }
    scf.for %l = %c0 to %n step %c1 {
    }
  }
  return
}

func.func @matmul(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
    }
  }
  return
}
