// lwp-to-llvm{openmp=1} (issue 13): scf.forall, affine.parallel and
// scf.parallel all become OpenMP worksharing loops, and the probes of the
// loops inside them stay in the outlined bodies, where every thread runs
// them. Without the option the parallel loops run sequentially.
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" --lwp-to-llvm="target=x86_64 openmp=1" | FileCheck %s
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" --lwp-to-llvm=target=x86_64 | FileCheck %s --check-prefix=SEQ

// CHECK-LABEL: llvm.func @f
// CHECK-COUNT-3: omp.parallel
// CHECK-NOT:   omp.parallel
// CHECK-LABEL: llvm.func @g
// CHECK:       omp.parallel
// CHECK:         omp.wsloop
// CHECK:           llvm.call preserve_allcc notail @__lwp_probe_start
// CHECK:           llvm.call preserve_allcc notail @__lwp_probe_end
// CHECK:           omp.yield
// SEQ-NOT: omp.

func.func @f(%m: memref<8x16xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.forall (%i) in (8) {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x16xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %m[%i, %j] : memref<8x16xf32>
    }
  }
  affine.parallel (%i) = (0) to (8) {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x16xf32>
      memref.store %v, %m[%i, %j] : memref<8x16xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x16xf32>
      memref.store %v, %m[%i, %j] : memref<8x16xf32>
    }
  }
  return
}

func.func @g(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %m[%j] : memref<8xf32>
      memref.store %v, %m[%j] : memref<8xf32>
    }
  }
  return
}
