/*===- lwp_host_calibration.c - The probe costs, measured at start-up ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What a probe costs, measured once at start-up with the handlers themselves
 * on the runtime's two calibration slots, for the compensated clocks
 * (docs/report.md, "Overhead correction"): the part of a measured probe
 * outside its handler's counter reads (the residual), what an unmeasured
 * one takes beyond a measured one's window, the handlers' typical cost
 * (where each thread's running estimates start) and the edge of a region
 * its probes' values move by. Without compensation (LWP_COMPENSATE=0),
 * the empty region and the nested pair of the old model instead (the
 * dump's probe_pair_cost and probe_nested_cost, for the report to
 * subtract).
 */
#include "lwp_host_internal.h"

#include <stdlib.h>
#include <string.h>

uint32_t lwp_probe_pair_cost, lwp_probe_nested_cost;
uint32_t lwp_probe_residual, lwp_probe_start_cost, lwp_probe_end_cost;
int32_t lwp_probe_unmeasured;
uint32_t lwp_probe_edge;

/* Start/end probe handlers (lwp_host_handler.c). */
__attribute__((preserve_all)) void __lwp_probe_start(const struct lwp_slot *);
__attribute__((preserve_all)) void __lwp_probe_end(const struct lwp_slot *);

/* Calls through volatile pointers keep the calibration pairs real calls. */
typedef void ProbeFn(const struct lwp_slot *) __attribute__((preserve_all));
static ProbeFn *volatile StartFn = __lwp_probe_start;
static ProbeFn *volatile EndFn = __lwp_probe_end;

static int compareI64(const void *A, const void *B) {
  int64_t X = *(const int64_t *)A, Y = *(const int64_t *)B;
  return X < Y ? -1 : X > Y;
}

enum { Trials = 512 };

/* The median over Trials of an empty region of slot 0 (\p Empty) and of
 * what an empty pair of slot 1 nested in a region of slot 0 adds to it
 * (\p Nested), in the compensated time of \p S. Returns the trials whose
 * six records were all kept. */
static unsigned measurePairs(struct lwp_thread_state *S,
                             const struct lwp_slot *Slots, int64_t *Empty,
                             int64_t *Nested) {
  static int64_t E[Trials], O[Trials];
  unsigned Done = 0;
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
      E[Done] = (int64_t)(R[1].cycles - R[0].cycles);
      O[Done] = (int64_t)(R[5].cycles - R[2].cycles) - E[Done];
      ++Done;
    }
    S->num_records = N;
  }
  if (Done) {
    qsort(E, Done, sizeof(int64_t), compareI64);
    qsort(O, Done, sizeof(int64_t), compareI64);
    *Empty = E[Done / 2];
    *Nested = O[Done / 2];
  }
  return Done;
}

/* Clamps a median to the dump's 32-bit field, 0 below. */
static uint32_t ticks(int64_t V) {
  return V <= 0 ? 0 : V > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)V;
}

enum { LoopPairs = 1024, LoopRuns = 15 };

/* The calibration loop's body: two steps of dependent integer arithmetic
 * (about 8 cycles; the empty asm keeps the compiler from folding them), a
 * probe every few ticks of work, as in the programs where the estimate
 * weighs the most (a call-heavy program's short functions). The body
 * decides what the estimate of an unmeasured probe is: with 24 cycles of
 * work a probe overlaps more of it and adds about 5 ticks less, and the
 * tree interpreter (1.6 ticks of work a probe) read 5x its own cycles;
 * back to back, a probe's return followed at once by the next call costs
 * ticks that no program pays, and it read 0.4-0.8x (callheavy 0.6-0.7);
 * with this body 0.7-1.2x and 0.84-0.87 (interleaved medians,
 * docs/performance.md). */
static inline __attribute__((always_inline)) uint64_t loopBody(uint64_t X) {
  for (int I = 0; I != 2; ++I) {
    X = X * 3 + 1;
    __asm__ volatile("" : "+r"(X));
  }
  return X;
}

/* One run of a loop of LoopPairs iterations of loopBody, with a pair of
 * slot 0 around the body (\p Probed) or without: its ticks, and in \p Taken
 * what the thread's clock took out of it. The loop runs inside an instance
 * of slot 1, so that its pairs are nested ones, as nearly every probe of a
 * program is: a top-level instance closes on another path (the thread's
 * top-level figures, not its parent frame's), and a probe's estimate
 * measured there was a tick or two off, which moved the tree interpreter's
 * figure by half (docs/performance.md, "Overhead invariance"). */
static uint64_t runLoop(struct lwp_thread_state *S,
                        const struct lwp_slot *Slots, int Probed, uint64_t *X,
                        uint64_t *Taken) {
  const struct lwp_slot *Slot = &Slots[0];
  uint64_t N = S->num_records, V = *X;
  StartFn(&Slots[1]);
  uint64_t O = S->overhead;
  uint64_t T0 = lwp_read_counter();
  if (Probed)
    for (int I = 0; I != LoopPairs; ++I) {
      StartFn(Slot);
      V = loopBody(V);
      EndFn(Slot);
    }
  else
    for (int I = 0; I != LoopPairs; ++I)
      V = loopBody(V);
  uint64_t T1 = lwp_read_counter();
  *Taken = S->overhead - O;
  EndFn(&Slots[1]);
  S->num_records = N;
  *X = V;
  return T1 - T0;
}

