/* Runs, then fails: lwp-run must stop at the run stage. */
#include <stdio.h>
int main(void) {
  int S = 0;
  for (int I = 0; I < 10; ++I)
    S += I;
  printf("sum %d\n", S);
  return 3;
}
