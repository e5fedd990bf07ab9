/*===- lwp_hexagon_runtime.c - Freestanding Hexagon runtime -------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Everything of the Hexagon runtime but the handlers (lwp_handler.S) and the
 * entry (lwp_crt0.S): the handler state, start-up (counter choice, cap,
 * calibration), lwp_dump / lwp_reset, the dump at exit, Linux syscalls
 * through trap0(#1), a bump allocator and the few libc functions that
 * compiled kernels call. Single thread; no libc. See docs/hexagon-runtime.md.
 *
 * Build-time settings (-D):
 *   LWP_CAP             records kept per ID, default 100 (LWP_CAP env wins)
 *   LWP_MAX_IDS         entries of the count table, default 4096 (the
 *                       handlers must be assembled with the same value)
 *   LWP_BUFFER_RECORDS  records of the static buffer, default 65536
 *   LWP_HEAP_BYTES      arena of the bump allocator, default 64 MiB
 */
#include "lwp/Runtime/DumpFormat.h"
#include "lwp/Runtime/lwp_runtime.h"
#include "lwp_dump_writer.h"
#include "lwp_hexagon.h"

#include <stddef.h>
#include <stdint.h>

#ifndef LWP_CAP
#define LWP_CAP 100
#endif
#ifndef LWP_MAX_IDS
#define LWP_MAX_IDS 4096
#endif
#ifndef LWP_BUFFER_RECORDS
#define LWP_BUFFER_RECORDS 65536
#endif
#ifndef LWP_HEAP_BYTES
#define LWP_HEAP_BYTES (64u << 20)
#endif

_Static_assert(LWP_MAX_IDS > 0 && LWP_MAX_IDS <= (1u << 20),
               "LWP_MAX_IDS out of range");
_Static_assert(LWP_BUFFER_RECORDS > 0, "LWP_BUFFER_RECORDS must be positive");

/*===----------------------------------------------------------------------===*
 * Handler state (layout shared with lwp_handler.S: do not reorder)
 *===----------------------------------------------------------------------===*/

/** What the handlers read and write. The handlers address it through
 *  &Bias[0]; the other fields sit at negative offsets from there. */
struct lwp_hex_state {
  uint32_t Next;        /**< -32: address of the next free record */
  uint32_t LastMode;    /**< -28: address of the last slot | 1 for c20 */
  uint64_t Dropped;     /**< -24: records not stored */
  uint32_t Reserved[4]; /**< -16 */
  int32_t Bias[LWP_MAX_IDS]; /**< count - cap (+ 2^29 * lwp_hex_overflow) */
};
_Static_assert(offsetof(struct lwp_hex_state, Bias) == 32,
               "lwp_handler.S expects Bias at offset 32");
_Static_assert(sizeof(struct lwp_record32) == 16, "record size");

struct lwp_hex_state lwp_hex_state __attribute__((aligned(8)));
/** Units of 2^29 executions moved out of Bias by the capped start path. */
uint32_t lwp_hex_overflow[LWP_MAX_IDS];

/* One spare record after the last slot: the handlers write there when the
 * buffer is full (and drop the record). */
static struct lwp_record32 Buffer[LWP_BUFFER_RECORDS + 1]
    __attribute__((aligned(16)));

static uint32_t Cap = LWP_CAP;
static uint32_t CounterKind = LWP_COUNTER_PCYCLES;
static uint32_t PairCost, NestedCost;
static const char *ProgramName = "";
static const char *OutputPath = "lwp.dump";
static char **Environment;

void lwp_hex_empty_pair(void);  /* lwp_handler.S */
void lwp_hex_nested_pair(void); /* lwp_handler.S */

/* Defined by lwp_handler.S for its LWP_MAX_IDS: a handler assembled with
 * another table size than this file fails to link. */
#define LWP_CAT2(a, b) a##b
#define LWP_CAT(a, b) LWP_CAT2(a, b)
#define LWP_IDS_SYMBOL LWP_CAT(lwp_hex_max_ids_, LWP_MAX_IDS)
extern const char LWP_IDS_SYMBOL[];
__attribute__((used)) static const void *const IdsCheck = LWP_IDS_SYMBOL;

