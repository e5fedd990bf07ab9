/*===- lwp_runner_utils.c - MLIR's RunnerUtils for Hexagon ---------*- C
-*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The memref printers and verifiers of MLIR 22's RunnerUtils.cpp (the
 * templates of RunnerUtils.h), in C over the C library: one element type
 * is a table of its size, printer and comparison; the traversal and every
 * character of the layout follow upstream's MemRefDataPrinter,
 * printMemRefMetaData and MemRefDataVerifier (lwp_runner_utils.h).
 */
#include "lwp_runner_utils.h"
#include "lwp_runner_utils_internal.h"

#include <stdio.h>
#include <time.h>

/** An element type: its size, how std::ostream prints one, and
 *  MemRefDataVerifier's verifyElem. */
struct elem_type {
  size_t size;
  void (*put)(FILE *os, const void *elem);
  int (*same)(const void *actual, const void *expected);
};

static void putF32(FILE *os, const void *e) {
  lwp_ru_put_gf(os, *(const float *)e);
}
static void putF64(FILE *os, const void *e) {
  lwp_ru_put_g(os, *(const double *)e);
}
/* std::ostream << int8_t writes the character. */
static void putI8(FILE *os, const void *e) {
  fputc(*(const unsigned char *)e, os);
}
static void putI16(FILE *os, const void *e) {
  fprintf(os, "%d", (int)*(const int16_t *)e);
}
static void putI32(FILE *os, const void *e) {
  fprintf(os, "%ld", (long)*(const int32_t *)e);
}
static void putI64(FILE *os, const void *e) {
  fprintf(os, "%lld", (long long)*(const int64_t *)e);
}
static void putInd(FILE *os, const void *e) {
  fprintf(os, "%llu", (unsigned long long)*(const uint64_t *)e);
}
static void putF16(FILE *os, const void *e) {
  lwp_ru_put_gf(os, lwp_ru_f16_to_float(*(const uint16_t *)e));
}
static void putBF16(FILE *os, const void *e) {
  lwp_ru_put_gf(os, lwp_ru_bf16_to_float(*(const uint16_t *)e));
}
/* std::complex: "(re,im)". */
static void putC32(FILE *os, const void *e) {
  const lwp_complex32 *c = (const lwp_complex32 *)e;
  fputc('(', os);
  lwp_ru_put_gf(os, c->re);
  fputc(',', os);
  lwp_ru_put_gf(os, c->im);
  fputc(')', os);
}
static void putC64(FILE *os, const void *e) {
  const lwp_complex64 *c = (const lwp_complex64 *)e;
  fputc('(', os);
  lwp_ru_put_g(os, c->re);
  fputc(',', os);
  lwp_ru_put_g(os, c->im);
  fputc(')', os);
}
/* VectorDataPrinter<float, 4, 4> over VectorDataPrinter<float, 4>. */
static void putRow4(FILE *os, const float *row) {
  fputc('(', os);
  for (int i = 0; i < 4; ++i) {
    if (i)
      fputs(", ", os);
    lwp_ru_put_gf(os, row[i]);
  }
  fputc(')', os);
}
static void putVector4x4(FILE *os, const void *e) {
  const lwp_vector4x4f32 *v = (const lwp_vector4x4f32 *)e;
  fputc('(', os);
  putRow4(os, v->v[0]);
  fputs(", ", os);
  for (int i = 1; i < 3; ++i) {
    fputs("  ", os);
    putRow4(os, v->v[i]);
    fputs(", ", os);
  }
  fputc(' ', os);
  putRow4(os, v->v[3]);
  fputc(')', os);
}

