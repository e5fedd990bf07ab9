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
 * has one (lwp_host_core.c, lwp_get_core), so all copies share one registry
 * of modules, one set of thread states and one dump, with no exported symbol.
 *
 * The runtime is split by concern, as compiler-rt's profile runtime is, and
 * its files call one another in one direction only (docs/reliability.md,
 * "Layout"; utils/check-runtime-layering.py checks it); a lower file that
 * must act at a higher one's moment takes a registration (the dump's guard).
 * From the bottom:
 *   lwp_host_platform.c     counter, clock, messages, environment, the lock
 *   lwp_host_file.c         every file the runtime creates, replaces, removes
 *   lwp_host_sched.c        the time a thread waited for a CPU (the kernel's)
 *   lwp_host_continuous.c   the continuous-mode state file and its memory
 *   lwp_host_core.c         how copies find the process's core; entry points
 *   lwp_host_slow.c         the handlers' slow paths
 *   lwp_host_handler.c      the probe handlers
 *   lwp_host_threads.c      thread states and their retirement
 *   lwp_host_modules.c      module registration, images
 *   lwp_host_calibration.c  the probe costs, measured at start-up
 *   lwp_host_dump.c         the dump
 *   lwp_host_recover.c      the dump of a state file (lwp-recover)
 *   lwp_host_signals.c      the dump through fatal signals
 *   lwp_host.c              the core itself: start-up, fork, exit
 */
#ifndef LWP_HOST_INTERNAL_H
#define LWP_HOST_INTERNAL_H

#include "lwp/Runtime/DumpFormat.h"
#include "lwp/Runtime/MapFormat.h"

#include <pthread.h>
#include <stddef.h>
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

/** Nodes a thread's calling-context tree may hold at most (LWP_CCT_NODES
 *  in the environment at start-up; 1 keeps the root only): paths past it
 *  fold into the deepest node they have (LWP_NODE_FOLDED). 40 bytes a
 *  node, grown on demand (doubling from 64). */
#ifndef LWP_CCT_NODES
#define LWP_CCT_NODES 65536
#endif
/** Entries of a thread's cache of calling-context children (a power of
 *  two): (parent node, region ID) -> child node, 16 bytes each. */
#define LWP_CCT_CACHE 1024
/** Bit 31 of a frame's node word: its instance folded into that node (no
 *  node was left for its path); it adds nothing to any node's figures. */
#define LWP_CCT_FOLDED 0x80000000u

/** One node of a thread's calling-context tree, 40 bytes: the dump's node
 *  and the links of its children. */
struct lwp_cct_node {
  struct lwp_dump_node d; /**< id, parent, count, cycles, flags, folded */
  uint32_t first_child;   /**< index of its newest child, 0: none */
  uint32_t next_sibling;  /**< index of the next child of its parent */
};

/** One entry of a thread's child cache, 16 bytes: key (parent node << 32 |
 *  region ID; 0 empty, no child has ID 0) and the child's node. */
struct lwp_cct_cache_entry {
  uint64_t key;
  uint64_t node;
};

/** The probes whose handler cost is measured in place: one in 16 on each
 *  thread, every 16th (the others take out the running estimate,
 *  docs/report.md, "Overhead correction"). */
#define LWP_COST_SAMPLE_PERIOD 16u

/** One open instance on a thread's shadow stack, 56 bytes. */
struct lwp_frame {
  uint32_t id;       /**< region ID */
  uint32_t recorded; /**< 1: its start probe was recorded (the region's count
                          was within the cap), so its end probe is recorded
                          too while the buffer has room; 0: neither is */
  uint64_t start;    /**< compensated counter value at its start probe */
  uint64_t child;    /**< inclusive cycles of its closed direct children */
  uint64_t nested;   /**< probes (start and end) of instances closed inside
                          it */
  uint64_t children; /**< its closed direct children */
  uintptr_t sp;      /**< the caller's stack at the start probe (the
                          handler's frame address): a probe whose stack is
                          above it runs in a function that encloses the
                          instance's, so the instance was left without its
                          end probe (longjmp, exception) */
  uint32_t node;     /**< its calling-context node | LWP_CCT_FOLDED */
  uint32_t reserved; /**< 0 */
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
  uint64_t capacity;       /**< records the buffer holds */
  uint64_t dropped;        /**< records not stored by this thread */
  uint64_t thread_id;      /**< gettid() */
  struct lwp_frame *stack; /**< open instances, innermost last */
  uint32_t depth;          /**< frames on the stack */
  uint32_t stack_capacity; /**< frames the stack holds */
  uint64_t top_cycles;     /**< inclusive cycles of top-level instances */
  uint64_t top_instances;  /**< top-level instances */
  uint64_t top_nested;     /**< probes (start and end) inside them */
  /** Compensation (docs/report.md, "Overhead correction"): counter ticks
   *  the probes of this thread took, taken out of every value it hands out
   *  (a value is the counter less this); measured in place in one probe in
   *  16, the running estimates below for the others. */
  uint64_t overhead;
  uint64_t last;             /**< the last compensated value handed out (they
                                  never decrease) */
  uint32_t cost_start;       /**< estimate: ticks an unmeasured start probe
                                  takes (the measured windows' running mean plus
                                  unmeasured, lwp_account_measured) */
  uint32_t cost_end;         /**< the same for an end probe */
  uint32_t sample_period;    /**< one probe in this many is measured in place
                                  (lwp_probe_measured): LWP_COST_SAMPLE_PERIOD;
                                  1 (every probe) in the calibration; 0 (none)
                                  without compensation */
  uint32_t sample_countdown; /**< probes until the next measured one */
  uint32_t unused;      /**< 0 (keeps the layout lwp-recover's tests use) */
  uint32_t residual;    /**< ticks a measured probe takes outside the
                             window of its two counter reads
                             (lwp_probe_residual) */
  uint32_t edge;        /**< ticks between a probe's counter read and the
                             edge of the region it bounds (the start
                             handler's end, the end handler's call): start
                             values are read + edge, end values read - edge
                             (lwp_probe_edge) */
  int32_t unmeasured;   /**< ticks an unmeasured probe takes beyond a
                             measured one's window (lwp_probe_unmeasured;
                             negative: less, without the second read) */
  uint32_t debt_cap;    /**< ticks the clock may owe: what the estimates
                             took out beyond the time since the last value
                             (lwp_compensate); 16 probe pairs' estimates,
                             0 (give every excess back) in the calibration
                             and without compensation */
  uint32_t node_budget; /**< nodes the tree may hold (LWP_CCT_NODES) */
  /** The calling-context tree: node 0 the root, num_nodes in use of
   *  node_capacity (root_node alone when no array could be had). The
   *  handlers leave the root's count and cycles 0; the dump writes
   *  top_instances and top_cycles there. */
  struct lwp_cct_node *nodes;
  uint32_t num_nodes, node_capacity;
  struct lwp_thread_state *next; /**< registry list */
  /** Continuous mode: FNV-1a 64 of the fields above that change only when
   *  a table grows (acc, count_limit, records, capacity, thread_id, stack,
   *  stack_capacity, nodes, node_capacity, next), checked by lwp-recover. */
  uint64_t check;
  /** The tree's root while no node array could be allocated. */
  struct lwp_cct_node root_node;
  /** The cache of the tree's children (LWP_CCT_CACHE entries): it finds a
   *  child in one probe. lwp_cct_no_cache (never written) while the thread
   *  has none: no memory for it, or the thread ended. */
  struct lwp_cct_cache_entry *cct_cache;
  /** A measured end probe's first counter read, for its handler's measured
   *  variant (lwp_host_handler.c). */
  uint64_t measured_in;
  /** Time off the CPU (lwp_host_sched.c): a value more than gap ticks after
   *  the thread's last one makes lwp_compensate ask the kernel whether the
   *  thread was preempted since the last question (lwp_compensate_gap);
   *  LWP_GAP_NEVER: never (raw clocks, LWP_PREEMPTION=0, the calibration's
   *  start). */
  uint64_t gap;
  uint64_t gap_range;         /**< debt_cap + gap: one compare on the fast path
                                   (lwp_compensate) */
  uint64_t sched_raw;         /**< the counter at the last question */
  uint64_t sched_wall;        /**< CLOCK_MONOTONIC_RAW then, nanoseconds */
  uint64_t sched_cpu;         /**< the thread's CPU time then, nanoseconds */
  uint64_t sched_voluntary;   /**< its voluntary context switches then */
  uint64_t sched_involuntary; /**< its involuntary ones (preemptions) */
};

/** lwp_thread_state.gap that no gap between two probes reaches. */
#define LWP_GAP_NEVER (UINT64_C(1) << 62)

/** The cache of a thread without one: LWP_CCT_CACHE empty entries, never
 *  written (every lookup misses). */
extern struct lwp_cct_cache_entry lwp_cct_no_cache[LWP_CCT_CACHE];

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
 *  probes) at the thread's compensated clock now; for a start probe
 *  (\p IsStart), also an open instance of the same region at the same
 *  stack position and the frames above it. The handler takes its time out
 *  of the thread's clock, measured around the call. Returns the state, or
 *  null when the probe is to be dropped (ID 0, an unregistered slot, or no
 *  memory); it then counts the drop and takes the probe's time out itself.
 *  preserve_all, so that the handlers' fast paths need not save registers
 *  for this call. */
