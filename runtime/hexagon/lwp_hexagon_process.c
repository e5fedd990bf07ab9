/*===- lwp_hexagon_process.c - The process's end for qemu-hexagon ---------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * environ, exit, _exit and the exit hooks (lwp_hexagon_process.h): the
 * lowest layer of a Hexagon program, under the C library and the LWP
 * runtime, which register what must run when the process ends instead of
 * being called by name. An archive member of its own; calls nothing of
 * LWP's but through the hooks and the program's .fini_array.
 */
#include "lwp_hexagon_process.h"
#include "lwp_hexagon_syscall.h"

#include <stddef.h>

char **environ;

_Noreturn void _exit(int Code) {
  for (;;)
    lwp_hex_syscall4(LwpSysExit, Code, 0, 0, 0);
}

/*===----------------------------------------------------------------------===*
 * Exit hooks
 *===----------------------------------------------------------------------===*/

/* A registered hook; Fn is NULL once it ran. */
struct Hook {
  void (*Fn)(void);
  unsigned When;
};

/* The hooks in registration order; NumHooks entries used. */
static struct Hook Hooks[LWP_HEX_EXIT_HOOKS];
static unsigned NumHooks;

int lwp_hex_exit_hook(void (*Fn)(void), unsigned When) {
  When &= LWP_HEX_AT_EXIT | LWP_HEX_AT_SIGNAL;
  if (!Fn || !When)
    return -1;
  if (NumHooks == LWP_HEX_EXIT_HOOKS) {
    /* Full: drop the hooks that ran, keeping the order of the others. */
    unsigned N = 0;
    for (unsigned I = 0; I != NumHooks; ++I)
      if (Hooks[I].Fn)
        Hooks[N++] = Hooks[I];
    NumHooks = N;
    if (NumHooks == LWP_HEX_EXIT_HOOKS)
      return -1;
  }
  Hooks[NumHooks].Fn = Fn;
  Hooks[NumHooks].When = When;
  ++NumHooks;
  return 0;
}

void lwp_hex_run_exit_hooks(unsigned When) {
  /* The latest hook of When that has not run, again after each call: a hook
   * may register another one, or end the process through exit. */
  for (;;) {
    unsigned I = NumHooks;
    while (I && !(Hooks[I - 1].Fn && (Hooks[I - 1].When & When)))
      --I;
    if (!I)
      return;
    void (*Fn)(void) = Hooks[I - 1].Fn;
    Hooks[I - 1].Fn = NULL;
    Fn();
  }
}

/*===----------------------------------------------------------------------===*
 * exit
 *===----------------------------------------------------------------------===*/

/* An entry of .fini_array. */
typedef void (*FiniFn)(void);

/* Bounds of .fini_array; ld.lld defines them in a static link when they are
 * referenced (both equal when the array is empty or absent). */
extern const FiniFn __fini_array_start[]
    __attribute__((weak, visibility("hidden")));
extern const FiniFn __fini_array_end[]
    __attribute__((weak, visibility("hidden")));

/* Runs .fini_array in reverse order, once: a destructor that calls exit does
 * not run the others again. */
static void runDestructors(void) {
  static int Started;
  if (Started)
    return;
  Started = 1;
  for (const FiniFn *F = __fini_array_end; F > __fini_array_start;)
    (*--F)();
}

/* The C library's atexit handlers (newlib's __call_atexit.c, linked when
 * atexit is: newlib's _LITE_EXIT). Weak: a program without the C library,
 * or without atexit, has none. */
void __call_exitprocs(int Code, void *Dso) __attribute__((weak));

_Noreturn void exit(int Code) {
  /* A handler, destructor or hook that calls exit again goes on with the
   * ones left: newlib removes each handler before it calls it, the
   * destructors run once, each hook once. */
  if (__call_exitprocs)
    __call_exitprocs(Code, NULL);
  runDestructors();
  lwp_hex_run_exit_hooks(LWP_HEX_AT_EXIT);
  _exit(Code);
}
