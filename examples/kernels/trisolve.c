/*===- trisolve.c - Lower-triangular solve (forward substitution) -------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#include "kernels.h"

/* Solves L X = B for X, L lower triangular (N x N, row-major; only the part
 * below the diagonal is read), the diagonal given by its inverse (InvDiag:
 * no division, which the freestanding Hexagon runtime has no routine for).
 *
 * Regions at -max-loop-depth=1: the row loop (depth 0, entered once per
 * call) and the dot product with the solved part (depth 1). Row 0 has no
 * solved part: after loop rotation the inner loop sits behind a guard, so it
 * is entered N - 1 times, not N. */
void lower_solve(const float *L, const float *InvDiag, const float *B,
                 float *X, int N) {
  for (int I = 0; I < N; ++I) {
    float S = B[I];
    for (int J = 0; J < I; ++J)
      S -= L[I * N + J] * X[J];
    X[I] = S * InvDiag[I];
  }
}
