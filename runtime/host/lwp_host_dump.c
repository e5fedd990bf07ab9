/*===- lwp_host_dump.c - The host runtime's dump --------------------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * lwp_dump_impl: merges the threads' figures and records into the dump
 * (docs/dump-format.md, written by ../common/lwp_dump_writer.c) and writes
 * it by the rules of lwp_host_file.c. Usable in a signal handler: memory
 * comes from an arena mapped for the dump, messages go out through
 * write(2), the lock is only tried. Whoever must know that a dump is under
 * way (the signal handling) registers a guard.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include "../common/lwp_dump_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int lwp_dump_forked;
uint64_t lwp_dump_process_id, lwp_dump_now;
uint32_t lwp_dump_lost;

static const struct lwp_dump_guard *Guard;

void lwp_dump_set_guard(const struct lwp_dump_guard *G) { Guard = G; }

/* The folder and temporary of the dump being written (the guard's). */
static struct lwp_file_dir DumpDir = {-1, ""};
static struct lwp_file_temp DumpTemp = {-1, 0, ""};

/*===----------------------------------------------------------------------===*
 * Memory of the dump path, usable in a signal handler
 *===----------------------------------------------------------------------===*/

/* The dump path allocates from an arena mapped when a dump is written
 * (mmap is async-signal-safe), not at start-up, so that a program holds no
 * address space for it while it runs; under an address-space limit
 * (ulimit -v) a smaller arena is tried, down to 1 MiB. Released after the
 * dump. */
static char *Arena;
static size_t ArenaSize, ArenaUsed;

