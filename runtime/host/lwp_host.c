/*===- lwp_host.c - Host runtime: core, modules, threads, dump ------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Everything of the host runtime but the handlers:
 *   - the core (one per process, shared by every copy of the runtime that the
 *     executable and the shared objects carry; see lwp_host_internal.h);
 *   - module registration (__lwp_register_module): every instrumented module
 *     registers its map blob from a constructor; its slots get program-wide
 *     IDs and the module is remembered with its image (path, load bias, GNU
 *     build ID), so that the dump names it even after dlclose;
 *   - per-thread state, start-up (environment, probe-pair calibration,
 *     counter frequency), fork (the child starts from zero), and lwp_dump /
 *     lwp_reset / the dump at exit, written to a temporary name and renamed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include "../common/lwp_dump_writer.h"
#include "lwp/Runtime/lwp_runtime.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread struct lwp_thread_state *lwp_tls_state
    __attribute__((tls_model("initial-exec")));
uint64_t lwp_cap = LWP_CAP;

/* Start/end probe handlers (lwp_host_handler.c). */
__attribute__((preserve_all)) void __lwp_probe_start(const struct lwp_slot *);
__attribute__((preserve_all)) void __lwp_probe_end(const struct lwp_slot *);

/*===----------------------------------------------------------------------===*
 * The core and how copies find it
 *===----------------------------------------------------------------------===*/

#define LWP_CORE_MAGIC 0x4350574cu /* "LWPC" */
/** Bumped whenever struct lwp_core or struct lwp_thread_state changes. */
#define LWP_CORE_ABI 2u

/** What every copy of the runtime calls in the one core. */
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

static struct lwp_core *Core;

struct CoreSearch {
  struct lwp_core *Found;
};

/** The descriptor of the first ELF note of \p Info's image whose name is
 *  the 4 bytes \p Name (NUL included) and whose type is \p Type, from its
 *  PT_NOTE segments; NULL when there is none. \p DescSize gets its size. */
static const uint8_t *findImageNote(const struct dl_phdr_info *Info,
                                    const char Name[4], uint32_t Type,
                                    uint32_t *DescSize) {
  for (int I = 0; I != Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) *P = &Info->dlpi_phdr[I];
    if (P->p_type != PT_NOTE)
      continue;
    const uint8_t *Note = (const uint8_t *)(Info->dlpi_addr + P->p_vaddr);
    const uint8_t *End = Note + P->p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const ElfW(Nhdr) *H = (const ElfW(Nhdr) *)Note;
      const uint8_t *NameP = Note + sizeof(*H);
      const uint8_t *Desc = NameP + ((H->n_namesz + 3) & ~3u);
      if (Desc > End || Desc + H->n_descsz > End)
        break;
      if (H->n_type == Type && H->n_namesz == 4 &&
          memcmp(NameP, Name, 4) == 0) {
        *DescSize = H->n_descsz;
        return Desc;
      }
      Note = Desc + ((H->n_descsz + 3) & ~3u);
    }
  }
  return NULL;
}

static int findCoreInImage(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  struct CoreSearch *Search = Data;
  uint32_t DescSize;
  const uint8_t *Desc = findImageNote(Info, "LWP", 1, &DescSize);
  if (!Desc || DescSize != 4)
    return 0;
  int32_t Offset;
  memcpy(&Offset, Desc, 4);
  struct lwp_core *C = (struct lwp_core *)(Desc + Offset);
  if (C->magic != LWP_CORE_MAGIC || C->abi != LWP_CORE_ABI)
    return 0;
  Search->Found = C;
  return 1;
}

/** The process's core: that of the first image in load order with a
 *  compatible note (the executable's when it has the runtime). A shared
 *  object whose copy becomes the core is pinned (RTLD_NODELETE), so that
 *  dlclose never unmaps the core. */
static struct lwp_core *getCore(void) {
  struct lwp_core *C = __atomic_load_n(&Core, __ATOMIC_ACQUIRE);
  if (C)
    return C;
  struct CoreSearch Search = {NULL};
  dl_iterate_phdr(findCoreInImage, &Search);
  C = Search.Found ? Search.Found : &lwp_own_core;
  if (C == &lwp_own_core) {
    Dl_info Info;
    if (dladdr(&lwp_own_core, &Info) && Info.dli_fname && *Info.dli_fname)
      dlopen(Info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  }
  lwp_cap = C->cap();
  __atomic_store_n(&Core, C, __ATOMIC_RELEASE);
  return C;
}

/* The shadow stack's rules (runtime/common/lwp_figures.h, shared with the
 * Hexagon replay) over a thread's frames: frame K is stack[K - 1], its
 * region its ID. */
#define LWP_FIG_STATE struct lwp_thread_state
static inline uint32_t lwp_fig_depth(struct lwp_thread_state *S) {
  return S->depth;
}
static inline uintptr_t lwp_fig_frame_sp(struct lwp_thread_state *S,
                                         uint32_t K) {
  return S->stack[K - 1].sp;
}
static inline uintptr_t lwp_fig_frame_region(struct lwp_thread_state *S,
                                             uint32_t K) {
  return S->stack[K - 1].id;
}
static inline void lwp_fig_close_top(struct lwp_thread_state *S, uint64_t Now,
                                     int Unwound) {
  lwp_close_top(S, Now, Unwound);
}
#include "../common/lwp_figures.h"

/* The entry points every copy exports call the core. */

__attribute__((preserve_all)) struct lwp_thread_state *
lwp_probe_slow(struct lwp_thread_state *S, uint32_t Id, uintptr_t Sp,
               uint64_t Now, int IsStart) {
  S = getCore()->slow(S, Id);
  if (!S)
    return NULL;
  lwp_tls_state = S;
  /* Frames below the probe's stack position belong to functions that were
   * left without their end probes: close them now. */
  lwp_fig_close_stale(S, Sp, Now);
  if (Id - 1u >= S->count_limit) {
    ++S->dropped;
    if (Id)
      S->lost = 1; /* a registered region: no memory for the figures */
    return NULL;
  }
  /* A region cannot run inside itself at the same stack position (recursion
   * needs a new stack frame): an open instance of this region there was left
   * without its end probe (a longjmp back into its caller), and so was
   * everything above it. */
  if (IsStart && S->acc[Id].open)
    lwp_fig_close_reentered(S, Id, Sp, Now);
  if (S->depth == S->stack_capacity) {
    /* No memory for a deeper stack: the execution is still counted; its
     * cycles are not (its end finds no open instance). */
    if (IsStart)
      ++S->acc[Id].count;
    ++S->dropped;
    S->lost = 1;
    return NULL;
  }
  return S;
}

__attribute__((preserve_all)) uint32_t lwp_end_slow(struct lwp_thread_state *S,
                                                    uint32_t Id, uint64_t Now,
                                                    uintptr_t Sp) {
  /* Frames of functions left without their end probes. */
  lwp_fig_close_stale(S, Sp, Now);
  if (!S->acc[Id].open)
    return 0; /* an end without its start: not accounted */
  return lwp_fig_close_end(S, Id, Now);
}

__attribute__((preserve_all)) void lwp_resume_slow(struct lwp_thread_state *S,
                                                   uint32_t Id, uint64_t Now,
                                                   uintptr_t Sp,
                                                   uint64_t Site) {
  /* Instances of the functions the non-local exit left, and those of the
   * resuming function that do not enclose the point. */
  if (!lwp_fig_resume(S, Id, Sp, Now))
    return;
  /* The resume record is a probe inside the instance it resumes in. */
  if (S->depth)
    ++S->stack[S->depth - 1].nested;
  uint64_t N = S->num_records;
  if (N >= S->capacity) {
    ++S->dropped;
    return;
  }
  struct lwp_record64 *R = &S->records[N];
  S->num_records = N + 1;
  R->site = Site;
  R->id_word = 0;
  R->depth = S->depth;
  R->cycles = Now;
}

__attribute__((visibility("default"))) void __lwp_register_module(void *Blob) {
  getCore()->register_module(Blob);
}

int lwp_dump(const char *Path) { return getCore()->dump(Path); }

void lwp_reset(void) { getCore()->reset(); }

/*===----------------------------------------------------------------------===*
 * Core state (used only in the copy that is the core)
 *===----------------------------------------------------------------------===*/

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static struct lwp_thread_state *Registry;
static uint64_t BufferRecords = LWP_BUFFER_RECORDS;
static uint32_t ProbePairCost, ProbeNestedCost;
static uint64_t StartTicks, StartNanos;
/** Next program-wide ID; IDs 1 and 2 serve the calibration until the first
 *  module registers. */
static uint32_t NextId = 1;
static int Calibrating;
/** Set in a child of fork(): its dump goes to a path of its own. */
static int Forked;

/** One image that registered modules (a copy of what dl_iterate_phdr gave). */
struct ImageInfo {
  uint64_t LoadBias;
  char *Name;
  uint8_t *BuildId;
  uint32_t BuildIdSize;
};

static struct ImageInfo *Images;
static uint32_t NumImages, ImagesCapacity;
static struct lwp_dump_module *Modules;
static uint32_t NumModules, ModulesCapacity;

#if defined(__x86_64__)
#define LWP_HOST_TARGET LWP_TARGET_X86_64
#define LWP_HOST_COUNTER LWP_COUNTER_TSC
static uint64_t readCounter(void) {
  uint32_t Lo, Hi;
  __asm__ volatile("rdtsc" : "=a"(Lo), "=d"(Hi));
  return ((uint64_t)Hi << 32) | Lo;
}
#elif defined(__aarch64__)
#define LWP_HOST_TARGET LWP_TARGET_AARCH64
#define LWP_HOST_COUNTER LWP_COUNTER_CNTVCT
static uint64_t readCounter(void) {
  uint64_t V;
  __asm__ volatile("mrs %0, cntvct_el0" : "=r"(V));
  return V;
}
#endif

static uint64_t monotonicNanos(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC_RAW, &T);
  return (uint64_t)T.tv_sec * 1000000000u + (uint64_t)T.tv_nsec;
}

