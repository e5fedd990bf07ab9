/*===- lwp_host.c - Host runtime: state, calibration, dump ----------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Everything of the host runtime but the handlers: per-thread state, start-up
 * (environment, probe-pair calibration, counter frequency), the images of the
 * process (dl_iterate_phdr), and lwp_dump / lwp_reset / the dump at exit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include "../common/lwp_dump_writer.h"
#include "lwp/Runtime/lwp_runtime.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread struct lwp_thread_state *lwp_tls_state
    __attribute__((tls_model("initial-exec")));
uint64_t lwp_cap = LWP_CAP;

/* Start/end probe handlers (lwp_host_handler.c). */
__attribute__((preserve_all)) void __lwp_probe_start(uint32_t Id);
__attribute__((preserve_all)) void __lwp_probe_end(uint32_t Id);

static pthread_mutex_t RegistryLock = PTHREAD_MUTEX_INITIALIZER;
static struct lwp_thread_state *Registry;
static uint64_t BufferRecords = LWP_BUFFER_RECORDS;
static uint32_t ProbePairCost, ProbeNestedCost;
static uint64_t StartTicks, StartNanos;

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

/* A state for threads whose buffers could not be allocated: it keeps no
 * record, and its counts are shared (and so only approximate). */
static uint64_t FallbackCounts[LWP_MAX_IDS];

__attribute__((preserve_all)) struct lwp_thread_state *lwp_thread_init(void) {
  struct lwp_thread_state *S = calloc(1, sizeof(*S));
  if (!S) {
    static struct lwp_thread_state Fallback = {
        FallbackCounts, 0, 0, 0, 0, 0, 0};
    fprintf(stderr, "lwp: out of memory for a thread's profile buffers; "
                    "this thread's regions are counted only\n");
    lwp_tls_state = &Fallback;
    return &Fallback;
  }
  S->counts = calloc(LWP_MAX_IDS, sizeof(uint64_t));
  /* Pages of a large malloc are touched only when records reach them. */
  S->records = malloc(BufferRecords * sizeof(struct lwp_record64));
  if (!S->counts || !S->records) {
    free(S->counts);
    free(S->records);
    free(S);
    S = NULL;
    return lwp_thread_init(); /* the fallback branch, now that S is freed */
  }
  S->capacity = BufferRecords;
  /* Touch the first pages now, so that the first recorded probes do not pay
   * page faults (about 45 ticks a pair here, docs/performance.md). */
  uint64_t Touch = BufferRecords < 16384 ? BufferRecords : 16384;
  memset(S->records, 0, Touch * sizeof(struct lwp_record64));
  S->thread_id = (uint64_t)syscall(SYS_gettid);
  pthread_mutex_lock(&RegistryLock);
  S->next = Registry;
  Registry = S;
  pthread_mutex_unlock(&RegistryLock);
  lwp_tls_state = S;
  return S;
}

static void resetState(struct lwp_thread_state *S) {
  memset(S->counts, 0, LWP_MAX_IDS * sizeof(uint64_t));
  S->num_records = 0;
  S->dropped = 0;
}

void lwp_reset(void) {
  pthread_mutex_lock(&RegistryLock);
  for (struct lwp_thread_state *S = Registry; S; S = S->next)
    resetState(S);
  pthread_mutex_unlock(&RegistryLock);
}

/* Calls through volatile pointers keep the calibration pairs real calls. */
typedef void ProbeFn(uint32_t) __attribute__((preserve_all));
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
 * IDs 0 and 1 are used and reset afterwards. */
static void calibrateProbes(void) {
  struct lwp_thread_state *S = lwp_tls_state ? lwp_tls_state : lwp_thread_init();
  if (S->capacity < 4)
    return;
  enum { Trials = 512 };
  static uint64_t Empty[Trials], Nested[Trials];
  unsigned Done = 0;
  uint64_t SavedCap = lwp_cap;
  lwp_cap = UINT64_MAX;
  for (int I = 0; I != Trials; ++I) {
    uint64_t N = S->num_records;
    StartFn(0);
    EndFn(0);
    StartFn(0);
    StartFn(1);
    EndFn(1);
    EndFn(0);
    if (S->num_records == N + 6) {
      const struct lwp_record64 *R = &S->records[N];
      uint64_t E = R[1].cycles - R[0].cycles, O = R[5].cycles - R[2].cycles;
      Empty[Done] = E;
      Nested[Done] = O > E ? O - E : 0;
      ++Done;
    }
    S->num_records = N;
  }
  lwp_cap = SavedCap;
  S->counts[0] = S->counts[1] = 0;
  if (!Done)
    return;
  qsort(Empty, Done, sizeof(uint64_t), compareU64);
  qsort(Nested, Done, sizeof(uint64_t), compareU64);
  if (Empty[Done / 2] <= UINT32_MAX)
    ProbePairCost = (uint32_t)Empty[Done / 2];
  if (Nested[Done / 2] <= UINT32_MAX)
    ProbeNestedCost = (uint32_t)Nested[Done / 2];
}

