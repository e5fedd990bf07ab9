/*===- lwp_host_sched.c - Time a thread waited for a CPU ------------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Time off the CPU (docs/report.md, "Time off the CPU"). The counter runs
 * while a thread is preempted: the instances it has open then hold the time
 * other work took their CPU, and a program's figures depend on what else
 * the machine runs (the tree interpreter's main read 1.5-2.1x its own
 * cycles with two busy loops beside it). An instrumented build runs longer
 * than a plain one, so it loses more to other work, and the figures depend
 * on how much is instrumented too.
 *
 * A preemption by other work lasts a scheduler slice (milliseconds), and
 * between two probes of the thread it shows as a gap longer than any the
 * program has between probes in most code. So lwp_compensate, when a
 * value lies more than lwp_gap_ticks (about 50 microseconds) after the
 * thread's last one, asks the kernel (lwp_compensate_gap, lwp_sched_waited):
 * getrusage(RUSAGE_THREAD) gives the thread's voluntary and involuntary
 * context switches, CLOCK_THREAD_CPUTIME_ID its CPU time and
 * CLOCK_MONOTONIC_RAW the time, all since the last question. When the thread
 * was preempted and did not block since then, the time it was off the CPU
 * (wall-clock time less CPU time) is time it waited for a CPU, and leaves its
 * clock before the value, at most the gap. A thread that blocked (I/O, a lock,
 * sleep) keeps that time: waiting for something of its own is the program's
 * time. The question costs two system calls (a few microseconds), which
 * leaves the clock too; a program whose probes are further apart than the gap
 * asks at most once per gap.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <sys/resource.h>
#include <time.h>

int lwp_preemption = 1;
uint64_t lwp_gap_ticks = LWP_GAP_NEVER;

/* The gap, in nanoseconds: shorter than a scheduler slice, longer than what
 * most code runs between probes. */
enum { GapNanos = 50000 };

void lwp_sched_start(void) {
  if (!lwp_preemption)
    return;
  uint64_t Hz = lwp_counter_frequency_rough();
  uint64_t Ticks = Hz / (1000000000u / GapNanos);
  lwp_gap_ticks = Ticks ? Ticks : 1;
}

/* What the kernel says of the calling thread now: the time and its CPU time
 * (nanoseconds; CLOCK_THREAD_CPUTIME_ID holds the running slice, where
 * getrusage's CPU times lag by up to a scheduler tick), and its context
 * switches. Returns 0, or -1. */
static int askKernel(uint64_t *Wall, uint64_t *Cpu, uint64_t *Voluntary,
                     uint64_t *Involuntary) {
  struct rusage U;
  struct timespec C;
  if (getrusage(RUSAGE_THREAD, &U) != 0 ||
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &C) != 0)
    return -1;
  *Wall = lwp_monotonic_nanos();
  *Cpu = (uint64_t)C.tv_sec * 1000000000u + (uint64_t)C.tv_nsec;
  *Voluntary = (uint64_t)U.ru_nvcsw;
  *Involuntary = (uint64_t)U.ru_nivcsw;
  return 0;
}

void lwp_sched_thread_init(struct lwp_thread_state *S, uint64_t Raw) {
  /* LWP_GAP_NEVER without compensation: lwp_preemption is 0 then. */
  S->gap = lwp_gap_ticks;
  lwp_set_debt_cap(S, S->debt_cap);
  S->sched_raw = Raw;
  if (S->gap == LWP_GAP_NEVER ||
      askKernel(&S->sched_wall, &S->sched_cpu, &S->sched_voluntary,
                &S->sched_involuntary) != 0)
    S->sched_wall = 0; /* no interval to judge */
}

uint64_t lwp_sched_waited(struct lwp_thread_state *S, uint64_t Raw,
                          uint64_t Gap) {
  uint64_t Wall, Cpu, Voluntary, Involuntary;
  if (askKernel(&Wall, &Cpu, &Voluntary, &Involuntary) != 0) {
    S->sched_wall = 0;
    return 0;
  }
  uint64_t Off = 0;
  /* A thread's counts only grow; anything else (a fork's child, which
   * starts from zero) starts a new interval. */
  if (S->sched_wall && Involuntary > S->sched_involuntary &&
      Voluntary == S->sched_voluntary && Wall > S->sched_wall &&
      Cpu >= S->sched_cpu && Raw > S->sched_raw) {
    uint64_t WallNanos = Wall - S->sched_wall;
    uint64_t CpuNanos = Cpu - S->sched_cpu;
    if (WallNanos > CpuNanos) {
      /* In ticks by the interval's own ratio (no frequency error). */
      double Ticks = (double)(WallNanos - CpuNanos) *
                     (double)(Raw - S->sched_raw) / (double)WallNanos;
      Off = Ticks >= (double)Gap ? Gap : (uint64_t)Ticks;
    }
  }
  S->sched_raw = Raw;
  S->sched_wall = Wall;
  S->sched_cpu = Cpu;
  S->sched_voluntary = Voluntary;
  S->sched_involuntary = Involuntary;
  return Off;
}
