/*===- lwp_c_runner_utils.c - MLIR's CRunnerUtils for Hexagon ------*- C
-*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The scalar printers, memrefCopy, the allocation and sort helpers and the
 * clocks of MLIR 22's CRunnerUtils.cpp and Float16bits.cpp, in C over the
 * C library (lwp_runner_utils.h). Each function does what upstream's does,
 * with the same output.
 */
#include "lwp_runner_utils.h"
#include "lwp_runner_utils_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

void printI64(int64_t i) { fprintf(stdout, "%lld", (long long)i); }
void printU64(uint64_t u) { fprintf(stdout, "%llu", (unsigned long long)u); }
void printF32(float f) { lwp_ru_put_gf(stdout, f); }
void printF64(double d) { lwp_ru_put_g(stdout, d); }
void printString(char const *s) { fputs(s, stdout); }
void printOpen(void) { fputs("( ", stdout); }
void printClose(void) { fputs(" )", stdout); }
void printComma(void) { fputs(", ", stdout); }
void printNewline(void) { fputc('\n', stdout); }

void printFlops(double flops) {
  fprintf(stderr, "%lf GFLOPS\n", flops / 1.0E9);
}

double rtclock(void) {
  struct timeval tp;
  int stat = gettimeofday(&tp, NULL);
  if (stat != 0)
    fprintf(stderr, "Error returning time from gettimeofday: %d\n", stat);
  return (double)tp.tv_sec + (double)tp.tv_usec * 1.0e-6;
}

void memrefCopy(int64_t elemSize, lwp_unranked_memref *srcArg,
                lwp_unranked_memref *dstArg) {
  struct lwp_ru_dyn src = lwp_ru_from_unranked(srcArg);
  struct lwp_ru_dyn dst = lwp_ru_from_unranked(dstArg);
  int64_t rank = src.rank;
  /* An empty shape: nothing to copy. */
  for (int64_t r = 0; r < rank; ++r)
    if (src.sizes[r] == 0)
      return;
  char *srcPtr = (char *)src.data + src.offset * elemSize;
  char *dstPtr = (char *)dst.data + dst.offset * elemSize;
  if (rank == 0) {
    memcpy(dstPtr, srcPtr, (size_t)elemSize);
    return;
  }
  int64_t *indices = __builtin_alloca(sizeof(int64_t) * (size_t)rank);
  int64_t *srcStrides = __builtin_alloca(sizeof(int64_t) * (size_t)rank);
  int64_t *dstStrides = __builtin_alloca(sizeof(int64_t) * (size_t)rank);
  for (int64_t r = 0; r < rank; ++r) {
    indices[r] = 0;
    srcStrides[r] = src.strides[r] * elemSize;
    dstStrides[r] = dst.strides[r] * elemSize;
  }
  int64_t readIndex = 0, writeIndex = 0;
  for (;;) {
    memcpy(dstPtr + writeIndex, srcPtr + readIndex, (size_t)elemSize);
    /* Advance the innermost axis; carry into the outer ones. */
    for (int64_t axis = rank - 1; axis >= 0; --axis) {
      int64_t newIndex = ++indices[axis];
      readIndex += srcStrides[axis];
      writeIndex += dstStrides[axis];
      if (src.sizes[axis] != newIndex)
        break;
      if (axis == 0)
        return;
      indices[axis] = 0;
      readIndex -= src.sizes[axis] * srcStrides[axis];
      writeIndex -= dst.sizes[axis] * dstStrides[axis];
    }
  }
}

void *mlirAlloc(uint64_t size) { return malloc((size_t)size); }
void *mlirAlignedAlloc(uint64_t alignment, uint64_t size) {
  return aligned_alloc((size_t)alignment, (size_t)size);
}
void mlirFree(void *ptr) { free(ptr); }
void mlirAlignedFree(void *ptr) { free(ptr); }

#define LWP_RU_SORT(Name, T)                                                   \
  static int cmp##Name(const void *a, const void *b) {                         \
    T x = *(const T *)a, y = *(const T *)b;                                    \
    return x < y ? -1 : y < x ? 1 : 0;                                         \
  }                                                                            \
  void _mlir_ciface_stdSort##Name(uint64_t n, lwp_memref_1d_##Name *vref) {    \
    qsort(vref->data + vref->offset, (size_t)n, sizeof(T), cmp##Name);         \
  }
#define lwp_memref_1d_I64 lwp_memref_1d_i64
#define lwp_memref_1d_F64 lwp_memref_1d_f64
#define lwp_memref_1d_F32 lwp_memref_1d_f32
LWP_RU_SORT(I64, int64_t)
LWP_RU_SORT(F64, double)
LWP_RU_SORT(F32, float)

void printF16(uint16_t bits) {
  lwp_ru_put_gf(stdout, lwp_ru_f16_to_float(bits));
}
void printBF16(uint16_t bits) {
  lwp_ru_put_gf(stdout, lwp_ru_bf16_to_float(bits));
}
