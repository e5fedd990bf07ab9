/* Prints the results of the Hexagon compiler builtins
 * (runtime/hexagon/lwp_hexagon_builtins.c) for edge-case operands and for
 * operands of a fixed-seed generator; on the host the same program prints
 * what the host's hardware computes, and builtins.test requires the two
 * outputs to be equal. Floating-point results as bit patterns; every NaN
 * prints as "nan" (which NaN an invalid operation gives is the target's
 * choice). Integer division by zero and INT_MIN / -1 are undefined, not
 * printed. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __hexagon__
double __hexagon_divdf3(double, double);
float __hexagon_divsf3(float, float);
double __hexagon_sqrtdf2(double);
float __hexagon_sqrtf(float);
double __hexagon_fast_divdf3(double, double);
double __hexagon_fast2_sqrtdf2(double);
float __hexagon_fast2_sqrtf(float);
int32_t __hexagon_divsi3(int32_t, int32_t);
int32_t __hexagon_modsi3(int32_t, int32_t);
uint32_t __hexagon_udivsi3(uint32_t, uint32_t);
uint32_t __hexagon_umodsi3(uint32_t, uint32_t);
int64_t __hexagon_divdi3(int64_t, int64_t);
int64_t __hexagon_moddi3(int64_t, int64_t);
uint64_t __hexagon_udivdi3(uint64_t, uint64_t);
uint64_t __hexagon_umoddi3(uint64_t, uint64_t);
#define DIVD(a, b) __hexagon_divdf3(a, b)
#define DIVF(a, b) __hexagon_divsf3(a, b)
#define SQRTD(a) __hexagon_sqrtdf2(a)
#define SQRTF(a) __hexagon_sqrtf(a)
#define FASTDIVD(a, b) __hexagon_fast_divdf3(a, b)
#define FASTSQRTD(a) __hexagon_fast2_sqrtdf2(a)
#define FASTSQRTF(a) __hexagon_fast2_sqrtf(a)
#define DIVSI(a, b) __hexagon_divsi3(a, b)
#define MODSI(a, b) __hexagon_modsi3(a, b)
#define UDIVSI(a, b) __hexagon_udivsi3(a, b)
#define UMODSI(a, b) __hexagon_umodsi3(a, b)
#define DIVDI(a, b) __hexagon_divdi3(a, b)
#define MODDI(a, b) __hexagon_moddi3(a, b)
#define UDIVDI(a, b) __hexagon_udivdi3(a, b)
#define UMODDI(a, b) __hexagon_umoddi3(a, b)
#else
#include <math.h>
#define DIVD(a, b) ((a) / (b))
#define DIVF(a, b) ((a) / (b))
#define SQRTD(a) sqrt(a)
#define SQRTF(a) sqrtf(a)
#define FASTDIVD(a, b) ((a) / (b))
#define FASTSQRTD(a) sqrt(a)
#define FASTSQRTF(a) sqrtf(a)
#define DIVSI(a, b) ((a) / (b))
#define MODSI(a, b) ((a) % (b))
#define UDIVSI(a, b) ((a) / (b))
#define UMODSI(a, b) ((a) % (b))
#define DIVDI(a, b) ((a) / (b))
#define MODDI(a, b) ((a) % (b))
#define UDIVDI(a, b) ((a) / (b))
#define UMODDI(a, b) ((a) % (b))
#endif

static uint64_t State = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) { /* xorshift64 */
  State ^= State << 13;
  State ^= State >> 7;
  State ^= State << 17;
  return State;
}

static double d(uint64_t U) {
  double X;
  memcpy(&X, &U, 8);
  return X;
}
static float f(uint32_t U) {
  float X;
  memcpy(&X, &U, 4);
  return X;
}
static void pd(double X) {
  uint64_t U;
  memcpy(&U, &X, 8);
  if (X != X)
    printf(" nan");
  else
    printf(" %016llx", (unsigned long long)U);
}
static void pf(float X) {
  uint32_t U;
  memcpy(&U, &X, 4);
  if (X != X)
    printf(" nan");
  else
    printf(" %08lx", (unsigned long)U);
}

static const uint64_t EdgeD[] = {0,
                                 1ull << 63,
                                 0x7ff0000000000000ull,
                                 0xfff0000000000000ull,
                                 0x7ff8000000000000ull,
                                 0x7ff0000000000001ull,
                                 1,
                                 0x000fffffffffffffull,
                                 0x0010000000000000ull,
                                 0x8010000000000000ull,
                                 0x7fefffffffffffffull,
                                 0x3ff0000000000000ull,
                                 0xbff0000000000000ull,
                                 0x4008000000000000ull,
                                 0x3fe0000000000000ull,
                                 0x4000000000000000ull,
                                 0x3ff0000000000001ull,
                                 0x3fefffffffffffffull,
                                 0x0000000000000003ull,
                                 0x4340000000000000ull,
                                 0x3ca0000000000000ull,
                                 0x7fe0000000000000ull,
                                 0x0008000000000000ull,
                                 0x400921fb54442d18ull,
                                 0xc00921fb54442d18ull};
static const uint32_t EdgeF[] = {
    0,          1u << 31,   0x7f800000, 0xff800000, 0x7fc00000,
    0x7f800001, 1,          0x007fffff, 0x00800000, 0x80800000,
    0x7f7fffff, 0x3f800000, 0xbf800000, 0x40400000, 0x3f000000,
    0x40000000, 0x3f800001, 0x3f7fffff, 3,          0x4b800000,
    0x33800000, 0x7f000000, 0x00400000, 0x40490fdb, 0xc0490fdb};