/*===----------------------------------------------------------------------===*
 * Syscalls (trap0(#1), number in r6, arguments r0-r5, result r0)
 *===----------------------------------------------------------------------===*/

enum {
  SysOpenat = 56,
  SysClose = 57,
  SysWrite = 64,
  SysExit = 93,
  AtFdCwd = -100,
  OWronly = 01,
  OCreat = 0100,
  OTrunc = 01000,
};

static long syscall4(long Nr, long A, long B, long C, long D) {
  register long R0 __asm__("r0") = A;
  register long R1 __asm__("r1") = B;
  register long R2 __asm__("r2") = C;
  register long R3 __asm__("r3") = D;
  register long R6 __asm__("r6") = Nr;
  __asm__ volatile("trap0(#1)"
                   : "+r"(R0)
                   : "r"(R1), "r"(R2), "r"(R3), "r"(R6)
                   : "memory");
  return R0;
}

_Noreturn void _exit(int Code) {
  for (;;)
    syscall4(SysExit, Code, 0, 0, 0);
}

/* Writes all of [Data, Data + Size) to Fd; 0 on success. */
static int writeAll(int Fd, const void *Data, uint64_t Size) {
  const char *P = (const char *)Data;
  while (Size) {
    long N = syscall4(SysWrite, Fd, (long)P,
                      Size > 0x40000000u ? 0x40000000 : (long)Size, 0);
    if (N <= 0)
      return -1;
    P += N;
    Size -= (uint64_t)N;
  }
  return 0;
}

/*===----------------------------------------------------------------------===*
 * libc subset
 *===----------------------------------------------------------------------===*/

void *memcpy(void *Dst, const void *Src, size_t N) {
  char *D = (char *)Dst;
  const char *S = (const char *)Src;
  if ((((uintptr_t)D | (uintptr_t)S | N) & 3) == 0) {
    for (size_t I = 0; I != N; I += 4)
      *(uint32_t *)(D + I) = *(const uint32_t *)(S + I);
    return Dst;
  }
  for (size_t I = 0; I != N; ++I)
    D[I] = S[I];
  return Dst;
}

void *memmove(void *Dst, const void *Src, size_t N) {
  char *D = (char *)Dst;
  const char *S = (const char *)Src;
  if (D <= S || D >= S + N)
    return memcpy(Dst, Src, N);
  while (N--)
    D[N] = S[N];
  return Dst;
}

void *memset(void *Dst, int C, size_t N) {
  unsigned char *D = (unsigned char *)Dst;
  for (size_t I = 0; I != N; ++I)
    D[I] = (unsigned char)C;
  return Dst;
}

int memcmp(const void *A, const void *B, size_t N) {
  const unsigned char *X = (const unsigned char *)A;
  const unsigned char *Y = (const unsigned char *)B;
  for (size_t I = 0; I != N; ++I)
    if (X[I] != Y[I])
      return X[I] < Y[I] ? -1 : 1;
  return 0;
}

size_t strlen(const char *S) {
  size_t N = 0;
  while (S[N])
    ++N;
  return N;
}

/* LLVM's Hexagon backend may call this for large aligned copies. */
void *__hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(void *Dst,
                                                            const void *Src,
                                                            size_t N) {
  return memcpy(Dst, Src, N);
}

/* Bump allocator: an 8-byte header before each block holds its size. */
static unsigned char Heap[LWP_HEAP_BYTES] __attribute__((aligned(64)));
static size_t HeapTop;

void *aligned_alloc(size_t Align, size_t Size) {
  if (Align < 8)
    Align = 8;
  if (Align & (Align - 1))
    return NULL;
  size_t Start = (HeapTop + 8 + Align - 1) & ~(Align - 1);
  if (Start > LWP_HEAP_BYTES || Size > LWP_HEAP_BYTES - Start)
    return NULL;
  *(uint64_t *)(Heap + Start - 8) = Size;
  HeapTop = Start + Size;
  return Heap + Start;
}

void *malloc(size_t Size) { return aligned_alloc(8, Size); }

void free(void *P) { (void)P; }

void *calloc(size_t N, size_t Size) {
  if (Size && N > (size_t)-1 / Size)
    return NULL;
  void *P = malloc(N * Size);
  if (P)
    memset(P, 0, N * Size);
  return P;
}

