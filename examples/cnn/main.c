/*===- main.c - Runs the bundled CNN block on deterministic data ----------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Calls `forward` of cnn.mlir through its C interface (_mlir_ciface_forward)
 * and prints the ten class probabilities as float bit patterns (exact, so
 * that instrumented and plain builds can be compared byte for byte) and the
 * predicted class. Builds for the host (libc) and for the freestanding
 * Hexagon runtime (runtime/hexagon/include/lwp_hexagon.h).
 */
#include "../common/example_io.h"

typedef MEMREF(1) MemRef1;
typedef MEMREF(2) MemRef2;
typedef MEMREF(4) MemRef4;

void _mlir_ciface_forward(MemRef2 *Result, MemRef4 *Input, MemRef4 *Filter,
                          MemRef1 *ConvBias, MemRef2 *Weights,
                          MemRef1 *DenseBias);

static float Input[16 * 16 * 4], Filter[3 * 3 * 4 * 8], ConvBias[8];
static float Weights[392 * 10], DenseBias[10];

/* A row-major descriptor of Rank dimensions over Data. */
static void describe(void *Desc, float *Data, int Rank, const int64_t *Sizes) {
  MEMREF(4) *M = Desc; /* same layout prefix for ranks 1 to 4 */
  int64_t *Strides = &M->Sizes[Rank];
  M->Allocated = M->Aligned = Data;
  M->Offset = 0;
  int64_t Stride = 1;
  for (int I = Rank - 1; I >= 0; --I) {
    M->Sizes[I] = Sizes[I];
    Strides[I] = Stride;
    Stride *= Sizes[I];
  }
}

int main(void) {
  /* Small values keep the convolution and the dense layer exact in float;
   * the scale keeps the softmax away from saturation. */
  for (int I = 0; I != 16 * 16 * 4; ++I)
    Input[I] = (float)((I * 7) % 5 - 2) * 0.25f;
  for (int I = 0; I != 3 * 3 * 4 * 8; ++I)
    Filter[I] = (float)((I * 3) % 7 - 3) * 0.125f;
  for (int I = 0; I != 8; ++I)
    ConvBias[I] = (float)(I % 3) * 0.5f - 0.5f;
  for (int I = 0; I != 392 * 10; ++I)
    Weights[I] = (float)((I * 5) % 11 - 5) * 0.03125f;
  for (int I = 0; I != 10; ++I)
    DenseBias[I] = (float)I * 0.0625f;

  MemRef4 In, Fi;
  MemRef2 W, Out;
  MemRef1 CB, DB;
  describe(&In, Input, 4, (const int64_t[]){1, 16, 16, 4});
  describe(&Fi, Filter, 4, (const int64_t[]){3, 3, 4, 8});
  describe(&CB, ConvBias, 1, (const int64_t[]){8});
  describe(&W, Weights, 2, (const int64_t[]){392, 10});
  describe(&DB, DenseBias, 1, (const int64_t[]){10});
  _mlir_ciface_forward(&Out, &In, &Fi, &CB, &W, &DB);

  out("probabilities: ");
  int Best = 0;
  for (int I = 0; I != 10; ++I) {
    float P = Out.Aligned[Out.Offset + I * Out.Strides[1]];
    uint32_t Bits;
    memcpy(&Bits, &P, 4);
    putHex(Bits);
    if (P > Out.Aligned[Out.Offset + Best * Out.Strides[1]])
      Best = I;
  }
  char Class[] = "\nclass: 0\n";
  Class[8] = (char)('0' + Best);
  out(Class);
  return 0;
}
