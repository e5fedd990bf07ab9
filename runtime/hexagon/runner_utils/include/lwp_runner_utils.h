/*===- lwp_runner_utils.h - MLIR runner utilities in C ------------*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The C interface of MLIR's runner utilities (MLIR 22:
 * mlir/ExecutionEngine/CRunnerUtils.h, RunnerUtils.h and Float16bits.h;
 * on the host libmlir_c_runner_utils.so, libmlir_runner_utils.so and
 * libmlir_float16_utils.so), declared for C with the same symbols and ABI.
 * runtime/hexagon/runner_utils implements it for Hexagon
 * (libmlir_runner_utils_hexagon.a, over the project's newlib C library);
 * the output is byte for byte upstream's (std::ostream's default float
 * format, "%g" with 6 digits; "nan", "-nan", "inf", "-inf", "-0").
 *
 * Memref descriptors as MLIR's LLVM lowering lays them out
 * (StridedMemRefType<T, N>): allocated pointer, aligned pointer, offset,
 * N sizes, N strides, all in elements; an unranked memref
 * (UnrankedMemRefType<T>) is its rank and a pointer to such a descriptor.
 * Functions named _mlir_ciface_* take descriptors by pointer (what
 * llvm.emit_c_interface generates); the others take the unranked memref as
 * its two fields (what a call with a memref<*xT> argument lowers to).
 *
 * Not provided: the sparse tensor runtime, rtsrand/rtrand/rtdrand and
 * _mlir_ciface_shuffle (std::mt19937 streams).
 */
#ifndef LWP_RUNNER_UTILS_H
#define LWP_RUNNER_UTILS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** StridedMemRefType<T, N> for N >= 1: pointers, offset, sizes and strides
 *  in elements of T. */
#define LWP_MEMREF_TYPE(T, N)                                                  \
  struct {                                                                     \
    T *basePtr;                                                                \
    T *data;                                                                   \
    int64_t offset;                                                            \
    int64_t sizes[N];                                                          \
    int64_t strides[N];                                                        \
  }

/** UnrankedMemRefType<T>: the rank and a pointer to a StridedMemRefType of
 *  that rank (any element type). */
typedef struct {
  int64_t rank;
  void *descriptor;
} lwp_unranked_memref;

/** std::complex<float> and std::complex<double>: real, imaginary. */
typedef struct {
  float re, im;
} lwp_complex32;
typedef struct {
  double re, im;
} lwp_complex64;

/** f16 and bf16 of Float16bits.h: the IEEE half / bfloat16 bit pattern. */
typedef struct {
  uint16_t bits;
} lwp_f16;
typedef struct {
  uint16_t bits;
} lwp_bf16;

/** Vector2D<4, 4, float>: 4 rows of 4 floats (64 bytes). */
typedef struct {
  float v[4][4];
} lwp_vector4x4f32;

/** StridedMemRefType<float, 0>: no sizes or strides. */
typedef struct {
  float *basePtr;
  float *data;
  int64_t offset;
} lwp_memref_0d_f32;
typedef LWP_MEMREF_TYPE(float, 1) lwp_memref_1d_f32;
typedef LWP_MEMREF_TYPE(float, 2) lwp_memref_2d_f32;
typedef LWP_MEMREF_TYPE(float, 3) lwp_memref_3d_f32;
typedef LWP_MEMREF_TYPE(float, 4) lwp_memref_4d_f32;
typedef LWP_MEMREF_TYPE(double, 1) lwp_memref_1d_f64;
typedef LWP_MEMREF_TYPE(int8_t, 1) lwp_memref_1d_i8;
typedef LWP_MEMREF_TYPE(int32_t, 1) lwp_memref_1d_i32;
typedef LWP_MEMREF_TYPE(int64_t, 1) lwp_memref_1d_i64;
typedef LWP_MEMREF_TYPE(uint64_t, 1) lwp_memref_1d_ind;
typedef LWP_MEMREF_TYPE(lwp_complex32, 1) lwp_memref_1d_c32;
typedef LWP_MEMREF_TYPE(lwp_complex64, 1) lwp_memref_1d_c64;
typedef LWP_MEMREF_TYPE(lwp_vector4x4f32, 2) lwp_memref_2d_vector4x4f32;

