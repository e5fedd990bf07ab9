/*===- lwp_hexagon_malloc.c - Bump allocator without the C library --------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * malloc, calloc, realloc, free, aligned_alloc and posix_memalign over a
 * static arena of LWP_HEAP_BYTES (-D, default 64 MiB), for programs linked
 * without LWP's Hexagon C library: free releases nothing. An archive member
 * of its own: a program that links the C library first (libc.a before
 * liblwp_hexagon.a) gets newlib's malloc instead, and neither this code nor
 * its arena is linked (docs/hexagon-runtime.md).
 */
#include <stddef.h>
#include <stdint.h>

#ifndef LWP_HEAP_BYTES
#define LWP_HEAP_BYTES (64u << 20)
#endif

void *memcpy(void *Dst, const void *Src, size_t N);
void *memset(void *Dst, int C, size_t N);

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