__attribute__((preserve_all)) struct lwp_thread_state *
lwp_probe_slow(struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp,
               int IsStart);

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

/** Defined, as 1, by a tool that links the runtime for its code and is not
 *  to be profiled (lwp-recover): the runtime then installs no signal
 *  handler, enters no continuous mode and writes no dump of the tool at
 *  exit, whatever LWP_OUTPUT says. Weak: undefined (null) in programs. */
extern const int lwp_tool_not_profiled __attribute__((weak));

/*===----------------------------------------------------------------------===*
 * Platform (lwp_host_platform.c)
 *===----------------------------------------------------------------------===*/

#if defined(__x86_64__)
#define LWP_HOST_TARGET LWP_TARGET_X86_64
#define LWP_HOST_COUNTER LWP_COUNTER_TSC
/** The cycle counter: rdtsc, not serialised (TSC ticks). */
static inline __attribute__((always_inline)) uint64_t lwp_read_counter(void) {
  uint32_t Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return ((uint64_t)Hi << 32) | Lo;
}
#elif defined(__aarch64__)
#define LWP_HOST_TARGET LWP_TARGET_AARCH64
#define LWP_HOST_COUNTER LWP_COUNTER_CNTVCT
/** The cycle counter: the virtual count, cntvct_el0 (ticks of cntfrq_el0). */
static inline __attribute__((always_inline)) uint64_t lwp_read_counter(void) {
  uint64_t V;
  __asm__ volatile("mrs %0, cntvct_el0" : "=r"(V));
  return V;
}
#else
#error "the host runtime supports x86-64 and AArch64"
#endif

