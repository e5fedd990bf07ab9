/*===- lwp_hexagon_process.h - The process's end for qemu-hexagon -*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The lowest layer of a Hexagon program (lwp_hexagon_process.c, a member of
 * liblwp_hexagon.a of its own; docs/hexagon-runtime.md, "Layers"): the
 * environment, exit and _exit, and a small table of exit hooks through which
 * the layers above ask to be called when the process ends, instead of being
 * called by name:
 *
 *   - the LWP runtime (lwp_hexagon_runtime.c) registers its dump at
 *     start-up, for exit and for signals that end the process;
 *   - the C library (libc/lwp_libc_syscalls.c) registers its stdio clean-up
 *     (flush and close every stream) before the program's constructors, for
 *     exit only, and runs the signal hooks from _kill.
 *
 * So every call goes downwards: the runtime and the C library call this
 * layer, which calls neither of them (utils/check-runtime-layering.py checks
 * it, test/Runtime/Hexagon/layering.test). It calls only newlib's
 * __call_exitprocs (the atexit handlers) by name, weakly: a program without
 * the C library has none.
 *
 * For a static, single-thread Linux user program started by
 * lwp_hexagon_crt0.o; nothing here is thread-safe.
 */
#ifndef LWP_RUNTIME_HEXAGON_PROCESS_H
#define LWP_RUNTIME_HEXAGON_PROCESS_H

#ifdef __cplusplus
extern "C" {
#endif

/** The environment (POSIX's environ): the process's envp, NULL-terminated,
 *  set by the start-up (lwp_hex_start) before any constructor runs; the C
 *  library's getenv reads it (newlib's environ.c is not built). */
extern char **environ;

/** When an exit hook runs (lwp_hex_exit_hook's \p when, a bit set). */
enum lwp_hex_exit_when {
  /** exit() and a return from main: after the C library's atexit handlers
   *  and the program's destructors, before the process ends. */
  LWP_HEX_AT_EXIT = 1,
  /** A signal whose default action ends the process, about to be sent by
   *  the process to itself (abort's SIGABRT, through raise and the C
   *  library's _kill): no atexit handler, no destructor runs (C's abort). */
  LWP_HEX_AT_SIGNAL = 2,
};

/** The hooks the table holds (registrations, each once per process). */
#define LWP_HEX_EXIT_HOOKS 8

/** Registers \p fn to be called when the process ends in one of the ways of
 *  \p when (LWP_HEX_AT_EXIT, LWP_HEX_AT_SIGNAL or both). Hooks run latest
 *  registered first, as atexit handlers do, and each at most once per
 *  process, whichever way comes first. Returns 0, or -1 when \p fn is NULL,
 *  \p when holds no known bit or LWP_HEX_EXIT_HOOKS hooks are registered
 *  and not yet run. */
int lwp_hex_exit_hook(void (*fn)(void), unsigned when);

/** Runs, latest registered first, every hook registered for one of the ways
 *  of \p when that has not run yet; each is removed from the table before it
 *  is called, so that a hook that calls exit goes on with the ones left.
 *  exit() calls it with LWP_HEX_AT_EXIT, the C library's _kill with
 *  LWP_HEX_AT_SIGNAL. */
void lwp_hex_run_exit_hooks(unsigned when);

/** Ends the process with status \p code (its low 8 bits, as Linux keeps
 *  them): runs the C library's atexit handlers (newlib's __call_exitprocs,
 *  when linked), the program's destructors (.fini_array in reverse order,
 *  once: a destructor that calls exit does not run them again), then the
 *  LWP_HEX_AT_EXIT hooks (the C library's stdio clean-up, then the LWP
 *  dump), then _exit. Returning from main does the same. */
_Noreturn void exit(int code);

/** Ends the process at once with status \p code (Linux's exit, syscall 93);
 *  runs no handler, destructor or hook, and so writes no dump. */
_Noreturn void _exit(int code);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LWP_RUNTIME_HEXAGON_PROCESS_H */
