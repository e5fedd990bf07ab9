/*===- lwp_runtime.h - Public C interface of the LWP runtimes ----*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What a profiled program may call itself. The probes do not go through this
 * header: they are lowered to calls of the target's handler entry points
 * (__lwp_probe_start / __lwp_probe_end, see docs/probe-form.md and
 * docs/dump-format.md). Every runtime (host x86-64 / AArch64, Hexagon)
 * provides these functions.
 *
 * Environment read at start-up:
 *   LWP_OUTPUT  path of the dump written at exit (default: "lwp.dump" in the
 *               current directory; an empty value disables the dump at exit).
 *               Patterns: %p the process ID, %h the host name, %% a percent
 *               sign; a child of fork() whose path has no %p appends
 *               ".<pid>" (host runtime). %c (host runtime, no text):
 *               continuous mode, the profile kept in "<path>.state" as the
 *               program runs, for lwp-recover after _exit or SIGKILL.
 *   LWP_CAP     records kept per region ID (default 100, or -DLWP_CAP=N)
 *   LWP_BUFFER_RECORDS  records of a thread's buffer (host; default 2^20)
 *   LWP_STATE_MB  size of the continuous-mode state file in MiB (host;
 *               default 4096, sparse)
 */
#ifndef LWP_RUNTIME_LWP_RUNTIME_H
#define LWP_RUNTIME_LWP_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the dump (docs/dump-format.md) of everything recorded so far to
 *  \p path (NULL: $LWP_OUTPUT or "lwp.dump"). Recording goes on. Returns 0 on
 *  success, -1 when the file cannot be written. */
int lwp_dump(const char *path);

/** Forgets every count, record and drop so far (the counters restart from
 *  zero; calibration and images are kept). Call it only while no probe runs
 *  in another thread. */
void lwp_reset(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LWP_RUNTIME_LWP_RUNTIME_H */
