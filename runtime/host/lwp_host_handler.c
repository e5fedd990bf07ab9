/*===- lwp_host_handler.c - Probe handlers of x86-64 and AArch64 ---------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * __lwp_probe_start / __lwp_probe_end: the handlers that lowered probes call
 * with the address of their region's slot (docs/probe-form.md,
 * lwp/Runtime/MapFormat.h). The slot holds the region's program-wide ID,
 * which the runtime wrote when the module registered. Calling convention
 * preserve_all: the caller keeps every register but the scratch ones of that
 * convention (R11 on x86-64; X16, X17 on AArch64), so a probe perturbs the
 * surrounding code as little as a call can. This file is built with
 * -mgeneral-regs-only so that the fast path touches no vector register
 * (which preserve_all would then have to save).
 *
 * The handlers are hidden and compiled code declares them hidden, so every
 * call binds inside its image (a direct call, also in shared objects), never
 * through a lazily bound PLT entry: the dynamic linker's lazy resolver does
 * not keep the registers preserve_all promises. So every image with probes
 * links its own copy of the runtime; the copies share one core.
 *
 * Besides counting and recording the first cap executions, the handlers keep
 * each region's exact figures (lwp_region_acc) through a shadow stack of open
 * instances per thread, so that totals need no extrapolation: the start
 * handler pushes a frame, the end handler pops it and adds the instance's
 * inclusive cycles to the region (once for a region nested in itself) and to
 * its parent frame. A frame whose stack position lies below the current
 * probe's was left by longjmp or an exception: it is closed then (slow path).
 * __lwp_probe_resume, which compiled code calls where control resumes after
 * a non-local exit (after setjmp, at a landing pad), closes such frames at
 * once, and with them the frames of the resuming function above the region
 * that encloses the resume point.
 *
 * Counter: x86-64 rdtsc, not serialised (rdtscp or lfence;rdtsc cost about
 * 30 ticks more a pair here, issue 7: docs/performance-history.md, the
 * full text in `git show 6310dfe:docs/performance.md`; and the out-of-order
 * window they close is a few cycles); AArch64 cntvct_el0.
 *
 * Compensation (docs/report.md, "Overhead correction"): every counter value
 * a handler records or accounts is its read less what the thread's probes
 * took so far (lwp_compensate), so that an instance's figure holds none of
 * the probes that ran inside it, recorded or not. The start handler reads
 * the counter last, after its own time left the clock; the end handler
 * reads it first, and its time leaves the clock as it returns. What a
 * probe takes is measured in place, a second read at the other end of the
 * handler, in every 16th probe (a read costs about 25 ticks here, too much
 * for every probe), which the handler hands to its measured variant; the
 * others take out the thread's running estimate of that handler's cost
 * (lwp_probe_measured, lwp_account_measured). When the estimates took out
 * more than the time since the thread's last value, the clock owes it
 * (lwp_compensate).
 *
 * Calling-context tree: the start handler finds its instance's node, the
 * child of the enclosing instance's node for its region, in a cache of
 * (parent, region) -> node (lwp_cct_enter); the tree itself, and the
 * nodes it creates, are the slow path's (lwp_cct_child_slow).
 */
#include "lwp_host_internal.h"

#if defined(__x86_64__)
static inline __attribute__((always_inline)) uint64_t readCounter(void) {
  uint32_t Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return ((uint64_t)Hi << 32) | Lo;
}
#elif defined(__aarch64__)
static inline __attribute__((always_inline)) uint64_t readCounter(void) {
  uint64_t V;
  __asm__ volatile("mrs %0, cntvct_el0" : "=r"(V));
  return V;
}
#else
#error "the host runtime supports x86-64 and AArch64"
#endif

/* Hidden: compiled code declares the handlers hidden and calls them
 * directly; every image with probes links its own copy of the runtime. */
#define LWP_HANDLER __attribute__((preserve_all, visibility("hidden"), used))

/* The caller's stack position, the same in every handler whatever its
 * frame: on x86-64 the handler's frame address (built with
 * -fno-omit-frame-pointer: the return address and the saved rbp below the
 * caller's stack); on AArch64 the stack pointer at the handler's entry,
 * since there the frame record lies wherever the prologue puts it among the
 * saved registers (the start and end handlers, saving different registers,
 * had frame addresses 8 bytes apart, and every instance read as left by a
 * longjmp). */
