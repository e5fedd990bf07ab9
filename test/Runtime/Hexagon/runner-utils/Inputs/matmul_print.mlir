// An upstream-style program: linalg on memrefs, printed through MLIR's
// runner utilities (printMemrefF32, memrefCopy for a strided copy,
// printF32, printNewline).
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printF32(f32)
func.func private @printNewline()

#id = affine_map<(i, j) -> (i, j)>
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %big = arith.constant 1.0e6 : f32
  %A = memref.alloc() : memref<2x3xf32>
  %B = memref.alloc() : memref<3x4xf32>
  %C = memref.alloc() : memref<2x4xf32>
  // A[i][j] = (3i + j) / 2 - 1
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%A : memref<2x3xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %i3 = arith.muli %i, %c3 : index
    %k = arith.addi %i3, %j : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %h = arith.mulf %kf, %half : f32
    %v = arith.subf %h, %one : f32
    linalg.yield %v : f32
  }
  // B[i][j] = (i - j) * 1e6 + j / 7
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%B : memref<3x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %i, %j : index
    %di = arith.index_cast %d : index to i32
    %df = arith.sitofp %di : i32 to f32
    %m = arith.mulf %df, %big : f32
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %c7 = arith.constant 7.0 : f32
    %q = arith.divf %jf, %c7 : f32
    %v = arith.addf %m, %q : f32
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<2x4xf32>)
  linalg.matmul ins(%A, %B : memref<2x3xf32>, memref<3x4xf32>)
                outs(%C : memref<2x4xf32>)
  %uA = memref.cast %A : memref<2x3xf32> to memref<*xf32>
  %uB = memref.cast %B : memref<3x4xf32> to memref<*xf32>
  %uC = memref.cast %C : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%uA) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uC) : (memref<*xf32>) -> ()
  // A strided view (columns 1 and 3 of C, transposed): memref.copy of a
  // non-contiguous layout calls memrefCopy.
  %S = memref.subview %C[0, 1] [2, 2] [1, 2]
      : memref<2x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 1>>
  %D = memref.alloc() : memref<2x2xf32>
  memref.copy %S, %D : memref<2x2xf32, strided<[4, 2], offset: 1>> to memref<2x2xf32>
  %uS = memref.cast %S : memref<2x2xf32, strided<[4, 2], offset: 1>> to memref<*xf32>
  %uD = memref.cast %D : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%uS) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uD) : (memref<*xf32>) -> ()
  // Rank 0, holding -0.
  %Z = memref.alloc() : memref<f32>
  memref.store %negzero, %Z[] : memref<f32>
  %uZ = memref.cast %Z : memref<f32> to memref<*xf32>
  call @printMemrefF32(%uZ) : (memref<*xf32>) -> ()
  // The sum of C, as a scalar.
  %sum = memref.alloc() : memref<f32>
  memref.store %zero, %sum[] : memref<f32>
  linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%C : memref<2x4xf32>) outs(%sum : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  %total = memref.load %sum[] : memref<f32>
  call @printF32(%total) : (f32) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %A : memref<2x3xf32>
  memref.dealloc %B : memref<3x4xf32>
  memref.dealloc %C : memref<2x4xf32>
  memref.dealloc %D : memref<2x2xf32>
  memref.dealloc %Z : memref<f32>
  memref.dealloc %sum : memref<f32>
  %ret = arith.constant 0 : i32
  return %ret : i32
}
