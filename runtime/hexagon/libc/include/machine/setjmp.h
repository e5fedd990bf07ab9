/*===- machine/setjmp.h - jmp_buf of LWP's Hexagon C library --------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Replaces newlib's machine/setjmp.h, which has no Hexagon jmp_buf. The
 * buffer of lwp_setjmp.S: the registers the Hexagon ABI has the callee keep
 * (r16-r27, the frame pointer r30, the link register r31, the stack pointer
 * r29), 8 double words, 8-byte aligned for memd.
 */
_BEGIN_STD_C

#define _JBTYPE long long
#define _JBLEN 8
typedef _JBTYPE jmp_buf[_JBLEN];

_END_STD_C
