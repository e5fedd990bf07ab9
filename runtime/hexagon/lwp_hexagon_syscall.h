/*===- lwp_hexagon_syscall.h - Linux system calls, qemu-hexagon ---*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The Linux system calls of the Hexagon runtime's own files
 * (lwp_hexagon_process.c, lwp_hexagon_runtime.c, lwp_hexagon_start.c):
 * trap0(#1) with the number in r6, the arguments in r0-r3 and the result,
 * or -errno, in r0. Numbers of asm-generic/unistd.h, which Hexagon Linux
 * uses. Internal: a static inline function, so that each file stays free of
 * calls into the others. (The C library's own system calls are in
 * libc/lwp_libc_syscalls.c.)
 */
#ifndef LWP_RUNTIME_HEXAGON_SYSCALL_H
#define LWP_RUNTIME_HEXAGON_SYSCALL_H

/** System call numbers and the flags the runtime passes them. */
enum {
  LwpSysOpenat = 56,
  LwpSysClose = 57,
  LwpSysWrite = 64,
  LwpSysExit = 93,
  LwpSysGetpid = 172,
  LwpSysMprotect = 226,
  LwpAtFdCwd = -100,
  LwpOWronly = 01,
  LwpOCreat = 0100,
  LwpOTrunc = 01000,
};

/** System call \p Nr with arguments \p A to \p D; returns its result, a
 *  negative errno on failure (Linux's numbering). */
static inline long lwp_hex_syscall4(long Nr, long A, long B, long C, long D) {
  register long R0 __asm__("r0") = A;
  register long R1 __asm__("r1") = B;
  register long R2 __asm__("r2") = C;
  register long R3 __asm__("r3") = D;
  register long R6 __asm__("r6") = Nr;
  __asm__ volatile("trap0(#1)"
                   : "+r"(R0)
                   : "r"(R1), "r"(R2), "r"(R3), "r"(R6)
                   : "memory");
  return R0;
}

#endif /* LWP_RUNTIME_HEXAGON_SYSCALL_H */