enum { NumEdge = sizeof(EdgeD) / sizeof(EdgeD[0]), Random = 4000 };

/* A random double or float: any bit pattern, or one of moderate exponent,
 * or a subnormal-range one, by turns. */
static uint64_t randD(unsigned I) {
  uint64_t U = next();
  if (I % 3 == 1)
    U = (U & 0x800fffffffffffffull) |
        ((uint64_t)(1023 + next() % 120 - 60) << 52);
  else if (I % 3 == 2)
    U &= 0x801fffffffffffffull;
  return U;
}
static uint32_t randF(unsigned I) {
  uint32_t U = (uint32_t)next();
  if (I % 3 == 1)
    U = (U & 0x807fffffu) | ((uint32_t)(127 + next() % 60 - 30) << 23);
  else if (I % 3 == 2)
    U &= 0x80ffffffu;
  return U;
}

int main(void) {
  unsigned long Lines = 0;
  for (unsigned I = 0; I != NumEdge; ++I) {
    for (unsigned J = 0; J != NumEdge; ++J) {
      printf("divdf3 %016llx %016llx", (unsigned long long)EdgeD[I],
             (unsigned long long)EdgeD[J]);
      pd(DIVD(d(EdgeD[I]), d(EdgeD[J])));
      printf("\ndivsf3 %08lx %08lx", (unsigned long)EdgeF[I],
             (unsigned long)EdgeF[J]);
      pf(DIVF(f(EdgeF[I]), f(EdgeF[J])));
      printf("\n");
      Lines += 2;
    }
    printf("sqrtdf2 %016llx", (unsigned long long)EdgeD[I]);
    pd(SQRTD(d(EdgeD[I])));
    printf("\nsqrtf %08lx", (unsigned long)EdgeF[I]);
    pf(SQRTF(f(EdgeF[I])));
    printf("\n");
    Lines += 2;
  }
  for (unsigned I = 0; I != Random; ++I) {
    uint64_t A = randD(I), B = randD(I);
    printf("divdf3 %016llx %016llx", (unsigned long long)A,
           (unsigned long long)B);
    pd(DIVD(d(A), d(B)));
    pd(FASTDIVD(d(A), d(B)));
    printf("\nsqrtdf2 %016llx", (unsigned long long)A);
    pd(SQRTD(d(A)));
    pd(FASTSQRTD(d(A)));
    uint32_t FA = randF(I), FB = randF(I);
    printf("\ndivsf3 %08lx %08lx", (unsigned long)FA, (unsigned long)FB);
    pf(DIVF(f(FA), f(FB)));
    printf("\nsqrtf %08lx", (unsigned long)FA);
    pf(SQRTF(f(FA)));
    pf(FASTSQRTF(f(FA)));
    printf("\n");
    Lines += 4;

    /* Integers of every width: shift the random words right by a random
     * amount so that small quotients and divisors come up too. */
    int64_t SA = (int64_t)next() >> (next() % 64);
    int64_t SB = (int64_t)next() >> (next() % 64);
    uint64_t UA = next() >> (next() % 64), UB = next() >> (next() % 64);
    if (SB != 0 && !(SA == INT64_MIN && SB == -1))
      printf("divdi3 %lld %lld %lld %lld\n", (long long)SA, (long long)SB,
             (long long)DIVDI(SA, SB), (long long)MODDI(SA, SB));
    if (UB != 0)
      printf("udivdi3 %llu %llu %llu %llu\n", (unsigned long long)UA,
             (unsigned long long)UB, (unsigned long long)UDIVDI(UA, UB),
             (unsigned long long)UMODDI(UA, UB));
    int32_t IA = (int32_t)SA, IB = (int32_t)SB;
    uint32_t VA = (uint32_t)UA, VB = (uint32_t)UB;
    if (IB != 0 && !(IA == INT32_MIN && IB == -1))
      printf("divsi3 %ld %ld %ld %ld\n", (long)IA, (long)IB,
             (long)DIVSI(IA, IB), (long)MODSI(IA, IB));
    if (VB != 0)
      printf("udivsi3 %lu %lu %lu %lu\n", (unsigned long)VA, (unsigned long)VB,
             (unsigned long)UDIVSI(VA, VB), (unsigned long)UMODSI(VA, VB));
    Lines += 4;
  }
  static const int32_t EdgeI[] = {0, 1, -1, 2, -2, 7, -7, INT32_MAX, INT32_MIN};
  for (unsigned I = 0; I != 9; ++I)
    for (unsigned J = 0; J != 9; ++J) {
      int32_t A = EdgeI[I], B = EdgeI[J];
      if (B == 0 || (A == INT32_MIN && B == -1))
        continue;
      int64_t LA = (int64_t)A << 31, LB = B;
      printf("edge %ld %ld: %ld %ld %lu %lu %lld %lld %llu %llu\n", (long)A,
             (long)B, (long)DIVSI(A, B), (long)MODSI(A, B),
             (unsigned long)UDIVSI((uint32_t)A, (uint32_t)B),
             (unsigned long)UMODSI((uint32_t)A, (uint32_t)B),
             (long long)DIVDI(LA, LB), (long long)MODDI(LA, LB),
             (unsigned long long)UDIVDI((uint64_t)LA, (uint64_t)LB),
             (unsigned long long)UMODDI((uint64_t)LA, (uint64_t)LB));
    }
  printf("lines %lu\n", Lines);
  return 0;
}
