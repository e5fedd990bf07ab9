/* pair: a program of two instrumented sources, pair_main.c (main) and
 * pair_loops.c, for the host and for Hexagon (test/E2E/cmake-*.test).
 * Regions at -O2 (host and Hexagon): main (1 call) and its fill loop
 * (entered once; the 6 rounds are unrolled, no loop is left), weighted_sum
 * (6 calls) with its main loop (6) and a remainder loop that 1000 elements
 * leave unused. */
#include <stdint.h>

#if defined(__hexagon__)
#include "lwp_hexagon.h"
static void putTotal(int64_t V) {
  lwp_hex_puts(1, "pair: total=");
  lwp_hex_put_dec(1, V);
  lwp_hex_puts(1, "\n");
}
#else
#include <stdio.h>
static void putTotal(int64_t V) { printf("pair: total=%lld\n", (long long)V); }
#endif

int64_t weighted_sum(const int32_t *A, int N, int32_t W); /* pair_loops.c */

enum { Len = 1000, Rounds = 6 };
static int32_t Data[Len];

int main(void) {
  for (int I = 0; I < Len; ++I)
    Data[I] = (I * 7) % 13 - 5;
  int64_t Total = 0;
  for (int R = 1; R <= Rounds; ++R)
    Total += weighted_sum(Data, Len, R);
  putTotal(Total);
  return 0;
}
