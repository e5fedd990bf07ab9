#include "prog.h"

float sum(const float *X, int N) {
  float S = 0;
  for (int I = 0; I < N; ++I)
    S += X[I];
  return S;
}

int find_first(const float *X, int N, float V) {
  for (int I = 0; I < N; ++I)
    if (X[I] == V)
      return I;
  return -1;
}

int atoi_small(const char *S) {
  int V = 0;
  while (*S >= '0' && *S <= '9')
    V = V * 10 + (*S++ - '0');
  return V;
}
