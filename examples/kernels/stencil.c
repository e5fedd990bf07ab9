/*===- stencil.c - 2-D 5-point Jacobi stencil ---------------------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#include "kernels.h"

/* Sweeps of new = 1/2 centre + 1/8 (north + south + west + east) over the
 * interior of a Rows x Cols row-major grid; the border stays as it is (Tmp
 * must hold the same border as A). The sweeps alternate between A and Tmp:
 * after an even number of sweeps the result is in A. The weights are powers
 * of two, so small integer grids stay exact in float for a few sweeps.
 *
 * Regions at -max-loop-depth=1: the sweep loop (depth 0, entered once per
 * call) and the row loop (depth 1, entered once per sweep). */
void jacobi_5pt(float *A, float *Tmp, int Rows, int Cols, int Sweeps) {
  for (int S = 0; S < Sweeps; ++S) {
    for (int I = 1; I < Rows - 1; ++I) {
      const float *Up = A + (I - 1) * Cols, *Mid = A + I * Cols,
                  *Down = A + (I + 1) * Cols;
      float *Out = Tmp + I * Cols;
      for (int J = 1; J < Cols - 1; ++J)
        Out[J] = 0.5f * Mid[J] +
                 0.125f * (Up[J] + Down[J] + Mid[J - 1] + Mid[J + 1]);
    }
    float *T = A;
    A = Tmp;
    Tmp = T;
  }
}