void *realloc(void *P, size_t Size) {
  if (!P)
    return malloc(Size);
  uint64_t Old = *((uint64_t *)P - 1);
  void *Q = malloc(Size);
  if (Q)
    memcpy(Q, P, Old < Size ? Old : Size);
  return Q;
}

int posix_memalign(void **Out, size_t Align, size_t Size) {
  if (Align < sizeof(void *) || (Align & (Align - 1)))
    return 22; /* EINVAL */
  void *P = aligned_alloc(Align, Size);
  if (!P)
    return 12; /* ENOMEM */
  *Out = P;
  return 0;
}

/*===----------------------------------------------------------------------===*
 * Output helpers (no division: Hexagon has no divide instruction and we link
 * no compiler runtime)
 *===----------------------------------------------------------------------===*/

void lwp_hex_puts(int Fd, const char *S) { writeAll(Fd, S, strlen(S)); }

void lwp_hex_put_char(int Fd, char C) { writeAll(Fd, &C, 1); }

void lwp_hex_put_udec(int Fd, uint64_t V) {
  char Buf[24];
  unsigned N = 0;
  uint64_t Pow = 1;
  while (Pow <= 1000000000000000000ull && Pow * 10 <= V)
    Pow *= 10;
  for (; Pow; ) {
    char D = '0';
    while (V >= Pow) {
      V -= Pow;
      ++D;
    }
    Buf[N++] = D;
    if (Pow == 1)
      break;
    /* Pow /= 10 without a division. */
    uint64_t Q = 1;
    while (Q * 10 < Pow)
      Q *= 10;
    Pow = Q;
  }
  writeAll(Fd, Buf, N);
}

void lwp_hex_put_dec(int Fd, int64_t V) {
  if (V < 0) {
    lwp_hex_put_char(Fd, '-');
    lwp_hex_put_udec(Fd, 0 - (uint64_t)V);
    return;
  }
  lwp_hex_put_udec(Fd, (uint64_t)V);
}

void lwp_hex_put_hex(int Fd, uint64_t V) {
  char Buf[18] = {'0', 'x'};
  unsigned N = 2;
  int Shift = 60;
  while (Shift > 0 && !((V >> Shift) & 0xf))
    Shift -= 4;
  for (; Shift >= 0; Shift -= 4)
    Buf[N++] = "0123456789abcdef"[(V >> Shift) & 0xf];
  writeAll(Fd, Buf, N);
}

/*===----------------------------------------------------------------------===*
 * Counters, state
 *===----------------------------------------------------------------------===*/

unsigned lwp_hex_counter_kind(void) { return CounterKind; }

uint64_t lwp_hex_read_counter(void) {
  return CounterKind == LWP_COUNTER_QEMU_PACKETS ? lwp_hex_read_c20()
                                                 : lwp_hex_read_upcycle();
}

uint32_t lwp_hex_probe_pair_cost(void) { return PairCost; }

uint64_t lwp_hex_count(uint32_t Id) {
  if (Id >= LWP_MAX_IDS)
    return 0;
  return (uint64_t)((int64_t)Cap + lwp_hex_state.Bias[Id]) +
         ((uint64_t)lwp_hex_overflow[Id] << 29);
}

uint64_t lwp_hex_dropped(void) { return lwp_hex_state.Dropped; }

uint32_t lwp_hex_num_records(void) {
  return (uint32_t)((struct lwp_record32 *)(uintptr_t)lwp_hex_state.Next -
                    Buffer);
}

/* Empties the buffer, the counts and the drop counter for cap \p NewCap. */
static void resetState(uint32_t NewCap) {
  Cap = NewCap;
  lwp_hex_state.Next = (uint32_t)(uintptr_t)&Buffer[0];
  lwp_hex_state.LastMode =
      (uint32_t)(uintptr_t)&Buffer[LWP_BUFFER_RECORDS - 1] |
      (CounterKind == LWP_COUNTER_QEMU_PACKETS ? 1u : 0u);
  lwp_hex_state.Dropped = 0;
  for (uint32_t I = 0; I != LWP_MAX_IDS; ++I) {
    lwp_hex_state.Bias[I] = -(int32_t)NewCap;
    lwp_hex_overflow[I] = 0;
  }
}

void lwp_reset(void) { resetState(Cap); }