static uint64_t parseEnv(const char *Name, uint64_t Default) {
  const char *V = getenv(Name);
  if (!V || !*V)
    return Default;
  char *End;
  errno = 0;
  unsigned long long N = strtoull(V, &End, 10);
  if (errno || *End || V[0] == '-') {
    fprintf(stderr, "lwp: ignoring %s='%s': not an unsigned integer\n", Name,
            V);
    return Default;
  }
  return N;
}

static void dumpAtExit(void) {
  const char *Path = getenv("LWP_OUTPUT");
  if (Path && !*Path)
    return;
  lwp_dump(Path);
}

__attribute__((constructor(101))) static void lwpInit(void) {
  lwp_cap = parseEnv("LWP_CAP", LWP_CAP);
  BufferRecords = parseEnv("LWP_BUFFER_RECORDS", LWP_BUFFER_RECORDS);
  StartNanos = monotonicNanos();
  StartTicks = readCounter();
  calibrateProbes();
  atexit(dumpAtExit);
}

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

/* Images of the process, from dl_iterate_phdr. */
#define LWP_MAX_IMAGES 256
struct ImageList {
  struct lwp_image_view Views[LWP_MAX_IMAGES];
  uint32_t Count;
  char ExePath[4096];
};

static int addImage(struct dl_phdr_info *Info, size_t Size, void *Data) {
  struct ImageList *L = Data;
  if (L->Count == LWP_MAX_IMAGES)
    return 1;
  struct lwp_image_view *V = &L->Views[L->Count++];
  memset(V, 0, sizeof(*V));
  V->load_bias = Info->dlpi_addr;
  const char *Name = Info->dlpi_name;
  if (!Name || !*Name) {
    /* The main program: dl_iterate_phdr gives no name. */
    ssize_t N = readlink("/proc/self/exe", L->ExePath, sizeof(L->ExePath) - 1);
    L->ExePath[N > 0 ? N : 0] = '\0';
    Name = L->ExePath;
  }
  V->name = Name;
  V->name_size = (uint32_t)strlen(Name);
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
      if (H->n_type == NT_GNU_BUILD_ID && H->n_namesz == 4 &&
          memcmp(NameP, "GNU", 4) == 0 && Desc + H->n_descsz <= End) {
        V->build_id = Desc;
        V->build_id_size = H->n_descsz;
        break;
      }
      Note = Desc + ((H->n_descsz + 3) & ~3u);
    }
  }
  return 0;
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

int lwp_dump(const char *Path) {
  if (!Path) {
    Path = getenv("LWP_OUTPUT");
    if (!Path || !*Path)
      Path = "lwp.dump";
  }
  static struct ImageList Images;
  Images.Count = 0;
  dl_iterate_phdr(addImage, &Images);

  pthread_mutex_lock(&RegistryLock);
  uint32_t NumThreads = 0;
  for (struct lwp_thread_state *S = Registry; S; S = S->next)
    ++NumThreads;
  uint64_t *Counts = calloc(LWP_MAX_IDS, sizeof(uint64_t));
  struct lwp_thread_view *Threads =
      calloc(NumThreads ? NumThreads : 1, sizeof(*Threads));
  int Result = -1;
  if (Counts && Threads) {
    struct lwp_dump_view View;
    memset(&View, 0, sizeof(View));
    uint32_t T = NumThreads;
    /* The registry is newest first; the dump lists threads oldest first. */
    for (struct lwp_thread_state *S = Registry; S; S = S->next) {
      --T;
      Threads[T].thread_id = S->thread_id;
      Threads[T].records = S->records;
      Threads[T].num_records = S->num_records;
      View.header.dropped += S->dropped;
      for (uint32_t I = 0; I != LWP_MAX_IDS; ++I)
        Counts[I] += S->counts[I];
    }
    View.header.target = LWP_HOST_TARGET;
    View.header.counter = LWP_HOST_COUNTER;
    View.header.record_size = sizeof(struct lwp_record64);
    View.header.counter_hz = counterFrequency();
    View.header.num_ids = LWP_MAX_IDS;
    View.header.cap = lwp_cap > UINT32_MAX ? UINT32_MAX : (uint32_t)lwp_cap;
    View.header.probe_pair_cost = ProbePairCost;
    View.header.probe_nested_cost = ProbeNestedCost;
    View.images = Images.Views;
    View.num_images = Images.Count;
    View.counts64 = Counts;
    View.threads = Threads;
    View.num_threads = NumThreads;
    struct FileSink Sink = {
        open(Path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
    if (Sink.Fd >= 0) {
      Result = lwp_write_dump(&View, writeAll, &Sink);
      if (close(Sink.Fd))
        Result = -1;
    }
    if (Result)
      fprintf(stderr, "lwp: cannot write the dump to '%s': %s\n", Path,
              strerror(errno));
  } else {
    fprintf(stderr, "lwp: out of memory writing the dump to '%s'\n", Path);
  }
  pthread_mutex_unlock(&RegistryLock);
  free(Counts);
  free(Threads);
  return Result;
}
