/*===- lwp_libc_posix_memalign.c - posix_memalign over newlib's malloc ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * posix_memalign for LWP's Hexagon C library (newlib 3.3 has none): over
 * newlib's memalign. A file of its own, not with the system calls
 * (lwp_libc_syscalls.c): memalign grows the heap through _sbrk there, and
 * the system calls stay the bottom of the C library, calling nothing above
 * them (utils/check-runtime-layering.py --cycles).
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

int posix_memalign(void **Out, size_t Align, size_t Size) {
  if (Align < sizeof(void *) || (Align & (Align - 1)))
    return EINVAL;
  void *P = memalign(Align, Size);
  if (!P)
    return ENOMEM;
  *Out = P;
  return 0;
}
