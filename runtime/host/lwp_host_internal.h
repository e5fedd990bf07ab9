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

/** The exact figures of one region on one thread (lwp_dump_region without
 *  its padding, plus the instances open now), 64 bytes. */
struct lwp_region_acc {
  uint64_t count;    /**< start probes */
  uint64_t total;    /**< inclusive cycles of the outermost instances */
  uint64_t self;     /**< cycles minus those of direct children */
  uint64_t nested;   /**< probes (start and end) inside the outermost
                          instances */
  uint64_t children; /**< direct child instances */
  uint64_t outer;    /**< outermost instances */
  uint64_t unwound;  /**< instances closed without their end probe */
  uint64_t open;     /**< instances open now (recursion depth) */
};

/** One open instance on a thread's shadow stack, 48 bytes. */
struct lwp_frame {
  uint32_t id;       /**< region ID */
  uint32_t recorded; /**< 1: its start probe was recorded (the region's count
                          was within the cap), so its end probe is recorded
                          too while the buffer has room; 0: neither is */
  uint64_t start;    /**< counter at its start probe */
  uint64_t child;    /**< inclusive cycles of its closed direct children */
  uint64_t nested;   /**< probes (start and end) of instances closed inside
                          it */
  uint64_t children; /**< its closed direct children */
  uintptr_t sp;      /**< the caller's stack at the start probe (the
                          handler's frame address): a probe whose stack is
                          above it runs in a function that encloses the
                          instance's, so the instance was left without its
                          end probe (longjmp, exception) */
};

/** One thread's figures, shadow stack and records. */
struct lwp_thread_state {
  /** Exact figures, indexed by region ID; count_limit + 1 entries. */
  struct lwp_region_acc *acc;
  /** Largest ID with a count entry. The handlers test (ID - 1) < limit in
   *  32-bit unsigned arithmetic, so ID 0 (an unregistered slot) and IDs
   *  beyond the table both take the slow path. */
  uint32_t count_limit;
  /** Set when an execution of this thread could not be counted or timed
   *  (no memory for its figure table or a deeper stack): the dump then says
   *  its counts are lower bounds (LWP_DUMP_FLAG_LOST). */
  uint32_t lost;
  struct lwp_record64 *records; /**< capacity records, execution order */
  uint64_t num_records;
  uint64_t capacity;             /**< records the buffer holds */
  uint64_t dropped;              /**< records not stored by this thread */
  uint64_t thread_id;            /**< gettid() */
  struct lwp_frame *stack;       /**< open instances, innermost last */
  uint32_t depth;                /**< frames on the stack */
  uint32_t stack_capacity;       /**< frames the stack holds */
  uint64_t top_cycles;           /**< inclusive cycles of top-level instances */
  uint64_t top_instances;        /**< top-level instances */
  uint64_t top_nested;           /**< probes (start and end) inside them */
  struct lwp_thread_state *next; /**< registry list */
};

/** This copy's pointer to this thread's state (shared with the other copies
 *  of the runtime through the core), or null before its first probe. */
extern __thread struct lwp_thread_state *lwp_tls_state
    __attribute__((tls_model("initial-exec")));

/** Records kept per ID and thread (LWP_CAP): this copy's copy of the core's
 *  value, set when the copy finds its core. */
extern uint64_t lwp_cap;

/** The slow path of both handlers' checks: creates this thread's state when
 *  \p S is null, grows its figure table to cover \p Id and its stack to
 *  hold one more frame, and closes the frames left open below the stack
 *  position \p Sp (instances of functions that were left without their end
 *  probes) at counter value \p Now; for a start probe (\p IsStart), also an
 *  open instance of the same region at the same stack position and the
 *  frames above it. Returns the state, or null when the
 *  probe is to be dropped (ID 0, an unregistered slot, or no memory); it then
 *  counts the drop itself. preserve_all, so that the handlers' fast paths
 *  need not save registers for this call. */
__attribute__((preserve_all)) struct lwp_thread_state *
lwp_probe_slow(struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp,
               uint64_t Now, int IsStart);

