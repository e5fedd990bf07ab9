/* Multi-file program for clang-program.test: main.c, kernels.c, util.c. */
#include "prog.h"
#include <stdio.h>

int main(int argc, char **argv) {
  float A[64], B[64], C[64];
  int N = argc > 1 ? atoi_small(argv[1]) : 8;
  fill(A, N * N, 1.0f);
  fill(B, N * N, 2.0f);
  matmul(A, B, C, N);
  printf("checksum %d\n", (int)sum(C, N * N));
  return find_first(C, N * N, -1.0f) == -1 ? 0 : 1;
}
