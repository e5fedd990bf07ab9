/* The suite's utilities file: allocation and result printing (on stderr, as
 * the suite does), with loops of its own. */
#include "suite.h"
#include <stdio.h>
#include <stdlib.h>

double *suite_alloc(int Count) {
  double *V = malloc(sizeof(double) * (size_t)Count);
  for (int I = 0; I < Count; ++I)
    V[I] = (double)(I % 7) / 7.0;
  return V;
}

void suite_print(const char *Name, const double *V, int Count) {
  double Sum = 0;
  for (int I = 0; I < Count; ++I)
    Sum += V[I];
  fprintf(stderr, "%s: %.6f\n", Name, Sum);
}
