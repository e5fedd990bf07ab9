/*===- lwp_hexagon_runtime.c - Freestanding Hexagon runtime -------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Everything of the Hexagon runtime but the handlers (lwp_handler.S) and the
 * entry (lwp_crt0.S): the handler state, module registration
 * (__lwp_register_module), start-up (counter choice, cap, calibration, the
 * program's constructors), lwp_dump / lwp_reset, the destructors and the dump
 * at exit, Linux syscalls through trap0(#1), a bump allocator and the few
 * libc functions that compiled kernels call. Single thread; no libc. See
 * docs/hexagon-runtime.md.
 *
 * Build-time settings (-D):
 *   LWP_CAP             records kept per region, default 100 (LWP_CAP env
 *                       wins)
 *   LWP_MAX_MODULES     entries of the module table, default 4096
 *   LWP_BUFFER_RECORDS  records of the static buffer, default 65536
 *   LWP_HEAP_BYTES      arena of the bump allocator, default 64 MiB
 */
#include "lwp/Runtime/DumpFormat.h"
#include "lwp/Runtime/MapFormat.h"
#include "lwp/Runtime/lwp_runtime.h"
#include "lwp_dump_writer.h"
#include "lwp_hexagon.h"

#include <stddef.h>
#include <stdint.h>

#ifndef LWP_CAP
#define LWP_CAP 100
#endif
#ifndef LWP_MAX_MODULES
#define LWP_MAX_MODULES 4096
#endif
#ifndef LWP_BUFFER_RECORDS
#define LWP_BUFFER_RECORDS 65536
#endif
#ifndef LWP_HEAP_BYTES
#define LWP_HEAP_BYTES (64u << 20)
#endif

_Static_assert(LWP_MAX_MODULES > 0, "LWP_MAX_MODULES must be positive");
_Static_assert(LWP_BUFFER_RECORDS > 0, "LWP_BUFFER_RECORDS must be positive");

/*===----------------------------------------------------------------------===*
 * Handler state (layout shared with lwp_handler.S: do not reorder)
 *===----------------------------------------------------------------------===*/

/** What the handlers read and write besides the region slots; they address
 *  it absolutely (##lwp_hex_state). The counts live in the slots
 *  (struct lwp_slot: bias and overflow). */
struct lwp_hex_state {
  uint32_t Next;     /**< +0: address of the next free record */
  uint32_t LastMode; /**< +4: address of the last slot | 1 for c20 */
  uint64_t Dropped;  /**< +8: records not stored */
};
_Static_assert(offsetof(struct lwp_hex_state, LastMode) == 4 &&
                   offsetof(struct lwp_hex_state, Dropped) == 8,
               "lwp_handler.S expects next, last|mode, dropped at 0, 4, 8");
_Static_assert(sizeof(struct lwp_record32) == 16, "record size");
_Static_assert(sizeof(struct lwp_slot) == 64 &&
                   offsetof(struct lwp_slot, bias) == 4 &&
                   offsetof(struct lwp_slot, overflow) == 8,
               "lwp_handler.S expects bias at slot+4, overflow at slot+8");

struct lwp_hex_state lwp_hex_state __attribute__((aligned(8)));

/** The two regions of the calibration (lwp_hex_empty_pair and
 *  lwp_hex_nested_pair in lwp_handler.S): slots of the runtime itself, not
 *  in lwp_map and never registered, so they have no ID and no count in the
 *  dump. Zero outside the calibration. */
struct lwp_slot lwp_hex_calibration_slots[2] __attribute__((aligned(16)));

/* One spare record after the last slot, a guard: the handlers test for a
 * full buffer before they store any record field. */
static struct lwp_record32 Buffer[LWP_BUFFER_RECORDS + 1]
    __attribute__((aligned(16)));

/* The registered modules, in registration order: module I's regions have the
 * IDs Modules[I].first_id .. first_id + num_regions - 1 (increasing with I),
 * and blob_vaddr holds the blob's address (the executable's load bias is
 * 0). Written to the dump as they are. */
static struct lwp_dump_module Modules[LWP_MAX_MODULES];
static uint32_t NumModules;
/* The ID the next registered region gets; ID 0 is never a region. */
static uint32_t NextId = 1;

