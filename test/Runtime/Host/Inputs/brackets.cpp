// Figures known in advance (issue 11): main brackets every top-level call
// with the counter the x86-64 runtime reads (rdtsc) and prints the sum per
// function; the report's raw totals must match them. The calls: a
// triangular nest (later rows longer), a function whose first call is cold
// (it touches 32 MiB the first time), recursion 300 deep, a longjmp out of
// a callee's loop back into its caller, and an exception thrown out of a
// callee's loop and caught in its caller. Each runs past the default cap of
// 100 records per region, so the totals cannot come from the records.
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <x86intrin.h>

static volatile unsigned long long Sink;

extern "C" {

__attribute__((noinline)) void triangle(int N) {
  for (int I = 0; I < N; ++I)
    for (int J = 0; J <= I; ++J)
      Sink = Sink + (unsigned long long)I * J;
}

static volatile char *Cold;
enum { ColdBytes = 32 << 20 };

__attribute__((noinline)) void coldFirst(int N) {
  if (!Cold) {
    Cold = (volatile char *)malloc(ColdBytes);
    for (int I = 0; I < ColdBytes; I += 64)
      Cold[I] = (char)I;
  }
  for (int I = 0; I < N; ++I)
    Sink = Sink + Cold[(I * 4160) & (ColdBytes - 1)];
}

unsigned long long recurse(int Depth);
// Called through a volatile pointer: a real recursion, not a loop.
static unsigned long long (*volatile Recurse)(int) = recurse;

__attribute__((noinline)) unsigned long long recurse(int Depth) {
  if (Depth == 0)
    return 1;
  unsigned long long S = 0;
  for (int I = 0; I < 40; ++I)
    S += (unsigned long long)(I ^ Depth) * Sink;
  return S + Recurse(Depth - 1);
}

static jmp_buf Env;

__attribute__((noinline)) void leaveByJump(int N) {
  for (int I = 0; I < N; ++I) {
    Sink = Sink + I;
    if (I == N - 1)
      longjmp(Env, 1);
  }
}

__attribute__((noinline)) void jumper(int N) {
  if (setjmp(Env) == 0)
    leaveByJump(N);
  for (int I = 0; I < N; ++I)
    Sink = Sink + I;
}

__attribute__((noinline)) void leaveByThrow(int N) {
  for (int I = 0; I < N; ++I) {
    Sink = Sink + I;
    if (I == N - 1)
      throw std::runtime_error("out of the loop");
  }
}

__attribute__((noinline)) void catcher(int N) {
  try {
    leaveByThrow(N);
  } catch (const std::exception &) {
    Sink = Sink + 1;
  }
  for (int I = 0; I < N; ++I)
    Sink = Sink + I;
}

} // extern "C"

/// Calls \p Call(R) for R in [0, Times), each call bracketed with rdtsc;
/// returns the sum of the brackets (ticks).
template <typename F> static unsigned long long bracket(int Times, F Call) {
  unsigned long long Sum = 0;
  for (int R = 0; R < Times; ++R) {
    unsigned long long T = __rdtsc();
    Call(R);
    Sum += __rdtsc() - T;
  }
  return Sum;
}

int main() {
  unsigned long long Triangle = bracket(200, [](int R) { triangle(120 + R); });
  unsigned long long ColdFirst = bracket(300, [](int) { coldFirst(20000); });
  unsigned long long Recursion =
      bracket(150, [](int) { Sink = Sink + recurse(300); });
  unsigned long long Jumper = bracket(150, [](int) { jumper(20000); });
  unsigned long long Catcher = bracket(150, [](int) { catcher(20000); });
  printf("bracket triangle %llu\nbracket coldFirst %llu\nbracket recurse %llu\n"
         "bracket jumper %llu\nbracket catcher %llu\n",
         Triangle, ColdFirst, Recursion, Jumper, Catcher);
  return 0;
}