/** The core's lock: the registry of threads, images and modules, and the
 *  dump. Used only in the copy that is the core. */
extern pthread_mutex_t lwp_lock;

/** True in a tool that links the runtime for its code (lwp_tool_not_profiled
 *  defined). */
int lwp_is_tool(void);

/** Remembers the clock and the counter at start-up, for
 *  lwp_counter_frequency. */
void lwp_platform_start(void);

/** CLOCK_MONOTONIC_RAW now, in nanoseconds (not moved by NTP). */
uint64_t lwp_monotonic_nanos(void);

/** Counter ticks per second. AArch64 says it; on x86-64 the TSC is measured
 *  against CLOCK_MONOTONIC_RAW from lwp_platform_start to now (at least
 *  10 ms), since these machines publish no TSC frequency. */
uint64_t lwp_counter_frequency(void);

/** lwp_counter_frequency measured over at least a millisecond (x86-64): for
 *  thresholds, not figures. */
uint64_t lwp_counter_frequency_rough(void);

/** Writes the strings of \p Parts (NULL-terminated) to stderr with write(2),
 *  which a signal handler may call. */
void lwp_say(const char *const *Parts);

/** lwp_say, the first time only for the cause \p Said (one flag per cause):
 *  a cause that recurs (each of 2000 threads out of state memory, say)
 *  gives one line. */
void lwp_say_once(int *Said, const char *const *Parts);

/** The unsigned value of environment variable \p Name in [\p Min, \p Max],
 *  else \p Default with one warning line. */
uint64_t lwp_parse_env(const char *Name, uint64_t Default, uint64_t Min,
                       uint64_t Max);

/** A phrase for the errno value \p Err, async-signal-safe (strerror is
 *  not): "no file descriptor left (EMFILE)", "no space left on the device
 *  (ENOSPC)", "the file size limit (ulimit -f, EFBIG)", ... */
const char *lwp_errno_text(int Err);

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

/** Bytes of a temporary's name: ".lwp-<16 hex digits>.tmp" and its NUL. */
#define LWP_TEMP_NAME_SIZE 32

/** A temporary file being written: unnamed (O_TMPFILE) until it is
 *  published, where the file system has it; else created under a random
 *  name. */
struct lwp_file_temp {
  int fd;                        /**< write-only, or -1 */
  uint64_t offset;               /**< bytes written so far */
  char name[LWP_TEMP_NAME_SIZE]; /**< its name in the folder while it has
                                      one, else empty */
};

/** Opens the working directory the process has now as the base of every
 *  relative path the runtime writes later (chdir-safe); when no descriptor
 *  is left for it (ulimit -n), its path is kept instead. Called once at
 *  start-up. */
void lwp_file_init(void);

/** Expands \p Pattern (LWP_OUTPUT) into \p Out (\p Size bytes): %p the
 *  process ID, %h the host name, %% a percent sign, %c nothing (continuous
 *  mode). A result that is empty or ends in '/' names a folder: "lwp.dump"
 *  is appended. With \p AppendPid and no %p, ".<pid>" is appended (a child
 *  of fork). Returns 0, or -1 when the result does not fit. */
int lwp_file_expand(const char *Pattern, char *Out, size_t Size, int AppendPid);

/** Opens the folder of \p Path (relative paths against the start-up
 *  directory; symbolic links among the folders are followed, the user named
 *  them) into \p Out. Returns 0, or -1 with errno (ENOENT, EMFILE, ...;
 *  EISDIR when \p Path ends in '/'). */
int lwp_file_open_dir(const char *Path, struct lwp_file_dir *Out);

/** Closes what lwp_file_open_dir opened. */
void lwp_file_close_dir(struct lwp_file_dir *Dir);

/** Why the final name of \p Dir must not be written: NULL when it does not
 *  exist or is a regular file (which a dump replaces), else a phrase ("is a
 *  symbolic link", "is a device", "is a FIFO", ...) for the message. */
const char *lwp_file_refusal(const struct lwp_file_dir *Dir);

/** Creates a new temporary file in \p Dir into \p T: unnamed (O_TMPFILE)
 *  where the file system and /proc allow it, else exclusively under a
 *  random name, never through a symbolic link (O_CREAT | O_EXCL |
 *  O_NOFOLLOW, mode 0644). Returns 0, or -1 with errno. */
int lwp_file_create_temp(const struct lwp_file_dir *Dir,
                         struct lwp_file_temp *T);

/** Writes \p Size bytes of \p Data at the end of \p T; never past the file
 *  size limit (RLIMIT_FSIZE: the write fails with EFBIG instead of raising
 *  SIGXFSZ, which would kill the program). Returns 0, or -1 with errno. A
 *  lwp_write_fn (lwp_dump_writer.h) with \p T as its context. */
