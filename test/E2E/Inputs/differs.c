/* Prints whether the binary carries an instrumentation map (the linker's
 * __start_lwp_map): the instrumented and the plain build differ, and
 * lwp-run --check-output must say so. */
#include <stdio.h>
extern const char __start_lwp_map[] __attribute__((weak));
int main(void) {
  int S = 0;
  for (int I = 0; I < 10; ++I)
    S += I;
  printf("sum %d, map %s\n", S, __start_lwp_map ? "yes" : "no");
  return 0;
}
