// A kernel for the clang tests of lwp-lower: function region 0, the row loop
// 1 (depth 0), the column loop 2 (depth 1). Neither loop is unrolled or
// vectorized, so that the regions are the source loops on every target.
__attribute__((noinline)) long kernel(int Rows, int Cols, int Seed) {
  long Sum = 0;
#pragma clang loop vectorize(disable) unroll(disable)
  for (int I = 0; I < Rows; ++I)
#pragma clang loop vectorize(disable) unroll(disable)
    for (int J = 0; J < Cols; ++J)
      Sum += (long)(I * 31 + J * 7 + Seed) % 13;
  return Sum;
}
