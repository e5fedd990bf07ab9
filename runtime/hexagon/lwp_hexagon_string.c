/*===- lwp_hexagon_string.c - memcpy and friends without the C library ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The memory and string functions the runtime and compiled kernels call
 * (memcpy memmove memset memcmp strlen), for programs linked without LWP's
 * Hexagon C library. An archive member of its own: a program that links the C
 * library first (libc.a before liblwp_hexagon.a) gets newlib's instead, and
 * this member is not linked (docs/hexagon-runtime.md).
 */
#include <stddef.h>
#include <stdint.h>

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
