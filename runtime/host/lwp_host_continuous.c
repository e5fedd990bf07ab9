/*===- lwp_host_continuous.c - The continuous-mode state file ------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * With %c in LWP_OUTPUT, every allocation of the profile state (thread
 * states, figure tables, stacks, record buffers, images, modules) comes from
 * one shared mapping of the file "<dump>.state", at a fixed address, and the
 * few globals the dump needs are mirrored into its header. The page cache
 * holds what the probes write, so the state survives _exit and SIGKILL;
 * lwp-recover maps the file at the same address in a process of its own,
 * where every pointer of the state is valid again, and writes the dump with
 * the runtime's dump code (lwp_host_recover.c). A normal exit or a fatal
 * signal writes the dump and removes the state file.
 *
 * The file never has a hole that the probes write into: it grows as the
 * state is allocated, and its blocks are allocated (fallocate) before any
 * pointer to them is handed out, never past the file size limit. A full
 * file system or `ulimit -f` then fails an allocation (the thread counts
 * only, or its probes are dropped and the dump says so) instead of raising
 * SIGBUS or SIGXFSZ in the program. When not even the first pages can be
 * allocated, the program runs on without continuous mode, after one line.
 *
 * The mode is per process: a child of fork() goes on with a private mapping
 * of the file (copied page by page as it writes) and writes its own dump at
 * exit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <stddef.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/** The state file (empty when the mode is off), its folder (opened when it
 *  was created), its identity (only that file is ever removed, whatever the
 *  program did to the working directory or the name since) and descriptor
 *  (kept open to grow it). */
static char StatePath[4200];
static struct lwp_file_dir StateDir = {-1, ""};
static struct lwp_file_id StateId;
static int StateFd = -1;
/** Bytes of the mapping: LWP_STATE_MB (default 4096 MiB of address space;
 *  the file holds only what was allocated). */
static uint64_t StateSize;
/** Bytes of the file allocated so far (a multiple of 1 MiB). */
static uint64_t Reserved;
/** Serialises the state's allocations and the file's growth. */
static pthread_mutex_t AllocLock = PTHREAD_MUTEX_INITIALIZER;

static struct lwp_state_header *State;

int lwp_state_active(void) { return State != NULL; }