/* Runs empty start/end pairs, then empty pairs nested in a pair, and keeps
 * the smallest end - start of an empty region (PairCost) and the smallest
 * extra length a nested pair gives its region (NestedCost). */
static void calibrate(void) {
  enum { Runs = 8 };
  resetState(2 * Runs);
  for (unsigned I = 0; I != Runs; ++I)
    lwp_hex_empty_pair();
  for (unsigned I = 0; I != Runs; ++I)
    lwp_hex_nested_pair();
  if (lwp_hex_num_records() != 6 * Runs)
    return;
  uint64_t Empty = ~0ull, Nested = ~0ull;
  for (uint32_t I = 0; I != Runs; ++I) {
    const struct lwp_record32 *R = &Buffer[2 * I];
    if (R[1].cycles >= R[0].cycles && R[1].cycles - R[0].cycles < Empty)
      Empty = R[1].cycles - R[0].cycles;
  }
  for (uint32_t I = 0; I != Runs; ++I) {
    const struct lwp_record32 *R = &Buffer[2 * Runs + 4 * I];
    if (R[3].cycles >= R[0].cycles && R[3].cycles - R[0].cycles < Nested)
      Nested = R[3].cycles - R[0].cycles;
  }
  if (Empty <= 0xffffffffu)
    PairCost = (uint32_t)Empty;
  if (Nested != ~0ull && Nested >= Empty && Nested - Empty <= 0xffffffffu)
    NestedCost = (uint32_t)(Nested - Empty);
}

/* Chooses UPCYCLE when it moves, else QEMU's packet counter. */
static uint32_t chooseCounter(void) {
  uint64_t A = lwp_hex_read_upcycle();
  for (volatile unsigned I = 0; I != 1000; ++I)
    ;
  uint64_t B = lwp_hex_read_upcycle();
  return B != A ? LWP_COUNTER_PCYCLES : LWP_COUNTER_QEMU_PACKETS;
}

/* The value of environment variable \p Name, or NULL. */
static const char *getEnv(const char *Name) {
  size_t Len = strlen(Name);
  for (char **E = Environment; E && *E; ++E)
    if (!memcmp(*E, Name, Len) && (*E)[Len] == '=')
      return *E + Len + 1;
  return NULL;
}

/* Parses a decimal cap; clamps to 2^31 - 1 (the bias is a signed 32-bit
 * value). Returns \p Default for an empty or malformed value. */
static uint32_t parseCap(const char *S, uint32_t Default) {
  if (!S || !*S)
    return Default;
  uint64_t V = 0;
  for (; *S; ++S) {
    if (*S < '0' || *S > '9')
      return Default;
    V = V * 10 + (uint64_t)(*S - '0');
    if (V > 0x7fffffffu)
      V = 0x7fffffffu;
  }
  return (uint32_t)V;
}

/*===----------------------------------------------------------------------===*
 * Build ID: the PT_NOTE segments of our own ELF image, via __ehdr_start
 *===----------------------------------------------------------------------===*/

struct Elf32Ehdr {
  unsigned char Ident[16];
  uint16_t Type, Machine;
  uint32_t Version, Entry, Phoff, Shoff, Flags;
  uint16_t Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstrndx;
};
struct Elf32Phdr {
  uint32_t Type, Offset, Vaddr, Paddr, Filesz, Memsz, Flags, Align;
};
extern const struct Elf32Ehdr __ehdr_start __attribute__((weak));

/* Finds the GNU build ID; returns its size (0 when none). */
static uint32_t findBuildId(const uint8_t **Out) {
  const struct Elf32Ehdr *Eh = &__ehdr_start;
  if (!Eh || memcmp(Eh->Ident, "\177ELF", 4))
    return 0;
  const struct Elf32Phdr *Ph =
      (const struct Elf32Phdr *)((const char *)Eh + Eh->Phoff);
  for (unsigned I = 0; I != Eh->Phnum; ++I) {
    if (Ph[I].Type != 4 /* PT_NOTE */)
      continue;
    const uint8_t *P = (const uint8_t *)(uintptr_t)Ph[I].Vaddr;
    const uint8_t *End = P + Ph[I].Filesz;
    while (P + 12 <= End) {
      uint32_t NameSz = ((const uint32_t *)P)[0];
      uint32_t DescSz = ((const uint32_t *)P)[1];
      uint32_t Type = ((const uint32_t *)P)[2];
      const uint8_t *Name = P + 12;
      const uint8_t *Desc = Name + ((NameSz + 3) & ~3u);
      if (Type == 3 /* NT_GNU_BUILD_ID */ && NameSz == 4 &&
          !memcmp(Name, "GNU", 4) && Desc + DescSz <= End) {
        *Out = Desc;
        return DescSz;
      }
      P = Desc + ((DescSz + 3) & ~3u);
    }
  }
  return 0;
}

