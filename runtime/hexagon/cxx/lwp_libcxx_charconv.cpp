//===- lwp_libcxx_charconv.cpp - Floating-point to_chars and from_chars ---===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// std::to_chars and std::from_chars of float, double and long double (=
// double on Hexagon), which libc++'s headers declare and its compiled
// library defines (with Ryu); std::format and std::print use them for
// every floating-point argument, so a program using either needs them even
// when it formats only integers. Here over the C library's snprintf and
// strtod / strtof (newlib's, correctly rounded both ways):
//   - with a precision: printf's %.*f, %.*e, %.*g; hex from the bits (%a's
//     layout without "0x", subnormals with a leading 0);
//   - shortest (no precision): the fewest significant digits that read back
//     as the same value (%.*e with 1, 2 ... digits, each read back), then
//     laid out as C++ [charconv.to.chars] says: fixed or scientific as
//     asked (an integer value in fixed notation exactly, as %.0f), hex with
//     the fraction's trailing zeros dropped, general fixed when the exponent is in [-4, 6) (as %g
//     without a precision) else scientific, plain the shorter of fixed and
//     scientific (fixed on a tie);
//   - from_chars: the pattern of the format (no leading '+' or whitespace,
//     no "0x"; fixed: no exponent; scientific: an exponent), then strtod of
//     what matched.
// Infinities and NaNs are "inf", "-inf", "nan", "-nan" (the sign from the
// sign bit; newlib's printf drops it).
//
// test/Runtime/Hexagon/cxx-charconv.test compares every form with
// libstdc++'s std::to_chars on the host, built from this same file
// (LWP_CHARCONV_CORE_ONLY: the core without the std:: definitions).
//
//===----------------------------------------------------------------------===//
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace lwp_charconv {

// chars_format's values (the same in libc++ and libstdc++); Plain: none.
enum Format { Plain = 0, Scientific = 1, Fixed = 2, Hex = 4, General = 3 };

struct Result {
  char *Ptr;
  bool TooLarge;
};

namespace {

// Copies S (N characters) to [First, Last) if it fits.
Result put(char *First, char *Last, const char *S, std::size_t N) {
  if (N > static_cast<std::size_t>(Last - First))
    return {Last, true};
  std::memcpy(First, S, N);
  return {First + N, false};
}

// printf of Value with Spec ("%.*e" ...) and Precision into [First, Last).
Result print(char *First, char *Last, const char *Spec, int Precision,
             double Value) {
  char Small[128];
  int N = std::snprintf(Small, sizeof Small, Spec, Precision, Value);
  char *S = Small;
  if (N < 0)
    return {Last, true};
  if (static_cast<std::size_t>(N) >= sizeof Small) {
    S = static_cast<char *>(std::malloc(static_cast<std::size_t>(N) + 1));
    if (!S)
      return {Last, true};
    std::snprintf(S, static_cast<std::size_t>(N) + 1, Spec, Precision, Value);
  }
  Result R = put(First, Last, S, static_cast<std::size_t>(N));
  if (S != Small)
    std::free(S);
  return R;
}

// Hex, as printf's %a without "0x" (C++ [charconv.to.chars]), from the bits:
// the leading digit (1, or 0 for subnormals and zero), the fraction's
// digits (13 for double, 6 for float: its 23 bits shifted left by one),
// "p" and the binary exponent (subnormals: the minimum one, -1022 or -126).
// Without a precision, the fraction's trailing zeros are dropped; with
// one, it is rounded to that many digits, half to even (possibly into the
// leading digit), or padded with zeros.
template <class T> Result hex(char *First, char *Last, T Value, int Precision) {
  constexpr bool IsFloat = sizeof(T) == 4;
  constexpr int FracDigits = IsFloat ? 6 : 13;
  constexpr int ExpBits = IsFloat ? 8 : 11;
  constexpr int MantBits = IsFloat ? 23 : 52;
  constexpr int Bias = IsFloat ? 127 : 1023;
  unsigned long long Bits = 0;
  std::memcpy(&Bits, &Value, sizeof Value);
  bool Neg = Bits >> (ExpBits + MantBits);
  int E = static_cast<int>((Bits >> MantBits) & ((1u << ExpBits) - 1));
  unsigned long long Frac = Bits & ((1ull << MantBits) - 1);
  if (IsFloat)
    Frac <<= 1;
  unsigned Lead = E ? 1 : 0;
  int Exp = E ? E - Bias : (Frac ? 1 - Bias : 0);
  int Digits = FracDigits;
  if (Precision < 0) {
    while (Digits && !(Frac & 15)) {
      Frac >>= 4;
      --Digits;
    }
  } else if (Precision < FracDigits) {
    int Drop = (FracDigits - Precision) * 4;
    unsigned long long Kept = Frac >> Drop;
    unsigned long long Rest = Frac & ((1ull << Drop) - 1);
    unsigned long long Half = 1ull << (Drop - 1);
    if (Rest > Half || (Rest == Half && ((Kept | (Precision ? 0 : Lead)) & 1)))
      ++Kept;
    if (Kept >> (Precision * 4)) {
      Kept &= (1ull << (Precision * 4)) - 1;
      ++Lead;
    }
    Frac = Kept;
    Digits = Precision;
  }
  char Out[64];
  std::size_t L = 0;
  if (Neg)
    Out[L++] = '-';
  Out[L++] = static_cast<char>('0' + Lead);
  int Pad = Precision > FracDigits ? Precision - FracDigits : 0;
  if (Digits || Pad) {
    Out[L++] = '.';
    for (int I = Digits - 1; I >= 0; --I)
      Out[L++] = "0123456789abcdef"[(Frac >> (4 * I)) & 15];
  }
  L += static_cast<std::size_t>(std::snprintf(Out + L, 16, "p%c%d",
                                              Exp < 0 ? '-' : '+',
                                              Exp < 0 ? -Exp : Exp));
  if (!Pad)
    return put(First, Last, Out, L);
  // Zeros after the fraction's digits, before the exponent.
  std::size_t Mantissa = static_cast<std::size_t>(std::strchr(Out, 'p') - Out);
  std::size_t Total = L + static_cast<std::size_t>(Pad);
  if (Total > static_cast<std::size_t>(Last - First))
    return {Last, true};
  std::memcpy(First, Out, Mantissa);
  std::memset(First + Mantissa, '0', static_cast<std::size_t>(Pad));
  std::memcpy(First + Mantissa + Pad, Out + Mantissa, L - Mantissa);
  return {First + Total, false};
}

// The shortest decimal that reads back as Value (finite, not zero): its
// digits (no point) and the exponent of the first one.
struct Shortest {
  char Digits[24];
  int N;
  int Exp;
};

// Compares the positive decimal S (Len characters: digits, a point, an
// exponent) with the positive double M exactly: -1, 0 or 1. Both become
// 0.d1d2... x 10^E with d1 non-zero and no trailing zero; M's digits are
// exact in 200 (a double has at most 767 significant decimal digits, but
// the doubles compared here are midpoints between floats: at most 25
// significant bits, so at most 105 digits).
int compareDecimal(const char *S, std::size_t Len, double M) {
  char MBuf[220];
  std::snprintf(MBuf, sizeof MBuf, "%.200e", M);
  struct Norm {
    char *Digits;
    long N;
    long Exp;
  };
  auto normalize = [](const char *T, std::size_t L, char *Out) {
    Norm R{Out, 0, 0};
    long Point = -1, Exp = 0, Seen = 0;
    bool Leading = true;
    long LeadingZeros = 0;
    std::size_t I = 0;
    for (; I < L && T[I] != 'e' && T[I] != 'E'; ++I) {
      if (T[I] == '.') {
        Point = Seen;
        continue;
      }
      ++Seen;
      if (Leading && T[I] == '0') {
        ++LeadingZeros;
        continue;
      }
      Leading = false;
      Out[R.N++] = T[I];
    }
    if (I < L) {
      bool Neg = false;
      ++I;
      if (I < L && (T[I] == '+' || T[I] == '-'))
        Neg = T[I++] == '-';
      for (; I < L && Exp < 100000; ++I)
        Exp = Exp * 10 + (T[I] - '0');
      if (Neg)
        Exp = -Exp;
    }
    if (Point < 0)
      Point = Seen;
    while (R.N && Out[R.N - 1] == '0')
      --R.N;
    R.Exp = Point - LeadingZeros + Exp;
    return R;
  };
  char *SBuf = static_cast<char *>(std::malloc(Len + 1));
  char MDigits[220];
  if (!SBuf)
    return 0;
  Norm A = normalize(S, Len, SBuf);
  Norm B = normalize(MBuf, std::strlen(MBuf), MDigits);
  int C = 0;
  if (!A.N || !B.N)
    C = A.N ? 1 : (B.N ? -1 : 0);
  else if (A.Exp != B.Exp)
    C = A.Exp < B.Exp ? -1 : 1;
  else
    for (long I = 0; !C && (I < A.N || I < B.N); ++I) {
      char X = I < A.N ? A.Digits[I] : '0', Y = I < B.N ? B.Digits[I] : '0';
      C = X < Y ? -1 : (X > Y ? 1 : 0);
    }
  std::free(SBuf);
  return C;
}

// The float nearest to the positive decimal S (Len characters) that strtod
// (correctly rounded) read as D; ties to even. (float)D rounds twice and is
// wrong when D falls exactly on the midpoint between two floats while S does
// not (newlib's strtof is (float)strtod): then S is compared with the
// midpoint.
float nearestFloat(const char *S, std::size_t Len, double D) {
  float F = static_cast<float>(D);
  if (static_cast<double>(F) == D || std::isnan(D))
    return F;
  float Lo = static_cast<double>(F) < D ? F : std::nextafterf(F, 0.0f);
  float Hi = std::nextafterf(Lo, HUGE_VALF);
  double Mid = std::isinf(Hi)
                   ? static_cast<double>(Lo) +
                         (static_cast<double>(Lo) -
                          static_cast<double>(std::nextafterf(Lo, 0.0f))) /
                             2
                   : (static_cast<double>(Lo) + static_cast<double>(Hi)) / 2;
  if (D != Mid)
    return F;
  int C = compareDecimal(S, Len, Mid);
  return C > 0 ? Hi : (C < 0 ? Lo : F);
}

// Reads the positive decimal S back as a T, correctly rounded.
template <class T> T readBack(const char *S);
template <> float readBack<float>(const char *S) {
  return nearestFloat(S, std::strlen(S), std::strtod(S, nullptr));
}
template <> double readBack<double>(const char *S) {
  return std::strtod(S, nullptr);
}

template <class T> int maxDigits();
template <> int maxDigits<float>() { return 9; }
template <> int maxDigits<double>() { return 17; }

template <class T> Shortest shortest(T Value) {
  char Buffer[48];
  Value = std::fabs(Value);
  for (int P = 1;; ++P) {
    std::snprintf(Buffer, sizeof Buffer, "%.*e", P - 1,
                  static_cast<double>(Value));
    if (P < maxDigits<T>() && readBack<T>(Buffer) != Value)
      continue;
    // "d.ddde-XX": the digits and the exponent.
    Shortest S;
    S.N = 0;
    const char *C = Buffer;
    for (; *C != 'e'; ++C)
      if (*C != '.')
        S.Digits[S.N++] = *C;
    S.Exp = std::atoi(C + 1);
    // Fewer digits than asked: %.*e may end in zeros (1e+22 at P = 3 is
    // 1.00e+22); they are not significant.
    while (S.N > 1 && S.Digits[S.N - 1] == '0')
      --S.N;
    return S;
  }
}

// Appends the layouts of a shortest decimal to Out (room for 400 chars).
std::size_t scientific(const Shortest &S, bool Neg, char *Out) {
  std::size_t L = 0;
  if (Neg)
    Out[L++] = '-';
  Out[L++] = S.Digits[0];
  if (S.N > 1) {
    Out[L++] = '.';
    for (int I = 1; I < S.N; ++I)
      Out[L++] = S.Digits[I];
  }
  L += static_cast<std::size_t>(
      std::snprintf(Out + L, 8, "e%c%02d", S.Exp < 0 ? '-' : '+',
                    S.Exp < 0 ? -S.Exp : S.Exp));
  return L;
}

// Fixed: the digits around the point; an integer value (no digit after
// the point) exactly, as printf's %.0f (1e23 is 99999999999999991611392),
// as libc++ and libstdc++ print it.
std::size_t fixed(const Shortest &S, bool Neg, double Value, char *Out) {
  std::size_t L = 0;
  if (Neg)
    Out[L++] = '-';
  if (S.Exp >= S.N - 1 && Value != 0) {
    int N = std::snprintf(Out + L, 400 - L, "%.0f", std::fabs(Value));
    return L + static_cast<std::size_t>(N);
  }
  if (S.Exp < 0) {
    Out[L++] = '0';
    Out[L++] = '.';
    for (int I = -1; I > S.Exp; --I)
      Out[L++] = '0';
    for (int I = 0; I < S.N; ++I)
      Out[L++] = S.Digits[I];
    return L;
  }
  for (int I = 0; I <= S.Exp || I < S.N; ++I) {
    if (I == S.Exp + 1)
      Out[L++] = '.';
    Out[L++] = I < S.N ? S.Digits[I] : '0';
  }
  return L;
}

// General: as printf's %g without a precision (P = 6) chooses, fixed when
// the exponent X is in [-4, 6), else scientific, with the shortest digits.
std::size_t general(const Shortest &S, bool Neg, double Value, char *Out) {
  if (S.Exp >= -4 && S.Exp < 6)
    return fixed(S, Neg, Value, Out);
  return scientific(S, Neg, Out);
}

template <class T>
Result toChars(char *First, char *Last, T Value, int Fmt, int Precision) {
  bool Neg = std::signbit(Value);
  if (std::isinf(Value))
    return put(First, Last, Neg ? "-inf" : "inf", Neg ? 4 : 3);
  if (std::isnan(Value))
    return put(First, Last, Neg ? "-nan" : "nan", Neg ? 4 : 3);
  double D = static_cast<double>(Value);
  if (Fmt == Hex)
    return hex(First, Last, Value, Precision);
  if (Precision >= 0) {
    switch (Fmt) {
    case Fixed:
      return print(First, Last, "%.*f", Precision, D);
    case Scientific:
      return print(First, Last, "%.*e", Precision, D);
    default:
      return print(First, Last, "%.*g", Precision, D);
    }
  }
  Shortest S;
  if (Value == 0) {
    S.Digits[0] = '0';
    S.N = 1;
    S.Exp = 0;
  } else {
    S = shortest(Value);
  }
  // Fixed: up to 309 digits before the point, 324 after.
  char Out[400];
  std::size_t L;
  switch (Fmt) {
  case Fixed:
    L = fixed(S, Neg, D, Out);
    break;
  case Scientific:
    L = scientific(S, Neg, Out);
    break;
  case General:
    L = general(S, Neg, D, Out);
    break;
  default: {
    L = fixed(S, Neg, D, Out);
    char Sci[40];
    std::size_t LS = scientific(S, Neg, Sci);
    if (LS < L)
      return put(First, Last, Sci, LS);
    break;
  }
  }
  return put(First, Last, Out, L);
}

bool isDigit(char C, bool HexDigits) {
  if (C >= '0' && C <= '9')
    return true;
  return HexDigits && ((C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F'));
}

bool startsWith(const char *P, const char *Last, const char *Word) {
  for (; *Word; ++P, ++Word) {
    if (P == Last)
      return false;
    char C = *P >= 'A' && *P <= 'Z' ? static_cast<char>(*P - 'A' + 'a') : *P;
    if (C != *Word)
      return false;
  }
  return true;
}

} // namespace

// from_chars: the value, the characters used (0: none matched) and whether
// it is out of range.
template <class T> struct Parsed {
  T Value;
  long N;
  bool OutOfRange;
};

template <class T>
Parsed<T> fromChars(const char *First, const char *Last, int Fmt) {
  const char *P = First;
  bool Neg = P != Last && *P == '-';
  if (Neg)
    ++P;
  // inf, infinity, nan, nan(n-char-sequence).
  if (startsWith(P, Last, "inf")) {
    P += startsWith(P, Last, "infinity") ? 8 : 3;
    T V = static_cast<T>(Neg ? -HUGE_VAL : HUGE_VAL);
    return {V, static_cast<long>(P - First), false};
  }
  if (startsWith(P, Last, "nan")) {
    P += 3;
    if (P != Last && *P == '(') {
      const char *Q = P + 1;
      while (Q != Last && (isDigit(*Q, true) || *Q == '_' ||
                           (*Q >= 'g' && *Q <= 'z') ||
                           (*Q >= 'G' && *Q <= 'Z')))
        ++Q;
      if (Q != Last && *Q == ')')
        P = Q + 1;
    }
    // Not a conversion from double: Hexagon's gives the default NaN, whose
    // sign bit is set.
    T V = std::numeric_limits<T>::quiet_NaN();
    return {Neg ? -V : V, static_cast<long>(P - First), false};
  }
  bool HexDigits = Fmt == Hex;
  const char *Start = P;
  int Digits = 0;
  while (P != Last && isDigit(*P, HexDigits))
    ++P, ++Digits;
  if (P != Last && *P == '.') {
    ++P;
    while (P != Last && isDigit(*P, HexDigits))
      ++P, ++Digits;
  }
  if (!Digits)
    return {T(0), 0, false};
  const char *End = P;
  char Mark = HexDigits ? 'p' : 'e';
  if (Fmt != Fixed && P != Last && (*P == Mark || *P == Mark - 32)) {
    const char *Q = P + 1;
    if (Q != Last && (*Q == '+' || *Q == '-'))
      ++Q;
    if (Q != Last && *Q >= '0' && *Q <= '9') {
      while (Q != Last && *Q >= '0' && *Q <= '9')
        ++Q;
      End = Q;
    }
  }
  if (Fmt == Scientific && End == P)
    return {T(0), 0, false};
  // strtod of "0x" + the digits (hex) or of the match, NUL-terminated.
  std::size_t Len = static_cast<std::size_t>(End - Start);
  char Small[96];
  char *Copy = Len + 3 <= sizeof Small
                   ? Small
                   : static_cast<char *>(std::malloc(Len + 3));
  if (!Copy)
    return {T(0), 0, true};
  std::size_t C = 0;
  if (HexDigits) {
    Copy[C++] = '0';
    Copy[C++] = 'x';
  }
  std::memcpy(Copy + C, Start, Len);
  Copy[C + Len] = 0;
  int Saved = errno;
  double D = std::strtod(Copy, nullptr);
  errno = Saved;
  // A float from the decimal itself when strtod's double is a midpoint
  // (hex: (float)D; a hex input of more than 53 bits could round twice).
  T V = sizeof(T) == sizeof(float) && !HexDigits
            ? static_cast<T>(nearestFloat(Copy, C + Len, D))
            : static_cast<T>(D);
  if (Copy != Small)
    std::free(Copy);
  // Out of range: overflow to infinity, or a non-zero input that underflows
  // to zero (a subnormal result is a value).
  bool NonZero = false;
  for (const char *Q = Start; Q != P; ++Q)
    NonZero |= *Q != '0' && *Q != '.';
  bool Range = std::isinf(V) || (V == 0 && NonZero);
  return {Neg ? -V : V, static_cast<long>(End - First), Range};
}

} // namespace lwp_charconv

#ifndef LWP_CHARCONV_CORE_ONLY
#include <charconv>

_LIBCPP_BEGIN_NAMESPACE_STD

namespace {
to_chars_result result(lwp_charconv::Result R) {
  return {R.Ptr, R.TooLarge ? errc::value_too_large : errc{}};
}
int format(chars_format Fmt) { return static_cast<int>(Fmt); }
} // namespace

to_chars_result to_chars(char *First, char *Last, float Value) {
  return result(lwp_charconv::toChars(First, Last, Value, 0, -1));
}
to_chars_result to_chars(char *First, char *Last, double Value) {
  return result(lwp_charconv::toChars(First, Last, Value, 0, -1));
}
to_chars_result to_chars(char *First, char *Last, long double Value) {
  return result(lwp_charconv::toChars(First, Last, static_cast<double>(Value),
                                      0, -1));
}
to_chars_result to_chars(char *First, char *Last, float Value,
                         chars_format Fmt) {
  return result(lwp_charconv::toChars(First, Last, Value, format(Fmt), -1));
}
to_chars_result to_chars(char *First, char *Last, double Value,
                         chars_format Fmt) {
  return result(lwp_charconv::toChars(First, Last, Value, format(Fmt), -1));
}
to_chars_result to_chars(char *First, char *Last, long double Value,
                         chars_format Fmt) {
  return result(lwp_charconv::toChars(First, Last, static_cast<double>(Value),
                                      format(Fmt), -1));
}
// A negative precision is 6, as printf's.
to_chars_result to_chars(char *First, char *Last, float Value,
                         chars_format Fmt, int Precision) {
  return result(lwp_charconv::toChars(First, Last, Value, format(Fmt),
                                      Precision < 0 ? 6 : Precision));
}
to_chars_result to_chars(char *First, char *Last, double Value,
                         chars_format Fmt, int Precision) {
  return result(lwp_charconv::toChars(First, Last, Value, format(Fmt),
                                      Precision < 0 ? 6 : Precision));
}
to_chars_result to_chars(char *First, char *Last, long double Value,
                         chars_format Fmt, int Precision) {
  return result(lwp_charconv::toChars(First, Last, static_cast<double>(Value),
                                      format(Fmt),
                                      Precision < 0 ? 6 : Precision));
}

template <class T>
__from_chars_result<T> __from_chars_floating_point(
    _LIBCPP_NOESCAPE const char *First, _LIBCPP_NOESCAPE const char *Last,
    chars_format Fmt) {
  lwp_charconv::Parsed<T> P =
      lwp_charconv::fromChars<T>(First, Last, format(Fmt));
  if (!P.N)
    return {T(0), 0, errc::invalid_argument};
  return {P.Value, P.N, P.OutOfRange ? errc::result_out_of_range : errc{}};
}

template __from_chars_result<float> __from_chars_floating_point(
    _LIBCPP_NOESCAPE const char *, _LIBCPP_NOESCAPE const char *,
    chars_format);
template __from_chars_result<double> __from_chars_floating_point(
    _LIBCPP_NOESCAPE const char *, _LIBCPP_NOESCAPE const char *,
    chars_format);

_LIBCPP_END_NAMESPACE_STD
#endif // LWP_CHARCONV_CORE_ONLY
