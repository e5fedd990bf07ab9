/*===- kernels.c - Loop kernels for the run-time overhead benchmark --------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Benchmark kernels (not a test): gemm, conv2d, a 2-D 5-point stencil and two
 * reductions, each about 0.3-0.5 s at -O2 on this machine. run-all.sh builds
 * this file uninstrumented, with LWP at several stats levels and loop depths,
 * and with LLVM XRay, and compares their times.
 *
 * Usage: kernels KERNEL [REPS]   KERNEL: gemm | conv2d | stencil | reduce
 * Prints: "KERNEL min_ms median_ms checksum" where min and median are over
 * REPS (default 3) timed calls of the kernel in this process
 * (CLOCK_THREAD_CPUTIME_ID around each call, so time the thread spent
 * descheduled by other load is not counted; inputs initialised before the
 * first).
 *
 * Loop nests (depth 0 = outermost), as the code generator gets them at -O2:
 *   gemm     i / k / j(vectorized)              N = 768 floats
 *   conv2d   oc / ic / oh / ow(vectorized), 3x3 unrolled
 *                                               64 x 32 x 128 x 128
 *   stencil  t / i / j(vectorized)              T = 100, 1024 x 1024 floats
 *   reduce   r / i / j: int64 sum of products (vectorized) and a double dot
 *            product (serial: no reassociation at -O2)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

/* ---- gemm: C += A * B, i-k-j order ---- */
enum { GN = 1792 };
static float *GA, *GB, *GC;

NOINLINE void gemm(int N, const float *restrict A, const float *restrict B,
                   float *restrict C) {
  for (int I = 0; I < N; ++I)
    for (int K = 0; K < N; ++K) {
      float Aik = A[I * N + K];
      for (int J = 0; J < N; ++J)
        C[I * N + J] += Aik * B[K * N + J];
    }
}

/* ---- conv2d: NCHW, valid padding, 3x3 ---- */
enum { CO = 128, CI = 128, OH = 224, OW = 224, IH = OH + 2, IW = OW + 2 };
static float *CIn, *CWt, *COut;

NOINLINE void conv2d(const float *restrict In, const float *restrict W,
                     float *restrict Out) {
  for (int Oc = 0; Oc < CO; ++Oc)
    for (int Ic = 0; Ic < CI; ++Ic) {
      const float *Wk = &W[(Oc * CI + Ic) * 9];
      const float *Ip = &In[Ic * IH * IW];
      float *Op = &Out[Oc * OH * OW];
      for (int Y = 0; Y < OH; ++Y)
        for (int X = 0; X < OW; ++X) {
          float S = Op[Y * OW + X];
          for (int Kh = 0; Kh < 3; ++Kh)
            for (int Kw = 0; Kw < 3; ++Kw)
              S += Wk[Kh * 3 + Kw] * Ip[(Y + Kh) * IW + X + Kw];
          Op[Y * OW + X] = S;
        }
    }
}

/* ---- stencil: T sweeps of a 5-point Jacobi on an N x N grid ---- */
enum { SN = 1024, ST = 2000 };
static float *SA, *SB;

NOINLINE float *stencil(int T, int N, float *A, float *B) {
  for (int Step = 0; Step < T; ++Step) {
    for (int I = 1; I < N - 1; ++I)
      for (int J = 1; J < N - 1; ++J)
        B[I * N + J] = 0.2f * (A[I * N + J] + A[(I - 1) * N + J] +
                               A[(I + 1) * N + J] + A[I * N + J - 1] +
                               A[I * N + J + 1]);
    float *Tmp = A;
    A = B;
    B = Tmp;
  }
  return A;
}

/* ---- reductions over a rows x cols matrix, R times ---- */
enum { RR = 240, RROWS = 1024, RCOLS = 4096 };
static int32_t *RX, *RY;
static double *RD, *RE;

NOINLINE int64_t reduceInt(int R, const int32_t *X, const int32_t *Y) {
  int64_t S = 0;
  for (int Rep = 0; Rep < R; ++Rep)
    for (int I = 0; I < RROWS; ++I)
      for (int J = 0; J < RCOLS; ++J)
        S += (int64_t)X[I * RCOLS + J] * Y[I * RCOLS + J];
  return S;
}

