/* Calls every function of the MLIR runner utilities (lwp_runner_utils.h)
 * with memrefs of rank 0 to 4, contiguous and strided, and values that test
 * the formats: negative, large, tiny, subnormal, -0, nan, -nan, inf, the
 * integer limits. Built once for the host against MLIR's own libraries and
 * once for Hexagon against libmlir_runner_utils_hexagon.a: the outputs
 * must be the same once the base@ addresses are masked. */
#include "lwp_runner_utils.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static float nanf_(int neg) {
  union {
    uint32_t u;
    float f;
  } v = {neg ? 0xffc00000u : 0x7fc00000u};
  return v.f;
}
static double nan_(int neg) {
  union {
    uint64_t u;
    double d;
  } v = {neg ? 0xfff8000000000000ull : 0x7ff8000000000000ull};
  return v.d;
}

static float F[64];
static double D[32];
static int32_t I32v[16];
static int64_t I64v[16];
static uint64_t Indv[8];
static int8_t I8v[8];
static int16_t I16v[8];
static uint16_t Hv[12];
static lwp_complex32 C32v[4];
static lwp_complex64 C64v[4];

static void section(const char *name) {
  fflush(stdout);
  printf("== %s\n", name);
  fflush(stdout);
}

/* A descriptor of rank R over data (no sizes/strides beyond R). */
#define DESC(R) LWP_MEMREF_TYPE(float, R)

