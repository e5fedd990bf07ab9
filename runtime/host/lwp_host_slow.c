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

#include <string.h>

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

static __attribute__((noinline)) struct lwp_thread_state *
probeSlow(struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp, int IsStart) {
  uint64_t Entered = lwp_read_counter();
  S = lwp_get_core()->slow(S, Id);
  if (!S)
    return NULL;
  lwp_tls_state = S;
  uint64_t Now = lwp_compensate(S, Entered);
  /* Frames below the probe's stack position belong to functions that were
   * left without their end probes: close them now. */
  lwp_fig_close_stale(S, Sp, Now);
  if (Id - 1u >= S->count_limit) {
    if (Id)
      S->lost = 1; /* a registered region: no memory for the figures */
    ++S->dropped;
    goto Drop;
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
    S->lost = 1;
    ++S->dropped;
    goto Drop;
  }
  return S; /* the handler takes the slow path's time out */
Drop:
  /* A dropped probe's handler returns at once: its whole time leaves the
   * clock here. */
  if (lwp_clock_compensated(S))
    S->overhead += lwp_read_counter() - Entered + S->residual;
  return NULL;
}

static __attribute__((noinline)) uint32_t
cctChildSlow(struct lwp_thread_state *S, uint32_t Parent, uint32_t Id) {
  /* Inside a folded instance everything folds, into the same node. */
  if (Parent & LWP_CCT_FOLDED)
    return Parent;
  uint32_t Node = S->nodes[Parent].first_child;
  while (Node && S->nodes[Node].d.id != Id)
    Node = S->nodes[Node].next_sibling;
  if (!Node) {
    if (S->num_nodes == S->node_capacity && S->node_capacity < S->node_budget)
      lwp_get_core()->slow(S, 0); /* grows the tree (and takes no ID) */
    if (S->num_nodes == S->node_capacity) {
      /* No node left: the instance folds into its parent's node. */
      struct lwp_dump_node *P = &S->nodes[Parent].d;
      P->flags |= LWP_NODE_FOLDED;
      if (P->folded != UINT32_MAX)
        ++P->folded;
      return Parent | LWP_CCT_FOLDED;
    }
    Node = S->num_nodes;
    struct lwp_cct_node *N = &S->nodes[Node];
    memset(N, 0, sizeof(*N));
    N->d.id = Id;
    N->d.parent = Parent;
    N->next_sibling = S->nodes[Parent].first_child;
    S->nodes[Parent].first_child = Node;
    /* Published after it is whole: a dump on another thread reads up to
     * num_nodes. */
    __atomic_store_n(&S->num_nodes, Node + 1, __ATOMIC_RELEASE);
  }
  if (S->cct_cache != lwp_cct_no_cache) {
    uint64_t Key = (uint64_t)Parent << 32 | Id;
    struct lwp_cct_cache_entry *E = lwp_cct_cache_slot(S, Key);
    E->key = Key;
    E->node = Node;
  }
  return Node;
}

static __attribute__((noinline)) uint32_t
endSlow(struct lwp_thread_state *S, uint32_t Id, uint64_t Now, uintptr_t Sp) {
  /* Frames of functions left without their end probes. */
  lwp_fig_close_stale(S, Sp, Now);
  if (!S->acc[Id].open)
    return 0; /* an end without its start: not accounted */
  return lwp_fig_close_end(S, Id, Now);
}

static __attribute__((noinline)) void resumeSlow(struct lwp_thread_state *S,
                                                 uint32_t Id, uint64_t Now,
                                                 uintptr_t Sp, uint64_t Site) {
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

/* lwp_compensate past a gap: the time the thread waited for a CPU leaves
 * the clock before the value, the question's own time after it. */
static __attribute__((noinline)) uint64_t
compensateGap(struct lwp_thread_state *S, uint64_t Raw) {
  uint64_t Entered = lwp_read_counter();
  uint64_t V = Raw - S->overhead, Last = S->last;
  uint64_t Waited = lwp_sched_waited(S, Raw, V - Last);
  V -= Waited;
  S->last = V;
  S->overhead += Waited + (lwp_read_counter() - Entered);
  return V;
}

/* The preserve_all entry points: each calls its body, an ordinary function,
 * so that its own frame holds only the registers preserve_all keeps beyond
 * the C convention's (x9-x15 and the vector registers on AArch64, 464
 * bytes). With the bodies' own callee-saved registers on top, the frame's
 * save area passed 512 bytes, and clang 22 encoded the save of x19/x20 at
 * [sp, #-0x200], below the stack pointer, where the calls below it
 * overwrote it: the caller's x19 came back corrupted (llvm/llvm-project
 * issue 204564, fixed after 22). No tail call: the bodies do not preserve
 * what these promise. test/Runtime/Host/aarch64-frames.test checks the
 * runtime for stores below the stack pointer. */
#define LWP_SLOW_ENTRY __attribute__((preserve_all, disable_tail_calls))

LWP_SLOW_ENTRY struct lwp_thread_state *
lwp_probe_slow(struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp,
               int IsStart) {
  return probeSlow(S, Id, Sp, IsStart);
}

LWP_SLOW_ENTRY uint64_t lwp_compensate_gap(struct lwp_thread_state *S,
                                           uint64_t Raw) {
  return compensateGap(S, Raw);
}

LWP_SLOW_ENTRY uint32_t lwp_cct_child_slow(struct lwp_thread_state *S,
                                           uint32_t Parent, uint32_t Id) {
  return cctChildSlow(S, Parent, Id);
}

LWP_SLOW_ENTRY uint32_t lwp_end_slow(struct lwp_thread_state *S, uint32_t Id,
                                     uint64_t Now, uintptr_t Sp) {
  return endSlow(S, Id, Now, Sp);
}

LWP_SLOW_ENTRY void lwp_resume_slow(struct lwp_thread_state *S, uint32_t Id,
                                    uint64_t Now, uintptr_t Sp, uint64_t Site) {
  resumeSlow(S, Id, Now, Sp, Site);
}