/** The end handler's slow path: closes the instance of \p Id on \p S's stack
 *  at \p Now: frames left below the caller's stack position \p Sp, and then
 *  frames above the instance, are closed as unwound first; an end without an
 *  open instance is not accounted. Records nothing. Returns the stack
 *  position the instance had (1: outermost), 0 for an end without one. */
__attribute__((preserve_all)) uint32_t lwp_end_slow(struct lwp_thread_state *S,
                                                    uint32_t Id, uint64_t Now,
                                                    uintptr_t Sp);

/** The resume handler's slow path: at a resume point (docs/probe-form.md,
 *  "Resume probes") whose caller's stack position is \p Sp, closes as
 *  unwound at \p Now the frames below \p Sp (instances of functions that a
 *  longjmp or an exception left) and then the frames at \p Sp above the
 *  innermost instance of region \p Id (0: every frame at \p Sp), those of
 *  the resuming function's regions that do not enclose the resume point.
 *  When it closed any, records the resume: a record of ID 0 with the stack
 *  position left (its depth) and site \p Site, which tells a reader to end
 *  the instances above that position there. */
__attribute__((preserve_all)) void lwp_resume_slow(struct lwp_thread_state *S,
                                                   uint32_t Id, uint64_t Now,
                                                   uintptr_t Sp, uint64_t Site);

/** Writes the dump of a continuous-mode state file (LWP_OUTPUT with %c,
 *  docs/user-guide.md) that its process left without one (it ended by _exit
 *  or SIGKILL) to \p DumpPath: maps the state at the address it had, where
 *  its pointers are valid, and writes the dump as that process would have;
 *  instances still open end at the newest counter value in the state.
 *  Returns 0, or -1 after one error line on stderr (no such file, not a
 *  state file, another build's layout, the address taken). For lwp-recover;
 *  call it in a process that profiles nothing. */
int lwp_recover_state(const char *StateFile, const char *DumpPath);

/** Defined, as 1, by a tool that links the runtime for its code and is not
 *  to be profiled (lwp-recover): the runtime then installs no signal
 *  handler, enters no continuous mode and writes no dump of the tool at
 *  exit, whatever LWP_OUTPUT says. Weak: undefined (null) in programs. */
extern const int lwp_tool_not_profiled __attribute__((weak));

/*===----------------------------------------------------------------------===*
 * Files (lwp_host_file.c): every file the runtime creates, replaces or
 * removes, by the rules of docs/reliability.md ("Files"). Async-signal-safe.
 *===----------------------------------------------------------------------===*/

/** The folder of a file the runtime writes, opened once (O_PATH), and the
 *  file's name in it (a pointer into the path given). */
struct lwp_file_dir {
  int fd;           /**< the folder, or -1 */
  const char *base; /**< the last component of the path */
};

/** A file's identity (st_dev, st_ino), to remove only a file the runtime
 *  created itself. */
struct lwp_file_id {
  uint64_t dev, ino;
};

/** Bytes of a temporary's name: ".lwp-<pid>-<serial>.tmp" and its NUL. */
#define LWP_TEMP_NAME_SIZE 48

/** Opens the working directory the process has now as the base of every
 *  relative path the runtime writes later (chdir-safe). Called once at
 *  start-up; without it, relative paths resolve against the current
 *  directory. */
void lwp_file_init(void);

/** Opens the folder of \p Path (relative paths against the start-up
 *  directory; symbolic links among the folders are followed, the user named
 *  them) into \p Out. Returns 0, or -1 when the folder cannot be opened or
 *  \p Path ends in '/'. */
int lwp_file_open_dir(const char *Path, struct lwp_file_dir *Out);

/** Closes what lwp_file_open_dir opened. */
void lwp_file_close_dir(struct lwp_file_dir *Dir);

/** Why the final name of \p Dir must not be written: NULL when it does not
 *  exist or is a regular file (which a dump replaces), else a phrase ("is a
 *  symbolic link", "is a device", "is a FIFO", ...) for the message. */
const char *lwp_file_refusal(const struct lwp_file_dir *Dir);

/** Creates a new temporary file in \p Dir exclusively, never through a
 *  symbolic link (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0644), named into
 *  \p Name. Returns its descriptor (write-only), or -1. */
