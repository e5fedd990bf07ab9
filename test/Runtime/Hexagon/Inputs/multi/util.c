// The utilities module of a two-module Hexagon program (static-lib.test).
int util_scale(int *V, int N, int K) {
  int S = 0;
  for (int I = 0; I < N; ++I) {
    V[I] = V[I] * K + I;
    S += V[I];
  }
  return S;
}
