// The kernel module of a two-module Hexagon program (static-lib.test): its
// own loop nest calls the utilities module's function 6 times.
#include "lwp_hexagon.h"

int util_scale(int *V, int N, int K);

static int Data[64];
/// Trip counts the optimizer cannot see (so the loops stay loops).
volatile int Rows = 3, Cols = 2;

__attribute__((noinline)) int kernel(void) {
  int Total = 0;
  int NR = Rows, NC = Cols;
  for (int R = 0; R < NR; ++R)
    for (int C = 0; C < NC; ++C)
      Total += util_scale(Data, 64, R + C + 1);
  return Total;
}

int main(void) {
  int T = kernel();
  lwp_hex_puts(1, "total ");
  lwp_hex_put_dec(1, T);
  lwp_hex_put_char(1, '\n');
  return 0;
}
