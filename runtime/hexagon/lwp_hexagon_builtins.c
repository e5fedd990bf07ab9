/*===- lwp_hexagon_builtins.c - Hexagon compiler runtime calls ------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The library calls LLVM 22's Hexagon backend emits for operations v67 has
 * no instruction for (HexagonISelLowering.cpp), in C: Debian ships no
 * compiler-rt for Hexagon. Names and arguments are compiler-rt's
 * (lib/builtins/hexagon); the standard calling convention.
 *
 *   __hexagon_{div,udiv,mod,umod}{si,di}3   32- and 64-bit integer / and %
 *   __hexagon_divsf3, __hexagon_divdf3      float and double division
 *   __hexagon_sqrtf, __hexagon_sqrtdf2      float and double square root
 *   __hexagon_fast_*, __hexagon_fast2_*     what -ffast-math calls: the same
 *                                           correctly rounded functions
 *   __hexagon_memcpy_likely_aligned_min32bytes_mult8bytes   memcpy
 *
 * Floating point: IEEE 754 binary32/binary64, round to nearest even (the
 * dynamic rounding mode in USR is ignored), correctly rounded, with
 * subnormal operands and results, signed zeros, infinities and NaNs: a NaN
 * operand gives that NaN quietened (the first operand's when both are
 * NaN), an invalid operation (0/0, inf/inf, sqrt of a negative number) the
 * default NaN 0x7fc00000 / 0x7ff8000000000000; no exception flags.
 * Integer division by zero is undefined in C: it returns all ones (quotient)
 * and the dividend (remainder) here; INT_MIN / -1 wraps.
 *
 * Nothing here may use '/' or '%' on integers of its own width or any
 * floating-point division: the compiler would call these functions.
 * test/Runtime/Hexagon/builtins.test compares them with the host's results.
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *Dst, const void *Src, size_t N);

/*===----------------------------------------------------------------------===*
 * Integer division
 *===----------------------------------------------------------------------===*/

static uint32_t udivmod32(uint32_t N, uint32_t D, uint32_t *Rem) {
  if (D == 0) {
    *Rem = N;
    return ~0u;
  }
  if (N < D) {
    *Rem = N;
    return 0;
  }
  int Shift = __builtin_clz(D) - __builtin_clz(N);
  D <<= Shift;
  uint32_t Q = 0;
  for (int I = 0; I <= Shift; ++I) {
    Q <<= 1;
    if (N >= D) {
      N -= D;
      Q |= 1;
    }
    D >>= 1;
  }
  *Rem = N;
  return Q;
}

static uint64_t udivmod64(uint64_t N, uint64_t D, uint64_t *Rem) {
  if (D == 0) {
    *Rem = N;
    return ~0ull;
  }
  if (N < D) {
    *Rem = N;
    return 0;
  }
  if ((N >> 32) == 0) {
    uint32_t R;
    uint32_t Q = udivmod32((uint32_t)N, (uint32_t)D, &R);
    *Rem = R;
    return Q;
  }
  int Shift = __builtin_clzll(D) - __builtin_clzll(N);
  D <<= Shift;
  uint64_t Q = 0;
  for (int I = 0; I <= Shift; ++I) {
    Q <<= 1;
    if (N >= D) {
      N -= D;
      Q |= 1;
    }
    D >>= 1;
  }
  *Rem = N;
  return Q;
}

uint32_t __hexagon_udivsi3(uint32_t A, uint32_t B) {
  uint32_t R;
  return udivmod32(A, B, &R);
}

uint32_t __hexagon_umodsi3(uint32_t A, uint32_t B) {
  uint32_t R;
  udivmod32(A, B, &R);
  return R;
}

int32_t __hexagon_divsi3(int32_t A, int32_t B) {
  uint32_t UA = A < 0 ? 0u - (uint32_t)A : (uint32_t)A;
  uint32_t UB = B < 0 ? 0u - (uint32_t)B : (uint32_t)B;
  uint32_t R;
  uint32_t Q = udivmod32(UA, UB, &R);
  return (int32_t)((A < 0) != (B < 0) ? 0u - Q : Q);
}