/* verifyRelErrorSmallerThan: false for a non-finite value. */
static int sameF32(const void *a, const void *e) {
  float x = *(const float *)a, y = *(const float *)e;
  if (!__builtin_isfinite(x) || !__builtin_isfinite(y))
    return 0;
  float delta = __builtin_fabsf(x - y);
  return delta <= 1e-6f * __builtin_fabsf(y);
}
static int sameF64(const void *a, const void *e) {
  double x = *(const double *)a, y = *(const double *)e;
  if (!__builtin_isfinite(x) || !__builtin_isfinite(y))
    return 0;
  double delta = __builtin_fabs(x - y);
  return delta <= 1e-12 * __builtin_fabs(y);
}
static int sameI8(const void *a, const void *e) {
  return *(const int8_t *)a == *(const int8_t *)e;
}
/* Also f16 and bf16: Float16bits' operator== compares the bits. */
static int sameI16(const void *a, const void *e) {
  return *(const int16_t *)a == *(const int16_t *)e;
}
static int sameI32(const void *a, const void *e) {
  return *(const int32_t *)a == *(const int32_t *)e;
}
static int sameI64(const void *a, const void *e) {
  return *(const int64_t *)a == *(const int64_t *)e;
}
static int sameC32(const void *a, const void *e) {
  const lwp_complex32 *x = (const lwp_complex32 *)a;
  const lwp_complex32 *y = (const lwp_complex32 *)e;
  return x->re == y->re && x->im == y->im;
}
static int sameC64(const void *a, const void *e) {
  const lwp_complex64 *x = (const lwp_complex64 *)a;
  const lwp_complex64 *y = (const lwp_complex64 *)e;
  return x->re == y->re && x->im == y->im;
}

static const struct elem_type F32 = {4, putF32, sameF32};
static const struct elem_type F64 = {8, putF64, sameF64};
static const struct elem_type I8 = {1, putI8, sameI8};
static const struct elem_type I16 = {2, putI16, sameI16};
static const struct elem_type I32 = {4, putI32, sameI32};
static const struct elem_type I64 = {8, putI64, sameI64};
static const struct elem_type Ind = {8, putInd, sameI64};
static const struct elem_type F16 = {2, putF16, sameI16};
static const struct elem_type BF16 = {2, putBF16, sameI16};
static const struct elem_type C32 = {8, putC32, sameC32};
static const struct elem_type C64 = {16, putC64, sameC64};
static const struct elem_type Vec4x4 = {64, putVector4x4, 0};

static const void *elemAt(const struct elem_type *t, const void *base,
                          int64_t index) {
  return (const char *)base + index * (int64_t)t->size;
}

/* printMemRefMetaData: the aligned pointer as std::hex << std::showbase
 * prints an intptr_t ("0" for null). */
static void printMetaData(FILE *os, const struct lwp_ru_dyn *v) {
  uintptr_t p = (uintptr_t)v->data;
  if (p)
    fprintf(os, "base@ = 0x%llx", (unsigned long long)p);
  else
    fputs("base@ = 0", os);
  fprintf(os, " rank = %lld offset = %lld", (long long)v->rank,
          (long long)v->offset);
  for (int list = 0; list < 2; ++list) {
    const int64_t *ptr = list == 0 ? v->sizes : v->strides;
    fputs(list == 0 ? " sizes = [" : "] strides = [", os);
    for (int64_t i = 0; i < v->rank; ++i)
      fprintf(os, i ? ", %lld" : "%lld", (long long)ptr[i]);
  }
  fputc(']', os);
}

static void printSpace(FILE *os, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    fputc(' ', os);
}

/* MemRefDataPrinter<T>::print with printFirst and printLast inlined. As
 * upstream, a dimension of size 0 still prints its first element. */
static void printData(FILE *os, const struct elem_type *t, const void *base,
                      int64_t dim, int64_t rank, int64_t offset,
                      const int64_t *sizes, const int64_t *strides) {
  if (dim == 0) {
    t->put(os, elemAt(t, base, offset));
    return;
  }
  fputc('[', os);
  printData(os, t, base, dim - 1, rank, offset, sizes + 1, strides + 1);
  if (sizes[0] <= 1) {
    fputc(']', os);
    return;
  }
  fputs(", ", os);
  if (dim > 1)
    fputc('\n', os);
  for (int64_t i = 1; i + 1 < sizes[0]; ++i) {
    printSpace(os, rank - dim + 1);
    printData(os, t, base, dim - 1, rank, offset + i * strides[0], sizes + 1,
              strides + 1);
    fputs(", ", os);
    if (dim > 1)
      fputc('\n', os);
  }
  printSpace(os, rank - dim + 1);
  printData(os, t, base, dim - 1, rank, offset + (sizes[0] - 1) * strides[0],
            sizes + 1, strides + 1);
  fputc(']', os);
}