static void ensureInit(void);

static void *stateAlloc(size_t Size);
static void stateFree(void *P);
static void *stateGrow(void *Old, size_t OldSize, size_t NewSize);
static void persistState(void);
static void reserveArena(void);
static void say(const char *const *Parts);

/** Grows \p S's figure table to cover IDs below \p Limit + 1 (doubling).
 *  The old table is not freed: lwp_dump may be reading it on another
 *  thread. */
static void growFigures(struct lwp_thread_state *S, uint32_t Limit) {
  uint64_t New = S->count_limit ? S->count_limit : 64;
  while (New < Limit)
    New *= 2;
  if (New > UINT32_MAX / 2)
    New = UINT32_MAX / 2;
  struct lwp_region_acc *Acc = stateAlloc((New + 1) * sizeof(*Acc));
  if (!Acc)
    return;
  if (S->acc)
    memcpy(Acc, S->acc, (S->count_limit + 1) * sizeof(*Acc));
  __atomic_store_n(&S->acc, Acc, __ATOMIC_RELEASE);
  __atomic_store_n(&S->count_limit, (uint32_t)New, __ATOMIC_RELEASE);
}

/** Grows \p S's stack (doubling, from 256 frames). The old stack is not
 *  freed: lwp_dump may be reading it on another thread. */
static void growStack(struct lwp_thread_state *S) {
  uint64_t New = S->stack_capacity ? 2 * (uint64_t)S->stack_capacity : 256;
  if (New > UINT32_MAX)
    return;
  struct lwp_frame *Stack = stateAlloc(New * sizeof(*Stack));
  if (!Stack)
    return;
  if (S->stack)
    memcpy(Stack, S->stack, S->depth * sizeof(*Stack));
  __atomic_store_n(&S->stack, Stack, __ATOMIC_RELEASE);
  __atomic_store_n(&S->stack_capacity, (uint32_t)New, __ATOMIC_RELEASE);
}

/** A new thread state, registered. Never fails: without memory for the
 *  records the thread only counts; without any memory it gets a static state
 *  that drops everything. */
/** The state of the threads whose own state could not be allocated: it
 *  counts nothing and drops every probe; its drops go into the dump, which
 *  then says that counts are incomplete (LWP_DUMP_FLAG_LOST). */
static struct lwp_thread_state Fallback;
static void persistLostThread(void);

static struct lwp_thread_state *newThreadState(void) {
  struct lwp_thread_state *S = stateAlloc(sizeof(*S));
  if (!S) {
    static int Said;
    if (!__atomic_exchange_n(&Said, 1, __ATOMIC_RELAXED))
      fprintf(stderr, "lwp: out of memory for a thread's profile state; "
                      "the probes of such threads are dropped and the dump "
                      "says its counts are incomplete\n");
    Fallback.lost = 1;
    persistLostThread();
    return &Fallback;
  }
  S->records = stateAlloc(BufferRecords * sizeof(struct lwp_record64));
  if (S->records) {
    S->capacity = BufferRecords;
    /* Touch the first pages now, so that the first recorded probes do not
     * pay page faults (about 45 ticks a pair here; the "cold pages" row of
     * docs/performance.md's table measures a fresh buffer past them). */
    uint64_t Touch = BufferRecords < 16384 ? BufferRecords : 16384;
    memset(S->records, 0, Touch * sizeof(struct lwp_record64));
  } else if (BufferRecords) {
    fprintf(stderr,
            "lwp: out of memory for a thread's record buffer (%llu "
            "records); this thread's regions are counted only\n",
            (unsigned long long)BufferRecords);
  }
  S->thread_id = (uint64_t)syscall(SYS_gettid);
  pthread_mutex_lock(&Lock);
  S->next = Registry;
  Registry = S;
  persistState();
  pthread_mutex_unlock(&Lock);
  return S;
}

/** coreSlow without the start-up (which calls it for the calibration). */
/* Threads that ended: their figures, folded into one table (indexed by
 * region ID, RetiredLimit + 1 entries), so that a program that starts many
 * short-lived threads holds memory for the live ones only (issue 21). */
static struct lwp_dump_region *RetiredAcc;
static uint32_t RetiredLimit;
static pthread_key_t RetireKey;
static int HaveRetireKey;

/** Called when a thread with a state ends (its key's destructor): closes
 *  its instances still open as unwound, folds its figures into RetiredAcc,
 *  keeps its records in a buffer of their size and frees its figure table,
 *  stack and record buffer. The state itself stays in the registry (the
 *  dump lists the thread and its records). Not in continuous mode, whose
 *  state file is never freed from. */
static int inContinuousMode(void);

/** Adds a thread's figures \p A (IDs 1 .. \p Limit) to the table \p R of
 *  \p N entries (the dump's region table, or RetiredAcc). */
static void addFigures(struct lwp_dump_region *R, uint32_t N,
                       const struct lwp_region_acc *A, uint32_t Limit) {
  for (uint32_t I = 1; A && I < N && I <= Limit; ++I) {
    R[I].count += A[I].count;
    R[I].total += A[I].total;
    R[I].self += A[I].self;
    R[I].nested += A[I].nested;
    R[I].children += A[I].children;
    R[I].outer += A[I].outer;
    R[I].unwound += A[I].unwound;
  }
}

