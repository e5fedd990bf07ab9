/* Values live in general and vector registers across probes that ask the
 * kernel (lwp_compensate_gap): each execution of the inner loop takes about
 * 100 us, more than the runtime's gap (about 50 us), so its end probe takes
 * the path that calls getrusage and clock_gettime. A register that path
 * failed to keep would change the sums. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void kernel(int N, int Inner, double X0,
                                      uint64_t U0) {
  double A = X0, B = X0 * 0.5, C = X0 + 1, D = X0 - 1, E = 3.25, F = 0.125,
         G = 7.5, H = 1.0625;
  uint64_t P = U0, Q = U0 * 3, R = U0 ^ 0x5555, S = U0 + 11, T = 17, V = 29,
           W = 31, Y = 37;
  for (int I = 0; I < N; ++I) {
    for (int J = 0; J < Inner; ++J) {
      A = A * 0.999999 + B * 1e-6;
      P = P * 6364136223846793005ull + (uint64_t)J;
    }
    B += A * 0.5;
    C = C * 0.75 + D;
    D -= E * F;
    E += G * 0.001;
    G = G * 0.5 + H;
    H += A * 1e-3;
    Q ^= P >> 7;
    R += Q * 5;
    S ^= R + T;
    T += S >> 3;
    V = V * 7 + W;
    W ^= V + Y;
    Y += W >> 11;
  }
  printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", A, B, C, D, E,
         F, G, H);
  printf("%llu %llu %llu %llu %llu %llu %llu %llu\n", (unsigned long long)P,
         (unsigned long long)Q, (unsigned long long)R, (unsigned long long)S,
         (unsigned long long)T, (unsigned long long)V, (unsigned long long)W,
         (unsigned long long)Y);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 200;
  int Inner = argc > 2 ? atoi(argv[2]) : 100000;
  kernel(N, Inner, 1.5, 12345);
  return 0;
}