int main(void) {
  const float fv[] = {0.0f,
                      -0.0f,
                      1.0f,
                      -1.5f,
                      0.1f,
                      3.14159265f,
                      1e6f,
                      -1234567.0f,
                      1e-5f,
                      1e-40f,
                      1.17549435e-38f,
                      3.40282347e38f,
                      nanf_(0),
                      nanf_(1),
                      1.0f / 0.0f,
                      -1.0f / 0.0f,
                      100000.0f,
                      999999.5f,
                      0.0001f,
                      123.456f,
                      2.5e-7f,
                      -7.0f,
                      65504.0f,
                      1e20f};
  /* No arithmetic on NaNs: Hexagon returns the default NaN (sign set),
   * x86 the operand. */
  for (int i = 0; i < 64; ++i) {
    float v = fv[i % (int)(sizeof(fv) / sizeof(fv[0]))];
    F[i] = i >= 24 && v == v ? v + (float)i : v;
  }
  const double dv[] = {
      0.0,       -0.0,           1.0 / 3.0, -2.0 / 3.0,
      1e100,     -1e-300,        4.9e-324,  1.7976931348623157e308,
      nan_(0),   nan_(1),        1.0 / 0.0, -1.0 / 0.0,
      1234567.0, 0.000123456789, 1e15,      42.0};
  for (int i = 0; i < 32; ++i)
    D[i] = i >= 16 ? -dv[i % 16] : dv[i % 16];
  const int64_t iv[] = {
      0,         1,         -1, 2147483647, -2147483647 - 1, 100, -123456, 42,
      INT64_MAX, INT64_MIN, 7,  -9,         1000000,         -5,  3,       -3};
  for (int i = 0; i < 16; ++i) {
    I64v[i] = iv[i];
    I32v[i] = (int32_t)iv[i];
  }
  Indv[0] = 0;
  Indv[1] = UINT64_MAX;
  Indv[2] = 12345678901234567890ull;
  Indv[3] = 7;
  const char *text = "Hi, MLIR";
  memcpy(I8v, text, 8);
  const int16_t sv[] = {0, -1, 32767, -32768, 12, -345, 6789, 1};
  memcpy(I16v, sv, sizeof(sv));
  /* f16: 0, -0, 1, -2, 65504, 2^-24 (subnormal), 1/3, inf, -inf, nan,
   * -nan, 0.1 */
  const uint16_t hv[] = {0x0000, 0x8000, 0x3c00, 0xc000, 0x7bff, 0x0001,
                         0x3555, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x2e66};
  memcpy(Hv, hv, sizeof(hv));
  C32v[0] = (lwp_complex32){1.5f, -2.0f};
  C32v[1] = (lwp_complex32){0.0f, 1e-7f};
  C32v[2] = (lwp_complex32){nanf_(1), 1.0f / 0.0f};
  C64v[0] = (lwp_complex64){1.0 / 3.0, -1e300};
  C64v[1] = (lwp_complex64){-0.0, 2.0};
  C64v[2] = (lwp_complex64){12345678.0, 0.5};

  section("scalars");
  printI64(0), printComma(), printI64(-42), printComma(), printI64(INT64_MIN),
      printComma(), printI64(INT64_MAX), printNewline();
  printU64(0), printComma(), printU64(UINT64_MAX), printNewline();
  printOpen();
  for (int i = 0; i < 24; ++i) {
    if (i)
      printComma();
    printF32(F[i]);
  }
  printClose();
  printNewline();
  printOpen();
  for (int i = 0; i < 16; ++i) {
    if (i)
      printComma();
    printF64(D[i]);
  }
  printClose();
  printNewline();
  for (int i = 0; i < 12; ++i) {
    printF16(Hv[i]);
    printString(" ");
    printBF16(Hv[i]);
    printString(i == 11 ? "\n" : " | ");
  }
  printString("a string with\ttab\n");
  printFlops(1.5e9);
  printFlops(123.0);
  double t0 = rtclock(), t1 = rtclock();
  int64_t n0 = _mlir_ciface_nanoTime();
  printf("rtclock %s, nanoTime %s\n", t0 > 1.5e9 && t1 >= t0 ? "ok" : "BAD",
         n0 > 1500000000000000000ll ? "ok" : "BAD");

  section("ranked f32, rank 0 to 4");
  lwp_memref_0d_f32 r0 = {F, F, 5};
  _mlir_ciface_printMemref0dF32(&r0);
  lwp_memref_1d_f32 r1 = {F, F, 0, {24}, {1}};
  _mlir_ciface_printMemref1dF32(&r1);
  lwp_memref_2d_f32 r2 = {F, F, 2, {3, 4}, {5, 1}};
  _mlir_ciface_printMemref2dF32(&r2);
  lwp_memref_3d_f32 r3 = {F, F, 0, {2, 3, 4}, {12, 4, 1}};
  _mlir_ciface_printMemref3dF32(&r3);
  lwp_memref_4d_f32 r4 = {F, F, 1, {2, 1, 3, 2}, {24, 24, 8, 3}};
  _mlir_ciface_printMemref4dF32(&r4);
  /* A size of 1 and of 0 (upstream still prints the first element). */
  lwp_memref_2d_f32 one = {F, F, 3, {1, 1}, {1, 1}};
  _mlir_ciface_printMemref2dF32(&one);
  lwp_memref_1d_f32 empty = {F, F, 4, {0}, {1}};
  _mlir_ciface_printMemref1dF32(&empty);

  section("unranked f32, rank 0 to 3, plain and ciface");
  printMemrefF32(0, &r0);
  printMemrefF32(1, &r1);
  printMemrefF32(2, &r2);
  lwp_unranked_memref u3 = {3, &r3};
  _mlir_ciface_printMemrefF32(&u3);
  /* Transposed view. */
  lwp_memref_2d_f32 tr = {F, F, 0, {4, 3}, {1, 4}};
  printMemrefF32(2, &tr);

  section("f64");
  lwp_memref_1d_f64 d1 = {D, D, 0, {32}, {1}};
  _mlir_ciface_printMemref1dF64(&d1);
  LWP_MEMREF_TYPE(double, 2) d2 = {D, D, 1, {4, 4}, {8, 2}};
  printMemrefF64(2, &d2);
  LWP_MEMREF_TYPE(double, 3) d3 = {D, D, 0, {2, 2, 2}, {16, 1, 2}};
  lwp_unranked_memref ud3 = {3, &d3};
  _mlir_ciface_printMemrefF64(&ud3);
  struct {
    double *b, *d;
    int64_t off;
  } d0 = {D, D, 2};
  printMemrefF64(0, &d0);

  section("integers");
  lwp_memref_1d_i32 i1 = {I32v, I32v, 0, {16}, {1}};
  _mlir_ciface_printMemref1dI32(&i1);
  LWP_MEMREF_TYPE(int32_t, 2) i2 = {I32v, I32v, 0, {4, 4}, {4, 1}};
  printMemrefI32(2, &i2);
  LWP_MEMREF_TYPE(int32_t, 3) i3 = {I32v, I32v, 1, {2, 2, 3}, {8, 4, 1}};
  printMemrefI32(3, &i3);
  lwp_memref_1d_i64 l1 = {I64v, I64v, 0, {16}, {1}};
  _mlir_ciface_printMemref1dI64(&l1);
  LWP_MEMREF_TYPE(int64_t, 2) l2 = {I64v, I64v, 8, {2, 2}, {1, 2}};
  printMemrefI64(2, &l2);
  struct {
    int64_t *b, *d;
    int64_t off;
  } l0 = {I64v, I64v, 9};
  printMemrefI64(0, &l0);
  lwp_unranked_memref ul2 = {2, &l2};
  _mlir_ciface_printMemrefI64(&ul2);
  lwp_unranked_memref ui2 = {2, &i2};
  _mlir_ciface_printMemrefI32(&ui2);
  lwp_memref_1d_ind n1 = {Indv, Indv, 0, {4}, {1}};
  _mlir_ciface_printMemref1dInd(&n1);
  printMemrefInd(1, &n1);
  lwp_unranked_memref un1 = {1, &n1};
  _mlir_ciface_printMemrefInd(&un1);
  lwp_memref_1d_i8 c1 = {I8v, I8v, 0, {8}, {1}};
  _mlir_ciface_printMemref1dI8(&c1);
  lwp_unranked_memref uc1 = {1, &c1};
  _mlir_ciface_printMemrefI8(&uc1);
  LWP_MEMREF_TYPE(int16_t, 2) s2 = {I16v, I16v, 0, {2, 4}, {4, 1}};
  lwp_unranked_memref us2 = {2, &s2};
  _mlir_ciface_printMemrefI16(&us2);

  section("f16, bf16, complex");
  LWP_MEMREF_TYPE(uint16_t, 2) h2 = {Hv, Hv, 0, {3, 4}, {4, 1}};
  lwp_unranked_memref uh2 = {2, &h2};
  _mlir_ciface_printMemrefF16(&uh2);
  _mlir_ciface_printMemrefBF16(&uh2);
  lwp_memref_1d_c32 x1 = {C32v, C32v, 0, {3}, {1}};
  _mlir_ciface_printMemref1dC32(&x1);
  printMemrefC32(1, &x1);
  lwp_memref_1d_c64 y1 = {C64v, C64v, 0, {3}, {1}};
  _mlir_ciface_printMemref1dC64(&y1);
  lwp_unranked_memref uy1 = {1, &y1};
  _mlir_ciface_printMemrefC64(&uy1);
  printMemrefC64(1, &y1);

  section("vector 4x4");
  static lwp_vector4x4f32 V[2];
  for (int i = 0; i < 32; ++i)
    V[i / 16].v[(i / 4) % 4][i % 4] = F[i] == F[i] ? F[i] * 0.5f : F[i];
  lwp_memref_2d_vector4x4f32 v2 = {V, V, 0, {1, 2}, {2, 1}};
  _mlir_ciface_printMemrefVector4x4xf32(&v2);

  section("shapes");
  _mlir_ciface_printMemrefShapeF32(&u3);
  _mlir_ciface_printMemrefShapeI8(&uc1);
  _mlir_ciface_printMemrefShapeI32(&ui2);
  _mlir_ciface_printMemrefShapeI64(&ul2);
  _mlir_ciface_printMemrefShapeF64(&ud3);
  _mlir_ciface_printMemrefShapeInd(&un1);
  lwp_unranked_memref ux1 = {1, &x1};
  _mlir_ciface_printMemrefShapeC32(&ux1);
  _mlir_ciface_printMemrefShapeC64(&uy1);
  printNewline();

  section("memrefCopy");
  {
    static float src[24], dst[48];
    for (int i = 0; i < 24; ++i)
      src[i] = (float)i - 11.5f;
    /* rank 0 */
    lwp_memref_0d_f32 s0 = {src, src, 7}, t0d = {dst, dst, 3};
    lwp_unranked_memref us0 = {0, &s0}, ut0 = {0, &t0d};
    memrefCopy(4, &us0, &ut0);
    printMemrefF32(0, &t0d);
    /* rank 1, strided destination */
    lwp_memref_1d_f32 s1 = {src, src, 2, {5}, {3}};
    lwp_memref_1d_f32 t1 = {dst, dst, 10, {5}, {2}};
    lwp_unranked_memref us1 = {1, &s1}, ut1 = {1, &t1};
    memrefCopy(4, &us1, &ut1);
    printMemrefF32(1, &t1);
    /* rank 2, transposed source */
    lwp_memref_2d_f32 s2f = {src, src, 0, {3, 4}, {1, 3}};
    lwp_memref_2d_f32 t2 = {dst, dst, 0, {3, 4}, {4, 1}};
    lwp_unranked_memref us2f = {2, &s2f}, ut2 = {2, &t2};
    memrefCopy(4, &us2f, &ut2);
    printMemrefF32(2, &t2);
    /* rank 3, offsets on both sides */
    lwp_memref_3d_f32 s3 = {src, src, 1, {2, 2, 3}, {12, 3, 1}};
    lwp_memref_3d_f32 t3 = {dst, dst, 20, {2, 2, 3}, {1, 2, 4}};
    lwp_unranked_memref us3 = {3, &s3}, ut3 = {3, &t3};
    memrefCopy(4, &us3, &ut3);
    printMemrefF32(3, &t3);
    lwp_memref_1d_f32 whole = {dst, dst, 0, {48}, {1}};
    printMemrefF32(1, &whole);
    /* An empty source copies nothing; i64 elements. */
    static int64_t a[6] = {1, 2, 3, 4, 5, 6}, b[6];
    LWP_MEMREF_TYPE(int64_t, 2) sa = {a, a, 0, {2, 0}, {3, 1}};
    LWP_MEMREF_TYPE(int64_t, 2) tb = {b, b, 0, {2, 0}, {3, 1}};
    lwp_unranked_memref usa = {2, &sa}, utb = {2, &tb};
    memrefCopy(8, &usa, &utb);
    sa.sizes[1] = tb.sizes[1] = 3;
    memrefCopy(8, &usa, &utb);
    printMemrefI64(2, &tb);
  }

  section("verify");
  fflush(stdout);
  {
    static float e[16], g[16];
    for (int i = 0; i < 16; ++i)
      e[i] = g[i] = (float)i * 0.25f - 1.0f;
    g[3] += 1e-7f;             /* within 1e-6 relative */
    g[5] += 1e-3f;             /* not */
    g[7] = nanf_(0);           /* not finite */
    e[9] = g[9] = 1.0f / 0.0f; /* equal but not finite */
    LWP_MEMREF_TYPE(float, 2) ma = {g, g, 0, {4, 4}, {4, 1}};
    LWP_MEMREF_TYPE(float, 2) me = {e, e, 0, {4, 4}, {4, 1}};
    printf("verifyMemRefF32 %lld\n", (long long)verifyMemRefF32(2, &ma, &me));
    fflush(stdout);
    me.sizes[1] = 3;
    printf("\nshape mismatch %lld\n", (long long)verifyMemRefF32(2, &ma, &me));
    fflush(stdout);
    /* More than 10 errors: 10 printed, all counted. */
    static int32_t ia[16], ie[16];
    for (int i = 0; i < 16; ++i)
      ia[i] = i, ie[i] = i == 4 ? 4 : -i;
    lwp_memref_1d_i32 va = {ia, ia, 0, {16}, {1}};
    lwp_memref_1d_i32 ve = {ie, ie, 0, {16}, {1}};
    printf("verifyMemRefI32 %lld\n", (long long)verifyMemRefI32(1, &va, &ve));
    fflush(stdout);
    static double da[4] = {1.0, 2.0, 3.0, -0.0},
                  de[4] = {1.0, 2.0 + 1e-13, 3.0 + 1e-9, 0.0};
    lwp_memref_1d_f64 fa = {da, da, 0, {4}, {1}};
    lwp_memref_1d_f64 fe = {de, de, 0, {4}, {1}};
    printf("verifyMemRefF64 %lld\n", (long long)verifyMemRefF64(1, &fa, &fe));
    fflush(stdout);
    printf("verifyMemRefInd %lld\n", (long long)verifyMemRefInd(1, &n1, &n1));
    static uint64_t nb[4] = {0, 1, 2, 7};
    lwp_memref_1d_ind nbm = {nb, nb, 0, {4}, {1}};
    printf("verifyMemRefInd %lld\n", (long long)verifyMemRefInd(1, &n1, &nbm));
    fflush(stdout);
    static lwp_complex32 ca[2] = {{1, 2}, {3, 4}}, ce[2] = {{1, 2}, {3, 5}};
    lwp_memref_1d_c32 cam = {ca, ca, 0, {2}, {1}}, cem = {ce, ce, 0, {2}, {1}};
    printf("verifyMemRefC32 %lld\n", (long long)verifyMemRefC32(1, &cam, &cem));
    fflush(stdout);
    static lwp_complex64 za[1] = {{1, 2}}, ze[1] = {{1, -2}};
    lwp_memref_1d_c64 zam = {za, za, 0, {1}, {1}}, zem = {ze, ze, 0, {1}, {1}};
    printf("verifyMemRefC64 %lld\n", (long long)verifyMemRefC64(1, &zam, &zem));
    fflush(stdout);
    /* f16/bf16: -0 vs 0 and the same NaN bits. */
    static uint16_t ha[3] = {0x8000, 0x7e00, 0x3c00},
                    he[3] = {0x0000, 0x7e00, 0x3c01};
    LWP_MEMREF_TYPE(uint16_t, 1) hma = {ha, ha, 0, {3}, {1}};
    LWP_MEMREF_TYPE(uint16_t, 1) hme = {he, he, 0, {3}, {1}};
    lwp_unranked_memref uha = {1, &hma}, uhe = {1, &hme};
    printf("verifyMemRefF16 %lld\n",
           (long long)_mlir_ciface_verifyMemRefF16(&uha, &uhe));
    fflush(stdout);
    printf("verifyMemRefBF16 %lld\n",
           (long long)_mlir_ciface_verifyMemRefBF16(&uha, &uhe));
    fflush(stdout);
    printf("verifyMemRefI16 %lld\n",
           (long long)_mlir_ciface_verifyMemRefI16(&uha, &uhe));
    fflush(stdout);
    static int8_t ba[3] = {'a', 'b', 'c'}, be[3] = {'a', 'x', 'c'};
    lwp_memref_1d_i8 bam = {ba, ba, 0, {3}, {1}}, bem = {be, be, 0, {3}, {1}};
    lwp_unranked_memref uba = {1, &bam}, ube = {1, &bem};
    printf("verifyMemRefI8 %lld\n",
           (long long)_mlir_ciface_verifyMemRefI8(&uba, &ube));
    fflush(stdout);
    static int64_t qa[2] = {INT64_MIN, 5}, qe[2] = {INT64_MAX, 5};
    lwp_memref_1d_i64 qam = {qa, qa, 0, {2}, {1}}, qem = {qe, qe, 0, {2}, {1}};
    lwp_unranked_memref uqa = {1, &qam}, uqe = {1, &qem};
    printf("verifyMemRefI64 %lld\n",
           (long long)_mlir_ciface_verifyMemRefI64(&uqa, &uqe));
    /* Rank 0 skips the shape check. */
    lwp_memref_0d_f32 z0a = {g, g, 5}, z0e = {e, e, 5};
    printf("verify rank 0 %lld\n", (long long)verifyMemRefF32(0, &z0a, &z0e));
    lwp_unranked_memref uga = {2, &ma}, uge = {2, &ma};
    printf("verify same %lld\n",
           (long long)_mlir_ciface_verifyMemRefF32(&uga, &uge));
    lwp_unranked_memref udx = {1, &d1};
    printf("verify f64 same %lld\n",
           (long long)_mlir_ciface_verifyMemRefF64(&udx, &udx));
    fflush(stdout);
  }

  section("sort");
  {
    static int64_t si[8] = {5, -3, INT64_MAX, 0, INT64_MIN, 5, 2, -1};
    lwp_memref_1d_i64 sm = {si, si, 1, {7}, {1}};
    _mlir_ciface_stdSortI64(6, &sm);
    lwp_memref_1d_i64 all = {si, si, 0, {8}, {1}};
    _mlir_ciface_printMemref1dI64(&all);
    static double sd[5] = {2.5, -1e300, 0.5, 1.0 / 0.0, -7.0};
    lwp_memref_1d_f64 sdm = {sd, sd, 0, {5}, {1}};
    _mlir_ciface_stdSortF64(5, &sdm);
    _mlir_ciface_printMemref1dF64(&sdm);
    static float sf[6] = {3.0f, 1e-30f, -2.0f, 1e30f, 0.5f, -1e-30f};
    lwp_memref_1d_f32 sfm = {sf, sf, 0, {6}, {1}};
    _mlir_ciface_stdSortF32(6, &sfm);
    _mlir_ciface_printMemref1dF32(&sfm);
  }

  section("alloc");
  {
    float *p = mlirAlloc(64);
    void *q = mlirAlignedAlloc(64, 256);
    printf("mlirAlloc %s, mlirAlignedAlloc %s\n", p ? "ok" : "null",
           q && ((uintptr_t)q & 63) == 0 ? "aligned" : "BAD");
    mlirFree(p);
    mlirAlignedFree(q);
  }
  return 0;
}