int lwp_file_write(void *T, const void *Data, uint64_t Size);

/** Publishes \p T under the final name of \p Dir: fsync, a name (a random
 *  one, by linkat, for an unnamed temporary), then rename over the final
 *  name; with \p NoReplace the final name must not exist (renameat2
 *  RENAME_NOREPLACE, or link and unlink where the file system lacks it).
 *  Closes \p T. Returns 0, or -1 with errno (EEXIST: the final name exists
 *  and \p NoReplace); the temporary is then removed. */
int lwp_file_publish(const struct lwp_file_dir *Dir, struct lwp_file_temp *T,
                     int NoReplace);

/** Closes \p T and removes its name if it has one (the runtime's own
 *  temporary). */
void lwp_file_discard(const struct lwp_file_dir *Dir, struct lwp_file_temp *T);

/** Creates the final name of \p Dir exclusively (a continuous-mode state
 *  file), read-write, recording its identity in \p Id. Returns the
 *  descriptor, or -1 (errno EEXIST: a file of that name exists, perhaps the
 *  state of a process that ended without its dump: it is left alone). */
int lwp_file_create_state(const struct lwp_file_dir *Dir,
                          struct lwp_file_id *Id);

/** Allocates the bytes [\p From, \p To) of file \p Fd (fallocate), so that
 *  writes through a shared mapping of them never meet a full file system
 *  (SIGBUS); never past the file size limit (RLIMIT_FSIZE). Returns 0, or
 *  -1 with errno (ENOSPC, EFBIG, EOPNOTSUPP). */
int lwp_file_reserve(int Fd, uint64_t From, uint64_t To);

/** Removes the final name of \p Dir if it is still the regular file \p Id
 *  (the state file this process created), and nothing else. */
void lwp_file_remove_own(const struct lwp_file_dir *Dir,
                         const struct lwp_file_id *Id);

/*===----------------------------------------------------------------------===*
 * Time off the CPU (lwp_host_sched.c)
 *===----------------------------------------------------------------------===*/

/** 1: the time a thread waited for a CPU while preempted leaves its clock
 *  (the default); 0 with LWP_PREEMPTION=0 at start-up, and without
 *  compensation. */
extern int lwp_preemption;

/** Ticks between two values of a thread past which its probe asks the
 *  kernel (about 50 microseconds of the counter); LWP_GAP_NEVER until
 *  lwp_sched_start, and when lwp_preemption is 0. */
extern uint64_t lwp_gap_ticks;

/** Sets lwp_gap_ticks from the counter's frequency (measured over at least
 *  a millisecond since lwp_platform_start). */
void lwp_sched_start(void);

/** Starts \p S's questions: its gap (lwp_gap_ticks) and what the kernel
 *  says of the thread at raw counter value \p Raw. The calling thread must
 *  be \p S's. */
void lwp_sched_thread_init(struct lwp_thread_state *S, uint64_t Raw);

/** The ticks to take out of \p S's clock at raw counter value \p Raw: the
 *  time the thread waited for a CPU since the last question (wall-clock
 *  time less CPU time, CLOCK_MONOTONIC_RAW and CLOCK_THREAD_CPUTIME_ID), when
 *  the kernel counted a preemption and no voluntary switch since then
 *  (getrusage(RUSAGE_THREAD); a thread that blocked waited for something
 *  of its own, which is the program's time), at most \p Gap ticks; else 0.
 *  The next interval starts at \p Raw. */
uint64_t lwp_sched_waited(struct lwp_thread_state *S, uint64_t Raw,
                          uint64_t Gap);

/*===----------------------------------------------------------------------===*
 * The core (lwp_host_core.c)
 *===----------------------------------------------------------------------===*/

#define LWP_CORE_MAGIC 0x4350574cu /* "LWPC" */
/** Bumped whenever struct lwp_core or struct lwp_thread_state changes. */
#define LWP_CORE_ABI 4u

/** What every copy of the runtime calls in the one core (lwp_host.c defines
 *  the core's, and an ELF note locates it). */
struct lwp_core {
  uint32_t magic; /**< LWP_CORE_MAGIC */
  uint32_t abi;   /**< LWP_CORE_ABI */
  /** This thread's state (created when \p S is null), its figure table grown
   *  to cover \p Id when \p Id is a registered ID, its stack grown to hold
   *  one more frame. */
  struct lwp_thread_state *(*slow)(struct lwp_thread_state *S, uint32_t Id);
  void (*register_module)(void *Blob);
  int (*dump)(const char *Path);
  void (*reset)(void);
  uint64_t (*cap)(void);
};

/** The process's core: that of the first image in load order with a
 *  compatible "LWP" note (the executable's when it has the runtime). A
 *  shared object whose copy becomes the core is pinned (RTLD_NODELETE), so
 *  that dlclose never unmaps it. */
struct lwp_core *lwp_get_core(void);

struct dl_phdr_info;
/** The descriptor of the first ELF note of \p Info's image whose name is
 *  the 4 bytes \p Name (NUL included) and whose type is \p Type, from its
 *  PT_NOTE segments; NULL when there is none. \p DescSize gets its size
 *  (bytes). */
const uint8_t *lwp_find_image_note(const struct dl_phdr_info *Info,
                                   const char Name[4], uint32_t Type,
                                   uint32_t *DescSize);

