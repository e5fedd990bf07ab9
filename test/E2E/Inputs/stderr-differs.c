/* Writes to stderr whether it was instrumented: --check-output must catch a
 * difference on stderr alone (lwp-run-flags.test). */
#include <stdio.h>
extern char __start_lwp_map[] __attribute__((weak));
int main(void) {
  int S = 0;
  for (int I = 0; I < 10; ++I)
    S += I;
  printf("sum %d\n", S);
  fprintf(stderr, "map %s\n", __start_lwp_map ? "yes" : "no");
  return 0;
}