/*--- CRunnerUtils.h: scalars, on stdout unless said otherwise ------------*/

/** Prints \p i in decimal ("%" PRId64), no newline. */
void printI64(int64_t i);
/** Prints \p u in decimal ("%" PRIu64). */
void printU64(uint64_t u);
/** Prints \p f as "%g" does ("-nan" for a NaN with the sign bit set). */
void printF32(float f);
/** Prints \p d as "%g" does ("-nan" for a NaN with the sign bit set). */
void printF64(double d);
/** Prints the NUL-terminated string \p s as it is. */
void printString(char const *s);
/** Prints "( ". */
void printOpen(void);
/** Prints " )". */
void printClose(void);
/** Prints ", ". */
void printComma(void);
/** Prints a newline. */
void printNewline(void);
/** Prints "<flops / 1e9 as %lf> GFLOPS" and a newline on stderr. */
void printFlops(double flops);
/** Wall-clock time in seconds (gettimeofday; microsecond resolution). */
double rtclock(void);

/** Copies the elements of \p src into \p dst, element by element along
 *  each memref's strides; both have src's rank and sizes, elements are
 *  \p elemSize bytes. A memref with a zero size copies nothing. */
void memrefCopy(int64_t elemSize, lwp_unranked_memref *src,
                lwp_unranked_memref *dst);

/** malloc(size). */
void *mlirAlloc(uint64_t size);
/** aligned_alloc(alignment, size); \p alignment a power of 2. */
void *mlirAlignedAlloc(uint64_t alignment, uint64_t size);
/** free(ptr). */
void mlirFree(void *ptr);
/** free(ptr) for mlirAlignedAlloc's memory. */
void mlirAlignedFree(void *ptr);

/** Sorts the first \p n elements of the contiguous \p vref ascending (as
 *  std::sort with operator<; NaNs leave the order unspecified). */
void _mlir_ciface_stdSortI64(uint64_t n, lwp_memref_1d_i64 *vref);
void _mlir_ciface_stdSortF64(uint64_t n, lwp_memref_1d_f64 *vref);
void _mlir_ciface_stdSortF32(uint64_t n, lwp_memref_1d_f32 *vref);

/*--- Float16bits.h ---------------------------------------------------------*/

/** Prints the half \p bits as the float of the same value (as printF32,
 *  but a NaN prints as "nan" or "-nan" by its sign). */
void printF16(uint16_t bits);
/** Prints the bfloat16 \p bits as the float of the same value. */
void printBF16(uint16_t bits);

/*--- RunnerUtils.h: memrefs on stdout ------------------------------------*/
/*
 * printMemref* print "Unranked Memref " (unranked forms) or "Memref "
 * (ranked forms), then "base@ = 0x<aligned pointer in hex> rank = R
 * offset = O sizes = [..] strides = [..] data = ", a newline and the
 * elements as nested brackets, one line per innermost row, then a newline.
 * printMemrefShape* print the header only ("Unranked Memref base@ = ...
 * strides = [..]") and a newline.
 */

