/* The host runtime's files (issue 21, docs/reliability.md "Files"):
 *
 *   files run             a few regions, then a normal exit
 *   files chdir DIR       the same after chdir(DIR) (relative LWP_OUTPUT)
 *   files term-in-dump    SIGTERM arrives in the middle of the exit dump
 *                         (this program's write(2), which the runtime's dump
 *                         calls, raises it at the dump's first write)
 *   files term-thread     the same, SIGTERM sent to another thread
 *   files hang            regions, then sleeps (killed by the test)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

volatile int Sink;
static int Mode; /* 1: term-in-dump, 2: term-thread */
static pthread_t Other;
static volatile int OtherReady;

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; I++)
    Sink += I;
}

static volatile pid_t OtherTid;

/* Whether a signal is pending for thread \p Tid (/proc's SigPnd). */
static int signalPending(pid_t Tid) {
  char Path[64], Line[256];
  snprintf(Path, sizeof(Path), "/proc/self/task/%d/status", (int)Tid);
  FILE *F = fopen(Path, "r");
  int Pending = 0;
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "SigPnd:", 7))
      Pending = strtoull(Line + 7, NULL, 16) != 0;
  if (F)
    fclose(F);
  return Pending;
}

/* The runtime's dump writes through write(2): the first write to a file
 * (not stdout or stderr) brings the signal. */
ssize_t write(int Fd, const void *Buf, size_t N) {
  static int Once;
  if (Fd > 2 && Mode && !Once) {
    Once = 1;
    if (Mode == 1)
      raise(SIGTERM);
    else {
      /* Delivery to the other thread is asynchronous: wait until it has
       * taken the signal (no longer pending for it) while the dump is in
       * progress. */
      pthread_kill(Other, SIGTERM);
      for (int Try = 0; Try < 5000 && signalPending(OtherTid); ++Try)
        usleep(1000);
    }
  }
  return syscall(SYS_write, Fd, Buf, N);
}

static void *idle(void *Arg) {
  (void)Arg;
  OtherTid = (pid_t)syscall(SYS_gettid);
  OtherReady = 1;
  for (;;)
    pause();
  return NULL;
}

int main(int Argc, char **Argv) {
  const char *M = Argc > 1 ? Argv[1] : "run";
  for (int I = 0; I < 10; I++)
    work(100);
  if (!strcmp(M, "chdir") && Argc > 2 && chdir(Argv[2]) != 0) {
    perror("chdir");
    return 1;
  }
  if (!strcmp(M, "term-in-dump"))
    Mode = 1;
  if (!strcmp(M, "term-thread")) {
    Mode = 2;
    pthread_create(&Other, NULL, idle, NULL);
    while (!OtherReady)
      ;
  }
  if (!strcmp(M, "hang"))
    for (;;)
      pause();
  printf("%d\n", Sink);
  return 0;
}
