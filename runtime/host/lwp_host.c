/*===- lwp_host.c - Host runtime: the core, start-up, fork, exit ---------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The top of the host runtime (lwp_host_internal.h lists its parts): this
 * copy's core and the note that locates it, the start-up (environment,
 * continuous mode, calibration), fork (the child starts from zero) and the
 * dump at exit. Nothing below calls into this file; the copies reach the
 * core through the note (lwp_host_core.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <stdlib.h>
#include <sys/auxv.h>

static struct lwp_thread_state *coreSlow(struct lwp_thread_state *S,
                                         uint32_t Id);
static void coreRegister(void *Blob);
static int coreDump(const char *Path);
static void coreReset(void);
static uint64_t coreCap(void);

/** This copy's core; used only when it is the process's core. */
__attribute__((visibility("hidden"))) struct lwp_core lwp_own_core = {
    LWP_CORE_MAGIC, LWP_CORE_ABI, coreSlow, coreRegister,
    coreDump,       coreReset,    coreCap};

/* The note that locates lwp_own_core: name "LWP", type 1, a 4-byte
 * descriptor holding the offset from the descriptor to the core. */
__asm__(".pushsection .note.lwp,\"a\",@note\n"
        ".balign 4\n"
        ".long 4\n"
        ".long 4\n"
        ".long 1\n"
        ".asciz \"LWP\"\n"
        ".long lwp_own_core - .\n"
        ".popsection\n");

static void dumpAtExit(void) {
  const char *Path = getenv("LWP_OUTPUT");
  if (Path && !*Path)
    return;
  /* The dump holds everything the state file held: the file goes. */
  if (coreDump(Path) == 0)
    lwp_remove_state();
}

static void forkPrepare(void) {
  pthread_mutex_lock(&lwp_lock);
  lwp_state_fork_prepare(lwp_tls_state);
}

static void forkParent(void) {
  lwp_state_fork_parent();
  pthread_mutex_unlock(&lwp_lock);
}

/* The child has one thread, the one that forked: it keeps that thread's
 * state, starts from zero counts and records with its own thread ID, and
 * forgets the other threads (whose buffers it leaves to the OS). */
static void forkChild(void) {
  pthread_mutex_init(&lwp_lock, NULL);
  lwp_state_fork_child(lwp_tls_state);
  lwp_threads_fork_child(lwp_tls_state);
  lwp_dump_forked = 1;
}

static pthread_once_t InitOnce = PTHREAD_ONCE_INIT;

static void initCore(void) {
  lwp_file_init();
  lwp_cap = lwp_parse_env("LWP_CAP", LWP_CAP, 0, UINT32_MAX);
  if (!lwp_is_tool())
    lwp_state_enter(getenv("LWP_OUTPUT"));
  /* At most 2^32 records (96 GiB) a thread, so sizes never overflow. */
  lwp_buffer_records = lwp_parse_env("LWP_BUFFER_RECORDS", LWP_BUFFER_RECORDS,
                                     0, UINT64_C(1) << 32);
  lwp_cct_budget = (uint32_t)lwp_parse_env("LWP_CCT_NODES", LWP_CCT_NODES, 1,
                                           UINT32_C(1) << 24);
  lwp_compensation = (int)lwp_parse_env("LWP_COMPENSATE", 1, 0, 1);
  lwp_preemption =
      lwp_compensation && (int)lwp_parse_env("LWP_PREEMPTION", 1, 0, 1);
  lwp_platform_start();
  /* Image 0 is always the executable, so that a report can tell whether it
   * was given the binary that ran, even when only shared objects have
   * regions. AT_PHDR lies in the executable's first PT_LOAD. */
  pthread_mutex_lock(&lwp_lock);
  lwp_image_of((const void *)getauxval(AT_PHDR));
  pthread_mutex_unlock(&lwp_lock);
  lwp_calibrate();
  pthread_atfork(forkPrepare, forkParent, forkChild);
  lwp_threads_init();
  if (!lwp_is_tool())
    atexit(dumpAtExit);
  pthread_mutex_lock(&lwp_lock);
  lwp_state_persist_modules(lwp_images, lwp_num_images, lwp_modules,
                            lwp_num_modules, lwp_next_id);
  lwp_state_persist_run(lwp_cap, lwp_probe_pair_cost, lwp_probe_nested_cost,
                        lwp_compensation);
  pthread_mutex_unlock(&lwp_lock);
}

static void ensureInit(void) { pthread_once(&InitOnce, initCore); }

static struct lwp_thread_state *coreSlow(struct lwp_thread_state *S,
                                         uint32_t Id) {
  ensureInit();
  return lwp_thread_state_for(S, Id);
}

static void coreRegister(void *Blob) {
  ensureInit();
  lwp_modules_register(Blob);
}

static int coreDump(const char *Pattern) {
  ensureInit();
  return lwp_dump_impl(Pattern, 0);
}

static void coreReset(void) {
  ensureInit();
  lwp_threads_reset();
}

static uint64_t coreCap(void) {
  ensureInit();
  return lwp_cap;
}

/* The executable's copy starts early; copies in shared objects start the
 * core (wherever it is) when their first module registers. The core's copy
 * installs the signal handlers here, at priority 101, after modules
 * registered (priority 1) and after handlers that a program installs in its
 * own early constructors (priorities up to 100), to which it then chains. */
__attribute__((constructor(101))) static void lwpInit(void) {
  if (lwp_get_core() == &lwp_own_core) {
    static int Installed;
    if (!Installed) {
      Installed = 1;
      lwp_signals_install();
    }
  }
}