/*===----------------------------------------------------------------------===*
 * Continuous mode (lwp_host_continuous.c)
 *===----------------------------------------------------------------------===*/

/** One image that registered modules (a copy of what dl_iterate_phdr gave). */
struct lwp_image_info {
  uint64_t LoadBias;
  char *Name;       /**< NUL-terminated */
  uint8_t *BuildId; /**< BuildIdSize bytes */
  uint32_t BuildIdSize;
};

#define LWP_STATE_MAGIC "LWPSTATE"
#define LWP_STATE_VERSION 3u
/** Where the state is mapped: far from where Linux puts executables
 *  (0x55..), libraries and mappings (0x7f..) on x86-64 and AArch64 (48-bit
 *  addresses). */
#define LWP_STATE_BASE ((uintptr_t)0x3a0000000000ull)

/** The head of a state file (and of its mapping), in its first 4096 bytes. */
struct lwp_state_header {
  char magic[8];       /**< LWP_STATE_MAGIC */
  uint32_t version;    /**< LWP_STATE_VERSION */
  uint32_t layout;     /**< LWP_STATE_LAYOUT of the runtime that wrote it */
  uint64_t base;       /**< the address the state is mapped at */
  uint64_t size;       /**< bytes of the mapping (the file grows to it) */
  uint64_t used;       /**< bytes allocated (bump allocator); the file has
                            at least these, allocated (fallocate) */
  uint64_t process_id; /**< the profiled process */
  uint64_t cap;        /**< LWP_CAP */
  struct lwp_thread_state *registry;
  struct lwp_image_info *images;
  struct lwp_dump_module *modules;
  uint32_t num_images, num_modules;
  uint32_t next_id, pair_cost, nested_cost;
  uint32_t lost_threads; /**< a thread got no state (LWP_DUMP_FLAG_LOST) */
  uint32_t compensated;  /**< the threads' clocks are compensated
                              (lwp_compensation) */
  /** FNV-1a 64 of the fields above (but `used`) and of the image table,
   *  its names and build IDs, and the module table: set under the lock
   *  whenever one changes, checked by lwp-recover. */
  uint64_t checksum;
};

/** A state written by another build of the runtime is refused. */
#define LWP_STATE_LAYOUT                                                       \
  ((uint32_t)(sizeof(struct lwp_thread_state) |                                \
              sizeof(struct lwp_region_acc) << 8 |                             \
              sizeof(struct lwp_frame) << 16 |                                 \
              sizeof(struct lwp_image_info) << 24))

/** \p Size zeroed bytes (16-byte aligned) for the profile state: from the
 *  state file in continuous mode (allocated on disk first; NULL when the
 *  file system or the file size limit has no room), else calloc. */
void *lwp_state_alloc(size_t Size);

/** Frees what lwp_state_alloc gave (nothing for memory of the state file,
 *  which is never reused). */
void lwp_state_free(void *P);

/** Grows \p Old (\p OldSize bytes) to \p NewSize bytes, as realloc. */
void *lwp_state_grow(void *Old, size_t OldSize, size_t NewSize);

/** True in continuous mode. */
int lwp_state_active(void);

/** Enters continuous mode when \p Pattern (LWP_OUTPUT) has %c: creates
 *  "<dump>.state" exclusively, allocates its first pages and maps it at
 *  LWP_STATE_BASE. When it cannot (a file of that name, no room, the file
 *  size limit, the address taken), one line on stderr, and the program runs
 *  on without it (the dump is written at exit). */
void lwp_state_enter(const char *Pattern);

/** Mirror the core's globals into the state header and update its
 *  checksum, in continuous mode: the thread registry (lwp_host_threads.c),
 *  the images, modules and next ID (lwp_host_modules.c), and the figures of
 *  the run (LWP_CAP and the calibrated costs, lwp_host.c). Called with
 *  lwp_lock held whenever one changes. */
void lwp_state_persist_registry(struct lwp_thread_state *Registry);
void lwp_state_persist_modules(struct lwp_image_info *Images,
                               uint32_t NumImages,
                               struct lwp_dump_module *Modules,
                               uint32_t NumModules, uint32_t NextId);
void lwp_state_persist_run(uint64_t Cap, uint32_t PairCost, uint32_t NestedCost,
                           int Compensated);

/** Seals the fields of \p S that change only when a table grows (its
 *  `check`), in continuous mode; called after each such change. */
void lwp_state_seal_thread(struct lwp_thread_state *S);

/** Tells the state file that a thread got no state, so that a recovered
 *  dump says its counts are incomplete. */
void lwp_state_note_lost_thread(void);

/** Removes this process's state file once a dump holds all it held
 *  (nothing when the mode is off). */
void lwp_remove_state(void);

/** fork() in continuous mode, in the parent before the fork (lwp_lock
 *  held): keeps a private copy of the forking thread's state \p S (its
 *  fields, figure table, stack and calling-context tree; not its records),
 *  a few kilobytes to a few megabytes. */
void lwp_state_fork_prepare(struct lwp_thread_state *S);
/** In the parent after the fork: frees that copy. */
void lwp_state_fork_parent(void);
/** In the child: the shared mapping becomes a private one of the same file
 *  (no page copied now: each is copied when first written), the forking
 *  thread's state is put back as it was at the fork, and the child leaves
 *  continuous mode (its profile goes to its own dump at exit). */
