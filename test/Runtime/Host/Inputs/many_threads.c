/* 2000 short-lived threads, one after another, each running work() 5 times
 * (issue 21: a thread's state is folded and freed when it ends). Prints the
 * peak RSS in MB before exit; with "kill", then ends by SIGKILL. */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>

volatile int Sink;

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; I++)
    Sink += I;
}

static void *body(void *Arg) {
  (void)Arg;
  for (int I = 0; I < 5; I++)
    work(50);
  return NULL;
}

int main(int Argc, char **Argv) {
  for (int T = 0; T < 2000; T++) {
    pthread_t Th;
    if (pthread_create(&Th, NULL, body, NULL) != 0)
      return 1;
    pthread_join(Th, NULL);
  }
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  printf("peak rss %ld MB\n", U.ru_maxrss / 1024);
  fflush(stdout);
  if (Argc > 1 && !strcmp(Argv[1], "kill"))
    raise(SIGKILL);
  return 0;
}
