/*===- accuracy.c - Kernels timed both by LWP and by a bracketing rdtsc ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Benchmark (not a test) of the report's accuracy: main brackets every call
 * of each kernel with rdtsc (the same counter the host runtime records) and
 * prints the sums; accuracy.py compares them with lwp-report's figures for
 * the kernel functions, built with
 *   clang -O2 -fpass-plugin=LWPLLVMPlugin.so -mllvm -stats-level=70
 *         -mllvm -max-loop-depth=1 accuracy.c liblwp_host.a
 *
 *   longk   20 calls of about 10 ms: two sibling loop nests (a scaled copy,
 *           then a 16-tap filter), every instance recorded (count <= cap)
 *   shortk  5000 calls of about 8 us, same nests, fewer elements: past the
 *           cap of 100, so the report extrapolates from the first 100 calls
 *   nestk   20 calls of an outer loop of 40000 rows whose inner loop (24
 *           iterations, about 30 ticks) is a region at max-loop-depth 1:
 *           the parent holds 40000 child probe pairs per call, the case
 *           the overhead correction is for. Built also at -stats-level=40
 *           (no loop probes), whose bracket is the figure without them.
 *   nestkRef the same code as nestk, left uninstrumented by the build's
 *           -lwp-function-filter; its calls alternate with nestk's in the
 *           same process, so its bracket is the figure without probes under
 *           the same load (the truth the correction is compared with).
 *
 * Prints: "bracket NAME CALLS TICKS" per kernel, and "fastest NAME TICKS"
 * (the fastest single call) for nestk and nestk_ref.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static inline __attribute__((always_inline)) uint64_t rdtsc(void) {
  uint32_t Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return ((uint64_t)Hi << 32) | Lo;
}

enum { TAPS = 16 };
static double *A, *B;
static double Taps[TAPS];

static inline __attribute__((always_inline)) double body(int N) {
  for (int I = 0; I < N; ++I)
    B[I] = A[I] * 1.0001 + 0.5;
  double S = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < TAPS; ++J)
      S += B[I + J] * Taps[J];
  return S;
}

NOINLINE double longk(int N) { return body(N); }
NOINLINE double shortk(int N) { return body(N); }

/* Many short child instances: the overhead correction's case. */
NOINLINE double nestk(int Rows) {
  double S = 0;
  for (int I = 0; I < Rows; ++I)
    for (int J = 0; J < 24; ++J)
      S += A[I * 24 + J] * Taps[J & (TAPS - 1)];
  return S;
}

/* nestk's code, not instrumented (the build's function filter). */
NOINLINE double nestkRef(int Rows) {
  double S = 0;
  for (int I = 0; I < Rows; ++I)
    for (int J = 0; J < 24; ++J)
      S += A[I * 24 + J] * Taps[J & (TAPS - 1)];
  return S;
}

int main(void) {
  enum { LONG_N = 1 << 20, LONG_CALLS = 20, SHORT_N = 1000,
         SHORT_CALLS = 5000 };
  A = malloc(sizeof(double) * (LONG_N + TAPS));
  B = malloc(sizeof(double) * (LONG_N + TAPS));
  if (!A || !B)
    return 2;
  for (int I = 0; I < LONG_N + TAPS; ++I)
    A[I] = B[I] = (double)(I % 97) / 97.0;
  for (int J = 0; J < TAPS; ++J)
    Taps[J] = 1.0 / (J + 1);
  double Check = 0;
  uint64_t Long = 0, Short = 0;
  for (int C = 0; C < LONG_CALLS; ++C) {
    uint64_t T0 = rdtsc();
    Check += longk(LONG_N);
    uint64_t T1 = rdtsc();
    Long += T1 - T0;
  }
  for (int C = 0; C < SHORT_CALLS; ++C) {
    uint64_t T0 = rdtsc();
    Check += shortk(SHORT_N);
    uint64_t T1 = rdtsc();
    Short += T1 - T0;
  }
  uint64_t Nest = 0, NestRef = 0, NestMin = UINT64_MAX, NestRefMin = UINT64_MAX;
  for (int C = 0; C < 40; ++C) {
    /* Alternate which of the two goes first. */
    int Ref = (C & 1) ^ ((C >> 1) & 1);
    uint64_t T0 = rdtsc();
    Check += Ref ? nestkRef(40000) : nestk(40000);
    uint64_t T1 = rdtsc();
    *(Ref ? &NestRef : &Nest) += T1 - T0;
    uint64_t *Min = Ref ? &NestRefMin : &NestMin;
    *Min = T1 - T0 < *Min ? T1 - T0 : *Min;
  }
  printf("bracket nestk %d %llu\n", 20, (unsigned long long)Nest);
  printf("bracket nestk_ref %d %llu\n", 20, (unsigned long long)NestRef);
  /* The fastest call of each: what load on a shared machine adds to
   * single calls (interrupts, the other core's work) falls out. */
  printf("fastest nestk %llu\n", (unsigned long long)NestMin);
  printf("fastest nestk_ref %llu\n", (unsigned long long)NestRefMin);
  printf("bracket longk %d %llu\n", LONG_CALLS, (unsigned long long)Long);
  printf("bracket shortk %d %llu\n", SHORT_CALLS, (unsigned long long)Short);
  printf("checksum %g\n", Check);
  return 0;
}
