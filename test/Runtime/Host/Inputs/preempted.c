/* A region of fixed CPU work (about 0.1 s here), a probe every few hundred
 * ticks: preemption.test runs it with and without a busy process on its
 * CPU. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long X = 1;

__attribute__((noinline)) void step(int N) {
  for (int I = 0; I < N; ++I)
    X = X * 6364136223846793005ull + 1442695040888963407ull;
}

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; ++I)
    step(1000);
}

int main(int argc, char **argv) {
  work(argc > 1 ? atoi(argv[1]) : 1000000);
  printf("%llu\n", X);
  return 0;
}
