/*===- driver.c - Runs the bundled conv2d + matmul graph ------------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Calls the graph of conv_matmul.mlir through its C interface
 * (_mlir_ciface_graph, from llvm.emit_c_interface) on deterministic inputs
 * and prints the ten logits as exact integers (the float bit patterns), so
 * that runs with and without probes can be compared byte for byte. It builds
 * for the host (libc) and for the freestanding Hexagon runtime
 * (runtime/hexagon/include/lwp_hexagon.h).
 */
#include "../common/example_io.h"

typedef MEMREF(2) MemRef2;
typedef MEMREF(4) MemRef4;

void _mlir_ciface_graph(MemRef2 *Result, MemRef4 *Input, MemRef4 *Filter,
                        MemRef2 *Weights);

static float Input[1 * 10 * 10 * 4], Filter[3 * 3 * 4 * 8], Weights[512 * 10];

static void init4(MemRef4 *M, float *Data, int64_t A, int64_t B, int64_t C,
                  int64_t D) {
  M->Allocated = M->Aligned = Data;
  M->Offset = 0;
  M->Sizes[0] = A, M->Sizes[1] = B, M->Sizes[2] = C, M->Sizes[3] = D;
  M->Strides[0] = B * C * D, M->Strides[1] = C * D, M->Strides[2] = D;
  M->Strides[3] = 1;
}

int main(void) {
  /* Small integers keep every product and sum exact in float. */
  for (int I = 0; I != 1 * 10 * 10 * 4; ++I)
    Input[I] = (float)((I * 7) % 5 - 2);
  for (int I = 0; I != 3 * 3 * 4 * 8; ++I)
    Filter[I] = (float)((I * 3) % 7 - 3);
  for (int I = 0; I != 512 * 10; ++I)
    Weights[I] = (float)((I * 5) % 3 - 1);
  MemRef4 In, Fi;
  MemRef2 W, Out;
  init4(&In, Input, 1, 10, 10, 4);
  init4(&Fi, Filter, 3, 3, 4, 8);
  W.Allocated = W.Aligned = Weights;
  W.Offset = 0;
  W.Sizes[0] = 512, W.Sizes[1] = 10, W.Strides[0] = 10, W.Strides[1] = 1;
  _mlir_ciface_graph(&Out, &In, &Fi, &W);
  out("logits: ");
  for (int I = 0; I != 10; ++I) {
    uint32_t Bits;
    memcpy(&Bits, &Out.Aligned[Out.Offset + I * Out.Strides[1]], 4);
    putHex(Bits);
  }
  out("\n");
  return 0;
}
