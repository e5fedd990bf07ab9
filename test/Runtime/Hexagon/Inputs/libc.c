/* An ordinary C program for the Hexagon C library (libc.test): stdio on
 * stdout, stderr and files, standard input, malloc, getenv, strings,
 * conversions, qsort, libm, setjmp/longjmp, the POSIX clocks, atexit and a
 * destructor, exit status; with the argument "abort" a failing assert. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmpInt(const void *A, const void *B) {
  int X = *(const int *)A, Y = *(const int *)B;
  return (X > Y) - (X < Y);
}

/* Called 3 times: its function region counts 3. */
__attribute__((noinline)) static long sumTo(long N) {
  long S = 0;
  for (long I = 1; I <= N; ++I)
    S += I;
  return S;
}

static jmp_buf JumpEnv;
static volatile int Sink;

/* Recurses Depth times (not a tail call), then longjmps to JumpEnv with
 * Value: 6 + 1 calls. */
__attribute__((noinline)) static void jumpBack(int Depth, int Value) {
  if (!Depth)
    longjmp(JumpEnv, Value);
  jumpBack(Depth - 1, Value);
  Sink += Depth;
}

static void atExit(void) { printf("atexit handler ran\n"); }
__attribute__((destructor)) static void destructor(void) {
  printf("destructor ran\n");
}

int main(int argc, char **argv) {
  atexit(atExit);
  printf("sum %ld %ld %ld\n", sumTo(10), sumTo(100), sumTo(1000));
  if (argc > 1 && !strcmp(argv[1], "abort")) {
    fflush(stdout);
    assert(argc == 1 && "abort requested");
  }
  printf("printf: %d %5.2f %-4s| %x %lld %zu %c %e\n", -42, 3.14159, "ab", 255u,
         -1234567890123ll, sizeof(double), 'z', 1e-10);
  fprintf(stderr, "stderr: %s %g\n", "warning", 0.1 + 0.2);

  /* malloc family: many blocks, some freed and reused. */
  char *Blocks[100];
  for (int I = 0; I != 100; ++I) {
    Blocks[I] = malloc(16 + I * 37);
    memset(Blocks[I], I, 16 + I * 37);
  }
  for (int I = 0; I != 100; I += 2)
    free(Blocks[I]);
  int *Zeros = calloc(1000, sizeof(int));
  long ZeroSum = 0;
  for (int I = 0; I != 1000; ++I)
    ZeroSum += Zeros[I];
  char *Grown = realloc(Blocks[1], 100000);
  printf("malloc: %d %ld %d\n", Grown[52], ZeroSum, Blocks[99][100]);
  free(Zeros);

  const char *Env = getenv("LWP_LIBC_TEST");
  printf("getenv: %s %s\n", Env ? Env : "(none)",
         getenv("LWP_NO_SUCH_VARIABLE") ? "set" : "(none)");

  /* Standard input: numbers to sort. */
  int Values[64], N = 0;
  while (N < 64 && scanf("%d", &Values[N]) == 1)
    ++N;
  qsort(Values, (size_t)N, sizeof(int), cmpInt);
  printf("sorted %d:", N);
  for (int I = 0; I != N; ++I)
    printf(" %d", Values[I]);
  printf("\n");

  /* Files. */
  FILE *F = fopen("libc-test.txt", "w");
  for (int I = 0; I != 1000; ++I)
    fprintf(F, "line %d\n", I);
  fclose(F);
  F = fopen("libc-test.txt", "r");
  fseek(F, 0, SEEK_END);
  long Size = ftell(F);
  fseek(F, 10, SEEK_SET);
  char Line[32];
  fgets(Line, sizeof(Line), F);
  fclose(F);
  printf("file: %ld bytes, at 10: %s", Size, Line);
  errno = 0;
  F = fopen("no/such/file", "r");
  printf("fopen missing: %s errno=%s\n", F ? "opened" : "NULL",
         errno == ENOENT ? "ENOENT" : strerror(errno));
  remove("libc-test.txt");

  /* Conversions and strings. */
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%08.3f|%+d", -3.5, 7);
  double X = strtod("  6.02e23xyz", NULL);
  long L = strtol("-0x1F", NULL, 16);
  printf("strings: %s %.3g %ld %zu %s\n", Buf, X, L, strlen(Buf),
         strstr("haystack", "st"));

  /* libm. */
  printf("libm: %.6f %.6f %.6f %.6f %.6f %.1f %.1f\n", sin(1.0), exp(1.0),
         log(10.0), pow(2.0, 0.5), fmod(10.0, 3.0), floor(-2.5), ceil(-2.5));
  printf("libm float: %.5f %.5f\n", (double)expf(1.0f), (double)sqrtf(2.0f));

  /* longjmp out of 6 nested calls with 42, then with 0 (setjmp gives 1). */
  volatile int First = setjmp(JumpEnv);
  if (!First)
    jumpBack(5, 42);
  volatile int Second = setjmp(JumpEnv);
  if (!Second)
    jumpBack(0, 0);
  printf("longjmp: %d %d\n", First, Second);

  printf("time: %d\n", time(NULL) > 1600000000);
  /* The POSIX clocks by their time.h names: the system clock is time()'s,
   * the monotonic one counts from boot (well below the epoch's seconds). */
  struct timespec Real, Mono, Res, Nap = {0, 1000000};
  time_t Now = time(NULL);
  printf("clock_gettime: %d %d\n",
         clock_gettime(CLOCK_REALTIME, &Real) == 0 && Real.tv_sec >= Now &&
             Real.tv_sec <= Now + 1,
         clock_gettime(CLOCK_MONOTONIC, &Mono) == 0 &&
             Mono.tv_sec < Real.tv_sec / 2);
  printf("clock_getres: %d\n", clock_getres(CLOCK_MONOTONIC, &Res) == 0 &&
                                   Res.tv_sec == 0 && Res.tv_nsec > 0);
  printf("cputime: %d\n", clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &Res) == 0 &&
                              Res.tv_sec < 60);
  errno = 0;
  int Bad = clock_gettime((clockid_t)1000, &Res);
  printf("bad clock: %d %s\n", Bad, errno == EINVAL ? "EINVAL" : "?");
  struct timespec Before, After;
  clock_gettime(CLOCK_MONOTONIC, &Before);
  int Slept = nanosleep(&Nap, NULL);
  clock_gettime(CLOCK_MONOTONIC, &After);
  printf("nanosleep: %d %d\n", Slept,
         (After.tv_sec - Before.tv_sec) * 1000000000L + After.tv_nsec -
                 Before.tv_nsec >= 1000000L);
  return 7;
}
