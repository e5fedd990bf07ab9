/*===- nested_cost_x86.c - What a nested probe pair adds, by loop body ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Benchmark (not a test) of the in-place cost of a probe pair around a loop
 * body, the figure the overhead correction subtracts once per nested pair
 * (docs/report.md; `git show 6310dfe:docs/performance.md`, "Overhead
 * correction, calibrated where it applies"). For each body,
 * the best of 9 runs of 4096 iterations without probes and with a pair
 * around the body (inside an open parent, past the cap, as compiled code
 * calls the handlers), per iteration, in TSC ticks; and the probe-less
 * body's time. Bodies: a chain of K integer multiply-adds (K = 0, 2, 8, 24,
 * 64) and a floating-point reduction of K products of loaded values
 * (K = 6, 24, 96).
 *
 *   clang-22 -O2 -Iinclude utils/bench/nested_cost_x86.c
 * build/lib/liblwp_host.a -lpthread LWP_OUTPUT=n.dump ./a.out &&
 * build/bin/lwp-report --raw --no-records n.dump (the dump's first line has the
 * runtime's calibrated costs)
 */
#include "lwp/Runtime/MapFormat.h"

#include <stdint.h>
#include <stdio.h>

void __lwp_probe_start(struct lwp_slot *) __attribute__((preserve_all));
void __lwp_probe_end(struct lwp_slot *) __attribute__((preserve_all));

static struct {
  struct lwp_map_blob_header Header;
  struct lwp_slot Slots[2];
} Module __attribute__((section("lwp_map"), aligned(16))) = {
    {"LWPMAP", LWP_MAP_BLOB_VERSION, sizeof(Module), 2, 32, 32, 0}, {}};

__attribute__((constructor(1))) static void registerModule(void) {
  __lwp_register_module(&Module);
}

static inline __attribute__((always_inline)) uint64_t rdtsc(void) {
  uint32_t Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return ((uint64_t)Hi << 32) | Lo;
}

enum { N = 4096, R = 9 };
static double A[N * 24 + 64], T[64];
static volatile double SinkD;
static volatile uint64_t SinkI;

#define INT_BODY(K)                                                            \
  for (int J = 0; J != K; ++J) {                                               \
    X = X * 3 + 1;                                                             \
    __asm__ volatile("" : "+r"(X));                                            \
  }
#define FP_BODY(K)                                                             \
  for (int J = 0; J != K; ++J)                                                 \
    S += A[I * 24 + (J % 24)] * T[J & 15];
#define MEASURE(NAME, INIT, BODY, OUT)                                         \
  {                                                                            \
    uint64_t Plain = UINT64_MAX, Probed = UINT64_MAX;                          \
    for (int Run = 0; Run != R; ++Run) {                                       \
      INIT;                                                                    \
      uint64_t T0 = rdtsc();                                                   \
      for (int I = 0; I != N; ++I) {                                           \
        BODY;                                                                  \
      }                                                                        \
      uint64_t T1 = rdtsc();                                                   \
      for (int I = 0; I != N; ++I) {                                           \
        __lwp_probe_start(&Module.Slots[1]);                                   \
        BODY;                                                                  \
        __lwp_probe_end(&Module.Slots[1]);                                     \
      }                                                                        \
      uint64_t T2 = rdtsc();                                                   \
      OUT;                                                                     \
      Plain = T1 - T0 < Plain ? T1 - T0 : Plain;                               \
      Probed = T2 - T1 < Probed ? T2 - T1 : Probed;                            \
    }                                                                          \
    printf("%-10s body %6.1f ticks  a pair around it adds %6.1f ticks\n",      \
           NAME, (double)Plain / N, ((double)Probed - (double)Plain) / N);     \
  }

int main(void) {
  for (int I = 0; I < N * 24 + 64; ++I)
    A[I] = (I % 97) / 97.0;
  for (int I = 0; I < 64; ++I)
    T[I] = 1.0 / (I + 1);
  __lwp_probe_start(&Module.Slots[0]);
  MEASURE("int x0", uint64_t X = 1, __asm__ volatile("" : "+r"(X)), SinkI = X);
  MEASURE("int x2", uint64_t X = 1, INT_BODY(2), SinkI = X);
  MEASURE("int x8", uint64_t X = 1, INT_BODY(8), SinkI = X);
  MEASURE("int x24", uint64_t X = 1, INT_BODY(24), SinkI = X);
  MEASURE("int x64", uint64_t X = 1, INT_BODY(64), SinkI = X);
  MEASURE("fp x6", double S = 0, FP_BODY(6), SinkD = S);
  MEASURE("fp x24", double S = 0, FP_BODY(24), SinkD = S);
  MEASURE("fp x96", double S = 0, FP_BODY(96), SinkD = S);
  __lwp_probe_end(&Module.Slots[0]);
  return 0;
}
