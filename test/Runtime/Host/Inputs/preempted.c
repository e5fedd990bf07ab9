/* A region of fixed CPU work (about 0.1 s here), a probe every few hundred
 * ticks, and a region that sleeps 50 times 1 ms: preemption.test runs it
 * with and without a busy process on its CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned long long X = 1;

__attribute__((noinline)) void step(int N) {
  for (int I = 0; I < N; ++I)
    X = X * 6364136223846793005ull + 1442695040888963407ull;
}

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; ++I)
    step(1000);
}

/* Blocked, not preempted: its 50 ms stay in its figure. */
__attribute__((noinline)) void nap(void) {
  for (int I = 0; I < 50; ++I)
    usleep(1000);
}

int main(int argc, char **argv) {
  work(argc > 1 ? atoi(argv[1]) : 1000000);
  nap();
  printf("%llu\n", X);
  return 0;
}
