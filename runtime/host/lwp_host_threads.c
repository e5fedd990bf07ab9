/*===- lwp_host_threads.c - Thread states and their retirement -----------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Every thread records into its own state (lwp_host_internal.h), created at
 * its first probe and listed in the registry. Figure tables and stacks grow
 * by doubling; the old ones are never freed while the thread runs (a dump
 * on another thread may be reading them). When a thread ends, its figures
 * are folded into one table and its buffers freed (not in continuous mode,
 * whose state file is never freed from).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct lwp_thread_state *lwp_registry;
/* Shared by threads without a state of their own: it never asks the kernel
 * of a gap (its thread is any of them). */
struct lwp_thread_state lwp_fallback_state = {.gap = LWP_GAP_NEVER,
                                              .gap_range = LWP_GAP_NEVER};
struct lwp_dump_region *lwp_retired_acc;
uint32_t lwp_retired_limit;
uint64_t lwp_buffer_records = LWP_BUFFER_RECORDS;
int lwp_calibrating;
uint32_t lwp_cct_budget = LWP_CCT_NODES;
struct lwp_cct_cache_entry lwp_cct_no_cache[LWP_CCT_CACHE];
int lwp_compensation = 1;

static pthread_key_t RetireKey;
static int HaveRetireKey;

/* One line per cause, whatever the number of threads. */
static int SaidNoState, SaidNoRecords;

/** Grows \p S's figure table to cover IDs below \p Limit + 1 (doubling).
 *  The old table is not freed: lwp_dump may be reading it on another
 *  thread. */
static void growFigures(struct lwp_thread_state *S, uint32_t Limit) {
  uint64_t New = S->count_limit ? S->count_limit : 64;
  while (New < Limit)
    New *= 2;
  if (New > UINT32_MAX / 2)
    New = UINT32_MAX / 2;
  struct lwp_region_acc *Acc = lwp_state_alloc((New + 1) * sizeof(*Acc));
  if (!Acc)
    return;
  if (S->acc)
    memcpy(Acc, S->acc, (S->count_limit + 1) * sizeof(*Acc));
  __atomic_store_n(&S->acc, Acc, __ATOMIC_RELEASE);
  __atomic_store_n(&S->count_limit, (uint32_t)New, __ATOMIC_RELEASE);
  lwp_state_seal_thread(S);
}

/** Grows \p S's stack (doubling, from 256 frames). The old stack is not
 *  freed: lwp_dump may be reading it on another thread. */
static void growStack(struct lwp_thread_state *S) {
  uint64_t New = S->stack_capacity ? 2 * (uint64_t)S->stack_capacity : 256;
  if (New > UINT32_MAX)
    return;
  struct lwp_frame *Stack = lwp_state_alloc(New * sizeof(*Stack));
  if (!Stack)
    return;
  if (S->stack)
    memcpy(Stack, S->stack, S->depth * sizeof(*Stack));
  __atomic_store_n(&S->stack, Stack, __ATOMIC_RELEASE);
  __atomic_store_n(&S->stack_capacity, (uint32_t)New, __ATOMIC_RELEASE);
  lwp_state_seal_thread(S);
}

/** Grows \p S's calling-context tree (doubling, from 64 nodes, up to its
 *  budget). The old array is not freed: lwp_dump may be reading it on
 *  another thread. Without memory the tree stays as it is (new paths
 *  fold). */
static void growNodes(struct lwp_thread_state *S) {
  uint64_t New =
      S->nodes == &S->root_node ? 64 : 2 * (uint64_t)S->node_capacity;
  if (New > S->node_budget)
    New = S->node_budget;
  if (New <= S->node_capacity)
    return;
  struct lwp_cct_node *Nodes = lwp_state_alloc(New * sizeof(*Nodes));
  if (!Nodes)
    return;
  memcpy(Nodes, S->nodes, S->num_nodes * sizeof(*Nodes));
  __atomic_store_n(&S->nodes, Nodes, __ATOMIC_RELEASE);
  __atomic_store_n(&S->node_capacity, (uint32_t)New, __ATOMIC_RELEASE);
  lwp_state_seal_thread(S);
}

/** A new thread state, registered. Never fails: without memory for the
 *  records the thread only counts; without any memory it gets
 *  lwp_fallback_state, which drops everything. */
