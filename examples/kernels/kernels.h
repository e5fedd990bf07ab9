/*===- kernels.h - The loop kernels of the kernels example -------*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef LWP_EXAMPLES_KERNELS_H
#define LWP_EXAMPLES_KERNELS_H

#include <stdint.h>

/* stencil.c */
void jacobi_5pt(float *A, float *Tmp, int Rows, int Cols, int Sweeps);

/* reduction.c */
int64_t sum_i32(const int32_t *A, int N);
float dot_f32(const float *X, const float *Y, int N);
float max_f32(const float *A, int N);
void col_sums_i32(const int32_t *A, int Rows, int Cols, int64_t *Sums);

/* trisolve.c */
void lower_solve(const float *L, const float *InvDiag, const float *B,
                 float *X, int N);

#endif /* LWP_EXAMPLES_KERNELS_H */
