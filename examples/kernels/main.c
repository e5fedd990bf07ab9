/*===- main.c - Runs the loop kernels on deterministic data -------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The driver of the kernels example: builds deterministic inputs, calls the
 * kernels of stencil.c, reduction.c and trisolve.c with fixed sizes and
 * prints exact checksums (integers and float bit patterns), so that an
 * instrumented and a plain build can be compared byte for byte. The inputs
 * are small integers or dyadic fractions: every kernel result is exact in
 * float, so the figures are the same on every target.
 *
 * Builds for the host (libc) and for the freestanding Hexagon runtime
 * (runtime/hexagon/include/lwp_hexagon.h). It is compiled without probes
 * (lwp-run --driver, or UNINSTRUMENTED_SOURCES in CMake): its set-up and
 * checksum loops are not what we profile.
 *
 * How often each loop is entered (README.md: what the region counts are
 * once -O2 has vectorized or unrolled a loop into a main loop and a
 * remainder):
 *   jacobi_5pt   sweep loop 1, row loop 4 (sweeps)
 *   sum_i32      1 call, dot_f32 24 calls (one per matrix row), max_f32 1
 *   col_sums_i32 row loop 1, column loop 32 (rows)
 *   lower_solve  row loop 1, inner loop for rows 1..63 (row 0 has none)
 */
#include "kernels.h"

#if defined(__hexagon__)
#include "lwp_hexagon.h"
static void out(const char *S) { lwp_hex_puts(1, S); }
#else
#include <stdio.h>
static void out(const char *S) { fputs(S, stdout); }
#endif

enum {
  GridRows = 48,
  GridCols = 48,
  Sweeps = 4,
  VecLen = 4096,
  DotRows = 24,
  DotCols = 256,
  SumRows = 32,
  SumCols = 64,
  TriN = 64,
};

static float Grid[GridRows * GridCols], GridTmp[GridRows * GridCols];
static int32_t Ints[VecLen];
static float Floats[VecLen];
static float Mat[DotRows * DotCols], Vec[DotCols];
static int32_t SumMat[SumRows * SumCols];
static int64_t ColSums[SumCols];
static float L[TriN * TriN], InvDiag[TriN], B[TriN], X[TriN];
static int32_t XTrue[TriN];

/* Prints Name, then V in decimal, then a space. */
static void putDec(const char *Name, int64_t V) {
  char Buf[24];
  int P = 23;
  uint64_t U = V < 0 ? -(uint64_t)V : (uint64_t)V;
  Buf[P] = '\0';
  do
    Buf[--P] = (char)('0' + U % 10);
  while (U /= 10);
  if (V < 0)
    Buf[--P] = '-';
  out(Name);
  out(Buf + P);
  out(" ");
}

/* Prints Name, then the bit pattern of F as 8 hex digits, then a space. */
static void putBits(const char *Name, float F) {
  uint32_t V;
  __builtin_memcpy(&V, &F, 4);
  char Buf[9];
  for (int I = 7; I >= 0; --I, V >>= 4)
    Buf[I] = "0123456789abcdef"[V & 15];
  Buf[8] = '\0';
  out(Name);
  out(Buf);
  out(" ");
}

static void stencil(void) {
  for (int I = 0; I != GridRows; ++I)
    for (int J = 0; J != GridCols; ++J)
      Grid[I * GridCols + J] = GridTmp[I * GridCols + J] =
          (float)((I * 7 + J * 3) % 16);
  jacobi_5pt(Grid, GridTmp, GridRows, GridCols, Sweeps);
  /* After 4 sweeps every value is a multiple of 8^-4 = 1/4096. */
  int64_t Sum = 0;
  for (int K = 0; K != GridRows * GridCols; ++K)
    Sum += (int32_t)(Grid[K] * 4096.0f) * (int64_t)(K % 7 + 1);
  out("stencil: ");
  putDec("checksum=", Sum);
  putBits("centre=", Grid[(GridRows / 2) * GridCols + GridCols / 2]);
  out("\n");
}

static void reductions(void) {
  for (int I = 0; I != VecLen; ++I) {
    Ints[I] = (int32_t)((uint32_t)I * 2654435761u >> 20) % 2001 - 1000;
    Floats[I] = (float)((I * 37) % 1009) * 0.5f;
  }
  for (int I = 0; I != DotRows * DotCols; ++I)
    Mat[I] = (float)((I * 5) % 9 - 4);
  for (int I = 0; I != DotCols; ++I)
    Vec[I] = (float)((I * 3) % 7 - 3);
  for (int I = 0; I != SumRows * SumCols; ++I)
    SumMat[I] = (I * 13) % 101 - 50;

  out("reduction: ");
  putDec("sum=", sum_i32(Ints, VecLen));
  int64_t Dots = 0;
  float First = 0.0f;
  for (int R = 0; R != DotRows; ++R) {
    float D = dot_f32(Mat + R * DotCols, Vec, DotCols);
    if (R == 0)
      First = D;
    Dots += (int32_t)D * (int64_t)(R + 1);
  }
  putDec("dots=", Dots);
  putBits("dot0=", First);
  putBits("max=", max_f32(Floats, VecLen));
  col_sums_i32(SumMat, SumRows, SumCols, ColSums);
  int64_t Cols = 0;
  for (int J = 0; J != SumCols; ++J)
    Cols += ColSums[J] * (J + 1);
  putDec("colsums=", Cols);
  out("\n");
}

static void trisolve(void) {
  /* L: entries -1, 0, 1 below a diagonal of 1s and 2s; B = L * XTrue, so
   * forward substitution must give back XTrue exactly. */
  for (int I = 0; I != TriN; ++I) {
    XTrue[I] = (I * 5) % 9 - 4;
    int Diag = I % 3 == 0 ? 2 : 1;
    InvDiag[I] = Diag == 2 ? 0.5f : 1.0f;
    int32_t Bi = Diag * XTrue[I];
    for (int J = 0; J != TriN; ++J) {
      int32_t Lij = J < I ? (I * 3 + J * 5) % 3 - 1 : J == I ? Diag : 0;
      L[I * TriN + J] = (float)Lij;
      if (J < I)
        Bi += Lij * XTrue[J];
    }
    B[I] = (float)Bi;
  }
  lower_solve(L, InvDiag, B, X, TriN);
  int64_t Sum = 0, Wrong = 0;
  for (int I = 0; I != TriN; ++I) {
    Sum += (int32_t)X[I] * (int64_t)(I + 1);
    Wrong += (float)XTrue[I] != X[I];
  }
  out("trisolve: ");
  putDec("checksum=", Sum);
  putDec("wrong=", Wrong);
  out("\n");
}

int main(void) {
  stencil();
  reductions();
  trisolve();
  return 0;
}