static struct lwp_thread_state *newThreadState(void) {
  struct lwp_thread_state *S = lwp_state_alloc(sizeof(*S));
  if (!S) {
    const char *Msg[] = {"lwp: out of memory for a thread's profile state; "
                         "the probes of such threads are dropped and the "
                         "dump says its counts are incomplete\n",
                         NULL};
    lwp_say_once(&SaidNoState, Msg);
    lwp_fallback_state.lost = 1;
    lwp_state_note_lost_thread();
    return &lwp_fallback_state;
  }
  S->records =
      lwp_state_alloc(lwp_buffer_records * sizeof(struct lwp_record64));
  if (S->records) {
    S->capacity = lwp_buffer_records;
    /* Touch the first pages now, so that the first recorded probes do not
     * pay page faults (about 45 ticks a pair here; the "cold pages" row of
     * docs/performance.md's table measures a fresh buffer past them). */
    uint64_t Touch = lwp_buffer_records < 16384 ? lwp_buffer_records : 16384;
    memset(S->records, 0, Touch * sizeof(struct lwp_record64));
  } else if (lwp_buffer_records) {
    const char *Msg[] = {"lwp: out of memory for a thread's record buffer "
                         "(LWP_BUFFER_RECORDS); such threads' regions are "
                         "counted only\n",
                         NULL};
    lwp_say_once(&SaidNoRecords, Msg);
  }
  S->thread_id = (uint64_t)syscall(SYS_gettid);
  lwp_thread_clock_init(S);
  S->nodes = &S->root_node;
  S->num_nodes = S->node_capacity = 1;
  S->node_budget = lwp_cct_budget;
  growNodes(S);
  S->cct_cache = lwp_state_alloc(sizeof(lwp_cct_no_cache));
  if (!S->cct_cache)
    S->cct_cache = lwp_cct_no_cache;
  pthread_mutex_lock(&lwp_lock);
  S->next = lwp_registry;
  lwp_registry = S;
  lwp_state_seal_thread(S);
  lwp_state_persist_registry(lwp_registry);
  pthread_mutex_unlock(&lwp_lock);
  return S;
}

void lwp_add_figures(struct lwp_dump_region *R, uint32_t N,
                     const struct lwp_region_acc *A, uint32_t Limit) {
  for (uint32_t I = 1; A && I < N && I <= Limit; ++I) {
    R[I].count += A[I].count;
    R[I].total += A[I].total;
    R[I].self += A[I].self;
    R[I].nested += A[I].nested;
    R[I].children += A[I].children;
    R[I].outer += A[I].outer;
    R[I].unwound += A[I].unwound;
  }
}

/** Called when a thread with a state ends (its key's destructor): closes
 *  its instances still open as unwound, folds its figures into
 *  lwp_retired_acc, keeps its records in a buffer of their size and frees
 *  its figure table, stack and record buffer. The state itself stays in the
 *  registry (the dump lists the thread and its records). Not in continuous
 *  mode, whose state file is never freed from. */
static void retireThread(void *P) {
  struct lwp_thread_state *S = P;
  uint64_t Raw = lwp_read_counter();
  pthread_mutex_lock(&lwp_lock);
  if (lwp_state_active() || !S) {
    pthread_mutex_unlock(&lwp_lock);
    return;
  }
  uint64_t Now = lwp_compensate(S, Raw);
  while (S->depth)
    lwp_close_top(S, Now, 1);
  if (S->acc && S->count_limit > lwp_retired_limit) {
    struct lwp_dump_region *New =
        calloc((size_t)S->count_limit + 1, sizeof(*New));
    if (New) {
      if (lwp_retired_acc)
        memcpy(New, lwp_retired_acc,
               ((size_t)lwp_retired_limit + 1) * sizeof(*New));
      free(lwp_retired_acc);
      lwp_retired_acc = New;
      lwp_retired_limit = S->count_limit;
    }
  }
  if (S->acc && S->count_limit <= lwp_retired_limit) {
    lwp_add_figures(lwp_retired_acc, lwp_retired_limit + 1, S->acc,
                    S->count_limit);
    struct lwp_region_acc *Acc = S->acc;
    __atomic_store_n(&S->count_limit, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&S->acc, NULL, __ATOMIC_RELEASE);
    lwp_state_free(Acc);
  }
  struct lwp_record64 *Kept =
      S->num_records ? malloc(S->num_records * sizeof(*Kept)) : NULL;
  if (Kept || !S->num_records) {
    if (Kept)
      memcpy(Kept, S->records, S->num_records * sizeof(*Kept));
    struct lwp_record64 *Old = S->records;
    S->records = Kept;
    S->capacity = S->num_records;
    lwp_state_free(Old);
  }
  lwp_state_free(S->stack);
  S->stack = NULL;
  S->stack_capacity = 0;
  /* The tree stays for the dump, in a block of its size; the cache goes. */
  struct lwp_cct_node *Nodes =
      S->nodes != &S->root_node ? malloc(S->num_nodes * sizeof(*Nodes)) : NULL;
  if (Nodes) {
    memcpy(Nodes, S->nodes, S->num_nodes * sizeof(*Nodes));
    struct lwp_cct_node *Old = S->nodes;
    __atomic_store_n(&S->nodes, Nodes, __ATOMIC_RELEASE);
    S->node_capacity = S->num_nodes;
    lwp_state_free(Old);
  }
  if (S->cct_cache != lwp_cct_no_cache)
    lwp_state_free(S->cct_cache);
  S->cct_cache = lwp_cct_no_cache;
  if (lwp_tls_state == S)
    lwp_tls_state = NULL;
  pthread_mutex_unlock(&lwp_lock);
}