/*===----------------------------------------------------------------------===*
 * Dump
 *===----------------------------------------------------------------------===*/

static uint64_t CountsOut[LWP_MAX_IDS];

static int writeToFd(void *Ctx, const void *Data, uint64_t Size) {
  return writeAll((int)(intptr_t)Ctx, Data, Size);
}

int lwp_dump(const char *Path) {
  if (!Path)
    Path = OutputPath;
  if (!Path || !*Path)
    return -1;

  struct lwp_dump_view V;
  memset(&V, 0, sizeof(V));
  V.header.target = LWP_TARGET_HEXAGON;
  V.header.counter = (uint16_t)CounterKind;
  V.header.record_size = sizeof(struct lwp_record32);
  V.header.counter_hz = 0;
  V.header.num_ids = LWP_MAX_IDS;
  V.header.cap = Cap;
  V.header.dropped = lwp_hex_state.Dropped;
  V.header.probe_pair_cost = PairCost;
  V.header.probe_nested_cost = NestedCost;

  struct lwp_image_view Image;
  Image.load_bias = 0;
  Image.build_id = NULL;
  Image.build_id_size = findBuildId(&Image.build_id);
  Image.name = ProgramName;
  Image.name_size = (uint32_t)strlen(ProgramName);
  V.images = &Image;
  V.num_images = 1;

  for (uint32_t I = 0; I != LWP_MAX_IDS; ++I)
    CountsOut[I] = lwp_hex_count(I);
  V.counts64 = CountsOut;

  struct lwp_thread_view Thread;
  Thread.thread_id = 0;
  Thread.records = Buffer;
  Thread.num_records = lwp_hex_num_records();
  V.threads = &Thread;
  V.num_threads = 1;

  long Fd = syscall4(SysOpenat, AtFdCwd, (long)Path, OWronly | OCreat | OTrunc,
                     0644);
  if (Fd < 0)
    return -1;
  int Err = lwp_write_dump(&V, writeToFd, (void *)(intptr_t)Fd);
  if (syscall4(SysClose, Fd, 0, 0, 0) < 0)
    Err = -1;
  return Err ? -1 : 0;
}

_Noreturn void exit(int Code) {
  if (OutputPath && *OutputPath && lwp_dump(OutputPath)) {
    lwp_hex_puts(2, "lwp: cannot write the dump to ");
    lwp_hex_puts(2, OutputPath);
    lwp_hex_puts(2, "\n");
  }
  _exit(Code);
}

/*===----------------------------------------------------------------------===*
 * Start-up
 *===----------------------------------------------------------------------===*/

int main(int Argc, char **Argv, char **Envp);

/** Called by _start (lwp_crt0.S) with the initial stack's argc, argv, envp. */
_Noreturn void lwp_hex_start(int Argc, char **Argv, char **Envp);
_Noreturn void lwp_hex_start(int Argc, char **Argv, char **Envp) {
  Environment = Envp;
  if (Argc > 0 && Argv[0])
    ProgramName = Argv[0];
  const char *Out = getEnv("LWP_OUTPUT");
  if (Out)
    OutputPath = Out;
  CounterKind = chooseCounter();
  /* Tests force UPCYCLE under QEMU (it then records 0) to run the handlers'
   * hardware path; nothing forces c20, which is reserved on hardware. */
  const char *Force = getEnv("LWP_HEXAGON_COUNTER");
  if (Force && !memcmp(Force, "upcycle", 8))
    CounterKind = LWP_COUNTER_PCYCLES;
  calibrate();
  resetState(parseCap(getEnv("LWP_CAP"), LWP_CAP));
  exit(main(Argc, Argv, Envp));
}
