/*===- newlib.h - newlib's configuration for LWP's Hexagon C library ------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What newlib's configure would write into newlib.h (newlib/newlib.hin) for
 * LWP's Hexagon C library (runtime/hexagon/libc, docs/hexagon-runtime.md).
 * newlib's configure knows no Hexagon CPU, so the build uses this file
 * instead; the defaults of a full (not nano) newlib, plus _LITE_EXIT (the
 * runtime's exit calls __call_exitprocs weakly), the POSIX clocks and no
 * wide orientation.
 */
#ifndef __NEWLIB_H__
#define __NEWLIB_H__ 1

#include <_newlib_version.h>

/* printf/scanf: C99 formats (%zu, %hhd, %a, %lld ...), long long, long
 * double (equal to double on Hexagon). */
#define _WANT_IO_C99_FORMATS 1
#define _WANT_IO_LONG_LONG 1
#define _WANT_IO_LONG_DOUBLE 1
/* One byte per character: no multibyte locales. */
#define _MB_LEN_MAX 1
/* atexit() takes any number of handlers (from malloc past the first 32). */
#define _ATEXIT_DYNAMIC_ALLOC 1
/* long double is 64-bit IEEE double on Hexagon. */
#define _HAVE_LONG_DOUBLE 1
#define _LDBL_EQ_DBL 1
/* stdio options newlib enables by default. */
#define _FVWRITE_IN_STREAMIO 1
#define _FSEEK_OPTIMIZATION 1
#define _UNBUF_STREAM_OPT 1
/* exit() (the LWP runtime's) calls __call_exitprocs only when atexit was
 * linked; __atexit.c then references it strongly. */
#define _LITE_EXIT 1
/* The POSIX clocks (time.h: clock_gettime, clock_getres, nanosleep,
 * CLOCK_MONOTONIC, the CPU-time clocks), which newlib's sys/features.h
 * announces only for RTEMS and Cygwin; lwp_libc_syscalls.c implements them
 * through Linux (timer_create and the other timers are not implemented: a
 * program that calls them does not link). */
#define _POSIX_TIMERS 1
#define _POSIX_MONOTONIC_CLOCK 200112L
#define _POSIX_CPUTIME 1
#define _POSIX_THREAD_CPUTIME 1

#endif /* __NEWLIB_H__ */