/* FNV-1a 64 over \p N bytes of \p P, from \p H. */
static uint64_t fnv(uint64_t H, const void *P, size_t N) {
  const unsigned char *B = P;
  for (size_t I = 0; I != N; ++I) {
    H ^= B[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

#define FNV_START 0xcbf29ce484222325ull

/** The checksum of header \p S (but `used` and `checksum`), its image
 *  table, names, build IDs and module table; \p Limit bounds what is read
 *  (the used part of the mapping), so a damaged header reads no further. */
static uint64_t headerChecksum(const struct lwp_state_header *S,
                               uintptr_t Limit) {
  struct lwp_state_header H = *S;
  H.used = 0;
  H.checksum = 0;
  uint64_t C = fnv(FNV_START, &H, sizeof(H));
  uintptr_t Images = (uintptr_t)S->images, Modules = (uintptr_t)S->modules;
  if (Images && Images < Limit &&
      S->num_images <= (Limit - Images) / sizeof(struct lwp_image_info)) {
    C = fnv(C, S->images, S->num_images * sizeof(struct lwp_image_info));
    for (uint32_t I = 0; I != S->num_images; ++I) {
      const struct lwp_image_info *Img = &S->images[I];
      uintptr_t Name = (uintptr_t)Img->Name, Id = (uintptr_t)Img->BuildId;
      if (Name >= (uintptr_t)S && Name < Limit)
        C = fnv(C, Img->Name, strnlen(Img->Name, Limit - Name));
      if (Id >= (uintptr_t)S && Id < Limit && Img->BuildIdSize <= Limit - Id)
        C = fnv(C, Img->BuildId, Img->BuildIdSize);
    }
  }
  if (Modules && Modules < Limit &&
      S->num_modules <= (Limit - Modules) / sizeof(struct lwp_dump_module))
    C = fnv(C, S->modules, S->num_modules * sizeof(struct lwp_dump_module));
  return C;
}

/* test/Runtime/Host/Inputs/damage_state.py damages and reseals states with
 * these offsets. */
_Static_assert(offsetof(struct lwp_thread_state, records) == 16 &&
                   offsetof(struct lwp_thread_state, nodes) == 152 &&
                   offsetof(struct lwp_thread_state, node_capacity) == 164 &&
                   offsetof(struct lwp_thread_state, next) == 168 &&
                   offsetof(struct lwp_thread_state, check) == 176 &&
                   offsetof(struct lwp_state_header, checksum) == 112,
               "update test/Runtime/Host/Inputs/damage_state.py");

/** The checksum of the fields of \p T that change only when a table grows. */
static uint64_t threadCheck(const struct lwp_thread_state *T) {
  uint64_t C = FNV_START;
  C = fnv(C, &T->acc, sizeof(T->acc));
  C = fnv(C, &T->count_limit, sizeof(T->count_limit));
  C = fnv(C, &T->records, sizeof(T->records));
  C = fnv(C, &T->capacity, sizeof(T->capacity));
  C = fnv(C, &T->thread_id, sizeof(T->thread_id));
  C = fnv(C, &T->stack, sizeof(T->stack));
  C = fnv(C, &T->stack_capacity, sizeof(T->stack_capacity));
  C = fnv(C, &T->nodes, sizeof(T->nodes));
  C = fnv(C, &T->node_capacity, sizeof(T->node_capacity));
  C = fnv(C, &T->next, sizeof(T->next));
  return C;
}

static void seal(void) {
  State->checksum =
      headerChecksum(State, (uintptr_t)State + (uintptr_t)State->used);
}

void lwp_state_seal_thread(struct lwp_thread_state *S) {
  if (State && S)
    S->check = threadCheck(S);
}

/** True for memory of the state mapping (also after a fork child left
 *  continuous mode: what was allocated there is not malloc's to free). */
static int inStateMapping(const void *P) {
  return StateSize && (uintptr_t)P >= LWP_STATE_BASE &&
         (uintptr_t)P - LWP_STATE_BASE < StateSize;
}

/** Makes sure the file's blocks cover [0, \p End). AllocLock held. */
static int reserve(uint64_t End) {
  if (End <= Reserved)
    return 0;
  /* Grow by a quarter at least (fewer calls), in whole MiB. */
  uint64_t Want = End > Reserved + Reserved / 4 ? End : Reserved + Reserved / 4;
  Want = (Want + ((1u << 20) - 1)) & ~(uint64_t)((1u << 20) - 1);
  if (Want > StateSize)
    Want = StateSize;
  if (lwp_file_reserve(StateFd, Reserved, Want) == 0) {
    Reserved = Want;
    return 0;
  }
  /* Not that much: exactly what is needed. */
  if (Want > End && lwp_file_reserve(StateFd, Reserved, End) == 0) {
    Reserved = End;
    return 0;
  }
  return -1;
}

void *lwp_state_alloc(size_t Size) {
  if (!State)
    return calloc(1, Size ? Size : 1);
  uint64_t Need = ((uint64_t)Size + 63) & ~(uint64_t)63;
  void *P = NULL;
  pthread_mutex_lock(&AllocLock);
  uint64_t Start = State->used;
  /* `used` never passes `size` nor the file's allocated blocks (lwp-recover
   * checks both). */
  if (Start <= State->size && Need <= State->size - Start &&
      reserve(Start + Need) == 0) {
    State->used = Start + Need;
    P = (char *)State + Start; /* fresh file blocks are zero */
  }
  pthread_mutex_unlock(&AllocLock);
  return P;
}

void lwp_state_free(void *P) {
  if (!State && !inStateMapping(P))
    free(P);
}

void *lwp_state_grow(void *Old, size_t OldSize, size_t NewSize) {
  if (!State && !inStateMapping(Old))
    return realloc(Old, NewSize);
  void *New = lwp_state_alloc(NewSize);
  if (New && Old)
    memcpy(New, Old, OldSize);
  return New;
}

void lwp_state_persist_registry(struct lwp_thread_state *Registry) {
  if (!State)
    return;
  State->registry = Registry;
  seal();
}

void lwp_state_persist_modules(struct lwp_image_info *Images,
                               uint32_t NumImages,
                               struct lwp_dump_module *Modules,
                               uint32_t NumModules, uint32_t NextId) {
  if (!State)
    return;
  State->images = Images;
  State->num_images = NumImages;
  State->modules = Modules;
  State->num_modules = NumModules;
  State->next_id = NextId;
  seal();
}

void lwp_state_persist_run(uint64_t Cap, uint32_t PairCost, uint32_t NestedCost,
                           int Compensated) {
  if (!State)
    return;
  State->compensated = (uint32_t)Compensated;
  State->cap = Cap;
  State->pair_cost = PairCost;
  State->nested_cost = NestedCost;
  State->process_id = (uint64_t)getpid();
  seal();
}

void lwp_state_note_lost_thread(void) {
  if (!State)
    return;
  pthread_mutex_lock(&lwp_lock);
  State->lost_threads = 1;
  seal();
  pthread_mutex_unlock(&lwp_lock);
}

void lwp_remove_state(void) {
  if (!StatePath[0])
    return;
  lwp_file_remove_own(&StateDir, &StateId);
}

void lwp_state_enter(const char *Pattern) {
  if (!Pattern || !strstr(Pattern, "%c"))
    return;
  StateSize = lwp_parse_env("LWP_STATE_MB", 4096, 64, 1 << 20) << 20;
  char Path[4096];
  if (lwp_file_expand(Pattern, Path, sizeof(Path), 0))
    return;
  snprintf(StatePath, sizeof(StatePath), "%s.state", Path);
  const char *Why = NULL;
  int Fd = -1;
  if (lwp_file_open_dir(StatePath, &StateDir) != 0) {
    Why = lwp_errno_text(errno);
  } else if ((Fd = lwp_file_create_state(&StateDir, &StateId)) < 0) {
    Why = errno == EEXIST
              ? "a file of that name exists (the state of a run that ended "
                "without its dump? recover it with lwp-recover, or remove "
                "it); it is left alone"
              : lwp_errno_text(errno);
  }
  int Created = Fd >= 0;
  if (Why) {
    /* Reported below. */
  } else if ((StateFd = Fd, Reserved = 0, reserve(1u << 20) != 0)) {
    Why = errno == EOPNOTSUPP
              ? "the file system cannot allocate its blocks ahead "
                "(fallocate), and probes writing into a hole could crash "
                "the program when it fills up"
              : lwp_errno_text(errno);
  } else {
    void *P = mmap((void *)LWP_STATE_BASE, StateSize, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, Fd, 0);
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
      State->process_id = (uint64_t)getpid();
      seal();
    }
  }
  if (!State) {
    if (Fd >= 0)
      close(Fd);
    StateFd = -1;
    Reserved = 0;
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

/* The forking thread's state as it was at the fork, for the child. */
static struct lwp_thread_state ForkState;
static struct lwp_region_acc *ForkAcc;
static struct lwp_frame *ForkStack;
static struct lwp_cct_node *ForkNodes;

void lwp_state_fork_prepare(struct lwp_thread_state *S) {
  if (!State || !S)
    return;
  ForkState = *S;
  size_t AccBytes = S->acc ? ((size_t)S->count_limit + 1) * sizeof(*S->acc) : 0;
  size_t StackBytes = S->stack ? (size_t)S->depth * sizeof(*S->stack) : 0;
  size_t NodeBytes = (size_t)S->num_nodes * sizeof(*S->nodes);
  ForkAcc = AccBytes ? malloc(AccBytes) : NULL;
  ForkStack = StackBytes ? malloc(StackBytes) : NULL;
  ForkNodes = NodeBytes ? malloc(NodeBytes) : NULL;
  if (ForkAcc)
    memcpy(ForkAcc, S->acc, AccBytes);
  if (ForkStack)
    memcpy(ForkStack, S->stack, StackBytes);
  if (ForkNodes)
    memcpy(ForkNodes, S->nodes, NodeBytes);
}

static void freeForkCopy(void) {
  free(ForkAcc);
  free(ForkStack);
  free(ForkNodes);
  ForkAcc = NULL;
  ForkStack = NULL;
  ForkNodes = NULL;
}

void lwp_state_fork_parent(void) { freeForkCopy(); }

void lwp_state_fork_child(struct lwp_thread_state *S) {
  if (!State)
    return;
  /* The same file, privately: the parent's later writes stay its own
   * (pages the child has not written yet may show them, but the child
   * reads only what it rewrites below or writes itself). */
  void *P = mmap(State, StateSize, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE, StateFd, 0);
  if (P == MAP_FAILED) {
    /* Keep the shared mapping but write nothing more into it. */
    S = NULL;
  }
  if (S) {
    *S = ForkState;
    if (ForkAcc)
      memcpy(S->acc, ForkAcc, ((size_t)S->count_limit + 1) * sizeof(*S->acc));
    if (ForkStack)
      memcpy(S->stack, ForkStack, (size_t)S->depth * sizeof(*S->stack));
    if (ForkNodes)
      memcpy(S->nodes, ForkNodes, (size_t)S->num_nodes * sizeof(*S->nodes));
    /* The parent may have cached nodes the child does not have. */
    if (S->cct_cache != lwp_cct_no_cache)
      memset(S->cct_cache, 0, sizeof(lwp_cct_no_cache));
  }
  freeForkCopy();
  if (P != MAP_FAILED)
    State->used = StateSize; /* nothing more is allocated there */
  close(StateFd);
  StateFd = -1;
  lwp_file_close_dir(&StateDir);
  State = NULL;
  StatePath[0] = '\0';
}

/*===----------------------------------------------------------------------===*
 * Reading a state file back (lwp-recover)
 *===----------------------------------------------------------------------===*/

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
  if (headerChecksum(S, (uintptr_t)S + S->used) != S->checksum)
    return "its header, images or modules do not match their checksum";
  uint64_t MaxThreads = S->used / sizeof(struct lwp_thread_state) + 1;
  uint64_t N = 0;
  for (const struct lwp_thread_state *T = S->registry; T; T = T->next) {
    if (++N > MaxThreads)
      return "its list of threads does not end";
    if (!inState(S, T, 1, sizeof(*T)))
      return "a thread's state lies outside the file";
    if (T->check != threadCheck(T))
      return "a thread's state does not match its checksum";
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
    if (T->num_nodes > T->node_capacity || !T->num_nodes ||
        (T->nodes != &T->root_node &&
         !inState(S, T->nodes, T->node_capacity, sizeof(struct lwp_cct_node))))
      return "a thread's calling-context tree lies outside the file";
    for (uint32_t K = 1; K < T->num_nodes; ++K)
      if (T->nodes[K].d.parent >= K || !T->nodes[K].d.id ||
          (T->nodes[K].d.id >= S->next_id && S->next_id))
        return "a thread's calling-context tree is inconsistent";
    /* Figures that cannot be: an ID past those registered, counts below
     * their instances. */
    for (uint32_t K = 0; K != T->depth; ++K)
      if ((T->stack[K].id >= S->next_id && S->next_id) ||
          (T->stack[K].node & ~LWP_CCT_FOLDED) >= T->num_nodes)
        return "a thread's stack holds an unknown region";
    for (uint32_t I = 0; T->acc && I <= T->count_limit; ++I) {
      const struct lwp_region_acc *A = &T->acc[I];
      if (A->outer > A->count || A->unwound > A->count || A->open > A->count)
        return "a thread's figures are inconsistent";
      if (A->count > (UINT64_MAX >> 1))
        return "a thread's records outnumber its counts";
    }
    /* Records in execution order: registered IDs, counter values that never
     * go back, and no more start records of a region than its count (the
     * counts are taken down in place, then put back: the mapping is private
     * to this process, and a refused state writes no dump). */
    const struct lwp_record64 *R = T->records;
    struct lwp_region_acc *Acc = T->acc;
    for (uint64_t K = 0; K < T->num_records; ++K) {
      uint32_t Id = R[K].id_word & ~LWP_ID_END_BIT;
      if (Id >= S->next_id || (K && R[K].cycles < R[K - 1].cycles))
        return "a thread's records are inconsistent";
      if (!Id || (R[K].id_word & LWP_ID_END_BIT))
        continue;
      if (!Acc || Id > T->count_limit)
        return "a thread's records are inconsistent";
      if (Acc[Id].count-- == 0)
        return "a thread's records outnumber its counts";
    }
    for (uint64_t K = 0; K < T->num_records; ++K)
      if (R[K].id_word && !(R[K].id_word & LWP_ID_END_BIT))
        ++Acc[R[K].id_word].count;
  }
  if (!inState(S, S->images, S->num_images, sizeof(struct lwp_image_info)))
    return "its image table lies outside the file";
  for (uint32_t I = 0; I != S->num_images; ++I) {
    const struct lwp_image_info *Img = &S->images[I];
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

const struct lwp_state_header *lwp_state_map(const char *File,
                                             const char *Tool) {
  /* A FIFO or a device would block or lie: regular files only, opened
   * without blocking. */
  int Fd = open(File, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (Fd < 0) {
    fprintf(stderr, "%s: error: cannot open '%s': %s\n", Tool, File,
            strerror(errno));
    return NULL;
  }
  struct stat St;
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    fprintf(stderr, "%s: error: '%s' is not a regular file\n", Tool, File);
    close(Fd);
    return NULL;
  }
  struct lwp_state_header H;
  uint64_t FileSize = (uint64_t)St.st_size;
  if (pread(Fd, &H, sizeof(H), 0) != (ssize_t)sizeof(H) ||
      memcmp(H.magic, LWP_STATE_MAGIC, 8) != 0) {
    fprintf(stderr,
            "%s: error: '%s' is not an LWP state file (continuous mode, "
            "LWP_OUTPUT with %%c)\n",
            Tool, File);
    close(Fd);
    return NULL;
  }
  if (H.version != LWP_STATE_VERSION || H.layout != LWP_STATE_LAYOUT ||
      H.base != LWP_STATE_BASE || H.size < 4096 || H.used < 4096 ||
      H.used > H.size || FileSize < H.used || FileSize > H.size) {
    fprintf(stderr,
            "%s: error: '%s' was written by another build of the LWP "
            "runtime, or is truncated\n",
            Tool, File);
    close(Fd);
    return NULL;
  }
  /* Only the file's own bytes: past its end a mapping faults. */
  void *P = mmap((void *)LWP_STATE_BASE, FileSize, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_FIXED_NOREPLACE, Fd, 0);
  close(Fd);
  if (P == MAP_FAILED || P != (void *)LWP_STATE_BASE) {
    fprintf(stderr, "%s: error: cannot map '%s' at its address\n", Tool, File);
    return NULL;
  }
  const struct lwp_state_header *S = P;
  const char *Bad = validateState(S);
  if (Bad) {
    fprintf(stderr, "%s: error: '%s' is damaged (%s): no dump written\n", Tool,
            File, Bad);
    munmap(P, FileSize);
    return NULL;
  }
  return S;
}
