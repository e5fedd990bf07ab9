/*===- lwp_host_internal.h - Host runtime state shared by its files -*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Per-thread profile state of the host runtime (x86-64, AArch64). Every
 * thread records into its own buffers, so the handlers take no lock and use no
 * atomic operation; lwp_dump merges the threads.
 *
 * One runtime per process: the runtime may be linked into the executable and
 * into any number of shared objects. Every copy carries an ELF note (name
 * "LWP", in a PT_NOTE segment) that locates its `struct lwp_core`; each copy
 * uses the core of the first image, in the dynamic linker's load order, that
 * has one (lwp_host.c, findCore), so all copies share one registry of
 * modules, one set of thread states and one dump, with no exported symbol.
 */
#ifndef LWP_HOST_INTERNAL_H
#define LWP_HOST_INTERNAL_H

#include "lwp/Runtime/DumpFormat.h"
#include "lwp/Runtime/MapFormat.h"

#include <stdint.h>

/* Build-time defaults; LWP_CAP and LWP_BUFFER_RECORDS can also be set in the
 * environment at start-up. */
#ifndef LWP_CAP
#define LWP_CAP 100
#endif
#ifndef LWP_BUFFER_RECORDS
#define LWP_BUFFER_RECORDS (1u << 20)
#endif

/** One thread's counts and records. */
struct lwp_thread_state {
  /** Exact start counts, indexed by region ID; count_limit + 1 entries. */
  uint64_t *counts;
  /** Largest ID with a count entry. The handlers test (ID - 1) < limit in
   *  32-bit unsigned arithmetic, so ID 0 (an unregistered slot) and IDs
   *  beyond the table both take the slow path. */
  uint32_t count_limit;
  uint32_t reserved;
  struct lwp_record64 *records; /**< capacity records, execution order */
  uint64_t num_records;
  uint64_t capacity;             /**< records the buffer holds */
  uint64_t dropped;              /**< records not stored by this thread */
  uint64_t thread_id;            /**< gettid() */
  struct lwp_thread_state *next; /**< registry list */
};

/** This copy's pointer to this thread's state (shared with the other copies
 *  of the runtime through the core), or null before its first probe. */
extern __thread struct lwp_thread_state *lwp_tls_state
    __attribute__((tls_model("initial-exec")));

/** Records kept per ID and thread (LWP_CAP): this copy's copy of the core's
 *  value, set when the copy finds its core. */
extern uint64_t lwp_cap;

/** The slow path of both handlers: creates this thread's state when \p S is
 *  null, and grows its count table to cover \p Id. Returns the state, or
 *  null when the probe is to be dropped (ID 0, an unregistered slot, or no
 *  memory); it then counts the drop itself. preserve_all, so that the
 *  handlers' fast paths need not save registers for this call. */
__attribute__((preserve_all)) struct lwp_thread_state *
lwp_probe_slow(struct lwp_thread_state *S, uint32_t Id);

#endif /* LWP_HOST_INTERNAL_H */
