/*===- lwp_host_slow.c - The probe handlers' slow paths ------------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What the handlers (lwp_host_handler.c) call when their fast path does not
 * apply: a thread without state, an ID beyond its figure table, a full
 * stack, frames left by longjmp or an exception. Built, like the handlers,
 * with -mgeneral-regs-only: preserve_all then saves no vector register.
 */
#include "lwp_host_internal.h"

/* The shadow stack's rules (runtime/common/lwp_figures.h, shared with the
 * Hexagon replay) over a thread's frames: frame K is stack[K - 1], its
 * region its ID. */
#define LWP_FIG_STATE struct lwp_thread_state
static inline uint32_t lwp_fig_depth(struct lwp_thread_state *S) {
  return S->depth;
}
static inline uintptr_t lwp_fig_frame_sp(struct lwp_thread_state *S,
                                         uint32_t K) {
  return S->stack[K - 1].sp;
}
static inline uintptr_t lwp_fig_frame_region(struct lwp_thread_state *S,
                                             uint32_t K) {
  return S->stack[K - 1].id;
}
static inline void lwp_fig_close_top(struct lwp_thread_state *S, uint64_t Now,
                                     int Unwound) {
  lwp_close_top(S, Now, Unwound);
}
#include "../common/lwp_figures.h"

__attribute__((preserve_all)) struct lwp_thread_state *
lwp_probe_slow(struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp,
               uint64_t Now, int IsStart) {
  S = lwp_get_core()->slow(S, Id);
  if (!S)
    return NULL;
  lwp_tls_state = S;
  /* Frames below the probe's stack position belong to functions that were
   * left without their end probes: close them now. */
  lwp_fig_close_stale(S, Sp, Now);
  if (Id - 1u >= S->count_limit) {
    ++S->dropped;
    if (Id)
      S->lost = 1; /* a registered region: no memory for the figures */
    return NULL;
  }
  /* A region cannot run inside itself at the same stack position (recursion
   * needs a new stack frame): an open instance of this region there was left
   * without its end probe (a longjmp back into its caller), and so was
   * everything above it. */
  if (IsStart && S->acc[Id].open)
    lwp_fig_close_reentered(S, Id, Sp, Now);
  if (S->depth == S->stack_capacity) {
    /* No memory for a deeper stack: the execution is still counted; its
     * cycles are not (its end finds no open instance). */
    if (IsStart)
      ++S->acc[Id].count;
    ++S->dropped;
    S->lost = 1;
    return NULL;
  }
  return S;
}

__attribute__((preserve_all)) uint32_t lwp_end_slow(struct lwp_thread_state *S,
                                                    uint32_t Id, uint64_t Now,
                                                    uintptr_t Sp) {
  /* Frames of functions left without their end probes. */
  lwp_fig_close_stale(S, Sp, Now);
  if (!S->acc[Id].open)
    return 0; /* an end without its start: not accounted */
  return lwp_fig_close_end(S, Id, Now);
}

__attribute__((preserve_all)) void lwp_resume_slow(struct lwp_thread_state *S,
                                                   uint32_t Id, uint64_t Now,
                                                   uintptr_t Sp,
                                                   uint64_t Site) {
  /* Instances of the functions the non-local exit left, and those of the
   * resuming function that do not enclose the point. */
  if (!lwp_fig_resume(S, Id, Sp, Now))
    return;
  /* The resume record is a probe inside the instance it resumes in. */
  if (S->depth)
    ++S->stack[S->depth - 1].nested;
  uint64_t N = S->num_records;
  if (N >= S->capacity) {
    ++S->dropped;
    return;
  }
  struct lwp_record64 *R = &S->records[N];
  S->num_records = N + 1;
  R->site = Site;
  R->id_word = 0;
  R->depth = S->depth;
  R->cycles = Now;
}