static void retireThread(void *P) {
  struct lwp_thread_state *S = P;
  uint64_t Now = readCounter();
  pthread_mutex_lock(&Lock);
  if (inContinuousMode() || !S) {
    pthread_mutex_unlock(&Lock);
    return;
  }
  while (S->depth)
    lwp_close_top(S, Now, 1);
  if (S->acc && S->count_limit > RetiredLimit) {
    struct lwp_dump_region *New =
        calloc((size_t)S->count_limit + 1, sizeof(*New));
    if (New) {
      if (RetiredAcc)
        memcpy(New, RetiredAcc, ((size_t)RetiredLimit + 1) * sizeof(*New));
      free(RetiredAcc);
      RetiredAcc = New;
      RetiredLimit = S->count_limit;
    }
  }
  if (S->acc && S->count_limit <= RetiredLimit) {
    addFigures(RetiredAcc, RetiredLimit + 1, S->acc, S->count_limit);
    struct lwp_region_acc *Acc = S->acc;
    __atomic_store_n(&S->count_limit, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&S->acc, NULL, __ATOMIC_RELEASE);
    free(Acc);
  }
  struct lwp_record64 *Kept =
      S->num_records ? malloc(S->num_records * sizeof(*Kept)) : NULL;
  if (Kept || !S->num_records) {
    if (Kept)
      memcpy(Kept, S->records, S->num_records * sizeof(*Kept));
    struct lwp_record64 *Old = S->records;
    S->records = Kept;
    S->capacity = S->num_records;
    free(Old);
  }
  free(S->stack);
  S->stack = NULL;
  S->stack_capacity = 0;
  if (lwp_tls_state == S)
    lwp_tls_state = NULL;
  pthread_mutex_unlock(&Lock);
}

static struct lwp_thread_state *threadStateFor(struct lwp_thread_state *S,
                                               uint32_t Id) {
  if (!S)
    S = lwp_tls_state;
  if (!S) {
    S = newThreadState();
    lwp_tls_state = S;
    if (HaveRetireKey)
      pthread_setspecific(RetireKey, S);
  }
  uint32_t Known = __atomic_load_n(&NextId, __ATOMIC_ACQUIRE);
  if (Id != 0 && (Id < Known || (Calibrating && Id <= 2)) &&
      Id - 1u >= S->count_limit)
    growFigures(S, Id);
  if (S->depth == S->stack_capacity)
    growStack(S);
  return S;
}

static struct lwp_thread_state *coreSlow(struct lwp_thread_state *S,
                                         uint32_t Id) {
  ensureInit();
  return threadStateFor(S, Id);
}

static uint64_t coreCap(void) {
  ensureInit();
  return lwp_cap;
}

/** Fills \p Image with the image that contains \p Address. */
struct ImageSearch {
  uintptr_t Address;
  int Found;
  struct ImageInfo Image;
};

static int findImage(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  struct ImageSearch *Search = Data;
  int Contains = 0;
  for (int I = 0; I != Info->dlpi_phnum && !Contains; ++I) {
    const ElfW(Phdr) *P = &Info->dlpi_phdr[I];
    uintptr_t Start = Info->dlpi_addr + P->p_vaddr;
    Contains = P->p_type == PT_LOAD && Search->Address >= Start &&
               Search->Address - Start < P->p_memsz;
  }
  if (!Contains)
    return 0;
  Search->Found = 1;
  Search->Image.LoadBias = Info->dlpi_addr;
  const char *Name = Info->dlpi_name;
  char ExePath[4096];
  if (!Name || !*Name) {
    /* The main program: dl_iterate_phdr gives no name. */
    ssize_t N = readlink("/proc/self/exe", ExePath, sizeof(ExePath) - 1);
    ExePath[N > 0 ? N : 0] = '\0';
    Name = ExePath;
  }
  size_t NameSize = strlen(Name) + 1;
  Search->Image.Name = stateAlloc(NameSize);
  if (Search->Image.Name)
    memcpy(Search->Image.Name, Name, NameSize);
  uint32_t IdSize;
  const uint8_t *Id = findImageNote(Info, "GNU", NT_GNU_BUILD_ID, &IdSize);
  if (Id) {
    Search->Image.BuildId = stateAlloc(IdSize ? IdSize : 1);
    if (Search->Image.BuildId) {
      memcpy(Search->Image.BuildId, Id, IdSize);
      Search->Image.BuildIdSize = IdSize;
    }
  }
  return 1;
}

/** Index of the image that contains \p Address in Images, adding it; the
 *  same image (same load bias and path) is listed once. UINT32_MAX when
 *  there is no such image or no memory. Called with Lock held. */
static uint32_t imageOf(const void *Address) {
  struct ImageSearch Search;
  memset(&Search, 0, sizeof(Search));
  Search.Address = (uintptr_t)Address;
  dl_iterate_phdr(findImage, &Search);
  if (!Search.Found || !Search.Image.Name)
    return UINT32_MAX;
  for (uint32_t I = 0; I != NumImages; ++I)
    if (Images[I].LoadBias == Search.Image.LoadBias &&
        strcmp(Images[I].Name, Search.Image.Name) == 0) {
      stateFree(Search.Image.Name);
      stateFree(Search.Image.BuildId);
      return I;
    }
  if (NumImages == ImagesCapacity) {
    uint32_t New = ImagesCapacity ? 2 * ImagesCapacity : 8;
    struct ImageInfo *P = stateGrow(Images, ImagesCapacity * sizeof(*P),
                                    New * sizeof(*P));
    if (!P) {
      stateFree(Search.Image.Name);
      stateFree(Search.Image.BuildId);
      return UINT32_MAX;
    }
    Images = P;
    ImagesCapacity = New;
  }
  Images[NumImages] = Search.Image;
  return NumImages++;
}

static void coreRegister(void *Blob) {
  ensureInit();
  const struct lwp_map_blob_header *H = Blob;
  if (!H || memcmp(H->magic, LWP_MAP_MAGIC, LWP_MAP_MAGIC_SIZE) != 0 ||
      H->version < LWP_MAP_BLOB_MIN_VERSION ||
      H->version > LWP_MAP_BLOB_VERSION || H->slots_offset % 16 != 0 ||
      (uint64_t)H->slots_offset +
              (uint64_t)sizeof(struct lwp_slot) * H->num_regions >
          H->size) {
    fprintf(stderr,
            "lwp: ignoring a module whose map blob at %p is not a "
            "version %u-%u LWP map (built by another LWP?)\n",
            Blob, LWP_MAP_BLOB_MIN_VERSION, LWP_MAP_BLOB_VERSION);
    return;
  }
  struct lwp_slot *Slots = (struct lwp_slot *)((char *)Blob + H->slots_offset);
  if (H->num_regions == 0)
    return;
  pthread_mutex_lock(&Lock);
  if (Slots[0].index != 0) { /* registered already */
    pthread_mutex_unlock(&Lock);
    return;
  }
  uint32_t Image = imageOf(Blob);
  if (Image == UINT32_MAX || NextId > UINT32_MAX / 2 - H->num_regions) {
    pthread_mutex_unlock(&Lock);
    fprintf(stderr,
            "lwp: cannot register the module at %p (no image or out "
            "of memory); its probes are dropped\n",
            Blob);
    return;
  }
  if (NumModules == ModulesCapacity) {
    uint32_t New = ModulesCapacity ? 2 * ModulesCapacity : 64;
    struct lwp_dump_module *P = stateGrow(
        Modules, ModulesCapacity * sizeof(*P), New * sizeof(*P));
    if (!P) {
      pthread_mutex_unlock(&Lock);
      fprintf(stderr, "lwp: out of memory registering a module; its probes "
                      "are dropped\n");
      return;
    }
    Modules = P;
    ModulesCapacity = New;
  }
  struct lwp_dump_module *M = &Modules[NumModules++];
  M->blob_vaddr = (uint64_t)(uintptr_t)Blob - Images[Image].LoadBias;
  M->image = Image;
  M->first_id = NextId;
  M->num_regions = H->num_regions;
  /* Before the slots get their IDs: the hash covers the bytes before them,
   * as in the file. */
  M->map_hash = lwp_map_hash(Blob);
  for (uint32_t I = 0; I != H->num_regions; ++I)
    Slots[I].index = NextId + I;
  __atomic_store_n(&NextId, NextId + H->num_regions, __ATOMIC_RELEASE);
  persistState();
  pthread_mutex_unlock(&Lock);
}

