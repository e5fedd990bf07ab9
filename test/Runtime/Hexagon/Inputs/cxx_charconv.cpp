// std::to_chars and std::from_chars of float and double, every format,
// shortest and with precisions, for edge cases and fixed-seed random bit
// patterns (test/Runtime/Hexagon/cxx-charconv.test): the host's libstdc++
// is the reference for LWP's Hexagon versions (lwp_libcxx_charconv.cpp).
// Prints one line a value; the counts at the end.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <system_error>

namespace {

const std::chars_format Formats[] = {
    std::chars_format::scientific, std::chars_format::fixed,
    std::chars_format::general, std::chars_format::hex};

int RoundTrips, Failures;

template <class T> T readBack(const char *First, const char *Last,
                              std::chars_format Fmt) {
  T V = T(-1);
  std::from_chars_result R = std::from_chars(First, Last, V, Fmt);
  if (R.ec != std::errc() || R.ptr != Last)
    return std::numeric_limits<T>::quiet_NaN();
  return V;
}

template <class T> void show(T Value) {
  char Buffer[1200];
  std::to_chars_result R = std::to_chars(Buffer, Buffer + sizeof Buffer, Value);
  std::printf("%.*s", static_cast<int>(R.ptr - Buffer), Buffer);
  for (std::chars_format F : Formats) {
    R = std::to_chars(Buffer, Buffer + sizeof Buffer, Value, F);
    std::printf(" %.*s", static_cast<int>(R.ptr - Buffer), Buffer);
    // The shortest form reads back as the same value.
    if (std::isfinite(Value)) {
      T Back = readBack<T>(Buffer, R.ptr, F);
      if (std::memcmp(&Back, &Value, sizeof Value) == 0)
        ++RoundTrips;
      else
        ++Failures;
    }
    for (int P : {0, 3, 17}) {
      R = std::to_chars(Buffer, Buffer + sizeof Buffer, Value, F, P);
      std::printf(" %.*s", static_cast<int>(R.ptr - Buffer), Buffer);
    }
  }
  // Too small a buffer.
  R = std::to_chars(Buffer, Buffer + 2, Value, std::chars_format::scientific);
  std::printf(" %s\n", R.ec == std::errc::value_too_large && R.ptr == Buffer + 2
                           ? "too-large"
                           : "?");
}

template <class T> void parse(const char *S) {
  for (std::chars_format F : Formats) {
    T V = T(-7);
    std::from_chars_result R = std::from_chars(S, S + std::strlen(S), V, F);
    // The value, when one was read: out of range, libc++ stores the
    // infinity or zero its library returns, libstdc++ leaves it alone.
    char Buffer[64] = "-";
    std::to_chars_result W = {Buffer + 1, std::errc()};
    if (R.ec == std::errc())
      W = std::to_chars(Buffer, Buffer + sizeof Buffer, V,
                        std::chars_format::hex);
    std::printf("%s %d:%d:%s:%.*s", F == Formats[0] ? S : "",
                static_cast<int>(R.ptr - S),
                R.ec == std::errc() ? 0
                : R.ec == std::errc::invalid_argument ? 1
                                                      : 2,
                std::isnan(V) ? "nan" : "", static_cast<int>(W.ptr - Buffer),
                Buffer);
  }
  std::printf("\n");
}

} // namespace

int main() {
  const double Doubles[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 2.5, 1e22, 1e23,
                            123456.0, 1234567.0, 1e-5, 1e-4, 1e15, 1e16,
                            9007199254740993.0, 3.14159, 0.3, 1e300, 1e-300,
                            5e-324, 2.2250738585072014e-308,
                            1.7976931348623157e308, 65536.0,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN()};
  for (double D : Doubles) {
    show(D);
    // Not a NaN: Hexagon's conversion to float gives the default NaN, whose
    // sign bit is set.
    if (!std::isnan(D))
      show(static_cast<float>(D));
  }
  show(std::numeric_limits<float>::denorm_min());
  show(std::numeric_limits<float>::min());
  show(std::numeric_limits<float>::max());
  std::mt19937_64 Gen(2024);
  for (int I = 0; I < 150; ++I) {
    std::uint64_t B = Gen();
    double D;
    std::memcpy(&D, &B, sizeof D);
    std::uint32_t B32 = static_cast<std::uint32_t>(Gen());
    float F;
    std::memcpy(&F, &B32, sizeof F);
    double Nice = static_cast<double>(static_cast<std::int64_t>(Gen() % 2000001) -
                                      1000000) /
                  static_cast<double>(1u << (Gen() % 20));
    if (!std::isnan(D))
      show(D);
    if (!std::isnan(F))
      show(F);
    show(Nice);
    show(static_cast<float>(Nice));
  }
  const char *Inputs[] = {"1", "-1", "+1", " 1", "1.5", ".5", "5.", ".", "-",
                          "1e5", "1e", "1e+", "1E-3x", "1.5e300", "1e400",
                          "-1e400", "1e-400", "4.9e-324", "inf", "-INF",
                          "infinity", "nan", "nan(123)", "1p3", "1.8p+1",
                          "abc", "ffp1", "0.000001",
                          "123456789012345678901234567890", "1.4e-45",
                          "3.5e38", "00012", "1..2", "e5", "-0",
                          // A float midpoint (1 + 2^-24) and just above it.
                          "1.000000059604644775390625",
                          "1.00000005960464477539062500001"};
  for (const char *S : Inputs) {
    parse<double>(S);
    parse<float>(S);
  }
  std::printf("round trips %d, failures %d\n", RoundTrips, Failures);
  return 0;
}