#if defined(__aarch64__)
#define LWP_CALLER_SP() ((uintptr_t)__builtin_sponentry())
#else
#define LWP_CALLER_SP() ((uintptr_t)__builtin_frame_address(0))
#endif

/* True when an instance of region \p Id is open at stack position \p Sp
 * (the frames at \p Sp are the top ones: the current function's). */
static inline __attribute__((always_inline)) int
openHere(const struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp) {
  for (uint32_t K = S->depth; K-- > 0 && S->stack[K].sp == Sp;)
    if (S->stack[K].id == Id)
      return 1;
  return 0;
}

/* The bodies of the start and end handlers; \p Measured (a constant in
 * each caller) selects the measured variant, which reads the counter at
 * both ends (\p In: the first read). */
static inline __attribute__((always_inline)) void
startProbe(const struct lwp_slot *Slot, struct lwp_thread_state *S,
           int Measured, uint64_t In);
static inline __attribute__((always_inline)) void
endProbe(const struct lwp_slot *Slot, struct lwp_thread_state *S, uint64_t In,
         int Measured);

/* The measured variants, which the handlers jump to (a tail call: the
 * variant's frame, return address and stack position are the handler's),
 * so that the handlers' fast path keeps no state of a measurement (two
 * registers fewer to save, about 2 ticks a pair). */
__attribute__((preserve_all, noinline, used)) static void
startMeasured(const struct lwp_slot *Slot) {
  uint64_t In = readCounter();
  startProbe(Slot, lwp_tls_state, 1, In);
}

__attribute__((preserve_all, noinline, used)) static void
endMeasured(const struct lwp_slot *Slot) {
  struct lwp_thread_state *S = lwp_tls_state;
  endProbe(Slot, S, S->measured_in, 1);
}

LWP_HANDLER void __lwp_probe_start(const struct lwp_slot *Slot) {
  struct lwp_thread_state *S = lwp_tls_state;
  /* A measured probe reads the counter when entered too. */
  if (__builtin_expect(S && lwp_probe_measured(S), 0))
    __attribute__((musttail)) return startMeasured(Slot);
  startProbe(Slot, S, 0, 0);
}

LWP_HANDLER void __lwp_probe_end(const struct lwp_slot *Slot) {
  uint64_t In = readCounter();
  struct lwp_thread_state *S = lwp_tls_state;
  if (__builtin_expect(S && lwp_probe_measured(S), 0)) {
    S->measured_in = In;
    __attribute__((musttail)) return endMeasured(Slot);
  }
  endProbe(Slot, S, In, 0);
}

static inline __attribute__((always_inline)) void
startProbe(const struct lwp_slot *Slot, struct lwp_thread_state *S,
           int Measured, uint64_t In) {
  uint32_t Id = Slot->index;
  uintptr_t Sp = LWP_CALLER_SP();
  /* Slow path: no state yet, an ID beyond the figure table (or 0), a full
   * stack, frames left open by a function that did not end them, or an
   * instance of the region open at this stack position (left there by a
   * longjmp back into this function). Recursion, whose instances are open
   * in other frames, stays on the fast path. */
  if (__builtin_expect(
          !S || Id - 1u >= S->count_limit || S->depth == S->stack_capacity ||
              (S->depth && (S->stack[S->depth - 1].sp < Sp ||
                            (S->acc[Id].open && openHere(S, Id, Sp)))),
          0)) {
    uint64_t Entered = readCounter();
    S = lwp_probe_slow(S, Id, Sp, 1);
    if (!S)
      return;
    /* The slow path's time leaves the clock whole, measured here. */
    if (lwp_clock_compensated(S))
      S->overhead += readCounter() - Entered;
    Measured = 0;
  }
  struct lwp_region_acc *A = &S->acc[Id];
  uint64_t Count = ++A->count;
  ++A->open;
  uint32_t D = S->depth;
  uint32_t Node = lwp_cct_enter(S, D ? S->stack[D - 1].node : 0, Id);
  struct lwp_frame *F = &S->stack[D];
  S->depth = D + 1;
  F->id = Id;
  F->child = 0;
  F->nested = 0;
  F->children = 0;
  F->sp = Sp;
  F->node = Node;
  struct lwp_record64 *R = NULL;
  uint64_t N = S->num_records;
  if (__builtin_expect(Count > lwp_cap || N >= S->capacity, 0)) {
    ++S->dropped;
    F->recorded = 0;
  } else {
    F->recorded = 1;
    R = &S->records[N];
    S->num_records = N + 1;
    R->site = (uint64_t)(uintptr_t)__builtin_return_address(0);
    R->id_word = Id;
    R->depth = D + 1;
  }
  /* The instance starts when the probe is over: its time leaves the clock
   * first. */
  uint64_t Out = readCounter();
  if (__builtin_expect(Measured, 0))
    lwp_account_measured(S, Out - In, &S->cost_start);
  else
    S->overhead += S->cost_start;
  uint64_t Now = lwp_compensate(S, Out + S->edge);
  F->start = Now;
  if (R)
    R->cycles = Now;
}

