/*===- machine/setjmp.h - setjmp of LWP's Hexagon C library ---------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Replaces newlib's machine/setjmp.h, which has no Hexagon jmp_buf. LWP's
 * Hexagon C library has no setjmp/longjmp (docs/hexagon-runtime.md).
 */
#error "setjmp/longjmp are not in LWP's Hexagon C library (docs/hexagon-runtime.md)"
