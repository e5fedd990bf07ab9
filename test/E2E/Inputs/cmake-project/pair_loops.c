/* The second module of the pair program (pair_main.c). */
#include <stdint.h>

int64_t weighted_sum(const int32_t *A, int N, int32_t W) {
  int64_t S = 0;
  for (int I = 0; I < N; ++I)
    S += (int64_t)A[I] * W;
  return S;
}
