/*===- lwp_figures.h - The shadow stack's rules, every runtime -*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The portable figures engine (issue 23): the rules by which a runtime's
 * shadow stack of open instances follows the probes when they do not nest
 * simply, written once for the host handlers' slow paths
 * (runtime/host/lwp_host.c) and the Hexagon replay's general path
 * (runtime/hexagon/lwp_hexagon_runtime.c). docs/hexagon-runtime.md,
 * "Figures", and docs/user-guide.md say what the figures are; these are the
 * rules that decide which instances a probe closes:
 *
 *  - a probe whose caller's stack lies above an open instance's was run by a
 *    function that encloses that instance's function: the instance was left
 *    without its end probe (longjmp, an exception) and is closed, unwound
 *    (lwp_fig_close_stale);
 *  - a start of a region that has an instance open at the same stack
 *    position cannot be recursion (that needs a new stack frame): that
 *    instance, and every instance above it, were left by a longjmp back into
 *    their function (lwp_fig_close_reentered);
 *  - an end closes the innermost open instance of its region, and as
 *    unwound every instance above it (lwp_fig_close_end);
 *  - a resume probe closes the stale instances and those of its own
 *    function (same stack position) above the region that encloses the
 *    resume point (lwp_fig_resume).
 *
 * Static inline functions over the target's own state, so that neither
 * target pays a call or a data layout it does not use. A file that includes
 * this header first defines LWP_FIG_STATE (the type its functions take) and
 * these functions, over frames numbered 1 (outermost) to the depth:
 *
 *   static inline uint32_t lwp_fig_depth(LWP_FIG_STATE *S);
 *       open instances on the stack
 *   static inline uintptr_t lwp_fig_frame_sp(LWP_FIG_STATE *S, uint32_t K);
 *       the caller's stack position at frame K's start probe
 *   static inline uintptr_t lwp_fig_frame_region(LWP_FIG_STATE *S,
 *                                                uint32_t K);
 *       frame K's region (an ID or a slot address: compared for equality)
 *   static inline void lwp_fig_close_top(LWP_FIG_STATE *S, uint64_t Now,
 *                                        int Unwound);
 *       adds the top frame's figures at counter value Now (its own and its
 *       parent's; Unwound: it had no end probe) and pops it
 *
 * What a close adds (the figure arithmetic) stays with each target: the host
 * keeps 64-bit accumulators per frame, Hexagon its slot words encoded for
 * the replay's assembly (lwp_replay.S).
 */
#ifndef LWP_RUNTIME_COMMON_FIGURES_H
#define LWP_RUNTIME_COMMON_FIGURES_H

#include <stdint.h>

#ifndef LWP_FIG_STATE
#error "define LWP_FIG_STATE and the lwp_fig_* hooks before lwp_figures.h"
#endif

/** Closes, as unwound at counter value \p Now, the top frames whose stack
 *  position lies below \p Sp, the stack position of a probe's caller: their
 *  functions were left without their end probes. */
static inline void lwp_fig_close_stale(LWP_FIG_STATE *S, uintptr_t Sp,
                                       uint64_t Now) {
  uint32_t D;
  while ((D = lwp_fig_depth(S)) && lwp_fig_frame_sp(S, D) < Sp)
    lwp_fig_close_top(S, Now, 1);
}

/** A start of \p Region, which has an instance open, by a caller at stack
 *  position \p Sp: when an instance of it is open at \p Sp among the top
 *  frames at \p Sp, closes it and every frame above it as unwound (a region
 *  cannot run inside itself at the same stack position; a longjmp back into
 *  its function left them). Call after lwp_fig_close_stale. */
static inline void lwp_fig_close_reentered(LWP_FIG_STATE *S, uintptr_t Region,
                                           uintptr_t Sp, uint64_t Now) {
  uint32_t K = lwp_fig_depth(S);
  while (K && lwp_fig_frame_sp(S, K) == Sp &&
         lwp_fig_frame_region(S, K) != Region)
    --K;
  if (K && lwp_fig_frame_sp(S, K) == Sp && lwp_fig_frame_region(S, K) == Region)
    while (lwp_fig_depth(S) >= K)
      lwp_fig_close_top(S, Now, 1);
}

/** An end of \p Region at counter value \p Now: closes its innermost open
 *  instance, and as unwound every frame above it. Returns that instance's
 *  depth (1 = outermost), or 0 when no instance of \p Region is open (then
 *  nothing is closed: an end without its start is not accounted). Call after
 *  lwp_fig_close_stale. */
static inline uint32_t lwp_fig_close_end(LWP_FIG_STATE *S, uintptr_t Region,
                                         uint64_t Now) {
  uint32_t K = lwp_fig_depth(S);
  while (K && lwp_fig_frame_region(S, K) != Region)
    --K;
  if (!K)
    return 0;
  while (lwp_fig_depth(S) > K)
    lwp_fig_close_top(S, Now, 1);
  lwp_fig_close_top(S, Now, 0);
  return K;
}

/** A resume probe (docs/probe-form.md, "Resume probes") by a caller at stack
 *  position \p Sp inside an instance of \p Region (a value no frame has, such
 *  as 0, outside every region of its function): closes as unwound the
 *  stale frames and the frames at \p Sp above the innermost one of
 *  \p Region. Returns how many frames it closed (0: the resume is not a
 *  probe of the figures). */
static inline uint32_t lwp_fig_resume(LWP_FIG_STATE *S, uintptr_t Region,
                                      uintptr_t Sp, uint64_t Now) {
  uint32_t Before = lwp_fig_depth(S), D;
  lwp_fig_close_stale(S, Sp, Now);
  while ((D = lwp_fig_depth(S)) && lwp_fig_frame_sp(S, D) == Sp &&
         lwp_fig_frame_region(S, D) != Region)
    lwp_fig_close_top(S, Now, 1);
  return Before - lwp_fig_depth(S);
}

#endif /* LWP_RUNTIME_COMMON_FIGURES_H */