static inline __attribute__((always_inline)) void
endProbe(const struct lwp_slot *Slot, struct lwp_thread_state *S, uint64_t In,
         int Measured) {
  uint32_t Id = Slot->index;
  uintptr_t Sp = LWP_CALLER_SP();
  /* Not measured after the slow path, whose time leaves the clock whole. */
  int Measurable = 1;
  if (__builtin_expect(!S || Id - 1u >= S->count_limit, 0)) {
    S = lwp_probe_slow(S, Id, Sp, 0);
    if (!S)
      return;
    Measurable = 0;
  }
  Measured = Measured && Measurable;
  uint64_t Now = lwp_compensate(S, In - S->edge);
  if (__builtin_expect(!Measurable, 0) && lwp_clock_compensated(S))
    S->overhead += readCounter() - In;
  /* The end is recorded when its instance's start was: a recursive region's
   * count passes the cap while its outer instances are open, and their ends
   * still pair with their recorded starts. An end that closed nothing is
   * recorded under the cap (the report counts it as unmatched). */
  uint32_t D = S->depth, Rec;
  if (__builtin_expect(
          D && S->stack[D - 1].id == Id && S->stack[D - 1].sp >= Sp, 1)) {
    Rec = S->stack[D - 1].recorded;
    lwp_close_top(S, Now, 0);
  } else {
    D = lwp_end_slow(S, Id, Now, Sp);
    /* The closed frame (D, popped) is intact until the next start. */
    Rec = D ? S->stack[D - 1].recorded : S->acc[Id].count <= lwp_cap;
  }
  uint64_t N = S->num_records;
  if (__builtin_expect(!Rec || N >= S->capacity, 0)) {
    ++S->dropped;
  } else {
    struct lwp_record64 *R = &S->records[N];
    S->num_records = N + 1;
    R->site = (uint64_t)(uintptr_t)__builtin_return_address(0);
    R->id_word = Id | LWP_ID_END_BIT;
    R->depth = D;
    R->cycles = Now;
  }
  /* The probe's time leaves the clock when it is over. */
  if (__builtin_expect(Measured, 0))
    lwp_account_measured(S, readCounter() - In, &S->cost_end);
  else
    S->overhead += S->cost_end;
}

LWP_HANDLER void __lwp_probe_resume(const struct lwp_slot *Slot) {
  uint64_t In = readCounter();
  struct lwp_thread_state *S = lwp_tls_state;
  uintptr_t Sp = LWP_CALLER_SP();
  if (!S || !S->depth)
    return;
  int Measured = lwp_probe_measured(S);
  /* The common case (setjmp's first return): the top instance is the
   * enclosing region's at this stack position, or one of a caller's. */
  const struct lwp_frame *T = &S->stack[S->depth - 1];
  uint32_t Id = Slot ? Slot->index : 0;
  if (__builtin_expect(!(T->sp > Sp || (T->sp == Sp && T->id == Id)), 0))
    lwp_resume_slow(S, Id, lwp_compensate(S, In - S->edge), Sp,
                    (uint64_t)(uintptr_t)__builtin_return_address(0));
  if (Measured)
    lwp_account_measured(S, readCounter() - In, &S->cost_end);
  else
    S->overhead += S->cost_end;
}