void _mlir_ciface_printMemrefShapeI8(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeI32(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeI64(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeF32(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeF64(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeInd(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeC32(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefShapeC64(lwp_unranked_memref *m);

/** i8 elements print as characters (std::ostream << int8_t). */
void _mlir_ciface_printMemrefI8(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefI16(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefI32(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefI64(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefF16(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefBF16(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefF32(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefF64(lwp_unranked_memref *m);
/** Index elements (uint64_t). */
void _mlir_ciface_printMemrefInd(lwp_unranked_memref *m);
/** Complex elements print as "(re,im)". */
void _mlir_ciface_printMemrefC32(lwp_unranked_memref *m);
void _mlir_ciface_printMemrefC64(lwp_unranked_memref *m);

/** Nanoseconds since the epoch (CLOCK_REALTIME). */
int64_t _mlir_ciface_nanoTime(void);

/** The unranked memref of \p rank whose descriptor is \p ptr (as
 *  _mlir_ciface_printMemref* with {rank, ptr}). */
void printMemrefI32(int64_t rank, void *ptr);
void printMemrefI64(int64_t rank, void *ptr);
void printMemrefF32(int64_t rank, void *ptr);
void printMemrefF64(int64_t rank, void *ptr);
void printMemrefInd(int64_t rank, void *ptr);
void printMemrefC32(int64_t rank, void *ptr);
void printMemrefC64(int64_t rank, void *ptr);

void _mlir_ciface_printMemref0dF32(lwp_memref_0d_f32 *m);
void _mlir_ciface_printMemref1dF32(lwp_memref_1d_f32 *m);
void _mlir_ciface_printMemref2dF32(lwp_memref_2d_f32 *m);
void _mlir_ciface_printMemref3dF32(lwp_memref_3d_f32 *m);
void _mlir_ciface_printMemref4dF32(lwp_memref_4d_f32 *m);
void _mlir_ciface_printMemref1dI8(lwp_memref_1d_i8 *m);
void _mlir_ciface_printMemref1dI32(lwp_memref_1d_i32 *m);
void _mlir_ciface_printMemref1dI64(lwp_memref_1d_i64 *m);
void _mlir_ciface_printMemref1dF64(lwp_memref_1d_f64 *m);
void _mlir_ciface_printMemref1dInd(lwp_memref_1d_ind *m);
void _mlir_ciface_printMemref1dC32(lwp_memref_1d_c32 *m);
void _mlir_ciface_printMemref1dC64(lwp_memref_1d_c64 *m);
/** Each element a 4x4 vector: "((a, b, c, d),   (..),   (..),  (..))". */
void _mlir_ciface_printMemrefVector4x4xf32(lwp_memref_2d_vector4x4f32 *m);

/*--- RunnerUtils.h: verification, errors on stderr ------------------------*/
/*
 * verifyMemRef* compare \p actual with \p expected element by element and
 * return the number of elements that differ (floats: relative error above
 * 1e-6 (f32) or 1e-12 (f64), or either value not finite; others: !=), and
 * print the first 10 as "<actual> != <expected> offset = <offset>" lines on
 * stderr. Different rank, offset, sizes or strides: both headers on stderr
 * (no newline) and -1.
 */

int64_t _mlir_ciface_verifyMemRefI8(lwp_unranked_memref *actual,
                                    lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefI16(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefI32(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefI64(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefBF16(lwp_unranked_memref *actual,
                                      lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefF16(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefF32(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefF64(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefInd(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefC32(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefC64(lwp_unranked_memref *actual,
                                     lwp_unranked_memref *expected);

/** As _mlir_ciface_verifyMemRef* with {rank, actualPtr} and
 *  {rank, expectedPtr}. */
int64_t verifyMemRefI32(int64_t rank, void *actualPtr, void *expectedPtr);
int64_t verifyMemRefF32(int64_t rank, void *actualPtr, void *expectedPtr);
int64_t verifyMemRefF64(int64_t rank, void *actualPtr, void *expectedPtr);
int64_t verifyMemRefInd(int64_t rank, void *actualPtr, void *expectedPtr);
int64_t verifyMemRefC32(int64_t rank, void *actualPtr, void *expectedPtr);
int64_t verifyMemRefC64(int64_t rank, void *actualPtr, void *expectedPtr);

#ifdef __cplusplus
}
#endif

#endif /* LWP_RUNNER_UTILS_H */
