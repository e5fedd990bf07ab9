/*===- lwp_runner_utils_internal.h - Shared pieces ----------------*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What the two halves of libmlir_runner_utils_hexagon.a share: the float
 * format of std::ostream and the DynamicMemRefType view of a descriptor.
 */
#ifndef LWP_RUNNER_UTILS_INTERNAL_H
#define LWP_RUNNER_UTILS_INTERNAL_H

#include "lwp_runner_utils.h"

#include <stdio.h>

/** DynamicMemRefType<T>: a memref of any rank; sizes and strides NULL at
 *  rank 0, offset, sizes and strides in elements. */
struct lwp_ru_dyn {
  int64_t rank;
  void *data;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

/** The leading fields every StridedMemRefType<T, N> shares; sizes[rank]
 *  and strides[rank] follow for rank >= 1. */
struct lwp_ru_descriptor {
  void *basePtr;
  void *data;
  int64_t offset;
  int64_t sizes[];
};

/** The view of the rank-\p rank descriptor \p desc. */
static inline struct lwp_ru_dyn lwp_ru_from_descriptor(int64_t rank,
                                                       void *desc) {
  struct lwp_ru_descriptor *d = (struct lwp_ru_descriptor *)desc;
  struct lwp_ru_dyn v;
  v.rank = rank;
  v.data = d->data;
  v.offset = d->offset;
  v.sizes = rank == 0 ? NULL : d->sizes;
  v.strides = rank == 0 ? NULL : d->sizes + rank;
  return v;
}

/** The view of the unranked memref \p m. */
static inline struct lwp_ru_dyn
lwp_ru_from_unranked(const lwp_unranked_memref *m) {
  return lwp_ru_from_descriptor(m->rank, m->descriptor);
}

/** Writes \p d as std::ostream's default float format does through glibc
 *  ("%.6g"): "nan" or "-nan" by the sign bit, "inf", "-inf", "-0". newlib's
 *  printf drops the sign of NaN and -0, so the sign is written here. */
static inline void lwp_ru_put_g(FILE *os, double d) {
  if (__builtin_isnan(d)) {
    fputs(__builtin_signbit(d) ? "-nan" : "nan", os);
    return;
  }
  if (__builtin_signbit(d)) {
    fputc('-', os);
    d = -d;
  }
  if (__builtin_isinf(d))
    fputs("inf", os);
  else
    fprintf(os, "%g", d);
}

/** Writes the float \p f as std::ostream does (as lwp_ru_put_g). The sign
 *  of a NaN is taken before the conversion to double: Hexagon's conversion
 *  returns the default NaN (all ones, sign set) for any NaN. */
static inline void lwp_ru_put_gf(FILE *os, float f) {
  if (__builtin_isnan(f)) {
    fputs(__builtin_signbit(f) ? "-nan" : "nan", os);
    return;
  }
  lwp_ru_put_g(os, (double)f);
}

/** The float of the IEEE half \p bits (exact; NaN keeps its sign). */
static inline float lwp_ru_f16_to_float(uint16_t bits) {
  union {
    uint32_t u;
    float f;
  } r;
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  if (exp == 0x1f) {
    r.u = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    r.u = sign | ((exp + 112) << 23) | (mant << 13);
  } else {
    /* Zero or subnormal: mant x 2^-24, exact in float. */
    r.f = (float)mant * 0x1p-24f;
    r.u |= sign;
  }
  return r.f;
}

/** The float of the bfloat16 \p bits (its upper half). */
static inline float lwp_ru_bf16_to_float(uint16_t bits) {
  union {
    uint32_t u;
    float f;
  } r;
  r.u = (uint32_t)bits << 16;
  return r.f;
}

#endif /* LWP_RUNNER_UTILS_INTERNAL_H */
