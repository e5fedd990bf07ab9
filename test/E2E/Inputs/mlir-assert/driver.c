/* Driver of mlir-assert.test, an ordinary C program (stdio, stdlib): sums
 * model_mean(1 .. 8) = 1/2 + 2/2 + ... + 8/2 = 18, then, given an argument
 * N, prints model_mean(N), whose assertion fails past 8 (puts, abort).
 * stdout is unbuffered so that what was printed before an abort is there on
 * every target. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

double model_mean(int64_t N);

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  double Total = 0;
  for (int64_t I = 1; I <= 8; ++I)
    Total += model_mean(I);
  printf("sum of means %.4f\n", Total);
  if (argc > 1) {
    int64_t N = atoi(argv[1]);
    fprintf(stderr, "asking for the mean of %d entries\n", (int)N);
    printf("mean %.4f\n", model_mean(N));
  }
  return 0;
}
