/* Runs Inputs/forest.ll's functions: forest(n) with n from the command line. */
#include <stdlib.h>
void forest(int N);
void flat(void);
int main(int argc, char **argv) {
  forest(argc > 1 ? atoi(argv[1]) : 1);
  flat();
  return 0;
}
volatile int Sink;
__attribute__((noinline)) void work(int X) { Sink += X; }