void lwp_state_fork_child(struct lwp_thread_state *S);

/** Maps the state file \p File at the address it had (privately) and
 *  checks it: magic, version, layout, checksum, and that every pointer,
 *  count and list lies inside its used part. Returns the mapped header, or
 *  NULL after one line on stderr (prefix \p Tool). For lwp-recover. */
const struct lwp_state_header *lwp_state_map(const char *File,
                                             const char *Tool);

/*===----------------------------------------------------------------------===*
 * Thread states (lwp_host_threads.c)
 *===----------------------------------------------------------------------===*/

/** Every thread state, newest first (the registry; lwp_lock). */
extern struct lwp_thread_state *lwp_registry;
/** The state of the threads whose own state could not be allocated: it
 *  counts nothing and drops every probe; its drops go into the dump, which
 *  then says that counts are incomplete (LWP_DUMP_FLAG_LOST). */
extern struct lwp_thread_state lwp_fallback_state;
/** Threads that ended: their figures, folded into one table indexed by
 *  region ID (lwp_retired_limit + 1 entries, or NULL). */
extern struct lwp_dump_region *lwp_retired_acc;
extern uint32_t lwp_retired_limit;
/** Records of a thread's buffer (LWP_BUFFER_RECORDS). */
extern uint64_t lwp_buffer_records;
/** Set while the calibration runs: IDs 1 and 2 are then valid before any
 *  module registered. */
extern int lwp_calibrating;

/** Nodes a new thread's calling-context tree may hold (LWP_CCT_NODES,
 *  read at start-up). */
extern uint32_t lwp_cct_budget;
/** 1: the threads' clocks are compensated (the default); 0 with
 *  LWP_COMPENSATE=0 at start-up: raw counter values, and the dump's
 *  calibrated costs are those of the old model, the report's to subtract
 *  (docs/report.md, "Overhead correction"). */
extern int lwp_compensation;

/** Sets up the retirement of ending threads (a pthread key). */
void lwp_threads_init(void);

/** Starts \p S's compensated clock from the calibrated costs: its
 *  estimates, residual and sampling period. */
void lwp_thread_clock_init(struct lwp_thread_state *S);

/** This thread's state (\p S, else the thread's, else a new one), its
 *  figure table grown to cover \p Id when \p Id is registered, its stack
 *  grown to hold one more frame. Never NULL (lwp_fallback_state). */
struct lwp_thread_state *lwp_thread_state_for(struct lwp_thread_state *S,
                                              uint32_t Id);

/** Adds a thread's figures \p A (IDs 1 .. \p Limit) to the table \p R of
 *  \p N entries (the dump's region table, or lwp_retired_acc). */
void lwp_add_figures(struct lwp_dump_region *R, uint32_t N,
                     const struct lwp_region_acc *A, uint32_t Limit);

/** Forgets every thread's figures and records (lwp_reset); the instances
 *  open now stay open. */
void lwp_threads_reset(void);

/** In a child of fork(): keeps the forking thread's state \p S only, from
 *  zero counts, with the child's thread ID. */
void lwp_threads_fork_child(struct lwp_thread_state *S);

/*===----------------------------------------------------------------------===*
 * Modules and images (lwp_host_modules.c)
 *===----------------------------------------------------------------------===*/

/** Images that registered modules, their modules, and the next program-wide
 *  ID (IDs 1 and 2 serve the calibration until the first module
 *  registers). Under lwp_lock. */
extern struct lwp_image_info *lwp_images;
extern uint32_t lwp_num_images;
extern struct lwp_dump_module *lwp_modules;
extern uint32_t lwp_num_modules;
extern uint32_t lwp_next_id;

/** Index of the image that contains \p Address in lwp_images, adding it.
 *  UINT32_MAX when there is no such image or no memory. lwp_lock held. */
uint32_t lwp_image_of(const void *Address);

/** Registers the map blob \p Blob of a module (lwp/Runtime/MapFormat.h):
 *  its slots get program-wide IDs. A blob of another version is ignored with
 *  one line. */
void lwp_modules_register(void *Blob);

/*===----------------------------------------------------------------------===*
 * Calibration (lwp_host_calibration.c)
 *===----------------------------------------------------------------------===*/

/** Without compensation (LWP_COMPENSATE=0): counter ticks of an empty
 *  probe pair and what a nested pair adds to its parent, for the report to
 *  subtract (docs/report.md, "Overhead correction"); 0 in a compensated
 *  run, which leaves nothing to subtract. */
extern uint32_t lwp_probe_pair_cost, lwp_probe_nested_cost;
/** Counter ticks a measured probe takes outside the window between its
 *  handler's two counter reads (the call, the registers saved and
 *  restored, the return), calibrated at start-up: added to each measured
 *  window (each thread state keeps a copy). */
extern uint32_t lwp_probe_residual;
/** Counter ticks an unmeasured probe takes beyond the mean window of a
 *  measured one (its whole cost, which lacks the second read, less that
 *  window; may be negative), calibrated at start-up: added to every window
 *  the running estimates average. */
extern int32_t lwp_probe_unmeasured;
/** Counter ticks between a probe's counter read and the edge of its region:
 *  half of what an empty region holds between the start handler's read and
 *  the end handler's, calibrated at start-up. */
