/* The suite's kernel file: a jacobi-1d with the size from -DN, its argument
 * the number of sweeps, its standard input a scale factor; it writes its
 * result to result.txt too. */
#include "suite.h"
#include <stdio.h>
#include <stdlib.h>

static void jacobi(int Steps, double *A, double *B) {
  for (int T = 0; T < Steps; ++T) {
    for (int I = 1; I < N - 1; ++I)
      B[I] = (A[I - 1] + A[I] + A[I + 1]) / 3.0;
    for (int I = 1; I < N - 1; ++I)
      A[I] = (B[I - 1] + B[I] + B[I + 1]) / 3.0;
  }
}

int main(int argc, char **argv) {
  int Steps = argc > 1 ? atoi(argv[1]) : TSTEPS;
  double Scale = 1.0;
  if (scanf("%lf", &Scale) != 1)
    Scale = 1.0;
  double *A = suite_alloc(N), *B = suite_alloc(N);
  for (int I = 0; I < N; ++I)
    A[I] *= Scale;
  jacobi(Steps, A, B);
  suite_print("A", A, N);
  printf("jacobi-1d N=%d steps=%d\n", N, Steps);
  FILE *F = fopen("result.txt", "w");
  if (F) {
    fprintf(F, "%.9f\n", A[N / 2]);
    fclose(F);
  }
  return 0;
}
