/* The harness of the benchmark in multi-module.test, in the style of
   PolyBench's polybench.c: set-up, checksums and output of the arrays. The
   counts that kernel.c's main gives its regions:
     util_init_matrix     2 + REPS = 5; its row loop 5, its column loop
                          5 * 64 rows = 320
     util_init_vector     1; its loop 1
     util_print_checksum  REPS + 1 = 4; the loop of util_checksum, inlined
                          into it (static), 4
     util_print_matrix    1; its row loop 1, its column loop 3 (3 rows) */
#include "utils.h"

#include <stdio.h>

/* A deterministic pseudo-random value in [0, 1). */
static double util_value(unsigned *State) {
  *State = *State * 1103515245u + 12345u;
  return (double)((*State >> 16) % 1000) / 1000.0;
}

void util_init_matrix(double *M, int Rows, int Cols, int Seed) {
  unsigned State = (unsigned)Seed;
  for (int I = 0; I < Rows; I++)
    for (int J = 0; J < Cols; J++)
      M[I * Cols + J] = util_value(&State);
}

void util_init_vector(double *V, int N, int Seed) {
  unsigned State = (unsigned)Seed;
  for (int I = 0; I < N; I++)
    V[I] = util_value(&State);
}

static double util_checksum(const double *V, int N) {
  double Sum = 0;
  for (int I = 0; I < N; I++)
    Sum += V[I] * (double)(I % 7 + 1);
  return Sum;
}

void util_print_checksum(const char *Name, const double *V, int N) {
  printf("%s checksum %.6f\n", Name, util_checksum(V, N));
}

void util_print_matrix(const char *Name, const double *M, int Rows, int Cols,
                       int Stride) {
  printf("%s:\n", Name);
  for (int I = 0; I < Rows; I++) {
    for (int J = 0; J < Cols; J++)
      printf(" %8.3f", M[I * Stride + J]);
    printf("\n");
  }
}
