/* A region that calls an instrumented function 3000 times
 * (test/Runtime/Hexagon/compensation.c): built with the LWP pass plugin at
 * -stats-level=40, once with leaf and outer instrumented and once with outer
 * alone (-lwp-function-filter). leaf keeps a stack frame in both builds (it
 * adds to what work returns), so the builds differ only by leaf's probes and
 * how the compiler packs leaf's instructions around them. */
#define NOINLINE __attribute__((noinline))

static volatile int Sink;

NOINLINE int work(int X) {
  Sink = X;
  return X;
}

NOINLINE int leaf(int X) { return work(X) + 1; }

NOINLINE int outer(int N) {
  int S = 0;
  for (int I = 0; I != N; ++I)
    S += leaf(I);
  return S;
}

int main(void) {
  Sink = outer(3000);
  return 0;
}
