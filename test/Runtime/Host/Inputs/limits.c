/* The runtime under resource limits (limits.test, issue 31):
 *
 *   limits run             a few regions, then a normal exit
 *   limits recurse N       a recursion N deep (a deep shadow stack)
 *   limits fork-threads N  N threads wait while main forks; the child runs
 *                          a region and prints its peak resident set
 *                          ("child peak: K kB", /proc's VmHWM)
 *   limits fds             takes every file descriptor left, then exits
 *   limits chdir-close DIR chdir(DIR), closes stdin and stdout, exits
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int Sink;

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; I++)
    Sink += I;
}

__attribute__((noinline)) long recurse(long N) {
  if (N == 0)
    return 0;
  long R = recurse(N - 1); /* not a tail call: a frame per level */
  work(1);
  return R + 1;
}

static pthread_barrier_t Ready, Done;

static void *waiter(void *Arg) {
  (void)Arg;
  work(10);
  pthread_barrier_wait(&Ready);
  pthread_barrier_wait(&Done);
  return NULL;
}

static long peakKB(void) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  long K = -1;
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "VmHWM:", 6))
      K = atol(Line + 6);
  if (F)
    fclose(F);
  return K;
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "run";
  for (int K = 0; K < 10; ++K)
    work(100);
  if (!strcmp(Mode, "recurse") && Argc > 2) {
    printf("%ld\n", recurse(atol(Argv[2])));
  } else if (!strcmp(Mode, "fork-threads") && Argc > 2) {
    int N = atoi(Argv[2]);
    pthread_t *T = calloc((size_t)N, sizeof(*T));
    pthread_barrier_init(&Ready, NULL, (unsigned)N + 1);
    pthread_barrier_init(&Done, NULL, (unsigned)N + 1);
    for (int I = 0; I < N; ++I)
      pthread_create(&T[I], NULL, waiter, NULL);
    pthread_barrier_wait(&Ready);
    fflush(stdout);
    pid_t Child = fork();
    if (Child == 0) {
      work(10);
      printf("child peak: %ld kB\n", peakKB());
      return 0;
    }
    int Status;
    waitpid(Child, &Status, 0);
    pthread_barrier_wait(&Done);
    for (int I = 0; I < N; ++I)
      pthread_join(T[I], NULL);
    return WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
  } else if (!strcmp(Mode, "fds")) {
    while (open("/dev/null", O_RDONLY) >= 0)
      ;
  } else if (!strcmp(Mode, "chdir-close") && Argc > 2) {
    if (chdir(Argv[2]) != 0)
      return 1;
    close(0);
    close(1);
  }
  return 0;
}
