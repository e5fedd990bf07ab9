/*===- lwp_host_calibration.c - The probe costs, measured at start-up ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What a probe pair costs, measured once at start-up with the handlers
 * themselves on the runtime's two calibration slots, and written to the
 * dump (probe_pair_cost, probe_nested_cost) for the report's overhead
 * correction (docs/report.md).
 */
#include "lwp_host_internal.h"

#include <stdlib.h>
#include <string.h>

uint32_t lwp_probe_pair_cost, lwp_probe_nested_cost;

/* Start/end probe handlers (lwp_host_handler.c). */
__attribute__((preserve_all)) void __lwp_probe_start(const struct lwp_slot *);
__attribute__((preserve_all)) void __lwp_probe_end(const struct lwp_slot *);

/* Calls through volatile pointers keep the calibration pairs real calls. */
typedef void ProbeFn(const struct lwp_slot *) __attribute__((preserve_all));
static ProbeFn *volatile StartFn = __lwp_probe_start;
static ProbeFn *volatile EndFn = __lwp_probe_end;

static int compareU64(const void *A, const void *B) {
  uint64_t X = *(const uint64_t *)A, Y = *(const uint64_t *)B;
  return X < Y ? -1 : X > Y;
}

/* Calibration, the median over 512 trials (the typical cost, which is what
 * a correction of many instances needs) of:
 *   PairCost:   end - start of an empty region (what its own probes add);
 *   NestedCost: how much an empty pair nested in a region adds to that
 *               region (the two handlers whole, call and return included).
 * The nested cost is then measured where it matters, in a running loop
 * (calibrateNestedInLoop); the isolated figure is the fallback. Two slots of
 * the runtime with IDs 1 and 2 are used before any module has registered;
 * their figures are reset afterwards. */
/* Two loop bodies in which the in-loop cost of a nested pair is measured:
 * about 24 cycles of dependent integer arithmetic (the empty asm keeps the
 * compiler from folding the chain), and a floating-point reduction of 24
 * products of loaded values (a latency-bound numeric inner loop, where most
 * of a probe's work overlaps the chain). */
static inline __attribute__((always_inline)) uint64_t loopBody(uint64_t X) {
  for (int I = 0; I != 8; ++I) {
    X = X * 3 + 1;
    __asm__ volatile("" : "+r"(X));
  }
  return X;
}

static double CalibrationData[24 + 16];
static volatile double CalibrationSink;

static inline __attribute__((always_inline)) double fpBody(double S, int I) {
  const double *A = &CalibrationData[I & 15];
  for (int J = 0; J != 24; ++J)
    S += A[J] * CalibrationData[J & 15];
  return S;
}

/* The counter ticks a nested pair adds to its parent in a running loop: per
 * body, the best of 7 runs of a loop of 1024 iterations with a pair around
 * the body, minus the best of the same loop without probes, per iteration;
 * then the smaller of the two bodies. Handlers called back to back in
 * isolation cost more than in a loop, where their work overlaps the loop's,
 * and how much overlaps depends on the body (measured here, TSC ticks: about
 * 50 around an empty body, 40 around 8 integer steps, 10-13 around a
 * 24-product reduction; issue 11, `git show 6310dfe:docs/performance.md`,
 * "Overhead correction, calibrated where it applies"). The smaller figure is
 * the one a correction can subtract without making a parent shorter than it
 * runs without its children's probes (docs/report.md). */
static uint64_t calibrateNestedInLoop(struct lwp_thread_state *S,
                                      struct lwp_slot *Inner) {
  enum { Iterations = 1024, Runs = 7 };
  uint64_t Best = UINT64_MAX;
  for (int Body = 0; Body != 2; ++Body) {
    uint64_t Plain = UINT64_MAX, Probed = UINT64_MAX, X = 1;
    double F = 0;
    for (int R = 0; R != Runs; ++R) {
      uint64_t T0 = lwp_read_counter();
      if (Body == 0)
        for (int I = 0; I != Iterations; ++I)
          X = loopBody(X);
      else
        for (int I = 0; I != Iterations; ++I)
          F = fpBody(F, I);
      uint64_t T1 = lwp_read_counter();
      uint64_t N = S->num_records;
      if (Body == 0)
        for (int I = 0; I != Iterations; ++I) {
          StartFn(Inner);
          X = loopBody(X);
          EndFn(Inner);
        }
      else
        for (int I = 0; I != Iterations; ++I) {
          StartFn(Inner);
          F = fpBody(F, I);
          EndFn(Inner);
        }
      uint64_t T2 = lwp_read_counter();
      S->num_records = N;
      Plain = T1 - T0 < Plain ? T1 - T0 : Plain;
      Probed = T2 - T1 < Probed ? T2 - T1 : Probed;
    }
    __asm__ volatile("" ::"r"(X));
    CalibrationSink = F;
    uint64_t Added = Probed > Plain ? (Probed - Plain) / Iterations : 0;
    if (Added && Added < Best)
      Best = Added;
  }
  return Best == UINT64_MAX ? 0 : Best;
}

void lwp_calibrate(void) {
  static struct lwp_slot Slots[2] = {{1, 0, 0, 0}, {2, 0, 0, 0}};
  lwp_calibrating = 1;
  struct lwp_thread_state *S = lwp_thread_state_for(NULL, 2);
  lwp_calibrating = 0;
  if (S->capacity < 6 || S->count_limit < 2 || S->stack_capacity < 2)
    return;
  enum { Trials = 512 };
  static uint64_t Empty[Trials], Nested[Trials];
  unsigned Done = 0;
  uint64_t SavedCap = lwp_cap;
  lwp_cap = UINT64_MAX;
  for (int I = 0; I != Trials; ++I) {
    uint64_t N = S->num_records;
    StartFn(&Slots[0]);
    EndFn(&Slots[0]);
    StartFn(&Slots[0]);
    StartFn(&Slots[1]);
    EndFn(&Slots[1]);
    EndFn(&Slots[0]);
    if (S->num_records == N + 6) {
      const struct lwp_record64 *R = &S->records[N];
      uint64_t E = R[1].cycles - R[0].cycles, O = R[5].cycles - R[2].cycles;
      Empty[Done] = E;
      Nested[Done] = O > E ? O - E : 0;
      ++Done;
    }
    S->num_records = N;
  }
  /* In a loop, past the cap: a parent of many short children holds mostly
   * children that are counted only. */
  uint64_t InLoop = 0;
  for (int I = 0; I != 24 + 16; ++I)
    CalibrationData[I] = 1.0 / (I + 1);
  StartFn(&Slots[0]);
  lwp_cap = 0;
  InLoop = calibrateNestedInLoop(S, &Slots[1]);
  lwp_cap = UINT64_MAX;
  EndFn(&Slots[0]);
  S->num_records = 0;
  S->dropped = 0;
  lwp_cap = SavedCap;
  memset(&S->acc[1], 0, 2 * sizeof(S->acc[1]));
  S->top_cycles = S->top_instances = S->top_nested = 0;
  if (!Done)
    return;
  qsort(Empty, Done, sizeof(uint64_t), compareU64);
  qsort(Nested, Done, sizeof(uint64_t), compareU64);
  if (Empty[Done / 2] <= UINT32_MAX)
    lwp_probe_pair_cost = (uint32_t)Empty[Done / 2];
  if (InLoop && InLoop <= UINT32_MAX)
    lwp_probe_nested_cost = (uint32_t)InLoop;
  else if (Nested[Done / 2] <= UINT32_MAX)
    lwp_probe_nested_cost = (uint32_t)Nested[Done / 2];
}
