// Driver of two-mlir.test: calls the first module with n = 10 and prints
// the result (the sum over i < 10 of i * (i - 1) / 2 = 120).
#include "../../../../examples/common/example_io.h"

int64_t outer_run(int64_t N);

int main(void) {
  int64_t R = outer_run(10);
  out(R == 120 ? "two-mlir: 120\n" : "two-mlir: WRONG\n");
  return 0;
}