void lwp_threads_init(void) {
  HaveRetireKey = pthread_key_create(&RetireKey, retireThread) == 0;
}

struct lwp_thread_state *lwp_thread_state_for(struct lwp_thread_state *S,
                                              uint32_t Id) {
  if (!S)
    S = lwp_tls_state;
  if (!S) {
    S = newThreadState();
    lwp_tls_state = S;
    if (HaveRetireKey)
      pthread_setspecific(RetireKey, S);
  }
  uint32_t Known = __atomic_load_n(&lwp_next_id, __ATOMIC_ACQUIRE);
  if (Id != 0 && (Id < Known || (lwp_calibrating && Id <= 2)) &&
      Id - 1u >= S->count_limit)
    growFigures(S, Id);
  if (S->depth == S->stack_capacity)
    growStack(S);
  if (S->num_nodes == S->node_capacity)
    growNodes(S);
  return S;
}

void lwp_thread_clock_init(struct lwp_thread_state *S) {
  int On = lwp_compensation;
  lwp_sample_every(S, On ? LWP_COST_SAMPLE_PERIOD : 0);
  S->residual = On ? lwp_probe_residual : 0;
  S->unmeasured = On ? lwp_probe_unmeasured : 0;
  S->edge = On ? lwp_probe_edge : 0;
  S->cost_start = On ? lwp_probe_start_cost : 0;
  S->cost_end = On ? lwp_probe_end_cost : 0;
  S->debt_cap = 16 * (S->cost_start + S->cost_end);
  lwp_sched_thread_init(S, lwp_read_counter());
}

/** Forgets \p S's figures and records. With \p KeepOpen, the instances open
 *  now stay open (with their counts) so that their end probes still match;
 *  they then count as executions of the new period. */
static void resetState(struct lwp_thread_state *S, int KeepOpen) {
  if (S->acc) {
    for (uint32_t I = 0; I <= S->count_limit; ++I) {
      uint64_t Open = KeepOpen ? S->acc[I].open : 0;
      memset(&S->acc[I], 0, sizeof(S->acc[I]));
      S->acc[I].open = Open;
      S->acc[I].count = Open;
    }
  }
  if (!KeepOpen)
    S->depth = 0;
  /* The tree keeps its paths, from zero figures. */
  for (uint32_t I = 0; I != S->num_nodes; ++I) {
    struct lwp_dump_node *N = &S->nodes[I].d;
    N->count = N->cycles = 0;
    N->flags = N->folded = 0;
  }
  for (uint32_t I = 0; I != S->depth; ++I)
    S->stack[I].child = S->stack[I].nested = S->stack[I].children = 0;
  S->num_records = 0;
  S->dropped = 0;
  S->lost = 0;
  S->top_cycles = S->top_instances = S->top_nested = 0;
}

void lwp_threads_reset(void) {
  pthread_mutex_lock(&lwp_lock);
  for (struct lwp_thread_state *S = lwp_registry; S; S = S->next)
    resetState(S, /*KeepOpen=*/1);
  if (lwp_retired_acc)
    memset(lwp_retired_acc, 0,
           ((size_t)lwp_retired_limit + 1) * sizeof(*lwp_retired_acc));
  pthread_mutex_unlock(&lwp_lock);
}

void lwp_threads_fork_child(struct lwp_thread_state *S) {
  lwp_registry = S;
  if (lwp_retired_acc)
    memset(lwp_retired_acc, 0,
           ((size_t)lwp_retired_limit + 1) * sizeof(*lwp_retired_acc));
  if (S) {
    S->next = NULL;
    resetState(S, /*KeepOpen=*/1);
    S->thread_id = (uint64_t)syscall(SYS_gettid);
    /* The child's thread starts its CPU time and switches from zero. */
    lwp_sched_thread_init(S, lwp_read_counter());
  }
}