extern uint32_t lwp_probe_edge;
/** What an unmeasured start and end probe cost (ticks), where a new
 *  thread's running estimates start, calibrated at start-up. */
extern uint32_t lwp_probe_start_cost, lwp_probe_end_cost;

/** Measures both at start-up with the runtime's two calibration slots. */
void lwp_calibrate(void);

/*===----------------------------------------------------------------------===*
 * The dump (lwp_host_dump.c)
 *===----------------------------------------------------------------------===*/

enum {
  LWP_DUMP_IN_SIGNAL = 1,  /**< from a signal handler: the lock is only
                                tried */
  LWP_DUMP_LITERAL = 2,    /**< the path is a name, not a pattern */
  LWP_DUMP_NO_REPLACE = 4, /**< an existing file of the name is kept */
};

/** What a higher part does around a dump (the signal handling, which must
 *  know that a dump is under way), registered with lwp_dump_set_guard. */
struct lwp_dump_guard {
  /** The dump starts; its temporary, while it has a name, is \p Temp in
   *  \p Dir (both valid until end). */
  void (*begin)(const struct lwp_file_dir *Dir,
                const struct lwp_file_temp *Temp);
  /** The dump is over. */
  void (*end)(void);
  /** After the dump, outside a signal handler: acts on a signal that
   *  arrived during it. */
  void (*after)(void);
};

/** Registers \p Guard (static storage) for every later dump. */
void lwp_dump_set_guard(const struct lwp_dump_guard *Guard);

/** Set in a child of fork(): its dump goes to a path of its own. */
extern int lwp_dump_forked;
/** Set by lwp-recover: the dead process's ID, the counter value its open
 *  instances are closed at, and whether a thread had no state (0: this
 *  process, now). */
extern uint64_t lwp_dump_process_id, lwp_dump_now;
extern uint32_t lwp_dump_lost;

/** Writes the dump to the expansion of \p Pattern (LWP_OUTPUT when null;
 *  taken as it is with LWP_DUMP_LITERAL). \p Flags: LWP_DUMP_*. Returns 0,
 *  or -1 after one line on stderr naming the cause. */
int lwp_dump_impl(const char *Pattern, unsigned Flags);

/*===----------------------------------------------------------------------===*
 * Recovery (lwp_host_recover.c) and signals (lwp_host_signals.c)
 *===----------------------------------------------------------------------===*/

/** Writes the dump of a continuous-mode state file (LWP_OUTPUT with %c,
 *  docs/user-guide.md) that its process left without one (it ended by _exit
 *  or SIGKILL) to \p DumpPath (a name, not a pattern): maps the state at the
 *  address it had, where its pointers are valid, and writes the dump as
 *  that process would have; instances still open end at the newest counter
 *  value in the state. With \p NoReplace an existing file at \p DumpPath is
 *  kept. Returns 0, or -1 after one error line on stderr (no such file, not
 *  a regular file, not a state file, another build's layout, damaged, the
 *  address taken, the dump exists). For lwp-recover; call it in a process
 *  that profiles nothing. */
int lwp_recover_state(const char *StateFile, const char *DumpPath,
                      int NoReplace);

/** Installs the runtime's handler for the signals whose default action ends
 *  the process (SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTERM, SIGINT,
 *  SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ),
 *  each that the program neither ignores nor handles itself, unless
 *  LWP_SIGNALS=0 or in a tool; the main thread gets an alternate signal
 *  stack (a stack overflow still writes the dump). The handler writes the
 *  dump once, then takes the program's action. */
void lwp_signals_install(void);

/** lwp_compensate when \p Raw, less the overhead, lies more than \p S's
 *  gap ticks after the last value: asks the kernel whether the thread
 *  was preempted since the last question and, if so, takes the time it
 *  waited for a CPU, at most this gap, out of the clock before the value
 *  (lwp_host_sched.c); the question's own time leaves the clock after it.
 *  Returns the value. The handlers' slow path (lwp_host_slow.c). */
__attribute__((preserve_all)) uint64_t
lwp_compensate_gap(struct lwp_thread_state *S, uint64_t Raw);

/** The compensated value of raw counter value \p Raw on \p S's thread:
 *  \p Raw less the probes' time so far, never below the last value handed
 *  out. When the estimates took out more than the time since that value,
 *  the clock stands still and the excess stays owed: later values pay it
 *  back out of the time after, so that an estimate's error averages out
 *  instead of counting only when it is too low. What is owed beyond
 *  \p S's debt_cap ticks (a long run of overestimates) is given back (the
 *  thread's overhead is lowered), so that the clock cannot stand still
 *  for long. A gap of more than \p S's gap ticks since the last value
 *  (lwp_compensate_gap) loses the time the thread was preempted. */
