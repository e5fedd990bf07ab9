// The algorithm of LWP's Hexagon to_chars / from_chars
// (runtime/hexagon/cxx/lwp_libcxx_charconv.cpp, included here without its
// std:: definitions) against the host's libstdc++ (GCC 12, whose std::to_chars
// is Ryu's), on the host: every format, shortest and with precisions, for
// edge cases and N fixed-seed random floats and doubles (argv[1]); from_chars
// of every shortest form and of hand-written inputs; reading decimals at and
// around the midpoints between floats (where strtod's double, converted to
// float, rounds twice) against glibc's strtof. Prints the first mismatches and
// the counts (test/Runtime/Hexagon/cxx-charconv.test).
#define LWP_CHARCONV_CORE_ONLY
#include "../../../../runtime/hexagon/cxx/lwp_libcxx_charconv.cpp"

#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <system_error>

namespace {

long ToMismatches, FromMismatches, MidMismatches, Checks;

template <class T> void compareTo(T V, int Fmt, int Prec) {
  char A[1200], B[1200];
  std::to_chars_result R =
      Prec < 0 ? (Fmt == 0 ? std::to_chars(A, A + sizeof A, V)
                           : std::to_chars(A, A + sizeof A, V,
                                           std::chars_format(Fmt)))
               : std::to_chars(A, A + sizeof A, V, std::chars_format(Fmt), Prec);
  lwp_charconv::Result L = lwp_charconv::toChars(B, B + sizeof B, V, Fmt, Prec);
  ++Checks;
  std::string SA(A, R.ptr), SB(B, L.Ptr);
  if (SA != SB && ToMismatches++ < 20)
    std::printf("to_chars %s %a format %d precision %d: libstdc++ '%s' lwp "
                "'%s'\n",
                sizeof(T) == 4 ? "float" : "double", static_cast<double>(V),
                Fmt, Prec, SA.c_str(), SB.c_str());
}

template <class T> void compareAll(T V) {
  for (int F : {0, 1, 2, 3, 4})
    compareTo(V, F, -1);
  for (int F : {1, 2, 3, 4})
    for (int P : {0, 1, 2, 3, 5, 6, 10, 17, 25})
      compareTo(V, F, P);
}

template <class T> void compareFrom(const std::string &S, int Fmt) {
  T A = T(-7);
  std::from_chars_result R = std::from_chars(S.data(), S.data() + S.size(), A,
                                             std::chars_format(Fmt));
  lwp_charconv::Parsed<T> P =
      lwp_charconv::fromChars<T>(S.data(), S.data() + S.size(), Fmt);
  long NA = R.ec == std::errc::invalid_argument ? 0 : R.ptr - S.data();
  bool RangeA = R.ec == std::errc::result_out_of_range;
  bool Same = NA == P.N && RangeA == P.OutOfRange &&
              (NA == 0 || RangeA || (std::isnan(A) && std::isnan(P.Value)) ||
               (A == P.Value && std::signbit(A) == std::signbit(P.Value)));
  ++Checks;
  if (!Same && FromMismatches++ < 20)
    std::printf("from_chars %s '%s' format %d: libstdc++ %ld %d %a, lwp %ld "
                "%d %a\n",
                sizeof(T) == 4 ? "float" : "double", S.c_str(), Fmt, NA,
                RangeA, static_cast<double>(A), P.N, P.OutOfRange,
                static_cast<double>(P.Value));
}

} // namespace

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? std::atol(Argv[1]) : 1000;
  std::mt19937_64 Gen(42);
  const double Specials[] = {
      0.0,   -0.0,   1.0,     -1.0,   0.1,    0.5,    1e22,     1e23,
      5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 123456.0,
      1234567.0, 12345678901234567.0, 1e-5, 1e-4, 0.001, 100000.0, 1e6, 1e15,
      1e16, 1e17, 9007199254740993.0, 3.14159, 2.5, 0.3, 1e300, 1e-300};
  for (double D : Specials) {
    compareAll(D);
    compareAll(static_cast<float>(D));
  }
  for (long I = 0; I < N; ++I) {
    std::uint64_t B = Gen();
    double D;
    std::memcpy(&D, &B, sizeof D);
    if (!std::isnan(D))
      compareAll(D);
    std::uint32_t B32 = static_cast<std::uint32_t>(Gen());
    float F;
    std::memcpy(&F, &B32, sizeof F);
    if (!std::isnan(F))
      compareAll(F);
    double Nice =
        static_cast<double>(static_cast<std::int64_t>(Gen() % 2000001) -
                            1000000) /
        static_cast<double>(1u << (Gen() % 20));
    compareAll(Nice);
    compareAll(static_cast<float>(Nice));
    char Buffer[1200];
    for (int Fmt : {1, 2, 3, 4}) {
      std::to_chars_result R =
          std::to_chars(Buffer, Buffer + sizeof Buffer, D, std::chars_format(Fmt));
      compareFrom<double>(std::string(Buffer, R.ptr), Fmt);
      compareFrom<float>(std::string(Buffer, R.ptr), Fmt);
    }
  }
  const char *Inputs[] = {
      "1", "-1", "+1", " 1", "1.5", ".5", "5.", ".", "-", "1e5", "1e", "1e+",
      "1E-3x", "1.5e300", "1e400", "-1e400", "1e-400", "4.9e-324", "2e-324",
      "inf", "-INF", "infinity", "infinit", "nan", "-nan", "nan(123)", "nan(",
      "NaN()", "0x1p3", "1p3", "1.8p+1", "abc", "1.fp-2", "ffp1", "0.000001",
      "123456789012345678901234567890", "1e-45", "1.4e-45", "3.4e38", "3.5e38",
      "1.17549435e-38", "00012", "1..2", "e5", "1e5.5", "-0", "-0.0e0"};
  for (const char *S : Inputs)
    for (int Fmt : {1, 2, 3, 4}) {
      compareFrom<double>(S, Fmt);
      compareFrom<float>(S, Fmt);
    }
  // Decimals at a float midpoint, just below and just above it.
  std::mt19937 Gen32(3);
  for (long I = 0; I < N; ++I) {
    std::uint32_t B = Gen32() & 0x7fffffff;
    float F;
    std::memcpy(&F, &B, sizeof F);
    float Next = std::nextafterf(F, HUGE_VALF);
    if (std::isnan(F) || std::isinf(Next))
      continue;
    char Buffer[300];
    std::snprintf(Buffer, sizeof Buffer, "%.120e",
                  (static_cast<double>(F) + static_cast<double>(Next)) / 2);
    char *E = std::strchr(Buffer, 'e');
    std::string Mantissa(Buffer, E), Exponent(E);
    while (Mantissa.back() == '0')
      Mantissa.pop_back();
    std::string Below = Mantissa;
    std::size_t K = Below.size() - 1;
    for (; Below[K] == '0' || Below[K] == '.'; --K)
      if (Below[K] == '0')
        Below[K] = '9';
    --Below[K];
    for (const std::string &S :
         {Mantissa + Exponent, Below + "9999999999999999" + Exponent,
          Mantissa + "0000000000000000000001" + Exponent}) {
      float Ref = std::strtof(S.c_str(), nullptr);
      float Mine = lwp_charconv::readBack<float>(S.c_str());
      ++Checks;
      if (std::memcmp(&Ref, &Mine, sizeof Ref) && MidMismatches++ < 20)
        std::printf("midpoint %s: strtof %a, lwp %a\n", S.c_str(), Ref, Mine);
    }
  }
  std::printf("checks %s, mismatches: to_chars %ld, from_chars %ld, "
              "midpoints %ld\n",
              Checks > 1000 ? "many" : "few", ToMismatches, FromMismatches,
              MidMismatches);
  return ToMismatches || FromMismatches || MidMismatches;
}