/** Forgets \p S's figures and records. With \p KeepOpen, the instances open
 *  now stay open (with their counts) so that their end probes still match;
 *  they then count as executions of the new period. */
static void resetState(struct lwp_thread_state *S, int KeepOpen) {
  if (S->acc) {
    for (uint32_t I = 0; I <= S->count_limit; ++I) {
      uint64_t Open = KeepOpen ? S->acc[I].open : 0;
      memset(&S->acc[I], 0, sizeof(S->acc[I]));
      S->acc[I].open = Open;
      S->acc[I].count = Open;
    }
  }
  if (!KeepOpen)
    S->depth = 0;
  for (uint32_t I = 0; I != S->depth; ++I)
    S->stack[I].child = S->stack[I].nested = S->stack[I].children = 0;
  S->num_records = 0;
  S->dropped = 0;
  S->lost = 0;
  S->top_cycles = S->top_instances = S->top_nested = 0;
}

static void coreReset(void) {
  ensureInit();
  pthread_mutex_lock(&Lock);
  for (struct lwp_thread_state *S = Registry; S; S = S->next)
    resetState(S, /*KeepOpen=*/1);
  if (RetiredAcc)
    memset(RetiredAcc, 0, ((size_t)RetiredLimit + 1) * sizeof(*RetiredAcc));
  pthread_mutex_unlock(&Lock);
}

/*===----------------------------------------------------------------------===*
 * Start-up: environment, calibration, fork
 *===----------------------------------------------------------------------===*/

/* Calls through volatile pointers keep the calibration pairs real calls. */
typedef void ProbeFn(const struct lwp_slot *) __attribute__((preserve_all));
static ProbeFn *volatile StartFn = __lwp_probe_start;
static ProbeFn *volatile EndFn = __lwp_probe_end;

static int compareU64(const void *A, const void *B) {
  uint64_t X = *(const uint64_t *)A, Y = *(const uint64_t *)B;
  return X < Y ? -1 : X > Y;
}

/* Calibration, the median over 512 trials (the typical cost, which is what
 * a correction of many instances needs) of:
 *   PairCost:   end - start of an empty region (what its own probes add);
 *   NestedCost: how much an empty pair nested in a region adds to that
 *               region (the two handlers whole, call and return included).
 * The nested cost is then measured where it matters, in a running loop
 * (calibrateNestedInLoop); the isolated figure is the fallback. Two slots of
 * the runtime with IDs 1 and 2 are used before any module has registered;
 * their figures are reset afterwards. */
/* Two loop bodies in which the in-loop cost of a nested pair is measured:
 * about 24 cycles of dependent integer arithmetic (the empty asm keeps the
 * compiler from folding the chain), and a floating-point reduction of 24
 * products of loaded values (a latency-bound numeric inner loop, where most
 * of a probe's work overlaps the chain). */
static inline __attribute__((always_inline)) uint64_t loopBody(uint64_t X) {
  for (int I = 0; I != 8; ++I) {
    X = X * 3 + 1;
    __asm__ volatile("" : "+r"(X));
  }
  return X;
}

static double CalibrationData[24 + 16];
static volatile double CalibrationSink;

static inline __attribute__((always_inline)) double fpBody(double S, int I) {
  const double *A = &CalibrationData[I & 15];
  for (int J = 0; J != 24; ++J)
    S += A[J] * CalibrationData[J & 15];
  return S;
}

/* The counter ticks a nested pair adds to its parent in a running loop: per
 * body, the best of 7 runs of a loop of 1024 iterations with a pair around
 * the body, minus the best of the same loop without probes, per iteration;
 * then the smaller of the two bodies. Handlers called back to back in
 * isolation cost more than in a loop, where their work overlaps the loop's,
 * and how much overlaps depends on the body (measured here, TSC ticks: about
 * 50 around an empty body, 40 around 8 integer steps, 10-13 around a
 * 24-product reduction; issue 11, `git show 6310dfe:docs/performance.md`,
 * "Overhead correction, calibrated where it applies"). The smaller figure is
 * the one a correction can subtract without making a parent shorter than it
 * runs without its children's probes (docs/report.md). */
static uint64_t calibrateNestedInLoop(struct lwp_thread_state *S,
                                      struct lwp_slot *Inner) {
  enum { Iterations = 1024, Runs = 7 };
  uint64_t Best = UINT64_MAX;
  for (int Body = 0; Body != 2; ++Body) {
    uint64_t Plain = UINT64_MAX, Probed = UINT64_MAX, X = 1;
    double F = 0;
    for (int R = 0; R != Runs; ++R) {
      uint64_t T0 = readCounter();
      if (Body == 0)
        for (int I = 0; I != Iterations; ++I)
          X = loopBody(X);
      else
        for (int I = 0; I != Iterations; ++I)
          F = fpBody(F, I);
      uint64_t T1 = readCounter();
      uint64_t N = S->num_records;
      if (Body == 0)
        for (int I = 0; I != Iterations; ++I) {
          StartFn(Inner);
          X = loopBody(X);
          EndFn(Inner);
        }
      else
        for (int I = 0; I != Iterations; ++I) {
          StartFn(Inner);
          F = fpBody(F, I);
          EndFn(Inner);
        }
      uint64_t T2 = readCounter();
      S->num_records = N;
      Plain = T1 - T0 < Plain ? T1 - T0 : Plain;
      Probed = T2 - T1 < Probed ? T2 - T1 : Probed;
    }
    __asm__ volatile("" ::"r"(X));
    CalibrationSink = F;
    uint64_t Added = Probed > Plain ? (Probed - Plain) / Iterations : 0;
    if (Added && Added < Best)
      Best = Added;
  }
  return Best == UINT64_MAX ? 0 : Best;
}

static void calibrateProbes(void) {
  static struct lwp_slot Slots[2] = {{1, 0, 0, 0}, {2, 0, 0, 0}};
  Calibrating = 1;
  struct lwp_thread_state *S = threadStateFor(NULL, 2);
  Calibrating = 0;
  if (S->capacity < 6 || S->count_limit < 2 || S->stack_capacity < 2)
    return;
  enum { Trials = 512 };
  static uint64_t Empty[Trials], Nested[Trials];
  unsigned Done = 0;
  uint64_t SavedCap = lwp_cap;
  lwp_cap = UINT64_MAX;
  for (int I = 0; I != Trials; ++I) {
    uint64_t N = S->num_records;
    StartFn(&Slots[0]);
    EndFn(&Slots[0]);
    StartFn(&Slots[0]);
    StartFn(&Slots[1]);
    EndFn(&Slots[1]);
    EndFn(&Slots[0]);
    if (S->num_records == N + 6) {
      const struct lwp_record64 *R = &S->records[N];
      uint64_t E = R[1].cycles - R[0].cycles, O = R[5].cycles - R[2].cycles;
      Empty[Done] = E;
      Nested[Done] = O > E ? O - E : 0;
      ++Done;
    }
    S->num_records = N;
  }
  /* In a loop, past the cap: a parent of many short children holds mostly
   * children that are counted only. */
  uint64_t InLoop = 0;
  for (int I = 0; I != 24 + 16; ++I)
    CalibrationData[I] = 1.0 / (I + 1);
  StartFn(&Slots[0]);
  lwp_cap = 0;
  InLoop = calibrateNestedInLoop(S, &Slots[1]);
  lwp_cap = UINT64_MAX;
  EndFn(&Slots[0]);
  S->num_records = 0;
  S->dropped = 0;
  lwp_cap = SavedCap;
  memset(&S->acc[1], 0, 2 * sizeof(S->acc[1]));
  S->top_cycles = S->top_instances = S->top_nested = 0;
  if (!Done)
    return;
  qsort(Empty, Done, sizeof(uint64_t), compareU64);
  qsort(Nested, Done, sizeof(uint64_t), compareU64);
  if (Empty[Done / 2] <= UINT32_MAX)
    ProbePairCost = (uint32_t)Empty[Done / 2];
  if (InLoop && InLoop <= UINT32_MAX)
    ProbeNestedCost = (uint32_t)InLoop;
  else if (Nested[Done / 2] <= UINT32_MAX)
    ProbeNestedCost = (uint32_t)Nested[Done / 2];
}