static uint32_t Cap = LWP_CAP;
static uint32_t CounterKind = LWP_COUNTER_PCYCLES;
static uint32_t PairCost, NestedCost;
static const char *ProgramName = "";
static const char *OutputPath = "lwp.dump";
static char **Environment;

void lwp_hex_empty_pair(void);  /* lwp_handler.S */
void lwp_hex_nested_pair(void); /* lwp_handler.S */

/*===----------------------------------------------------------------------===*
 * Syscalls (trap0(#1), number in r6, arguments r0-r5, result r0)
 *===----------------------------------------------------------------------===*/

enum {
  SysOpenat = 56,
  SysClose = 57,
  SysWrite = 64,
  SysExit = 93,
  SysGetpid = 172, /* asm-generic/unistd.h, which Hexagon Linux uses */
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

/* The slots of registered module \p M (blob_vaddr holds its address). */
static struct lwp_slot *moduleSlots(const struct lwp_dump_module *M) {
  const struct lwp_map_blob_header *H =
      (const struct lwp_map_blob_header *)(uintptr_t)M->blob_vaddr;
  return (struct lwp_slot *)((char *)(uintptr_t)M->blob_vaddr +
                             H->slots_offset);
}

/* The slot of region \p Id, or NULL when no registered module has it. */
static struct lwp_slot *findSlot(uint32_t Id) {
  /* Modules are sorted by first_id: find the last one with first_id <= Id. */
  uint32_t Lo = 0, Hi = NumModules;
  while (Lo != Hi) {
    uint32_t Mid = Lo + ((Hi - Lo) >> 1);
    if (Modules[Mid].first_id <= Id)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (!Lo)
    return NULL;
  const struct lwp_dump_module *M = &Modules[Lo - 1];
  if (Id - M->first_id >= M->num_regions)
    return NULL;
  return moduleSlots(M) + (Id - M->first_id);
}

/* Exact executions of the region of slot \p S: bias + cap + 2^29 x
 * overflow. */
static uint64_t slotCount(const struct lwp_slot *S) {
  return (uint64_t)((int64_t)Cap + S->bias) + ((uint64_t)S->overflow << 29);
}

uint64_t lwp_hex_count(uint32_t Id) {
  const struct lwp_slot *S = findSlot(Id);
  return S ? slotCount(S) : 0;
}

uint32_t lwp_hex_num_ids(void) { return NextId; }

uint32_t lwp_hex_num_modules(void) { return NumModules; }

uint64_t lwp_hex_dropped(void) { return lwp_hex_state.Dropped; }

uint32_t lwp_hex_num_records(void) {
  return (uint32_t)((struct lwp_record32 *)(uintptr_t)lwp_hex_state.Next -
                    Buffer);
}

/* Empties the buffer and the drop counter. */
static void resetBuffer(void) {
  lwp_hex_state.Next = (uint32_t)(uintptr_t)&Buffer[0];
  lwp_hex_state.LastMode =
      (uint32_t)(uintptr_t)&Buffer[LWP_BUFFER_RECORDS - 1] |
      (CounterKind == LWP_COUNTER_QEMU_PACKETS ? 1u : 0u);
  lwp_hex_state.Dropped = 0;
}

/* Empties the buffer, the drop counter and the counts of every registered
 * region for cap \p NewCap. */
static void resetState(uint32_t NewCap) {
  Cap = NewCap;
  resetBuffer();
  for (uint32_t I = 0; I != NumModules; ++I) {
    struct lwp_slot *S = moduleSlots(&Modules[I]);
    for (uint32_t J = 0; J != Modules[I].num_regions; ++J) {
      S[J].bias = -(int32_t)NewCap;
      S[J].overflow = 0;
    }
  }
}

void lwp_reset(void) { resetState(Cap); }

/* Writes "lwp: <What> <Blob>; <Why>" and a newline on stderr. */
static void warnModule(const char *What, const void *Blob, const char *Why) {
  lwp_hex_puts(2, "lwp: ");
  lwp_hex_puts(2, What);
  lwp_hex_put_char(2, ' ');
  lwp_hex_put_hex(2, (uintptr_t)Blob);
  lwp_hex_puts(2, "; ");
  lwp_hex_puts(2, Why);
  lwp_hex_put_char(2, '\n');
}

void __lwp_register_module(void *Blob) {
  const struct lwp_map_blob_header *H =
      (const struct lwp_map_blob_header *)Blob;
  /* Slots must be 16-byte aligned (the handlers keep the end flag in bit 0
   * of the slot address, lwp_dump masks 4 bits): so must the blob. */
  if (!H || ((uintptr_t)H & 15) ||
      memcmp(H->magic, LWP_MAP_MAGIC, LWP_MAP_MAGIC_SIZE) ||
      H->version != LWP_MAP_BLOB_VERSION || (H->slots_offset & 15) ||
      H->slots_offset > H->size ||
      H->num_regions > (H->size - H->slots_offset) / sizeof(struct lwp_slot)) {
    warnModule("bad map blob at", Blob, "its regions are not counted");
    return;
  }
  if (!H->num_regions)
    return; /* no region, no ID: nothing to count */
  struct lwp_slot *Slots = (struct lwp_slot *)((char *)Blob + H->slots_offset);
  if (Slots[0].index)
    return; /* registered before */
  if (NumModules == LWP_MAX_MODULES ||
      H->num_regions > LWP_ID_MASK + 1 - NextId) {
    warnModule("no room for the module at", Blob,
               NumModules == LWP_MAX_MODULES
                   ? "module table full, its regions are not counted"
                   : "region IDs exhausted, its regions are not counted");
    return;
  }
  struct lwp_dump_module *M = &Modules[NumModules++];
  M->blob_vaddr = (uintptr_t)Blob;
  M->image = 0;
  M->first_id = NextId;
  M->num_regions = H->num_regions;
  M->reserved = 0;
  for (uint32_t I = 0; I != H->num_regions; ++I) {
    Slots[I].bias = -(int32_t)Cap;
    Slots[I].overflow = 0;
    Slots[I].index = NextId++;
  }
}

/* Runs empty start/end pairs, then empty pairs nested in a pair, on the two
 * calibration slots, and keeps the smallest end - start of an empty region
 * (PairCost) and the smallest extra length a nested pair gives its region
 * (NestedCost). Leaves records in the buffer and the slots zero. */
static void calibrate(void) {
  enum { Runs = 8 };
  resetBuffer();
  /* Slot 0 sees 2 x Runs pairs, slot 1 Runs: a cap of 2 x Runs keeps all. */
  for (unsigned I = 0; I != 2; ++I) {
    lwp_hex_calibration_slots[I].bias = -2 * Runs;
    lwp_hex_calibration_slots[I].overflow = 0;
  }
  for (unsigned I = 0; I != Runs; ++I)
    lwp_hex_empty_pair();
  for (unsigned I = 0; I != Runs; ++I)
    lwp_hex_nested_pair();
  memset(lwp_hex_calibration_slots, 0, sizeof(lwp_hex_calibration_slots));
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

/* The count table of the last dump, num_ids entries (from the bump
 * allocator; grown, never freed). */
static struct lwp_dump_region *CountsOut;
static uint32_t CountsCapacity;

/* First and one past the last byte of section lwp_map: the blobs of every
 * instrumented module (the linker defines both when the section exists; a
 * program without one has neither, and both are then null). */
extern char __start_lwp_map[] __attribute__((weak, visibility("hidden")));
extern char __stop_lwp_map[] __attribute__((weak, visibility("hidden")));

/* The dump's ID word of a record whose handler stored \p Raw (a slot address,
 * | 1 for an end probe): the slot's region ID | LWP_ID_END_BIT for an end;
 * ID 0 when the slot is not in lwp_map (the calibration's) or its module
 * did not register. */
static uint32_t mapIdWord(uint32_t Raw) {
  uint32_t End = (Raw & 1) ? LWP_ID_END_BIT : 0;
  uintptr_t Slot = Raw & ~(uint32_t)15;
  uintptr_t Begin = (uintptr_t)__start_lwp_map;
  uintptr_t Stop = (uintptr_t)__stop_lwp_map;
  if (Slot < Begin || Slot >= Stop || Stop - Slot < sizeof(struct lwp_slot))
    return End;
  return (((const struct lwp_slot *)Slot)->index & LWP_ID_MASK) | End;
}

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
  V.header.num_ids = NextId;
  V.header.cap = Cap;
  V.header.dropped = lwp_hex_state.Dropped;
  V.header.probe_pair_cost = PairCost;
  V.header.probe_nested_cost = NestedCost;
  V.header.process_id = (uint64_t)syscall4(SysGetpid, 0, 0, 0, 0);

  struct lwp_image_view Image;
  Image.load_bias = 0;
  Image.build_id = NULL;
  Image.build_id_size = findBuildId(&Image.build_id);
  Image.name = ProgramName;
  Image.name_size = (uint32_t)strlen(ProgramName);
  V.images = &Image;
  V.num_images = 1;
  V.modules = Modules;
  V.num_modules = NumModules;

  /* Counts: ID 0 is never a region; the modules cover 1 .. NextId - 1. */
  if (NextId > CountsCapacity) {
    if (NextId > ((size_t)-1 >> 6))
      return -1;
    struct lwp_dump_region *Regions = (struct lwp_dump_region *)malloc(
        (size_t)NextId * sizeof(struct lwp_dump_region));
    if (!Regions)
      return -1;
    CountsOut = Regions;
    CountsCapacity = NextId;
  }
  memset(CountsOut, 0, (size_t)NextId * sizeof(struct lwp_dump_region));
  for (uint32_t I = 0; I != NumModules; ++I) {
    const struct lwp_slot *S = moduleSlots(&Modules[I]);
    for (uint32_t J = 0; J != Modules[I].num_regions; ++J)
      CountsOut[Modules[I].first_id + J].count = slotCount(&S[J]);
  }
  V.regions = CountsOut;

  struct lwp_thread_view Thread;
  memset(&Thread, 0, sizeof(Thread));
  Thread.thread_id = 0;
  Thread.records = Buffer;
  Thread.num_records = lwp_hex_num_records();
  V.threads = &Thread;
  V.num_threads = 1;
  V.map_id_word = mapIdWord;

  long Fd = syscall4(SysOpenat, AtFdCwd, (long)Path, OWronly | OCreat | OTrunc,
                     0644);
  if (Fd < 0)
    return -1;
  int Err = lwp_write_dump(&V, writeToFd, (void *)(intptr_t)Fd);
  if (syscall4(SysClose, Fd, 0, 0, 0) < 0)
    Err = -1;
  return Err ? -1 : 0;
}

/*===----------------------------------------------------------------------===*
 * Constructors and destructors of the program
 *===----------------------------------------------------------------------===*/

/* An entry of .preinit_array / .init_array, called as glibc does (musl
 * passes nothing; functions that take no argument ignore them). */
typedef void (*InitFn)(int Argc, char **Argv, char **Envp);
/* An entry of .fini_array. */
typedef void (*FiniFn)(void);

/* Bounds of the arrays; ld.lld defines them in a static link when they are
 * referenced (both equal when the array is empty or absent). */
extern const InitFn __preinit_array_start[]
    __attribute__((weak, visibility("hidden")));
extern const InitFn __preinit_array_end[]
    __attribute__((weak, visibility("hidden")));
extern const InitFn __init_array_start[]
    __attribute__((weak, visibility("hidden")));
extern const InitFn __init_array_end[]
    __attribute__((weak, visibility("hidden")));
extern const FiniFn __fini_array_start[]
    __attribute__((weak, visibility("hidden")));
extern const FiniFn __fini_array_end[]
    __attribute__((weak, visibility("hidden")));

/* Runs .preinit_array, then .init_array, in order (the linker sorted
 * .init_array by priority: instrumented modules register from priority 1). */
static void runConstructors(int Argc, char **Argv, char **Envp) {
  for (const InitFn *F = __preinit_array_start; F < __preinit_array_end; ++F)
    (*F)(Argc, Argv, Envp);
  for (const InitFn *F = __init_array_start; F < __init_array_end; ++F)
    (*F)(Argc, Argv, Envp);
}

/* Runs .fini_array in reverse order, once: a destructor that calls exit does
 * not run the others again. */
static void runDestructors(void) {
  static int Started;
  if (Started)
    return;
  Started = 1;
  for (const FiniFn *F = __fini_array_end; F > __fini_array_start;)
    (*--F)();
}

_Noreturn void exit(int Code) {
  runDestructors();
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
  /* The cap before the constructors: registration sets bias = -cap. */
  resetState(parseCap(getEnv("LWP_CAP"), LWP_CAP));
  runConstructors(Argc, Argv, Envp);
  exit(main(Argc, Argv, Envp));
}