int32_t __hexagon_modsi3(int32_t A, int32_t B) {
  uint32_t UA = A < 0 ? 0u - (uint32_t)A : (uint32_t)A;
  uint32_t UB = B < 0 ? 0u - (uint32_t)B : (uint32_t)B;
  uint32_t R;
  udivmod32(UA, UB, &R);
  return (int32_t)(A < 0 ? 0u - R : R); /* the sign of the dividend */
}

uint64_t __hexagon_udivdi3(uint64_t A, uint64_t B) {
  uint64_t R;
  return udivmod64(A, B, &R);
}

uint64_t __hexagon_umoddi3(uint64_t A, uint64_t B) {
  uint64_t R;
  udivmod64(A, B, &R);
  return R;
}

int64_t __hexagon_divdi3(int64_t A, int64_t B) {
  uint64_t UA = A < 0 ? 0ull - (uint64_t)A : (uint64_t)A;
  uint64_t UB = B < 0 ? 0ull - (uint64_t)B : (uint64_t)B;
  uint64_t R;
  uint64_t Q = udivmod64(UA, UB, &R);
  return (int64_t)((A < 0) != (B < 0) ? 0ull - Q : Q);
}

int64_t __hexagon_moddi3(int64_t A, int64_t B) {
  uint64_t UA = A < 0 ? 0ull - (uint64_t)A : (uint64_t)A;
  uint64_t UB = B < 0 ? 0ull - (uint64_t)B : (uint64_t)B;
  uint64_t R;
  udivmod64(UA, UB, &R);
  return (int64_t)(A < 0 ? 0ull - R : R);
}

/*===----------------------------------------------------------------------===*
 * Floating point: bits in and out through unions
 *===----------------------------------------------------------------------===*/

static uint64_t bitsD(double X) {
  union {
    double F;
    uint64_t U;
  } C = {X};
  return C.U;
}

static double fromBitsD(uint64_t U) {
  union {
    uint64_t U;
    double F;
  } C = {U};
  return C.F;
}

static uint32_t bitsF(float X) {
  union {
    float F;
    uint32_t U;
  } C = {X};
  return C.U;
}

static float fromBitsF(uint32_t U) {
  union {
    uint32_t U;
    float F;
  } C = {U};
  return C.F;
}

#define DSign (1ull << 63)
#define DFrac ((1ull << 52) - 1)
#define DImplicit (1ull << 52)
#define DInf (0x7ffull << 52)
#define DQuiet (1ull << 51)
#define DDefaultNaN 0x7ff8000000000000ull
#define FSign (1u << 31)
#define FFrac ((1u << 23) - 1)
#define FImplicit (1u << 23)
#define FInf (0xffu << 23)
#define FQuiet (1u << 22)
#define FDefaultNaN 0x7fc00000u

/* Packs sign | Q x 2^(E - 1023 - Extra) where Q is in [2^(52+Extra),
 * 2^(53+Extra)) and its lowest bit is sticky (ORed with every bit below):
 * rounds to nearest even, to a subnormal or zero below the normal range,
 * to infinity above it. */
static uint64_t roundPackD(uint64_t Sign, int E, uint64_t Q, int Extra) {
  if (E >= 0x7ff)
    return Sign | DInf;
  if (E <= 0) {
    /* Subnormal: one more bit to the right per exponent step below 1. */
    int Shift = 1 - E;
    if (Shift > 60)
      Q = Q != 0;
    else
      Q = (Q >> Shift) | ((Q & ((1ull << Shift) - 1)) != 0);
    E = 0;
  }
  uint64_t Half = 1ull << (Extra - 1);
  uint64_t Rest = Q & ((1ull << Extra) - 1);
  uint64_t M = Q >> Extra;
  if (Rest > Half || (Rest == Half && (M & 1)))
    ++M;
  /* A carry out of the mantissa moves into the exponent field by itself
   * (a subnormal becomes the smallest normal; 2^53 the next binade). */
  if (E == 0)
    return Sign | M;
  uint64_t R = ((uint64_t)(E - 1) << 52) + M;
  if (R >= DInf)
    return Sign | DInf;
  return Sign | R;
}

