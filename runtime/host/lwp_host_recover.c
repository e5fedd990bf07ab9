/*===- lwp_host_recover.c - The dump of a continuous-mode state file -----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * lwp-recover's part of the runtime: maps a state file that its process left
 * without a dump (lwp_host_continuous.c), points the dump's globals at it
 * and writes the dump with the runtime's own code (lwp_host_dump.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <stdio.h>
#include <sys/stat.h>

int lwp_recover_state(const char *StateFile, const char *DumpPath,
                      int NoReplace) {
  lwp_file_init();
  lwp_platform_start();
  /* The dump never names the input. */
  struct stat In, Out;
  if (stat(StateFile, &In) == 0 && stat(DumpPath, &Out) == 0 &&
      In.st_dev == Out.st_dev && In.st_ino == Out.st_ino) {
    fprintf(stderr,
            "lwp-recover: error: the dump '%s' would overwrite the state "
            "file '%s'\n",
            DumpPath, StateFile);
    return -1;
  }
  const struct lwp_state_header *S = lwp_state_map(StateFile, "lwp-recover");
  if (!S)
    return -1;
  /* Instances still open end at the last counter value the state holds: the
   * newest record or frame start of any thread. */
  uint64_t Last = 0;
  for (struct lwp_thread_state *T = S->registry; T; T = T->next) {
    if (T->records && T->num_records &&
        T->records[T->num_records - 1].cycles > Last)
      Last = T->records[T->num_records - 1].cycles;
    for (uint32_t K = 0; T->stack && K < T->depth; ++K)
      if (T->stack[K].start > Last)
        Last = T->stack[K].start;
  }
  pthread_mutex_lock(&lwp_lock);
  lwp_registry = S->registry;
  lwp_images = S->images;
  lwp_num_images = S->num_images;
  lwp_modules = S->modules;
  lwp_num_modules = S->num_modules;
  lwp_next_id = S->next_id;
  lwp_probe_pair_cost = S->pair_cost;
  lwp_probe_nested_cost = S->nested_cost;
  lwp_compensation = S->compensated != 0;
  lwp_cap = S->cap;
  lwp_dump_process_id = S->process_id;
  lwp_dump_lost = S->lost_threads;
  lwp_dump_now = Last ? Last : 1;
  pthread_mutex_unlock(&lwp_lock);
  return lwp_dump_impl(DumpPath, LWP_DUMP_LITERAL |
                                     (NoReplace ? LWP_DUMP_NO_REPLACE : 0));
}
