/*===- lwp_host_internal.h - Host runtime state shared by its files -*- C
-*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Per-thread profile state of the host runtime (x86-64, AArch64). Every
 * thread records into its own buffers, so the handlers take no lock and use no
 * atomic operation; lwp_dump merges the threads.
 */
#ifndef LWP_HOST_INTERNAL_H
#define LWP_HOST_INTERNAL_H

#include "lwp/Runtime/DumpFormat.h"

#include <stdint.h>

/* Build-time defaults; LWP_CAP and LWP_BUFFER_RECORDS can also be set in the
 * environment at start-up. */
#ifndef LWP_CAP
#define LWP_CAP 100
#endif
#ifndef LWP_MAX_IDS
#define LWP_MAX_IDS 16384
#endif
#ifndef LWP_BUFFER_RECORDS
#define LWP_BUFFER_RECORDS (1u << 20)
#endif

/** One thread's counts and records. */
struct lwp_thread_state {
  uint64_t *counts;             /**< LWP_MAX_IDS exact start counts */
  struct lwp_record64 *records; /**< capacity records, execution order */
  uint64_t num_records;
  uint64_t capacity;             /**< records the buffer holds */
  uint64_t dropped;              /**< records not stored by this thread */
  uint64_t thread_id;            /**< gettid() */
  struct lwp_thread_state *next; /**< registry list */
};

/** This thread's state, or null before its first probe. */
extern __thread struct lwp_thread_state *lwp_tls_state
    __attribute__((tls_model("initial-exec")));

/** Records kept per ID and thread (LWP_CAP). */
extern uint64_t lwp_cap;

/** Creates and registers this thread's state. Never fails: without memory
 *  the thread gets a state that only counts drops. preserve_all, so that the
 *  handlers' fast paths need not save registers for this call. */
__attribute__((preserve_all)) struct lwp_thread_state *lwp_thread_init(void);

#endif /* LWP_HOST_INTERNAL_H */