static uint32_t roundPackF(uint32_t Sign, int E, uint32_t Q, int Extra) {
  if (E >= 0xff)
    return Sign | FInf;
  if (E <= 0) {
    int Shift = 1 - E;
    if (Shift > 30)
      Q = Q != 0;
    else
      Q = (Q >> Shift) | ((Q & ((1u << Shift) - 1)) != 0);
    E = 0;
  }
  uint32_t Half = 1u << (Extra - 1);
  uint32_t Rest = Q & ((1u << Extra) - 1);
  uint32_t M = Q >> Extra;
  if (Rest > Half || (Rest == Half && (M & 1)))
    ++M;
  if (E == 0)
    return Sign | M;
  uint32_t R = ((uint32_t)(E - 1) << 23) + M;
  if (R >= FInf)
    return Sign | FInf;
  return Sign | R;
}

/* Splits a finite non-zero |X| into a mantissa in [2^52, 2^53) and a
 * biased exponent (below 1 for subnormals). */
static uint64_t unpackD(uint64_t U, int *E) {
  int Exp = (int)((U >> 52) & 0x7ff);
  uint64_t M = U & DFrac;
  if (Exp)
    M |= DImplicit;
  else {
    int Shift = __builtin_clzll(M) - 11;
    M <<= Shift;
    Exp = 1 - Shift;
  }
  *E = Exp;
  return M;
}

static uint32_t unpackF(uint32_t U, int *E) {
  int Exp = (int)((U >> 23) & 0xff);
  uint32_t M = U & FFrac;
  if (Exp)
    M |= FImplicit;
  else {
    int Shift = __builtin_clz(M) - 8;
    M <<= Shift;
    Exp = 1 - Shift;
  }
  *E = Exp;
  return M;
}

/*===----------------------------------------------------------------------===*
 * Division
 *===----------------------------------------------------------------------===*/

double __hexagon_divdf3(double A, double B) {
  uint64_t UA = bitsD(A), UB = bitsD(B);
  uint64_t Sign = (UA ^ UB) & DSign;
  uint64_t AbsA = UA & ~DSign, AbsB = UB & ~DSign;
  if (AbsA > DInf)
    return fromBitsD(UA | DQuiet);
  if (AbsB > DInf)
    return fromBitsD(UB | DQuiet);
  if (AbsA == DInf)
    return fromBitsD(AbsB == DInf ? DDefaultNaN : Sign | DInf);
  if (AbsB == DInf)
    return fromBitsD(Sign);
  if (AbsA == 0)
    return fromBitsD(AbsB == 0 ? DDefaultNaN : Sign);
  if (AbsB == 0)
    return fromBitsD(Sign | DInf);
  int EA, EB;
  uint64_t MA = unpackD(AbsA, &EA), MB = unpackD(AbsB, &EB);
  int E = EA - EB + 1023;
  if (MA < MB) {
    MA <<= 1;
    --E;
  }
  /* MA / MB in [1, 2): 56 quotient bits, 1 + 52 + 3 extra. */
  uint64_t Q = 0, R = MA;
  for (int I = 0; I != 56; ++I) {
    Q <<= 1;
    if (R >= MB) {
      R -= MB;
      Q |= 1;
    }
    R <<= 1;
  }
  return fromBitsD(roundPackD(Sign, E, Q | (R != 0), 3));
}

