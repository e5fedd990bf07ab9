/*===- lwp_hexagon_libm.c - The libm subset MLIR-lowered models need ------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * expf for the freestanding Hexagon environment: math.exp (softmax) lowers
 * to llvm.exp.f32, which llc turns into a call of expf. Range reduction
 * x = k ln2 + r, |r| <= ln2/2, then a degree-6 Taylor polynomial for e^r
 * (relative error below 2e-7 where the result is a normal float) scaled by
 * 2^k through the
 * exponent bits. Overflow gives +inf, underflow 0, NaN stays NaN; results in
 * the subnormal range lose precision.
 */
#include <stdint.h>

float expf(float X) {
  if (X != X)
    return X;
  if (X > 88.72283f)
    return __builtin_inff();
  if (X < -103.97208f)
    return 0.0f;
  const float Ln2Hi = 0.693145752f, Ln2Lo = 1.42860677e-06f;
  float T = X * 1.44269504f;
  int K = (int)(T + (T < 0 ? -0.5f : 0.5f)); /* round to nearest */
  float Kf = (float)K;
  float R = (X - Kf * Ln2Hi) - Kf * Ln2Lo;
  float P = 1.0f + R * (1.0f + R * (0.5f + R * (1.0f / 6 + R * (1.0f / 24 +
                                       R * (1.0f / 120 + R * (1.0f / 720))))));
  /* Scale by 2^K in two steps so that K down to -150 stays representable. */
  int K1 = K / 2, K2 = K - K1;
  union {
    uint32_t U;
    float F;
  } S1 = {(uint32_t)(K1 + 127) << 23}, S2 = {(uint32_t)(K2 + 127) << 23};
  return P * S1.F * S2.F;
}
