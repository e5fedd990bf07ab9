// Calling contexts (issue 30): one function reached by two paths, and a
// recursion. Paths with known counts: main;a;c 2000, main;b;c 1000, and
// main;rec;rec;...;rec six levels deep, once each.
#include <stdio.h>

// Stores the optimizer must keep: every call happens, none is merged.
volatile int Sink;

__attribute__((noinline)) int c(int X) {
  Sink = X;
  return X * 2 + 1;
}
__attribute__((noinline)) int a(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += c(I);
  Sink = S;
  return S;
}
__attribute__((noinline)) int b(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += c(I) * 3;
  Sink = S;
  return S;
}
__attribute__((noinline)) int rec(int D) {
  if (!D)
    return 0;
  int R = rec(D - 1);
  Sink = R;
  return R + 1;
}

int main(void) {
  int S = 0;
  for (int K = 0; K < 2; ++K) {
    S += a(1000);
    S += b(500);
  }
  S += rec(5);
  printf("%d\n", S);
  return 0;
}