NOINLINE double reduceDot(int R, const double *X, const double *Y) {
  double S = 0;
  for (int Rep = 0; Rep < R; ++Rep)
    for (int I = 0; I < RROWS; ++I)
      for (int J = 0; J < RCOLS; ++J)
        S += X[I * RCOLS + J] * Y[I * RCOLS + J];
  return S;
}

static void *xalloc(size_t Bytes) {
  void *P = aligned_alloc(64, (Bytes + 63) & ~(size_t)63);
  if (!P) {
    fprintf(stderr, "kernels: out of memory\n");
    exit(2);
  }
  return P;
}

static void fill(float *P, size_t N, unsigned Seed) {
  for (size_t I = 0; I < N; ++I)
    P[I] = (float)((I * 2654435761u + Seed) % 1000) / 1000.0f;
}

static double runOnce(const char *K, double *Check) {
  struct timespec T0, T1;
  double C = 0;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T0);
  if (!strcmp(K, "gemm")) {
    gemm(GN, GA, GB, GC);
    C = GC[GN * GN / 2 + 7];
  } else if (!strcmp(K, "conv2d")) {
    conv2d(CIn, CWt, COut);
    C = COut[CO * OH * OW / 2 + 5];
  } else if (!strcmp(K, "stencil")) {
    C = stencil(ST, SN, SA, SB)[SN * SN / 2 + 3];
  } else {
    C = (double)reduceInt(RR, RX, RY) + reduceDot(RR / 4, RD, RE);
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T1);
  *Check += C;
  return (T1.tv_sec - T0.tv_sec) * 1e3 + (T1.tv_nsec - T0.tv_nsec) / 1e6;
}

static int cmpDouble(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    fprintf(stderr, "usage: kernels gemm|conv2d|stencil|reduce [REPS]\n");
    return 2;
  }
  const char *K = Argv[1];
  int Reps = Argc > 2 ? atoi(Argv[2]) : 3;
  if (Reps < 1 || Reps > 100)
    Reps = 3;
  if (!strcmp(K, "gemm")) {
    GA = xalloc(sizeof(float) * GN * GN);
    GB = xalloc(sizeof(float) * GN * GN);
    GC = xalloc(sizeof(float) * GN * GN);
    fill(GA, GN * GN, 1);
    fill(GB, GN * GN, 2);
    memset(GC, 0, sizeof(float) * GN * GN);
  } else if (!strcmp(K, "conv2d")) {
    CIn = xalloc(sizeof(float) * CI * IH * IW);
    CWt = xalloc(sizeof(float) * CO * CI * 9);
    COut = xalloc(sizeof(float) * CO * OH * OW);
    fill(CIn, CI * IH * IW, 3);
    fill(CWt, CO * CI * 9, 4);
    memset(COut, 0, sizeof(float) * CO * OH * OW);
  } else if (!strcmp(K, "stencil")) {
    SA = xalloc(sizeof(float) * SN * SN);
    SB = xalloc(sizeof(float) * SN * SN);
    fill(SA, SN * SN, 5);
    memcpy(SB, SA, sizeof(float) * SN * SN);
  } else if (!strcmp(K, "reduce")) {
    RX = xalloc(sizeof(int32_t) * RROWS * RCOLS);
    RY = xalloc(sizeof(int32_t) * RROWS * RCOLS);
    RD = xalloc(sizeof(double) * RROWS * RCOLS);
    RE = xalloc(sizeof(double) * RROWS * RCOLS);
    for (size_t I = 0; I < (size_t)RROWS * RCOLS; ++I) {
      RX[I] = (int32_t)(I % 1000) - 500;
      RY[I] = (int32_t)(I % 777);
      RD[I] = (double)(I % 1000) / 1000.0;
      RE[I] = (double)(I % 777) / 777.0;
    }
  } else {
    fprintf(stderr, "kernels: unknown kernel '%s'\n", K);
    return 2;
  }
  double Times[100], Check = 0;
  for (int R = 0; R < Reps; ++R)
    Times[R] = runOnce(K, &Check);
  qsort(Times, Reps, sizeof(double), cmpDouble);
  printf("%s %.3f %.3f %.6g\n", K, Times[0], Times[Reps / 2], Check);
  return 0;
}
