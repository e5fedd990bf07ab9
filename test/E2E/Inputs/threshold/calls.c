// A loop that calls a tiny function (below any threshold of 10 or more) and
// a larger one, for -lwp-instruction-threshold (instruction-threshold.test).
#include <stdio.h>
#include <stdlib.h>

int helper(int x); // helper.c: a module of small functions only

__attribute__((noinline)) int tiny(int x) { return x + 1; }

__attribute__((noinline)) unsigned mix(unsigned h, unsigned v) {
  for (int i = 0; i < 4; ++i) {
    h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
    v = v * 2654435761u + (unsigned)i;
  }
  return h;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int s = 0;
  unsigned h = 0;
  for (int i = 0; i < n; ++i) {
    s = tiny(s);
    h = mix(h, (unsigned)helper(s));
  }
  printf("%d %u\n", s, h);
  return 0;
}
