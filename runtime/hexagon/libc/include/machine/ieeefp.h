/*===- machine/ieeefp.h - IEEE format of LWP's Hexagon C library ----------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Replaces newlib's machine/ieeefp.h, whose list of CPUs has no Hexagon:
 * Hexagon stores IEEE 754 float and double little-endian (long double is
 * double). newlib's libm keeps its older ("obsolete") math code, as newlib
 * does by default.
 */
#ifndef __IEEE_BIG_ENDIAN
#ifndef __IEEE_LITTLE_ENDIAN
#define __IEEE_LITTLE_ENDIAN
#endif
#endif

#ifndef __OBSOLETE_MATH_DEFAULT
#define __OBSOLETE_MATH_DEFAULT 1
#endif
#ifndef __OBSOLETE_MATH
#define __OBSOLETE_MATH __OBSOLETE_MATH_DEFAULT
#endif
