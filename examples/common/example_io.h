/*===- example_io.h - What the bundled examples' drivers share ---*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Output that works on the host (libc) and in the freestanding Hexagon
 * runtime (runtime/hexagon/include/lwp_hexagon.h), and MLIR's ranked memref
 * descriptor, for drivers that call MLIR functions through their C
 * interface (llvm.emit_c_interface).
 */
#ifndef LWP_EXAMPLES_EXAMPLE_IO_H
#define LWP_EXAMPLES_EXAMPLE_IO_H

#include <stdint.h>

#if defined(__hexagon__)
#include "lwp_hexagon.h"
static inline void out(const char *S) { lwp_hex_puts(1, S); }
#else
#include <stdio.h>
#include <string.h>
static inline void out(const char *S) { fputs(S, stdout); }
#endif

/* MLIR's ranked memref descriptor of float elements
 * (mlir/ExecutionEngine/CRunnerUtils.h): pointers, offset, sizes, strides. */
#define MEMREF(Rank)                                                           \
  struct {                                                                     \
    float *Allocated;                                                          \
    float *Aligned;                                                            \
    int64_t Offset;                                                            \
    int64_t Sizes[Rank];                                                       \
    int64_t Strides[Rank];                                                     \
  }

/* Prints \p V as 8 hex digits and a space: float bit patterns compare
 * exactly between instrumented and plain runs. */
static inline void putHex(uint32_t V) {
  char Buf[10];
  for (int I = 7; I >= 0; --I, V >>= 4)
    Buf[I] = "0123456789abcdef"[V & 15];
  Buf[8] = ' ';
  Buf[9] = '\0';
  out(Buf);
}

#endif /* LWP_EXAMPLES_EXAMPLE_IO_H */
