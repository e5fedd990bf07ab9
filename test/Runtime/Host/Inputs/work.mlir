// A model whose operators carry their work (flops, bytes read and written
// per execution) in their tags, as a frontend writes them: a 16x32 by 32x16
// matmul (2 x 16 x 16 x 32 = 16384 flops, (512 + 512) x 4 bytes read,
// 256 x 4 written) and a ReLU over 16x16 (256 flops, 1024 bytes read and
// written); the fills have no figures. main runs the model 3 times.
#id = affine_map<(i, j) -> (i, j)>
func.func @model(%a: memref<16x32xf32>, %b: memref<32x16xf32>, %c: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x32xf32>, memref<32x16xf32>)
      outs(%c : memref<16x16xf32>)
      loc(fused<{lwp.op = "onnx.MatMul", lwp.instance = 0 : i64, lwp.name = "mm", lwp.flops = 16384 : i64, lwp.bytes_read = 4096 : i64, lwp.bytes_written = 1024 : i64}>["work.onnx":3:0])
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } loc(fused<{lwp.op = "onnx.Relu", lwp.instance = 1 : i64, lwp.name = "relu", lwp.flops = 256 : i64, lwp.bytes_read = 1024 : i64, lwp.bytes_written = 1024 : i64}>["work.onnx":4:0])
  return
}

func.func @main() -> i32 {
  %a = memref.alloc() : memref<16x32xf32>
  %b = memref.alloc() : memref<32x16xf32>
  %c = memref.alloc() : memref<16x16xf32>
  %half = arith.constant 0.5 : f32
  linalg.fill ins(%half : f32) outs(%a : memref<16x32xf32>)
  linalg.fill ins(%half : f32) outs(%b : memref<32x16xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    func.call @model(%a, %b, %c) : (memref<16x32xf32>, memref<32x16xf32>, memref<16x16xf32>) -> ()
  }
  memref.dealloc %a : memref<16x32xf32>
  memref.dealloc %b : memref<32x16xf32>
  memref.dealloc %c : memref<16x16xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