/** The unsigned value of environment variable \p Name in [\p Min, \p Max],
 *  else \p Default with one warning line. */
static uint64_t parseEnv(const char *Name, uint64_t Default, uint64_t Min,
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

/** The continuous-mode state file (empty when the mode is off), its folder
 *  (opened when it was created) and its identity: only that file is ever
 *  removed, whatever the program did to the working directory or the name
 *  since. */
static char StatePath[4200];
static struct lwp_file_dir StateDir = {-1, ""};
static struct lwp_file_id StateId;

/** Removes this process's state file once a dump holds all it held. */
void lwp_remove_state(void) {
  if (!StatePath[0])
    return;
  lwp_file_remove_own(&StateDir, &StateId);
}

/** True in a tool that links the runtime for its code (lwp-recover): the
 *  runtime then writes nothing of the tool's own. */
int lwp_is_tool(void) { return &lwp_tool_not_profiled != NULL; }

/* The folder and temporary of the dump being written (lwp_signals_*). */
static struct lwp_file_dir DumpDir = {-1, ""};
static char DumpTemp[LWP_TEMP_NAME_SIZE];

static void dumpAtExit(void) {
  const char *Path = getenv("LWP_OUTPUT");
  if (Path && !*Path)
    return;
  /* The dump holds everything the state file held: the file goes. */
  if (coreDump(Path) == 0)
    lwp_remove_state();
}

static void forkPrepare(void) { pthread_mutex_lock(&Lock); }
static void forkParent(void) { pthread_mutex_unlock(&Lock); }

/* The child has one thread, the one that forked: it keeps that thread's
 * state, starts from zero counts and records with its own thread ID, and
 * forgets the other threads (whose buffers it leaves to the OS). */
static void leaveContinuousMode(void);

static void forkChild(void) {
  pthread_mutex_init(&Lock, NULL);
  leaveContinuousMode();
  struct lwp_thread_state *S = lwp_tls_state;
  Registry = S;
  if (RetiredAcc)
    memset(RetiredAcc, 0, ((size_t)RetiredLimit + 1) * sizeof(*RetiredAcc));
  if (S) {
    S->next = NULL;
    resetState(S, /*KeepOpen=*/1);
    S->thread_id = (uint64_t)syscall(SYS_gettid);
  }
  Forked = 1;
}

static pthread_once_t InitOnce = PTHREAD_ONCE_INIT;

static void enterContinuousMode(void);

static void initCore(void) {
  lwp_file_init();
  lwp_cap = parseEnv("LWP_CAP", LWP_CAP, 0, UINT32_MAX);
  if (!lwp_is_tool())
    enterContinuousMode();
  /* At most 2^32 records (96 GiB) a thread, so sizes never overflow. */
  BufferRecords =
      parseEnv("LWP_BUFFER_RECORDS", LWP_BUFFER_RECORDS, 0, UINT64_C(1) << 32);
  StartNanos = monotonicNanos();
  StartTicks = readCounter();
  /* Image 0 is always the executable, so that a report can tell whether it
   * was given the binary that ran, even when only shared objects have
   * regions. AT_PHDR lies in the executable's first PT_LOAD. */
  pthread_mutex_lock(&Lock);
  imageOf((const void *)getauxval(AT_PHDR));
  pthread_mutex_unlock(&Lock);
  calibrateProbes();
  pthread_atfork(forkPrepare, forkParent, forkChild);
  HaveRetireKey = pthread_key_create(&RetireKey, retireThread) == 0;
  if (!lwp_is_tool())
    atexit(dumpAtExit);
  pthread_mutex_lock(&Lock);
  persistState();
  pthread_mutex_unlock(&Lock);
}

static void ensureInit(void) { pthread_once(&InitOnce, initCore); }

/* The executable's copy starts early; copies in shared objects start the
 * core (wherever it is) when their first module registers. The core's copy
 * installs the signal handlers here, at priority 101, after modules
 * registered (priority 1) and after handlers that a program installs in its
 * own early constructors (priorities up to 100), to which it then chains. */
__attribute__((constructor(101))) static void lwpInit(void) {
  if (getCore() == &lwp_own_core) {
    static int Installed;
    if (!Installed) {
      Installed = 1;
      lwp_signals_install();
    }
  }
}

/*===----------------------------------------------------------------------===*
 * The dump
 *===----------------------------------------------------------------------===*/

/* Counter ticks per second. AArch64 says it; on x86-64 the TSC is measured
 * against CLOCK_MONOTONIC_RAW from start-up to now (at least 10 ms), since
 * these machines publish no TSC frequency. */
static uint64_t counterFrequency(void) {
#if defined(__aarch64__)
  uint64_t F;
  __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(F));
  return F;
#else
  uint64_t Nanos, Ticks;
  do {
    Nanos = monotonicNanos();
    Ticks = readCounter();
  } while (Nanos - StartNanos < 10000000u);
  return (uint64_t)((double)(Ticks - StartTicks) * 1e9 /
                    (double)(Nanos - StartNanos));
#endif
}

struct FileSink {
  int Fd;
};

