// Programs whose figures extrapolation got wrong (figures.test): a
// triangular nest, recursion 300 and 100000 deep, longjmp out of nested
// functions and loops, and exit() from inside a loop. Each mode prints a
// checksum, so that the instrumented and plain builds can be compared.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long Sink;

/// Row I of the triangle does I units of work: later rows are longer, so a
/// mean over the first rows underestimates the total.
__attribute__((noinline)) long triangle(int N) {
  long S = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < I; ++J)
      S += (long)I * J ^ S;
  return S;
}

/// Work after the recursive call keeps the recursion a recursion.
__attribute__((noinline)) long after(long R, long Depth) {
  Sink = R;
  return R + (Depth & 3);
}

__attribute__((noinline)) long recurse(long Depth) {
  if (Depth == 0)
    return 1;
  return after(recurse(Depth - 1), Depth);
}

static jmp_buf Env;

__attribute__((noinline)) void deep(int N) {
  for (int I = 0; I < N; ++I) {
    Sink += I;
    if (I == N / 2)
      longjmp(Env, 1);
  }
}

__attribute__((noinline)) void middle(int N) {
  for (int K = 0; K < 3; ++K)
    deep(N + K);
}

__attribute__((noinline)) long runJump(int Times) {
  long Jumps = 0;
  for (int T = 0; T < Times; ++T) {
    if (setjmp(Env) == 0)
      middle(1000);
    else
      ++Jumps;
  }
  return Jumps;
}

__attribute__((noinline)) void exitInLoop(int N) {
  for (int I = 0; I < N; ++I) {
    Sink += I;
    if (I == N - 1) {
      printf("exit at %d\n", I);
      exit(0);
    }
  }
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  if (!strcmp(Mode, "triangle"))
    printf("triangle %ld\n", triangle(400));
  else if (!strcmp(Mode, "recurse"))
    printf("recurse %ld %ld\n", recurse(300), recurse(100000));
  else if (!strcmp(Mode, "jump"))
    printf("jumps %ld\n", runJump(50));
  else if (!strcmp(Mode, "exit"))
    exitInLoop(1000);
  return 0;
}