int lwp_file_create_temp(const struct lwp_file_dir *Dir,
                         char Name[LWP_TEMP_NAME_SIZE]);

/** Renames the temporary \p Temp of \p Dir over its final name. Returns 0
 *  or -1 (errno). */
int lwp_file_publish(const struct lwp_file_dir *Dir, const char *Temp);

/** Removes the runtime's own temporary \p Temp of \p Dir. */
void lwp_file_discard(const struct lwp_file_dir *Dir, const char *Temp);

/** Creates the final name of \p Dir exclusively (a continuous-mode state
 *  file), read-write, recording its identity in \p Id. Returns the
 *  descriptor, or -1 (errno EEXIST: a file of that name exists, perhaps the
 *  state of a process that ended without its dump: it is left alone). */
int lwp_file_create_state(const struct lwp_file_dir *Dir,
                          struct lwp_file_id *Id);

/** Removes the final name of \p Dir if it is still the regular file \p Id
 *  (the state file this process created), and nothing else. */
void lwp_file_remove_own(const struct lwp_file_dir *Dir,
                         const struct lwp_file_id *Id);

/*===----------------------------------------------------------------------===*
 * Between the runtime's parts
 *===----------------------------------------------------------------------===*/

/** Writes the dump to the expansion of \p Pattern (LWP_OUTPUT when null)
 *  (lwp_host.c). \p InSignal: called from a signal handler (the lock is only
 *  tried, messages go out through write(2)). Returns 0, or -1 after one line
 *  on stderr. */
int lwp_dump_impl(const char *Pattern, int InSignal);

/** Removes this process's continuous-mode state file, once a dump holds all
 *  it held (lwp_host.c; nothing when the mode is off). */
void lwp_remove_state(void);

/** True in a tool that links the runtime for its code (lwp_tool_not_profiled
 *  defined). */
int lwp_is_tool(void);

/*===----------------------------------------------------------------------===*
 * Signals (lwp_host_signals.c)
 *===----------------------------------------------------------------------===*/

/** Installs the runtime's handler for SIGABRT, SIGSEGV, SIGBUS, SIGILL,
 *  SIGFPE, SIGTERM and SIGINT, each that the program neither ignores nor
 *  handles itself, unless LWP_SIGNALS=0 or in a tool; the main thread gets
 *  an alternate signal stack (a stack overflow still writes the dump). The
 *  handler writes the dump once, then takes the program's action. */
void lwp_signals_install(void);

/** Marks the start of a dump whose temporary, while it exists, is \p Temp in
 *  \p Dir (both the dump's own, valid until lwp_signals_dump_end): a
 *  termination signal now waits for the dump; a fault removes the
 *  temporary. */
void lwp_signals_dump_begin(const struct lwp_file_dir *Dir, const char *Temp);

/** Marks the end of the dump. */
void lwp_signals_dump_end(void);

/** Acts on a termination signal that arrived during the dump just
 *  completed, as if it arrived now (the program's handler, or the default
 *  action, so that the exit status is the signal's). */
void lwp_signals_deliver_pending(void);

/** Closes the top frame of \p S at counter value \p Now (its instance ends
 *  then), counting it as unwound when \p Unwound. */
static inline __attribute__((always_inline)) void
lwp_close_top(struct lwp_thread_state *S, uint64_t Now, int Unwound) {
  struct lwp_frame *F = &S->stack[--S->depth];
  struct lwp_region_acc *A = &S->acc[F->id];
  uint64_t Incl = Now - F->start;
  A->self += Incl - F->child;
  A->children += F->children;
  A->unwound += (uint64_t)Unwound;
  if (--A->open == 0) {
    A->total += Incl;
    A->nested += F->nested;
    ++A->outer;
  }
  /* Its probes counted in its parent: a start and an end, or a start only
   * when it was left without its end probe. */
  uint64_t Probes = F->nested + 2 - (uint64_t)Unwound;
  if (S->depth) {
    struct lwp_frame *P = F - 1;
    P->child += Incl;
    P->nested += Probes;
    ++P->children;
  } else {
    S->top_cycles += Incl;
    ++S->top_instances;
    S->top_nested += F->nested;
  }
}

#endif /* LWP_HOST_INTERNAL_H */
