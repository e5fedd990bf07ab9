/*===- lwp_host_signals.c - The profile through fatal signals ----------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The host runtime's signal handling (docs/reliability.md, "Ends of a
 * program"): on abort, crashes and termination signals the dump is written
 * from the handler, once, and the signal then takes the course the program
 * gave it; a termination signal during a dump waits for the dump; a fault
 * during a dump removes its temporary. The dump learns of none of this: it
 * calls the guard this file registers (lwp_dump_set_guard).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* On these signals, every one whose default action ends the process, the
 * dump is written once, async-signal-safely (the arena, write(2), a lock
 * only tried), and the signal then goes on to the action the program had
 * before: its handler, or the default action (re-raised). SIGKILL and
 * _exit cannot be caught: nothing is written then. */
static const int FatalSignals[] = {SIGABRT, SIGSEGV, SIGBUS,  SIGILL,  SIGFPE,
                                   SIGTERM, SIGINT,  SIGHUP,  SIGQUIT, SIGUSR1,
                                   SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ};

/* Signals that only ask the process to end: one arriving during a dump
 * waits for the dump. The others are faults (or a limit already passed),
 * which cannot wait. */
static int isTermination(int Sig) {
  return Sig == SIGTERM || Sig == SIGINT || Sig == SIGHUP || Sig == SIGQUIT ||
         Sig == SIGUSR1 || Sig == SIGUSR2 || Sig == SIGALRM || Sig == SIGPIPE ||
         Sig == SIGXCPU;
}
static struct sigaction OldActions[NSIG];
static int SignalDumped;
/** Set while a dump is being written (by any thread, or a handler). */
static int Dumping;
/** A termination signal that arrived during a dump: it is acted on once
 *  the dump is complete (deliverPending). */
static int PendingSignal;
/** The folder and temporary of the dump being written (the dump's own
 *  variables), removed if a fault ends the process during the dump. */
static const struct lwp_file_dir *DumpDir;
static const struct lwp_file_temp *DumpTemp;

static void chainSignal(int Sig, siginfo_t *Info, void *Context);
static void dumpBegin(const struct lwp_file_dir *Dir,
                      const struct lwp_file_temp *Temp);
static void dumpEnd(void);
static void deliverPending(void);

/* What the dump tells this file (lwp_dump_set_guard). */
static const struct lwp_dump_guard Guard = {dumpBegin, dumpEnd, deliverPending};

static void onFatalSignal(int Sig, siginfo_t *Info, void *Context) {
  int SavedErrno = errno;
  if (__atomic_load_n(&Dumping, __ATOMIC_ACQUIRE)) {
    if (isTermination(Sig)) {
      /* The dump in progress completes first; the signal then takes its
       * course, so that the exit status is the signal's. */
      __atomic_store_n(&PendingSignal, Sig, __ATOMIC_RELEASE);
      errno = SavedErrno;
      return;
    }
    /* A fault inside the dump: no half-written file stays behind. */
    if (DumpDir && DumpDir->fd >= 0 && DumpTemp && DumpTemp->name[0])
      unlinkat(DumpDir->fd, DumpTemp->name, 0);
  } else if (!__atomic_exchange_n(&SignalDumped, 1, __ATOMIC_ACQ_REL)) {
    const char *Path = getenv("LWP_OUTPUT");
    if (!Path || *Path) {
      /* Silent when it works: the program's stderr stays its own (lwp-run
       * --check-output compares it); dumpImpl says why when it fails. */
      if (lwp_dump_impl(Path, LWP_DUMP_IN_SIGNAL) == 0)
        lwp_remove_state();
    }
  }
  errno = SavedErrno;
  chainSignal(Sig, Info, Context);
}

static void deliverPending(void) {
  int Sig = __atomic_exchange_n(&PendingSignal, 0, __ATOMIC_ACQ_REL);
  if (!Sig)
    return;
  __atomic_store_n(&SignalDumped, 1, __ATOMIC_RELEASE);
  siginfo_t Info;
  memset(&Info, 0, sizeof(Info));
  Info.si_signo = Sig;
  chainSignal(Sig, &Info, NULL);
}

/** Restores the action the program had for \p Sig and takes it. */
static void chainSignal(int Sig, siginfo_t *Info, void *Context) {
  struct sigaction Old = OldActions[Sig];
  sigaction(Sig, &Old, NULL);
  if ((Old.sa_flags & SA_SIGINFO) && Old.sa_sigaction) {
    Old.sa_sigaction(Sig, Info, Context);
    return;
  }
  if (!(Old.sa_flags & SA_SIGINFO) && Old.sa_handler != SIG_DFL &&
      Old.sa_handler != SIG_IGN) {
    Old.sa_handler(Sig);
    return;
  }
  if (Old.sa_handler == SIG_IGN)
    return;
  /* The default action: pending until this handler returns (the signal is
   * blocked meanwhile); a fault would recur on return anyway. */
  raise(Sig);
}

void lwp_signals_install(void) {
  const char *Env = getenv("LWP_SIGNALS");
  if ((Env && !strcmp(Env, "0")) || lwp_is_tool())
    return;
  lwp_dump_set_guard(&Guard);
  static stack_t AltStack;
  AltStack.ss_size = 64 * 1024;
  AltStack.ss_sp = mmap(NULL, AltStack.ss_size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  stack_t Current;
  if (AltStack.ss_sp != MAP_FAILED && sigaltstack(NULL, &Current) == 0 &&
      (Current.ss_flags & SS_DISABLE))
    sigaltstack(&AltStack, NULL);
  for (size_t I = 0; I != sizeof(FatalSignals) / sizeof(FatalSignals[0]); ++I) {
    int Sig = FatalSignals[I];
    struct sigaction Old, New;
    if (sigaction(Sig, NULL, &Old) != 0 || Old.sa_handler == SIG_IGN)
      continue;
    memset(&New, 0, sizeof(New));
    New.sa_sigaction = onFatalSignal;
    New.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&New.sa_mask);
    OldActions[Sig] = Old;
    sigaction(Sig, &New, NULL);
  }
}

static void dumpBegin(const struct lwp_file_dir *Dir,
                      const struct lwp_file_temp *Temp) {
  DumpDir = Dir;
  DumpTemp = Temp;
  __atomic_store_n(&Dumping, 1, __ATOMIC_RELEASE);
}

static void dumpEnd(void) { __atomic_store_n(&Dumping, 0, __ATOMIC_RELEASE); }
