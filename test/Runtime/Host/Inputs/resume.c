/* Resume probes (issue 20): control comes back after longjmp and after a
 * C++-style unwind, and the instances the exit left are closed there.
 *
 *   resume jump [big]   for (i < 50) { if (setjmp(jb) == 0) thrower(i);
 *                       work(); }: thrower (10 additions, then longjmp) and
 *                       work (2000 additions), both noinline; "big" gives
 *                       thrower a 256-byte local, so its frame, and the
 *                       stack position of a later work(), move.
 *   resume loop         longjmp out of a loop of the resuming function
 *                       itself: setjmp before the loop, the loop's third
 *                       iteration calls thrower, 20 times.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static jmp_buf Jb;
volatile int Sink;
/* Loop bounds the optimizer cannot see, so that the loops stay loops. */
volatile int Rounds = 20, Steps = 5, ThrowAt = 2;

__attribute__((noinline)) void thrower(int I) {
  for (int K = 0; K < 10; K++)
    Sink += K + I;
  longjmp(Jb, 1);
}

__attribute__((noinline)) void bigThrower(int I) {
  volatile char Local[256];
  for (int K = 0; K < 10; K++)
    Local[K * 16] = (char)(Sink += K + I);
  longjmp(Jb, Local[0] | 1);
}

__attribute__((noinline)) void work(void) {
  for (int K = 0; K < 2000; K++)
    Sink += K;
}

__attribute__((noinline)) void runLoop(void) {
  for (int R = 0; R < Rounds; R++) {
    if (setjmp(Jb) != 0) {
      work();
      continue;
    }
    for (int K = 0; K < Steps; K++) {
      Sink += K;
      if (K == ThrowAt)
        thrower(R);
    }
  }
}

int main(int Argc, char **Argv) {
  int Big = Argc > 2 && strcmp(Argv[2], "big") == 0;
  if (Argc > 1 && strcmp(Argv[1], "loop") == 0) {
    runLoop();
  } else {
    for (int I = 0; I < 50; I++) {
      if (setjmp(Jb) == 0) {
        if (Big)
          bigThrower(I);
        else
          thrower(I);
      }
      work();
    }
  }
  printf("%d\n", Sink);
  return 0;
}