static void reserveArena(void) {
  for (size_t Size = (size_t)256 << 20; Size >= ((size_t)1 << 20); Size /= 2) {
    void *P = mmap(NULL, Size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P != MAP_FAILED) {
      Arena = P;
      ArenaSize = Size;
      ArenaUsed = 0;
      return;
    }
  }
  Arena = NULL;
  ArenaSize = ArenaUsed = 0;
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

/*===----------------------------------------------------------------------===*
 * The view of the dump
 *===----------------------------------------------------------------------===*/

/** Adds thread \p S's figures to \p Regions (\p NumIds entries; \p Open
 *  their open instances, scratch) and fills \p T, closing in the written
 *  figures the instances open at \p Now. Innermost first, each frame's
 *  additions to its parent carried in locals (no copy of the stack, so that
 *  no depth is too deep for the dump's memory); the live state is left
 *  alone, since recording may go on. */
static void viewThread(const struct lwp_thread_state *S,
                       struct lwp_dump_region *Regions, uint64_t *Open,
                       uint32_t NumIds, uint64_t Raw,
                       struct lwp_thread_view *T) {
  T->thread_id = S->thread_id;
  T->records = S->records;
  T->num_records = S->num_records;
  /* The thread's compensated clock now; a recovered state's threads end at
   * the last value each handed out. */
  uint64_t Now = lwp_dump_now ? S->last : Raw - S->overhead;
  if ((int64_t)(Now - S->last) < 0)
    Now = S->last;
  /* The tree, with the open instances closed as below in a copy (the live
   * tree as it is when the arena has no room for one). */
  const struct lwp_cct_node *Live =
      __atomic_load_n(&S->nodes, __ATOMIC_ACQUIRE);
  uint32_t NumNodes = __atomic_load_n(&S->num_nodes, __ATOMIC_ACQUIRE);
  struct lwp_dump_node *Nodes =
      Live && NumNodes ? arenaAlloc(NumNodes * sizeof(*Nodes)) : NULL;
  for (uint32_t K = 0; Nodes && K != NumNodes; ++K)
    Nodes[K] = Live[K].d;
  T->nodes = Nodes ? (const void *)Nodes : (const void *)Live;
  T->num_nodes = Live ? NumNodes : 0;
  T->node_stride = Nodes ? sizeof(*Nodes) : sizeof(*Live);
  const struct lwp_region_acc *A = __atomic_load_n(&S->acc, __ATOMIC_ACQUIRE);
  uint32_t Limit = __atomic_load_n(&S->count_limit, __ATOMIC_ACQUIRE);
  lwp_add_figures(Regions, NumIds, A, Limit);
  for (uint32_t I = 1; A && I < NumIds && I <= Limit; ++I)
    Open[I] = A[I].open;
  uint64_t TopCycles = S->top_cycles, TopInstances = S->top_instances,
           TopNested = S->top_nested;
  uint64_t CarryChild = 0, CarryNested = 0, CarryChildren = 0;
  for (uint32_t K = S->stack ? S->depth : 0; K-- > 0;) {
    const struct lwp_frame *F = &S->stack[K];
    uint64_t Child = F->child + CarryChild;
    uint64_t Nested = F->nested + CarryNested;
    uint64_t Children = F->children + CarryChildren;
    uint64_t Incl = Now - F->start;
    if (Nodes && F->node < NumNodes) {
      Nodes[F->node].cycles += Incl;
      ++Nodes[F->node].count;
    }
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
  T->top_cycles = TopCycles;
  T->top_instances = TopInstances;
  T->top_nested = TopNested;
  /* The root's figures are the top-level ones: the handlers count them
   * there only. Without a copy, in the live root (only the dump writes its
   * figures; a recovered state's mapping is private). */
  struct lwp_dump_node *Root =
      Nodes ? Nodes
            : (NumNodes && Live ? (struct lwp_dump_node *)&Live[0].d : NULL);
  if (Root) {
    Root->count = TopInstances;
    Root->cycles = TopCycles;
  }
}

/** Writes \p View to \p Path by the rules of lwp_host_file.c. Returns 0, or
 *  -1 after one line. */
static int writeView(const struct lwp_dump_view *View, const char *Path,
                     unsigned Flags) {
  const char *Why = NULL;
  int Result = -1;
  if (lwp_file_open_dir(Path, &DumpDir) != 0) {
    Why = lwp_errno_text(errno);
  } else if ((Why = lwp_file_refusal(&DumpDir))) {
    const char *Msg[] = {"lwp: dump not written: '",
                         Path,
                         "' ",
                         Why,
                         " (the runtime writes only regular files, never "
                         "through a link)\n",
                         NULL};
    lwp_say(Msg);
    Why = NULL;
  } else if (lwp_file_create_temp(&DumpDir, &DumpTemp) != 0) {
    Why = lwp_errno_text(errno);
  } else {
    Result = lwp_write_dump(View, lwp_file_write, &DumpTemp);
    int Err = errno;
    if (Result == 0) {
      Result = lwp_file_publish(&DumpDir, &DumpTemp,
                                (Flags & LWP_DUMP_NO_REPLACE) != 0);
      Err = errno;
    } else {
      lwp_file_discard(&DumpDir, &DumpTemp);
    }
    if (Result)
      Why = Err == EEXIST && (Flags & LWP_DUMP_NO_REPLACE)
                ? "a file of that name exists; it is kept"
                : lwp_errno_text(Err);
  }
  lwp_file_close_dir(&DumpDir);
  if (Why) {
    const char *Msg[] = {
        "lwp: dump to '", Path, "' not written: ", Why, "\n", NULL};
    lwp_say(Msg);
  }
  return Result;
}

int lwp_dump_impl(const char *Pattern, unsigned Flags) {
  int InSignal = (Flags & LWP_DUMP_IN_SIGNAL) != 0;
  if (!Pattern) {
    Pattern = getenv("LWP_OUTPUT");
    if (!Pattern || !*Pattern)
      Pattern = "lwp.dump";
  }
  char Path[4096];
  size_t Len = strlen(Pattern);
  if ((Flags & LWP_DUMP_LITERAL) ? Len >= sizeof(Path)
                                 : lwp_file_expand(Pattern, Path, sizeof(Path),
                                                   lwp_dump_forked) != 0) {
    const char *Msg[] = {"lwp: dump path '", Pattern, "' is too long\n", NULL};
    lwp_say(Msg);
    return -1;
  }
  if (Flags & LWP_DUMP_LITERAL)
    memcpy(Path, Pattern, Len + 1);

  /* In a signal handler the lock may be held by the interrupted thread: the
   * dump then goes on without it (the registry only grows). */
  int Locked = InSignal ? pthread_mutex_trylock(&lwp_lock) == 0
                        : pthread_mutex_lock(&lwp_lock) == 0;
  if (Guard)
    Guard->begin(&DumpDir, &DumpTemp);
  reserveArena();
  uint32_t NumIds = lwp_next_id;
  uint32_t NumThreads = 0, Lost = 0;
  for (struct lwp_thread_state *S = lwp_registry; S; S = S->next)
    ++NumThreads;
  struct lwp_dump_region *Regions = arenaAlloc(NumIds * sizeof(*Regions));
  uint64_t *Open = arenaAlloc(NumIds * sizeof(uint64_t));
  struct lwp_thread_view *Threads =
      arenaAlloc((NumThreads ? NumThreads : 1) * sizeof(*Threads));
  struct lwp_image_view *ImageViews =
      arenaAlloc((lwp_num_images ? lwp_num_images : 1) * sizeof(*ImageViews));
  int Result = -1;
  if (Regions && Open && Threads && ImageViews) {
    struct lwp_dump_view View;
    memset(&View, 0, sizeof(View));
    uint64_t Now = lwp_dump_now ? lwp_dump_now : lwp_read_counter();
    /* Threads that ended, then the live ones. */
    if (lwp_retired_acc)
      memcpy(Regions, lwp_retired_acc,
             (NumIds < lwp_retired_limit + 1 ? NumIds : lwp_retired_limit + 1) *
                 sizeof(*Regions));
    /* The registry is newest first; the dump lists threads oldest first. */
    uint32_t T = NumThreads;
    for (struct lwp_thread_state *S = lwp_registry; S; S = S->next) {
      viewThread(S, Regions, Open, NumIds, Now, &Threads[--T]);
      View.header.dropped += S->dropped;
      Lost |= S->lost;
    }
    for (uint32_t I = 0; I != lwp_num_images; ++I) {
      ImageViews[I].load_bias = lwp_images[I].LoadBias;
      ImageViews[I].build_id = lwp_images[I].BuildId;
      ImageViews[I].build_id_size = lwp_images[I].BuildIdSize;
      ImageViews[I].name = lwp_images[I].Name;
      ImageViews[I].name_size = (uint32_t)strlen(lwp_images[I].Name);
    }
    View.header.target = LWP_HOST_TARGET;
    View.header.counter = LWP_HOST_COUNTER;
    View.header.record_size = sizeof(struct lwp_record64);
    View.header.counter_hz = lwp_counter_frequency();
    View.header.num_ids = NumIds;
    View.header.cap = lwp_cap > UINT32_MAX ? UINT32_MAX : (uint32_t)lwp_cap;
    View.header.probe_pair_cost = lwp_probe_pair_cost;
    View.header.probe_nested_cost = lwp_probe_nested_cost;
    View.header.process_id =
        lwp_dump_process_id ? lwp_dump_process_id : (uint64_t)getpid();
    View.header.flags = LWP_DUMP_FLAG_FIGURES;
    if (lwp_compensation)
      View.header.flags |= LWP_DUMP_FLAG_COMPENSATED;
    if (Lost || lwp_fallback_state.lost || lwp_dump_lost) {
      View.header.flags |= LWP_DUMP_FLAG_LOST;
      View.header.dropped += lwp_fallback_state.dropped;
    }
    View.images = ImageViews;
    View.num_images = lwp_num_images;
    View.modules = lwp_modules;
    View.num_modules = lwp_num_modules;
    View.regions = Regions;
    View.threads = Threads;
    View.num_threads = NumThreads;
    Result = writeView(&View, Path, Flags);
  } else if (!Arena) {
    const char *Msg[] = {"lwp: no memory for the dump to '", Path,
                         "': not even 1 MiB of address space could be "
                         "reserved (ulimit -v?)\n",
                         NULL};
    lwp_say(Msg);
  } else {
    const char *Msg[] = {"lwp: no memory for the dump to '", Path,
                         "' (the dump arena is full)\n", NULL};
    lwp_say(Msg);
  }
  releaseArena();
  if (Guard)
    Guard->end();
  if (Locked)
    pthread_mutex_unlock(&lwp_lock);
  if (!InSignal && Guard)
    Guard->after();
  return Result;
}