/* impl::printMemRef: \p prefix is "Memref " or "Unranked Memref ". */
static void printMemRef(const char *prefix, const struct elem_type *t,
                        const struct lwp_ru_dyn *m) {
  fputs(prefix, stdout);
  printMetaData(stdout, m);
  fputs(" data = \n", stdout);
  if (m->rank == 0)
    fputc('[', stdout);
  printData(stdout, t, m->data, m->rank, m->rank, m->offset, m->sizes,
            m->strides);
  if (m->rank == 0)
    fputc(']', stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

static void printUnranked(const struct elem_type *t, lwp_unranked_memref *m) {
  struct lwp_ru_dyn v = lwp_ru_from_unranked(m);
  printMemRef("Unranked Memref ", t, &v);
}

static void printRanked(const struct elem_type *t, int64_t rank, void *m) {
  struct lwp_ru_dyn v = lwp_ru_from_descriptor(rank, m);
  printMemRef("Memref ", t, &v);
}

static void printShape(lwp_unranked_memref *m) {
  struct lwp_ru_dyn v = lwp_ru_from_unranked(m);
  fputs("Unranked Memref ", stdout);
  printMetaData(stdout, &v);
  fputc('\n', stdout);
}

#define LWP_RU_UNRANKED(Name)                                                  \
  void _mlir_ciface_printMemrefShape##Name(lwp_unranked_memref *m) {           \
    printShape(m);                                                             \
  }
LWP_RU_UNRANKED(I8)
LWP_RU_UNRANKED(I32)
LWP_RU_UNRANKED(I64)
LWP_RU_UNRANKED(F32)
LWP_RU_UNRANKED(F64)
LWP_RU_UNRANKED(Ind)
LWP_RU_UNRANKED(C32)
LWP_RU_UNRANKED(C64)

#define LWP_RU_PRINT(Name)                                                     \
  void _mlir_ciface_printMemref##Name(lwp_unranked_memref *m) {                \
    printUnranked(&Name, m);                                                   \
  }
LWP_RU_PRINT(I8)
LWP_RU_PRINT(I16)
LWP_RU_PRINT(I32)
LWP_RU_PRINT(I64)
LWP_RU_PRINT(F16)
LWP_RU_PRINT(BF16)
LWP_RU_PRINT(F32)
LWP_RU_PRINT(F64)
LWP_RU_PRINT(Ind)
LWP_RU_PRINT(C32)
LWP_RU_PRINT(C64)

#define LWP_RU_PRINT_PLAIN(Name)                                               \
  void printMemref##Name(int64_t rank, void *ptr) {                            \
    lwp_unranked_memref m = {rank, ptr};                                       \
    _mlir_ciface_printMemref##Name(&m);                                        \
  }
LWP_RU_PRINT_PLAIN(I32)
LWP_RU_PRINT_PLAIN(I64)
LWP_RU_PRINT_PLAIN(F32)
LWP_RU_PRINT_PLAIN(F64)
LWP_RU_PRINT_PLAIN(Ind)
LWP_RU_PRINT_PLAIN(C32)
LWP_RU_PRINT_PLAIN(C64)

#define LWP_RU_PRINT_RANKED(Rank, Name, Type, Elem)                            \
  void _mlir_ciface_printMemref##Name(Type *m) { printRanked(&Elem, Rank, m); }
LWP_RU_PRINT_RANKED(0, 0dF32, lwp_memref_0d_f32, F32)
LWP_RU_PRINT_RANKED(1, 1dF32, lwp_memref_1d_f32, F32)
LWP_RU_PRINT_RANKED(2, 2dF32, lwp_memref_2d_f32, F32)
LWP_RU_PRINT_RANKED(3, 3dF32, lwp_memref_3d_f32, F32)
LWP_RU_PRINT_RANKED(4, 4dF32, lwp_memref_4d_f32, F32)
LWP_RU_PRINT_RANKED(1, 1dI8, lwp_memref_1d_i8, I8)
LWP_RU_PRINT_RANKED(1, 1dI32, lwp_memref_1d_i32, I32)
LWP_RU_PRINT_RANKED(1, 1dI64, lwp_memref_1d_i64, I64)
LWP_RU_PRINT_RANKED(1, 1dF64, lwp_memref_1d_f64, F64)
LWP_RU_PRINT_RANKED(1, 1dInd, lwp_memref_1d_ind, Ind)
LWP_RU_PRINT_RANKED(1, 1dC32, lwp_memref_1d_c32, C32)
LWP_RU_PRINT_RANKED(1, 1dC64, lwp_memref_1d_c64, C64)
LWP_RU_PRINT_RANKED(2, Vector4x4xf32, lwp_memref_2d_vector4x4f32, Vec4x4)

