/*===- lwp_host_platform.c - Counter, clock, messages, environment -------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The bottom of the host runtime: what every other part uses and that uses
 * no other part. The counter's frequency, messages on stderr (write(2), so
 * that a signal handler may print), the environment, errno phrases, the
 * core's lock.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t lwp_lock = PTHREAD_MUTEX_INITIALIZER;
__thread struct lwp_thread_state *lwp_tls_state
    __attribute__((tls_model("initial-exec")));
uint64_t lwp_cap = LWP_CAP;

int lwp_is_tool(void) { return &lwp_tool_not_profiled != NULL; }

static uint64_t StartTicks, StartNanos;

uint64_t lwp_monotonic_nanos(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC_RAW, &T);
  return (uint64_t)T.tv_sec * 1000000000u + (uint64_t)T.tv_nsec;
}

void lwp_platform_start(void) {
  StartNanos = lwp_monotonic_nanos();
  StartTicks = lwp_read_counter();
}

/* Counter ticks per second, measured over at least \p MinNanos since
 * lwp_platform_start on x86-64. */
static uint64_t frequencyAfter(uint64_t MinNanos) {
#if defined(__aarch64__)
  (void)MinNanos;
  uint64_t F;
  __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(F));
  return F;
#else
  uint64_t Nanos, Ticks;
  do {
    Nanos = lwp_monotonic_nanos();
    Ticks = lwp_read_counter();
  } while (Nanos - StartNanos < MinNanos);
  return (uint64_t)((double)(Ticks - StartTicks) * 1e9 /
                    (double)(Nanos - StartNanos));
#endif
}

uint64_t lwp_counter_frequency(void) { return frequencyAfter(10000000u); }

uint64_t lwp_counter_frequency_rough(void) { return frequencyAfter(1000000u); }

void lwp_say(const char *const *Parts) {
  for (; *Parts; ++Parts) {
    const char *P = *Parts;
    size_t N = strlen(P);
    while (N) {
      ssize_t W = write(2, P, N);
      if (W < 0 && errno == EINTR)
        continue;
      if (W <= 0)
        return;
      P += W;
      N -= (size_t)W;
    }
  }
}

void lwp_say_once(int *Said, const char *const *Parts) {
  if (!__atomic_exchange_n(Said, 1, __ATOMIC_RELAXED))
    lwp_say(Parts);
}

uint64_t lwp_parse_env(const char *Name, uint64_t Default, uint64_t Min,
                       uint64_t Max) {
  const char *V = getenv(Name);
  if (!V || !*V)
    return Default;
  char *End;
  errno = 0;
  unsigned long long N = strtoull(V, &End, 10);
  if (errno || *End || V[0] == '-' || N < Min || N > Max) {
    fprintf(stderr,
            "lwp: ignoring %s='%s': not an integer in [%llu, %llu]; using "
            "%llu\n",
            Name, V, (unsigned long long)Min, (unsigned long long)Max,
            (unsigned long long)Default);
    return Default;
  }
  return N;
}

const char *lwp_errno_text(int Err) {
  switch (Err) {
  case EMFILE:
    return "no file descriptor left (EMFILE, ulimit -n)";
  case ENFILE:
    return "no file descriptor left in the system (ENFILE)";
  case ENOSPC:
    return "no space left on the device (ENOSPC)";
  case EDQUOT:
    return "the disk quota is exhausted (EDQUOT)";
  case EFBIG:
    return "the file size limit (ulimit -f, EFBIG)";
  case EACCES:
  case EPERM:
    return "no permission (EACCES)";
  case EROFS:
    return "a read-only file system (EROFS)";
  case ENOENT:
    return "no such folder (ENOENT)";
  case ENOTDIR:
    return "a component of the path is not a folder (ENOTDIR)";
  case ENAMETOOLONG:
    return "the name is too long (ENAMETOOLONG)";
  case EEXIST:
    return "a file of that name exists (EEXIST)";
  case ENOMEM:
    return "out of memory (ENOMEM)";
  case EIO:
    return "an input/output error (EIO)";
  case EISDIR:
    return "the path names a folder (EISDIR)";
  case ELOOP:
    return "too many symbolic links (ELOOP)";
  default:
    return "a system error";
  }
}
