/* The kernels and main of the benchmark in multi-module.test, in the style of
   a PolyBench benchmark (gemm and jacobi-1d); the harness is utils.c. Sizes
   are compile-time constants, so every region's count is known in advance
   (regions as lwp-instrument -stats-level=70 -max-loop-depth=1 selects them):
     main              1 (its R loop, 3 iterations of calls, is fully
                       unrolled before lwp-instrument runs: no region)
     kernel_gemm       REPS = 3; its I loop 3, its J loop 3 * N = 192 (the
                       K loop, at depth 2, is no region)
     kernel_jacobi_1d  3; its T loop 3, each of its two I loops
                       3 * TSTEPS = 30 */
#include "utils.h"

#define N 64
#define TSTEPS 10
#define REPS 3

static double A[N][N], B[N][N], C[N][N];
static double X[N], Y[N];

__attribute__((noinline)) static void kernel_gemm(double Alpha, double Beta) {
  for (int I = 0; I < N; I++)
    for (int J = 0; J < N; J++) {
      C[I][J] *= Beta;
      for (int K = 0; K < N; K++)
        C[I][J] += Alpha * A[I][K] * B[K][J];
    }
}

__attribute__((noinline)) static void kernel_jacobi_1d(int TSteps) {
  for (int T = 0; T < TSteps; T++) {
    for (int I = 1; I < N - 1; I++)
      Y[I] = 0.33333 * (X[I - 1] + X[I] + X[I + 1]);
    for (int I = 1; I < N - 1; I++)
      X[I] = 0.33333 * (Y[I - 1] + Y[I] + Y[I + 1]);
  }
}

int main(void) {
  util_init_matrix(&A[0][0], N, N, 1);
  util_init_matrix(&B[0][0], N, N, 2);
  util_init_vector(X, N, 3);
  for (int R = 0; R < REPS; R++) {
    util_init_matrix(&C[0][0], N, N, 4 + R);
    kernel_gemm(1.5, 1.2);
    kernel_jacobi_1d(TSTEPS);
    util_print_checksum("C", &C[0][0], N * N);
  }
  util_print_checksum("X", X, N);
  util_print_matrix("C", &C[0][0], 3, 4, N);
  return 0;
}
