#include "prog.h"

/* A three-deep nest: with -max-loop-depth=1, i and j get probes, k not. */
void matmul(const float *A, const float *B, float *C, int N) {
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J) {
      float S = 0;
      for (int K = 0; K < N; ++K)
        S += A[I * N + K] * B[K * N + J];
      C[I * N + J] = S;
    }
}

void fill(float *X, int N, float V) {
  for (int I = 0; I < N; ++I)
    X[I] = V;
}
