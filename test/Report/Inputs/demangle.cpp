// C++ names for demangle.test: a function template, a member function and
// a function in a namespace.
#include <cstdio>

template <typename T, int N> struct Mat {
  T V[N];
};

template <typename T, int N>
__attribute__((noinline)) void mul(const Mat<T, N> &A, const Mat<T, N> &B,
                                   Mat<T, N> &C) {
  for (int I = 0; I < N; ++I)
    C.V[I] = A.V[I] * B.V[I];
}

struct Sum {
  long Total = 0;
  __attribute__((noinline)) void add(long X) {
    for (long I = 0; I < X; ++I)
      Total += I;
  }
};

namespace kernels {
__attribute__((noinline)) int scale(int X) { return X * 3; }
} // namespace kernels

int main() {
  Mat<int, 24> A, B, C;
  for (int I = 0; I < 24; ++I)
    A.V[I] = B.V[I] = I;
  mul(A, B, C);
  Sum S;
  for (int K = 0; K < 3; ++K)
    S.add(10);
  std::printf("%d %ld %d\n", C.V[23], S.Total, kernels::scale(C.V[2]));
  return 0;
}
