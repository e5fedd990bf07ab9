// A program that ends without running any exit code (continuous.test): a
// thread and main run an instrumented loop, main then stays inside an open
// instance of `hold` and ends by SIGKILL, _exit or a normal return, by its
// argument.
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile long Sink;

__attribute__((noinline)) void work(int N) {
  for (int I = 0; I < N; ++I)
    Sink += I;
}

static void *worker(void *Arg) {
  (void)Arg;
  for (int K = 0; K < 5; ++K)
    work(50);
  return NULL;
}

__attribute__((noinline)) int hold(const char *Mode) {
  for (int K = 0; K < 2; ++K)
    work(10);
  if (!strcmp(Mode, "kill"))
    kill(getpid(), SIGKILL);
  if (!strcmp(Mode, "_exit"))
    _exit(4);
  return 0;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  pthread_join(T, NULL);
  for (int K = 0; K < 7; ++K)
    work(100);
  return hold(Mode);
}