/* What a probe adds to a running loop (ticks a probe), with the probes of
 * \p S's clock measured as it is set now: LoopRuns runs of the loop with
 * probes, each against a run without beside it; the medians (a preempted
 * run moves a median little) of what a probe adds (\p Adds) and of what
 * the clock took out of the loop a probe (\p Taken). */
static void measureLoop(struct lwp_thread_state *S,
                        const struct lwp_slot *Slots, int64_t *Adds,
                        int64_t *Taken) {
  static int64_t A[LoopRuns], T[LoopRuns];
  uint64_t X = 1, Ignored, Took;
  for (int R = 0; R != LoopRuns; ++R) {
    uint64_t Plain = runLoop(S, Slots, 0, &X, &Ignored);
    uint64_t Probed = runLoop(S, Slots, 1, &X, &Took);
    A[R] = ((int64_t)Probed - (int64_t)Plain) / (2 * LoopPairs);
    T[R] = (int64_t)Took / (2 * LoopPairs);
  }
  __asm__ volatile("" ::"r"(X));
  qsort(A, LoopRuns, sizeof(int64_t), compareI64);
  qsort(T, LoopRuns, sizeof(int64_t), compareI64);
  *Adds = A[LoopRuns / 2];
  *Taken = T[LoopRuns / 2];
}

/* Calibration, with two slots of the runtime (IDs 1 and 2, valid before any
 * module has registered; their figures and nodes are forgotten after).
 * Without compensation (LWP_COMPENSATE=0): the median empty region and
 * what a nested pair adds, raw. Else:
 *  1. a loop of probe pairs around a body of about 8 cycles (loopBody), no
 *     probe measured: what an unmeasured probe adds to it (U);
 *  2. the same loop with every probe measured and nothing added: what a
 *     measured probe adds (M), and its mean window (W); the
 *     handlers' running estimates of the window settle meanwhile. A
 *     measured probe adds its window and M - W (the residual), an
 *     unmeasured one the estimate, kept at the measured windows plus
 *     U - W;
 *  3. as programs run (one probe in 16 measured): what an empty region
 *     holds, the ends of its probes outside their counter reads, half of
 *     which each probe's value moves (the edge).
 * The dump's pair and nested costs stay 0: a compensated dump has nothing
 * left for the report to subtract, so that its table and its
 * calling-context trees agree to the tick. */
void lwp_calibrate(void) {
  static struct lwp_slot Slots[2] = {{1, 0, 0, 0}, {2, 0, 0, 0}};
  lwp_calibrating = 1;
  struct lwp_thread_state *S = lwp_thread_state_for(NULL, 2);
  lwp_calibrating = 0;
  if (S->capacity < 6 || S->count_limit < 2 || S->stack_capacity < 2)
    return;
  uint64_t SavedCap = lwp_cap;
  lwp_cap = UINT64_MAX;
  lwp_sample_every(S, 0);
  S->residual = S->cost_start = S->cost_end = 0;
  lwp_set_debt_cap(S, 0);
  S->unmeasured = 0;
  int64_t Empty = 0, Nested = 0;
  if (!lwp_compensation) {
    /* Raw clocks: the costs of the old model, for the report. */
    if (measurePairs(S, Slots, &Empty, &Nested)) {
      lwp_probe_pair_cost = ticks(Empty);
      lwp_probe_nested_cost = ticks(Nested);
    }
  } else {
    int64_t Unmeasured, Measured, Window, Ignored;
    measureLoop(S, Slots, &Unmeasured, &Ignored);
    lwp_sample_every(S, 1);
    measureLoop(S, Slots, &Measured, &Window);
    lwp_probe_residual = ticks(Measured - Window);
    lwp_probe_unmeasured = (int32_t)(Unmeasured - Window);
    /* The estimates averaged windows alone so far. */
    lwp_probe_start_cost = ticks((int64_t)S->cost_start + Unmeasured - Window);
    lwp_probe_end_cost = ticks((int64_t)S->cost_end + Unmeasured - Window);
    lwp_thread_clock_init(S);
    /* An empty region holds the ends of its probes outside their reads:
     * measured with every excess given back, as the clock owes nothing. */
    lwp_set_debt_cap(S, 0);
    if (measurePairs(S, Slots, &Empty, &Nested))
      lwp_probe_edge = ticks(Empty) / 2;
  }
  /* The threads' gaps, from the counter's frequency (the calibration took
   * about the millisecond it is measured over). */
  lwp_sched_start();
  lwp_thread_clock_init(S);
  lwp_cap = SavedCap;
  S->num_records = 0;
  S->dropped = 0;
  memset(&S->acc[1], 0, 2 * sizeof(S->acc[1]));
  S->top_cycles = S->top_instances = S->top_nested = 0;
  /* The calibration's paths leave the tree and its cache. */
  S->num_nodes = 1;
  memset(S->nodes, 0, sizeof(*S->nodes));
  if (S->cct_cache != lwp_cct_no_cache)
    memset(S->cct_cache, 0, sizeof(lwp_cct_no_cache));
}
