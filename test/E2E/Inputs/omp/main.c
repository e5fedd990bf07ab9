#include <stdio.h>
#include <stdint.h>
typedef struct { float *alloc, *data; int64_t off, sizes[2], strides[2]; } M2;
void _mlir_ciface_scale_rows(M2 *m, float s);
static float buf[64 * 256];
int main(void) {
  for (int i = 0; i < 64 * 256; ++i) buf[i] = (float)(i % 97);
  M2 m = {buf, buf, 0, {64, 256}, {256, 1}};
  for (int k = 0; k < 3; ++k) _mlir_ciface_scale_rows(&m, 1.5f);
  double sum = 0;
  for (int i = 0; i < 64 * 256; ++i) sum += buf[i];
  printf("sum %.1f\n", sum);
  return 0;
}