static inline __attribute__((always_inline)) uint64_t
lwp_compensate(struct lwp_thread_state *S, uint64_t Raw) {
  uint64_t V = Raw - S->overhead, Last = S->last;
  int64_t Owed = (int64_t)(Last - V);
  /* One compare for both rare cases: owed beyond the cap (Owed > debt_cap)
   * or a gap longer than S->gap (Owed < -gap, which wraps). A branch: the
   * overhead then depends on the counter only on these paths, so the next
   * probe's value does not wait for this one's counter read (branch-free,
   * a probe pair cost 3 ticks more). */
  if (__builtin_expect((uint64_t)Owed + S->gap > S->gap_range, 0)) {
    if (Owed < 0)
      return lwp_compensate_gap(S, Raw);
    /* Beyond the cap, the excess is given back. */
    S->overhead -= (uint64_t)(Owed - (int64_t)S->debt_cap);
  }
  /* Owing is not rare (back-to-back probes owe half the time): a select. */
  V = Owed > 0 ? Last : V;
  S->last = V;
  return V;
}

/** Sets \p S's debt cap to \p Cap ticks (lwp_compensate). */
static inline void lwp_set_debt_cap(struct lwp_thread_state *S, uint32_t Cap) {
  S->debt_cap = Cap;
  S->gap_range = Cap + S->gap;
}

/** True when \p S's clock is compensated: some probes are measured in
 *  place (not without compensation, LWP_COMPENSATE=0, nor in the
 *  calibration's loop of unmeasured probes). */
static inline __attribute__((always_inline)) int
lwp_clock_compensated(const struct lwp_thread_state *S) {
  return S->sample_period != 0;
}

/** Measures one probe in \p Period on \p S's thread from now on (0: none),
 *  the \p Period-th probe first. */
static inline void lwp_sample_every(struct lwp_thread_state *S,
                                    uint32_t Period) {
  S->sample_period = Period;
  S->sample_countdown = Period ? Period : UINT32_MAX;
}

/** True when this probe of \p S's thread is measured in place: every
 *  sample_period-th (a countdown: one decrement on the fast path). */
static inline __attribute__((always_inline)) int
lwp_probe_measured(struct lwp_thread_state *S) {
  if (__builtin_expect(--S->sample_countdown != 0, 1))
    return 0;
  lwp_sample_every(S, S->sample_period);
  return S->sample_period != 0;
}

/** Takes a measured probe's own time out of \p S's clock: its \p Window
 *  (the ticks between its handler's two counter reads) and the residual
 *  (what lies outside them: call, return, saved registers), and moves the
 *  running estimate \p *Cost of an unmeasured probe 1/8 of the way to the
 *  window plus what an unmeasured probe takes beyond it. A window above 16
 *  times the estimate (a page fault, a preemption) is taken out once,
 *  exactly, and not averaged in. */
static inline __attribute__((always_inline)) void
lwp_account_measured(struct lwp_thread_state *S, uint64_t Window,
                     uint32_t *Cost) {
  S->overhead += Window + S->residual;
  if (Window < 16ull * *Cost + 256) {
    int64_t Target = (int64_t)Window + S->unmeasured;
    int64_t Diff = (Target < 0 ? 0 : Target) - (int64_t)*Cost;
    *Cost = (uint32_t)((int64_t)*Cost + (Diff + (Diff < 0 ? -4 : 4)) / 8);
  }
}

/** The child of calling-context node word \p Parent (LWP_CCT_FOLDED set:
 *  a folded instance's) for region \p Id on \p S: found in the tree (and
 *  cached), created, or, with no node left, \p Parent itself with
 *  LWP_CCT_FOLDED (the node is flagged). The handlers' slow path of the
 *  tree (lwp_host_slow.c). */
__attribute__((preserve_all)) uint32_t
lwp_cct_child_slow(struct lwp_thread_state *S, uint32_t Parent, uint32_t Id);

/** The entry of \p S's child cache for key \p Key (parent node << 32 |
 *  region ID): a multiplicative hash (Fibonacci hashing). */
static inline __attribute__((always_inline)) struct lwp_cct_cache_entry *
lwp_cct_cache_slot(struct lwp_thread_state *S, uint64_t Key) {
  return &S->cct_cache[(uint32_t)(Key * 0x9e3779b97f4a7c15ull >> 40) &
                       (LWP_CCT_CACHE - 1)];
}

/** The child node word of \p Parent for region \p Id, from the cache
 *  when it holds it (the instance is counted there when it closes). */
static inline __attribute__((always_inline)) uint32_t
lwp_cct_enter(struct lwp_thread_state *S, uint32_t Parent, uint32_t Id) {
  uint64_t Key = (uint64_t)Parent << 32 | Id;
  struct lwp_cct_cache_entry *E = lwp_cct_cache_slot(S, Key);
  if (__builtin_expect(E->key == Key, 1))
    return (uint32_t)E->node;
  return lwp_cct_child_slow(S, Parent, Id);
}

/** Closes the top frame of \p S at compensated counter value \p Now (its
 *  instance ends then), counting it as unwound when \p Unwound. */
static inline __attribute__((always_inline)) void
lwp_close_top(struct lwp_thread_state *S, uint64_t Now, int Unwound) {
  struct lwp_frame *F = &S->stack[--S->depth];
  struct lwp_region_acc *A = &S->acc[F->id];
  uint64_t Incl = Now - F->start;
  if (__builtin_expect(!(F->node & LWP_CCT_FOLDED), 1)) {
    struct lwp_dump_node *N = &S->nodes[F->node].d;
    N->cycles += Incl;
    ++N->count;
  }
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
    /* The root node's figures are these (top_cycles, top_instances): the
     * dump writes them there. */
  }
}

#endif /* LWP_HOST_INTERNAL_H */