float __hexagon_divsf3(float A, float B) {
  uint32_t UA = bitsF(A), UB = bitsF(B);
  uint32_t Sign = (UA ^ UB) & FSign;
  uint32_t AbsA = UA & ~FSign, AbsB = UB & ~FSign;
  if (AbsA > FInf)
    return fromBitsF(UA | FQuiet);
  if (AbsB > FInf)
    return fromBitsF(UB | FQuiet);
  if (AbsA == FInf)
    return fromBitsF(AbsB == FInf ? FDefaultNaN : Sign | FInf);
  if (AbsB == FInf)
    return fromBitsF(Sign);
  if (AbsA == 0)
    return fromBitsF(AbsB == 0 ? FDefaultNaN : Sign);
  if (AbsB == 0)
    return fromBitsF(Sign | FInf);
  int EA, EB;
  uint32_t MA = unpackF(AbsA, &EA), MB = unpackF(AbsB, &EB);
  int E = EA - EB + 127;
  if (MA < MB) {
    MA <<= 1;
    --E;
  }
  uint32_t Q = 0, R = MA;
  for (int I = 0; I != 27; ++I) {
    Q <<= 1;
    if (R >= MB) {
      R -= MB;
      Q |= 1;
    }
    R <<= 1;
  }
  return fromBitsF(roundPackF(Sign, E, Q | (R != 0), 3));
}

/*===----------------------------------------------------------------------===*
 * Square root (digit by digit, as fdlibm's e_sqrt.c, in 64-bit words)
 *===----------------------------------------------------------------------===*/

double __hexagon_sqrtdf2(double X) {
  uint64_t U = bitsD(X);
  uint64_t Abs = U & ~DSign;
  if (Abs > DInf)
    return fromBitsD(U | DQuiet);
  if (Abs == 0)
    return X; /* sqrt(-0) = -0 */
  if (U & DSign)
    return fromBitsD(DDefaultNaN);
  if (Abs == DInf)
    return X;
  int E;
  uint64_t M = unpackD(Abs, &E);
  /* X = M x 2^(E - 1023 - 52); make E - 1023 even. */
  int Unbiased = E - 1023;
  if (Unbiased & 1) {
    M <<= 1;
    --Unbiased;
  }
  /* Ix = 2M with 1.0 at 2^53; Q = floor(sqrt(Ix x 2^53)) in [2^53, 2^54):
   * 53 bits and a guard bit; the remainder is the sticky bit. */
  uint64_t Ix = M << 1, Q = 0, S = 0;
  for (uint64_t Bit = 1ull << 53; Bit; Bit >>= 1) {
    uint64_t T = S + Bit;
    if (T <= Ix) {
      S = T + Bit;
      Ix -= T;
      Q += Bit;
    }
    Ix += Ix;
  }
  return fromBitsD(roundPackD(0, Unbiased / 2 + 1023, Q << 1 | (Ix != 0), 2));
}

float __hexagon_sqrtf(float X) {
  uint32_t U = bitsF(X);
  uint32_t Abs = U & ~FSign;
  if (Abs > FInf)
    return fromBitsF(U | FQuiet);
  if (Abs == 0)
    return X;
  if (U & FSign)
    return fromBitsF(FDefaultNaN);
  if (Abs == FInf)
    return X;
  int E;
  uint32_t M = unpackF(Abs, &E);
  int Unbiased = E - 127;
  if (Unbiased & 1) {
    M <<= 1;
    --Unbiased;
  }
  uint32_t Ix = M << 1, Q = 0, S = 0;
  for (uint32_t Bit = 1u << 24; Bit; Bit >>= 1) {
    uint32_t T = S + Bit;
    if (T <= Ix) {
      S = T + Bit;
      Ix -= T;
      Q += Bit;
    }
    Ix += Ix;
  }
  return fromBitsF(roundPackF(0, Unbiased / 2 + 127, Q << 1 | (Ix != 0), 2));
}

/* -ffast-math's names: the same correctly rounded results. */
double __hexagon_fast_divdf3(double A, double B) {
  return __hexagon_divdf3(A, B);
}
float __hexagon_fast_divsf3(float A, float B) { return __hexagon_divsf3(A, B); }
double __hexagon_fast2_sqrtdf2(double X) { return __hexagon_sqrtdf2(X); }
float __hexagon_fast2_sqrtf(float X) { return __hexagon_sqrtf(X); }
double __hexagon_sqrt(double X) { return __hexagon_sqrtdf2(X); }

/* LLVM may call this for large aligned copies: memcpy (newlib's, or the
 * runtime's lwp_hexagon_string.c). */
void *__hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(void *Dst,
                                                            const void *Src,
                                                            size_t N) {
  return memcpy(Dst, Src, N);
}