static int writeAll(void *Ctx, const void *Data, uint64_t Size) {
  struct FileSink *F = Ctx;
  const char *P = Data;
  while (Size) {
    ssize_t N = write(F->Fd, P, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return -1;
    P += N;
    Size -= (uint64_t)N;
  }
  return 0;
}

/** Expands the patterns of \p Pattern into \p Out (\p Size bytes): %p the
 *  process ID, %h the host name, %% a percent sign. In a child of fork()
 *  without %p, ".<pid>" is appended, so that it never overwrites its
 *  parent's dump. Returns 0, or -1 when the result does not fit. */
static int expandPath(const char *Pattern, char *Out, size_t Size) {
  size_t N = 0;
  int HasPid = 0;
  char Buf[256];
  for (const char *P = Pattern; *P; ++P) {
    const char *Piece = Buf;
    size_t Len;
    if (P[0] == '%' && P[1] == 'p') {
      Len = (size_t)snprintf(Buf, sizeof(Buf), "%ld", (long)getpid());
      HasPid = 1;
      ++P;
    } else if (P[0] == '%' && P[1] == 'h') {
      if (gethostname(Buf, sizeof(Buf)) != 0)
        strcpy(Buf, "unknown-host");
      Buf[sizeof(Buf) - 1] = '\0';
      Len = strlen(Buf);
      ++P;
    } else if (P[0] == '%' && P[1] == '%') {
      Piece = "%";
      Len = 1;
      ++P;
    } else if (P[0] == '%' && P[1] == 'c') {
      /* Continuous mode (enterContinuousMode): no text. */
      Len = 0;
      ++P;
    } else {
      Piece = P;
      Len = 1;
    }
    if (N + Len >= Size)
      return -1;
    memcpy(Out + N, Piece, Len);
    N += Len;
  }
  if (Forked && !HasPid) {
    int Len = snprintf(Out + N, Size - N, ".%ld", (long)getpid());
    if (Len < 0 || (size_t)Len >= Size - N)
      return -1;
    N += (size_t)Len;
  }
  Out[N] = '\0';
  return 0;
}

/*===----------------------------------------------------------------------===*
 * Memory and messages of the dump path, usable in a signal handler
 *===----------------------------------------------------------------------===*/

/* The dump path allocates from an arena reserved at start-up (pages are
 * touched only when a dump needs them), so that it calls no malloc and can
 * run in a signal handler. */
static char *Arena;
static size_t ArenaSize, ArenaUsed;
/** Set by lwp_recover_state: the dead process's ID and the counter value
 *  its open instances are closed at (0: this process, now). */
static uint64_t DumpProcessId, RecoverNow;
/** Set by lwp_recover_state: the dead process had a thread without state. */
static uint32_t RecoverLost;

/* Reserved when a dump is written (mmap is async-signal-safe), not at
 * start-up, so that a program holds no address space for it while it runs;
 * under an address-space limit (ulimit -v) a smaller arena is tried, down
 * to 1 MiB. Released after the dump. */
static void reserveArena(void) {
  for (size_t Size = (size_t)256 << 20; Size >= ((size_t)1 << 20); Size /= 2) {
    void *P = mmap(NULL, Size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P != MAP_FAILED) {
      Arena = P;
      ArenaSize = Size;
      return;
    }
  }
  Arena = NULL;
  ArenaSize = 0;
}

static void releaseArena(void) {
  if (Arena)
    munmap(Arena, ArenaSize);
  Arena = NULL;
  ArenaSize = ArenaUsed = 0;
}

/** \p Size zeroed bytes from the arena (16-byte aligned), or NULL. */
static void *arenaAlloc(size_t Size) {
  size_t Start = (ArenaUsed + 15) & ~(size_t)15;
  if (!Arena || Start > ArenaSize || Size > ArenaSize - Start)
    return NULL;
  ArenaUsed = Start + Size;
  memset(Arena + Start, 0, Size);
  return Arena + Start;
}

/** Writes the strings of \p Parts (NULL-terminated) to stderr with write(2),
 *  which a signal handler may call. */
static void say(const char *const *Parts) {
  for (; *Parts; ++Parts) {
    const char *P = *Parts;
    size_t N = strlen(P);
    while (N) {
      ssize_t W = write(2, P, N);
      if (W <= 0)
        return;
      P += W;
      N -= (size_t)W;
    }
  }
}

static int coreDump(const char *Pattern) {
  ensureInit();
  return lwp_dump_impl(Pattern, 0);
}

/** Writes the dump. \p InSignal: called from a signal handler (the lock is
 *  only tried, messages go out through write(2)). */
int lwp_dump_impl(const char *Pattern, int InSignal) {
  if (!Pattern) {
    Pattern = getenv("LWP_OUTPUT");
    if (!Pattern || !*Pattern)
      Pattern = "lwp.dump";
  }
  char Path[4096];
  if (expandPath(Pattern, Path, sizeof(Path))) {
    const char *Msg[] = {"lwp: dump path '", Pattern, "' is too long\n", NULL};
    say(Msg);
    return -1;
  }

  /* In a signal handler the lock may be held by the interrupted thread: the
   * dump then goes on without it (the registry only grows). */
  int Locked = InSignal ? pthread_mutex_trylock(&Lock) == 0
                        : pthread_mutex_lock(&Lock) == 0;
  lwp_signals_dump_begin(&DumpDir, DumpTemp);
  reserveArena();
  ArenaUsed = 0;
  uint32_t NumIds = NextId;
  uint32_t NumThreads = 0, Lost = 0;
  for (struct lwp_thread_state *S = Registry; S; S = S->next)
    ++NumThreads;
  struct lwp_dump_region *Regions = arenaAlloc(NumIds * sizeof(*Regions));
  uint64_t *Open = arenaAlloc(NumIds * sizeof(uint64_t));
  struct lwp_thread_view *Threads =
      arenaAlloc((NumThreads ? NumThreads : 1) * sizeof(*Threads));
  struct lwp_image_view *ImageViews =
      arenaAlloc((NumImages ? NumImages : 1) * sizeof(*ImageViews));
  int Result = -1;
  if (Regions && Open && Threads && ImageViews) {
    struct lwp_dump_view View;
    memset(&View, 0, sizeof(View));
    uint64_t Now = RecoverNow ? RecoverNow : readCounter();
    uint32_t T = NumThreads;
    /* Threads that ended, then the live ones. */
    if (RetiredAcc)
      memcpy(Regions, RetiredAcc,
             (NumIds < RetiredLimit + 1 ? NumIds : RetiredLimit + 1) *
                 sizeof(*Regions));
    /* The registry is newest first; the dump lists threads oldest first. */
    for (struct lwp_thread_state *S = Registry; S; S = S->next) {
      --T;
      Threads[T].thread_id = S->thread_id;
      Threads[T].records = S->records;
      Threads[T].num_records = S->num_records;
      View.header.dropped += S->dropped;
      Lost |= S->lost;
      const struct lwp_region_acc *A =
          __atomic_load_n(&S->acc, __ATOMIC_ACQUIRE);
      uint32_t Limit = __atomic_load_n(&S->count_limit, __ATOMIC_ACQUIRE);
      addFigures(Regions, NumIds, A, Limit);
      for (uint32_t I = 1; A && I < NumIds && I <= Limit; ++I)
        Open[I] = A[I].open;
      uint64_t TopCycles = S->top_cycles, TopInstances = S->top_instances,
               TopNested = S->top_nested;
      /* Instances open now are closed in the written figures (and counted as
       * unwound) as if they ended now; the live state is left alone, since
       * recording may go on. Innermost first, each frame's additions to its
       * parent carried in locals (no copy of the stack, so that no depth is
       * too deep for the dump's memory). */
      uint64_t CarryChild = 0, CarryNested = 0, CarryChildren = 0;
      for (uint32_t K = S->stack ? S->depth : 0; K-- > 0;) {
        const struct lwp_frame *F = &S->stack[K];
        uint64_t Child = F->child + CarryChild;
        uint64_t Nested = F->nested + CarryNested;
        uint64_t Children = F->children + CarryChildren;
        uint64_t Incl = Now - F->start;
        if (F->id < NumIds) {
          struct lwp_dump_region *R = &Regions[F->id];
          R->self += Incl - Child;
          R->children += Children;
          ++R->unwound;
          if (Open[F->id] && --Open[F->id] == 0) {
            R->total += Incl;
            R->nested += Nested;
            ++R->outer;
          }
        }
        if (K) {
          CarryChild = Incl;
          CarryNested = Nested + 1;
          CarryChildren = 1;
        } else {
          TopCycles += Incl;
          ++TopInstances;
          TopNested += Nested;
        }
      }
      Threads[T].top_cycles = TopCycles;
      Threads[T].top_instances = TopInstances;
      Threads[T].top_nested = TopNested;
    }
    for (uint32_t I = 0; I != NumImages; ++I) {
      ImageViews[I].load_bias = Images[I].LoadBias;
      ImageViews[I].build_id = Images[I].BuildId;
      ImageViews[I].build_id_size = Images[I].BuildIdSize;
      ImageViews[I].name = Images[I].Name;
      ImageViews[I].name_size = (uint32_t)strlen(Images[I].Name);
    }
    View.header.target = LWP_HOST_TARGET;
    View.header.counter = LWP_HOST_COUNTER;
    View.header.record_size = sizeof(struct lwp_record64);
    View.header.counter_hz = counterFrequency();
    View.header.num_ids = NumIds;
    View.header.cap = lwp_cap > UINT32_MAX ? UINT32_MAX : (uint32_t)lwp_cap;
    View.header.probe_pair_cost = ProbePairCost;
    View.header.probe_nested_cost = ProbeNestedCost;
    View.header.process_id =
        DumpProcessId ? DumpProcessId : (uint64_t)getpid();
    View.header.flags = LWP_DUMP_FLAG_FIGURES;
    if (Lost || Fallback.lost || RecoverLost) {
      View.header.flags |= LWP_DUMP_FLAG_LOST;
      View.header.dropped += Fallback.dropped;
    }
    View.images = ImageViews;
    View.num_images = NumImages;
    View.modules = Modules;
    View.num_modules = NumModules;
    View.regions = Regions;
    View.threads = Threads;
    View.num_threads = NumThreads;
    /* docs/reliability.md, "Files": a temporary created exclusively in the
     * dump's folder, renamed over the final name (readers see the old file
     * or the whole new one), which must be a regular file if it exists. */
    const char *Why = NULL;
    if (lwp_file_open_dir(Path, &DumpDir) != 0) {
      Why = "' cannot be written: its folder cannot be opened\n";
    } else if ((Why = lwp_file_refusal(&DumpDir))) {
      const char *Msg[] = {"lwp: dump not written: '",
                           Path,
                           "' ",
                           Why,
                           " (the runtime writes only regular files, never "
                           "through a link)\n",
                           NULL};
      say(Msg);
      Why = NULL;
    } else {
      struct FileSink Sink = {lwp_file_create_temp(&DumpDir, DumpTemp)};
      if (Sink.Fd < 0) {
        Why = "' cannot be written: no temporary file can be created in its "
              "folder\n";
      } else {
        Result = lwp_write_dump(&View, writeAll, &Sink);
        if (close(Sink.Fd))
          Result = -1;
        if (Result == 0 && lwp_file_publish(&DumpDir, DumpTemp) != 0)
          Result = -1;
        if (Result)
          lwp_file_discard(&DumpDir, DumpTemp);
        DumpTemp[0] = '\0';
        if (Result)
          Why = "' cannot be written (disk full, or no permission?)\n";
      }
    }
    lwp_file_close_dir(&DumpDir);
    if (Why) {
      const char *Msg[] = {"lwp: dump to '", Path, Why, NULL};
      say(Msg);
    }
  } else if (!Arena) {
    const char *Msg[] = {"lwp: no memory for the dump to '", Path,
                         "': not even 1 MiB of address space could be "
                         "reserved (ulimit -v?)\n",
                         NULL};
    say(Msg);
  } else {
    const char *Msg[] = {"lwp: no memory for the dump to '", Path,
                         "' (the dump arena is full)\n", NULL};
    say(Msg);
  }
  releaseArena();
  lwp_signals_dump_end();
  if (Locked)
    pthread_mutex_unlock(&Lock);
  if (!InSignal)
    lwp_signals_deliver_pending();
  return Result;
}

/*===----------------------------------------------------------------------===*
 * Continuous mode: the profile in a file-backed mapping
 *===----------------------------------------------------------------------===*/

/* With %c in LWP_OUTPUT, every allocation of the profile state (thread
 * states, figure tables, stacks, record buffers, images, modules) comes from
 * one shared mapping of the file "<dump>.state", at a fixed address, and the
 * few globals the dump needs are mirrored into its header. The page cache
 * holds what the probes write, so the state survives _exit and SIGKILL;
 * lwp-recover maps the file at the same address in a process of its own,
 * where every pointer of the state is valid again, and writes the dump with
 * the dump code above (lwp_recover_state). A normal exit or a fatal signal
 * writes the dump and removes the state file. The mode is per process: a
 * child of fork() goes on with a private copy and writes its dump at exit. */

#define LWP_STATE_MAGIC "LWPSTATE"
#define LWP_STATE_VERSION 1u
/* Far from where Linux puts executables (0x55..), libraries and mappings
 * (0x7f..) on x86-64 and AArch64 (48-bit addresses). */
#define LWP_STATE_BASE ((uintptr_t)0x3a0000000000ull)
/** Bytes of the state mapping: LWP_STATE_MB (default 4096 MiB; a sparse
 *  file, whose blocks are only those the profile touched). */
static uint64_t StateSize;

/** The head of a state file (and of its mapping). */
struct lwp_state_header {
  char magic[8];        /**< LWP_STATE_MAGIC */
  uint32_t version;     /**< LWP_STATE_VERSION */
  uint32_t layout;      /**< sizes of the runtime's structures, see below */
  uint64_t base;        /**< the address the state is mapped at */
  uint64_t size;        /**< bytes of the mapping and the file */
  uint64_t used;        /**< bytes allocated (bump allocator) */
  uint64_t process_id;  /**< the profiled process */
  uint64_t cap;         /**< LWP_CAP */
  struct lwp_thread_state *registry;
  struct ImageInfo *images;
  struct lwp_dump_module *modules;
  uint32_t num_images, num_modules;
  uint32_t next_id, pair_cost, nested_cost;
  uint32_t lost_threads; /**< a thread got no state (LWP_DUMP_FLAG_LOST) */
};

/* A state written by another build of the runtime is refused. */
#define LWP_STATE_LAYOUT                                                      \
  ((uint32_t)(sizeof(struct lwp_thread_state) |                               \
              sizeof(struct lwp_region_acc) << 8 |                            \
              sizeof(struct lwp_frame) << 16 |                                \
              sizeof(struct ImageInfo) << 24))

static struct lwp_state_header *State;

static int inContinuousMode(void) { return State != NULL; }

/** Tells the state file (continuous mode) that a thread got no state, so
 *  that a recovered dump says its counts are incomplete. */
static void persistLostThread(void) {
  if (State)
    State->lost_threads = 1;
}

static void *stateAlloc(size_t Size) {
  if (!State)
    return calloc(1, Size ? Size : 1);
  uint64_t Need = ((uint64_t)Size + 63) & ~(uint64_t)63;
  /* `used` never passes `size`, also when the state is full (lwp-recover
   * checks it). */
  uint64_t Start = __atomic_load_n(&State->used, __ATOMIC_RELAXED);
  do {
    if (Start > State->size || Need > State->size - Start)
      return NULL;
  } while (!__atomic_compare_exchange_n(&State->used, &Start, Start + Need,
                                        /*weak=*/1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  return (char *)State + Start; /* fresh file pages are zero */
}

/** True for memory of the state mapping (also after a fork child left
 *  continuous mode: what was allocated there is not malloc's to free). */
static int inStateMapping(const void *P) {
  return StateSize && (uintptr_t)P >= LWP_STATE_BASE &&
         (uintptr_t)P - LWP_STATE_BASE < StateSize;
}

static void stateFree(void *P) {
  if (!State && !inStateMapping(P))
    free(P);
}

static void *stateGrow(void *Old, size_t OldSize, size_t NewSize) {
  if (!State && !inStateMapping(Old))
    return realloc(Old, NewSize);
  void *New = stateAlloc(NewSize);
  if (New && Old)
    memcpy(New, Old, OldSize);
  return New;
}

/** Mirrors the globals the dump needs into the state header. Called with
 *  Lock held whenever one changes. */
static void persistState(void) {
  if (!State)
    return;
  State->registry = Registry;
  State->images = Images;
  State->num_images = NumImages;
  State->modules = Modules;
  State->num_modules = NumModules;
  State->next_id = NextId;
  State->pair_cost = ProbePairCost;
  State->nested_cost = ProbeNestedCost;
  State->cap = lwp_cap;
  State->process_id = (uint64_t)getpid();
}

static void enterContinuousMode(void) {
  const char *Pattern = getenv("LWP_OUTPUT");
  if (!Pattern || !strstr(Pattern, "%c"))
    return;
  StateSize = parseEnv("LWP_STATE_MB", 4096, 64, 1 << 20) << 20;
  char Path[4096];
  if (expandPath(Pattern, Path, sizeof(Path)))
    return;
  snprintf(StatePath, sizeof(StatePath), "%s.state", Path);
  const char *Why = NULL;
  int Fd = -1;
  if (lwp_file_open_dir(StatePath, &StateDir) != 0)
    Why = "its folder cannot be opened";
  else if ((Fd = lwp_file_create_state(&StateDir, &StateId)) < 0)
    Why = errno == EEXIST
              ? "a file of that name exists (the state of a run that ended "
                "without its dump? recover it with lwp-recover, or remove "
                "it); it is left alone"
              : "cannot create it";
  int Created = Fd >= 0;
  if (Why) {
    /* Reported below. */
  } else if (ftruncate(Fd, (off_t)StateSize) != 0) {
    Why = "cannot size it (LWP_STATE_MB, sparse)";
  } else {
    void *P = mmap((void *)LWP_STATE_BASE, StateSize,
                   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE,
                   Fd, 0);
    if (P == MAP_FAILED || P != (void *)LWP_STATE_BASE) {
      if (P != MAP_FAILED)
        munmap(P, StateSize);
      Why = "cannot map it at its address";
    } else {
      State = P;
      memcpy(State->magic, LWP_STATE_MAGIC, 8);
      State->version = LWP_STATE_VERSION;
      State->layout = LWP_STATE_LAYOUT;
      State->base = LWP_STATE_BASE;
      State->size = StateSize;
      State->used = 4096;
    }
  }
  if (Fd >= 0)
    close(Fd);
  if (!State) {
    fprintf(stderr,
            "lwp: continuous mode (%%c) off: state file '%s': %s; the dump "
            "is written at exit only\n",
            StatePath, Why);
    if (Created)
      lwp_file_remove_own(&StateDir, &StateId);
    lwp_file_close_dir(&StateDir);
    StatePath[0] = '\0';
  }
}

/* In a child of fork(): the shared mapping would mix both processes'
 * profiles. The child keeps a private copy of the state as it was (at the
 * same address) and writes its own dump at exit. */
static void leaveContinuousMode(void) {
  if (!State)
    return;
  size_t Used = (size_t)State->used;
  void *Copy = mmap(NULL, Used, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Copy != MAP_FAILED) {
    memcpy(Copy, State, Used);
    mmap(State, StateSize, PROT_READ | PROT_WRITE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    memcpy(State, Copy, Used);
    munmap(Copy, Used);
  }
  State->used = StateSize; /* nothing more is allocated there */
  State = NULL;
  StatePath[0] = '\0';
}

/** True when [P, P + Count * Size) lies in the used part of state \p S. */
static int inState(const struct lwp_state_header *S, const void *P,
                   uint64_t Count, uint64_t Size) {
  uintptr_t Begin = (uintptr_t)S + 4096, End = (uintptr_t)S + S->used;
  uintptr_t A = (uintptr_t)P;
  if (!P)
    return Count == 0;
  if (A < Begin || A > End || (Size && Count > (End - A) / Size))
    return 0;
  return 1;
}

/** Checks every pointer, count and list of a mapped state file before the
 *  dump code follows them: NULL, or what is wrong. */
static const char *validateState(const struct lwp_state_header *S) {
  uint64_t MaxThreads = S->used / sizeof(struct lwp_thread_state) + 1;
  uint64_t N = 0;
  for (const struct lwp_thread_state *T = S->registry; T; T = T->next) {
    if (++N > MaxThreads)
      return "its list of threads does not end";
    if (!inState(S, T, 1, sizeof(*T)))
      return "a thread's state lies outside the file";
    if (!inState(S, T->acc, T->acc ? (uint64_t)T->count_limit + 1 : 0,
                 sizeof(struct lwp_region_acc)))
      return "a thread's figure table lies outside the file";
    if (T->num_records > T->capacity ||
        !inState(S, T->records, T->records ? T->capacity : 0,
                 sizeof(struct lwp_record64)))
      return "a thread's records lie outside the file";
    if (T->depth > T->stack_capacity ||
        !inState(S, T->stack, T->stack ? T->stack_capacity : 0,
                 sizeof(struct lwp_frame)))
      return "a thread's stack lies outside the file";
  }
  if (!inState(S, S->images, S->num_images, sizeof(struct ImageInfo)))
    return "its image table lies outside the file";
  for (uint32_t I = 0; I != S->num_images; ++I) {
    const struct ImageInfo *Img = &S->images[I];
    if (!inState(S, Img->BuildId, Img->BuildIdSize, 1) ||
        !inState(S, Img->Name, 1, 1))
      return "an image's name or build ID lies outside the file";
    const char *End = (const char *)S + S->used;
    if (!memchr(Img->Name, 0, (size_t)(End - Img->Name)))
      return "an image's name does not end";
  }
  if (!inState(S, S->modules, S->num_modules, sizeof(struct lwp_dump_module)))
    return "its module table lies outside the file";
  return NULL;
}

int lwp_recover_state(const char *StateFile, const char *DumpPath) {
  ensureInit();
  /* -o never names the input. */
  struct stat In, Out;
  if (stat(StateFile, &In) == 0 && stat(DumpPath, &Out) == 0 &&
      In.st_dev == Out.st_dev && In.st_ino == Out.st_ino) {
    fprintf(stderr,
            "lwp-recover: error: the dump '%s' would overwrite the state "
            "file '%s'\n",
            DumpPath, StateFile);
    return -1;
  }
  int Fd = open(StateFile, O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    fprintf(stderr, "lwp-recover: error: cannot open '%s': %s\n", StateFile,
            strerror(errno));
    return -1;
  }
  struct lwp_state_header H;
  off_t FileSize = lseek(Fd, 0, SEEK_END);
  if (pread(Fd, &H, sizeof(H), 0) != (ssize_t)sizeof(H) ||
      memcmp(H.magic, LWP_STATE_MAGIC, 8) != 0) {
    fprintf(stderr,
            "lwp-recover: error: '%s' is not an LWP state file (continuous "
            "mode, LWP_OUTPUT with %%c)\n",
            StateFile);
    close(Fd);
    return -1;
  }
  if (H.version != LWP_STATE_VERSION || H.layout != LWP_STATE_LAYOUT ||
      H.base != LWP_STATE_BASE || H.size < 4096 ||
      (uint64_t)FileSize != H.size || H.used > H.size) {
    fprintf(stderr,
            "lwp-recover: error: '%s' was written by another build of the "
            "LWP runtime, or is truncated\n",
            StateFile);
    close(Fd);
    return -1;
  }
  void *P = mmap((void *)LWP_STATE_BASE, H.size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_FIXED_NOREPLACE, Fd, 0);
  close(Fd);
  if (P == MAP_FAILED || P != (void *)LWP_STATE_BASE) {
    fprintf(stderr, "lwp-recover: error: cannot map '%s' at its address\n",
            StateFile);
    return -1;
  }
  const struct lwp_state_header *S = P;
  const char *Bad = validateState(S);
  if (Bad) {
    fprintf(stderr,
            "lwp-recover: error: '%s' is damaged (%s): no dump written\n",
            StateFile, Bad);
    munmap(P, H.size);
    return -1;
  }
  /* Instances still open end at the last counter value the state holds: the
   * newest record or frame start of any thread. */
  uint64_t Last = 0;
  for (struct lwp_thread_state *T = S->registry; T; T = T->next) {
    if (T->records && T->num_records && T->num_records <= T->capacity &&
        T->records[T->num_records - 1].cycles > Last)
      Last = T->records[T->num_records - 1].cycles;
    for (uint32_t K = 0; T->stack && K < T->depth; ++K)
      if (T->stack[K].start > Last)
        Last = T->stack[K].start;
  }
  pthread_mutex_lock(&Lock);
  Registry = S->registry;
  Images = S->images;
  NumImages = S->num_images;
  Modules = S->modules;
  NumModules = S->num_modules;
  NextId = S->next_id;
  ProbePairCost = S->pair_cost;
  ProbeNestedCost = S->nested_cost;
  lwp_cap = S->cap;
  DumpProcessId = S->process_id;
  RecoverLost = S->lost_threads;
  RecoverNow = Last ? Last : 1;
  pthread_mutex_unlock(&Lock);
  return lwp_dump_impl(DumpPath, 0);
}