/* std::chrono::high_resolution_clock: the system clock. */
int64_t _mlir_ciface_nanoTime(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
    return 0;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* MemRefDataVerifier<T>::verify. */
static int64_t verifyData(const struct elem_type *t, const void *actual,
                          const void *expected, int64_t dim, int64_t offset,
                          const int64_t *sizes, const int64_t *strides,
                          int64_t *printCounter) {
  if (dim == 0) {
    const void *a = elemAt(t, actual, offset);
    const void *e = elemAt(t, expected, offset);
    if (t->same(a, e))
      return 0;
    if (*printCounter < 10) {
      t->put(stderr, a);
      fputs(" != ", stderr);
      t->put(stderr, e);
      fprintf(stderr, " offset = %lld\n", (long long)offset);
      ++*printCounter;
    }
    return 1;
  }
  int64_t errors = 0;
  for (int64_t i = 0; i < sizes[0]; ++i)
    errors += verifyData(t, actual, expected, dim - 1, offset + i * strides[0],
                         sizes + 1, strides + 1, printCounter);
  return errors;
}

/* impl::verifyMemRef. As upstream, a rank-0 actual skips the shape check. */
static int64_t verifyMemRef(const struct elem_type *t,
                            lwp_unranked_memref *actualArg,
                            lwp_unranked_memref *expectedArg) {
  struct lwp_ru_dyn actual = lwp_ru_from_unranked(actualArg);
  struct lwp_ru_dyn expected = lwp_ru_from_unranked(expectedArg);
  for (int64_t i = 0; i < actual.rank; ++i) {
    if (expected.rank != actual.rank || actual.offset != expected.offset ||
        actual.sizes[i] != expected.sizes[i] ||
        actual.strides[i] != expected.strides[i]) {
      printMetaData(stderr, &actual);
      printMetaData(stderr, &expected);
      return -1;
    }
  }
  int64_t printCounter = 0;
  return verifyData(t, actual.data, expected.data, actual.rank, actual.offset,
                    actual.sizes, actual.strides, &printCounter);
}

#define LWP_RU_VERIFY(Name)                                                    \
  int64_t _mlir_ciface_verifyMemRef##Name(lwp_unranked_memref *actual,         \
                                          lwp_unranked_memref *expected) {     \
    return verifyMemRef(&Name, actual, expected);                              \
  }
LWP_RU_VERIFY(I8)
LWP_RU_VERIFY(I16)
LWP_RU_VERIFY(I32)
LWP_RU_VERIFY(I64)
LWP_RU_VERIFY(BF16)
LWP_RU_VERIFY(F16)
LWP_RU_VERIFY(F32)
LWP_RU_VERIFY(F64)
LWP_RU_VERIFY(Ind)
LWP_RU_VERIFY(C32)
LWP_RU_VERIFY(C64)

#define LWP_RU_VERIFY_PLAIN(Name)                                              \
  int64_t verifyMemRef##Name(int64_t rank, void *actualPtr,                    \
                             void *expectedPtr) {                              \
    lwp_unranked_memref actual = {rank, actualPtr};                            \
    lwp_unranked_memref expected = {rank, expectedPtr};                        \
    return _mlir_ciface_verifyMemRef##Name(&actual, &expected);                \
  }
LWP_RU_VERIFY_PLAIN(I32)
LWP_RU_VERIFY_PLAIN(F32)
LWP_RU_VERIFY_PLAIN(F64)
LWP_RU_VERIFY_PLAIN(Ind)
LWP_RU_VERIFY_PLAIN(C32)
LWP_RU_VERIFY_PLAIN(C64)
