// Resume probes at a landing pad (issue 20): thrower throws through middle
// (which has a cleanup), main catches, then calls work. 50 times.
#include <cstdio>

volatile int Sink;

struct Guard {
  ~Guard() { Sink += 1; }
};

__attribute__((noinline)) void thrower(int I) {
  for (int K = 0; K < 10; K++)
    Sink += K + I;
  throw I;
}

__attribute__((noinline)) void middle(int I) {
  Guard G;
  thrower(I);
}

__attribute__((noinline)) void work() {
  for (int K = 0; K < 2000; K++)
    Sink += K;
}

int main() {
  for (int I = 0; I < 50; I++) {
    try {
      middle(I);
    } catch (int) {
    }
    work();
  }
  std::printf("%d\n", Sink);
  return 0;
}
