/*===- reduction.c - Sum, dot product and maximum reductions ------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#include "kernels.h"

/* Each 1-D kernel's loop is a depth-0 region, entered once per call (when
 * N > 0). At -O2 the loops are vectorized (x86-64, integer sums) or
 * runtime-unrolled: the main loop and its remainder are two regions of the
 * same source loop. */

int64_t sum_i32(const int32_t *A, int N) {
  int64_t S = 0;
  for (int I = 0; I < N; ++I)
    S += A[I];
  return S;
}

/* Float sums are not reassociated without -ffast-math: a sequential loop. */
float dot_f32(const float *X, const float *Y, int N) {
  float S = 0.0f;
  for (int I = 0; I < N; ++I)
    S += X[I] * Y[I];
  return S;
}

float max_f32(const float *A, int N) {
  float M = A[0];
  for (int I = 1; I < N; ++I)
    if (A[I] > M)
      M = A[I];
  return M;
}

/* Column sums of a Rows x Cols matrix: the row loop (depth 0, once per call)
 * and the column loop (depth 1, once per row). */
void col_sums_i32(const int32_t *A, int Rows, int Cols, int64_t *Sums) {
  for (int J = 0; J < Cols; ++J)
    Sums[J] = 0;
  for (int I = 0; I < Rows; ++I)
    for (int J = 0; J < Cols; ++J)
      Sums[J] += A[I * Cols + J];
}
