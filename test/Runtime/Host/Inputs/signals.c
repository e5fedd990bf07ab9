// A program that ends abnormally (signals.test): it runs an instrumented
// loop 7 times, then, by its argument, aborts, dereferences null, raises
// SIGTERM or SIGINT, overflows its stack, calls _exit, raises SIGUSR1
// into a handler it installed before the runtime's, or ("raise N") raises
// signal N.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile long Sink;
static volatile int *Null;

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; ++I)
    Sink += I;
}

__attribute__((noinline)) long overflow(long N) {
  volatile char Big[4096];
  Big[0] = (char)N;
  return overflow(N + 1) + Big[0];
}

static void onTerm(int Sig) {
  (void)Sig;
  static const char Msg[] = "program's own SIGTERM handler\n";
  write(1, Msg, sizeof(Msg) - 1);
  _exit(3);
}

/* Installed before the runtime starts (constructor priority 100 < 101), so
 * the runtime chains to it. */
__attribute__((constructor(100))) static void installOwnHandler(void) {
  if (getenv("OWN_HANDLER"))
    signal(SIGTERM, onTerm);
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  for (int K = 0; K < 7; ++K)
    work(100);
  fflush(stdout);
  if (!strcmp(Mode, "abort"))
    abort();
  if (!strcmp(Mode, "segv"))
    return *Null;
  if (!strcmp(Mode, "term"))
    raise(SIGTERM);
  if (!strcmp(Mode, "int"))
    raise(SIGINT);
  if (!strcmp(Mode, "stack"))
    return (int)overflow(0);
  if (!strcmp(Mode, "_exit"))
    _exit(4);
  if (!strcmp(Mode, "raise") && argc > 2)
    raise(atoi(argv[2]));
  return 0;
}
