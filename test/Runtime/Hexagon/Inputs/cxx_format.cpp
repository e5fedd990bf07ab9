// std::format on Hexagon (test/Runtime/Hexagon/cxx-charconv.test): it
// instantiates the floating-point formatters (to_chars) whatever it formats.
#include <charconv>
#include <cstdio>
#include <format>
#include <limits>
#include <string>

int main() {
  std::string S = std::format("{} |{:>5}| {:x} {} {:.3f} {:e} {:g} {} {} {}",
                              42, "ab", 255, 3.25, 2.0 / 3, 1e-7, 1234567.0,
                              0.1f, -std::numeric_limits<double>::infinity(),
                              1e23);
  std::printf("%s\n", S.c_str());
  double D = 0;
  const char In[] = "1.25e3xyz";
  std::from_chars_result R = std::from_chars(In, In + 9, D);
  std::printf("from_chars: %g %d\n", D, static_cast<int>(R.ptr - In));
  return 0;
}
