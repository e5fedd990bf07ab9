//===- lwp_libcxx_string.cpp - std::string's compiled members -------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// What libc++'s <string> declares and its compiled library defines:
//   - the members of std::string that the headers declare as extern
//     templates (libc++'s stable ABI list, _LIBCPP_STRING_V1_EXTERN_
//     TEMPLATE_LIST of <__string/extern_template_lists.h>) and
//     operator+(const char *, const string &), instantiated here from the
//     headers' own templates, as libc++'s src/string.cpp does;
//   - std::to_string (snprintf: %d ... and %f, as C++ says) and std::stoi,
//     stol, stoul, stoll, stoull, stof, stod, stold (strtol ... of the C
//     library). No exceptions: where they would throw
//     std::invalid_argument or std::out_of_range, one line on stderr and
//     abort.
//
//===----------------------------------------------------------------------===//
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

_LIBCPP_BEGIN_NAMESPACE_STD

#define LWP_INSTANTIATE(...) template __VA_ARGS__;
_LIBCPP_STRING_V1_EXTERN_TEMPLATE_LIST(LWP_INSTANTIATE, char)
#undef LWP_INSTANTIATE

template string operator+ <char, char_traits<char>, allocator<char> >(
    char const *, string const &);

namespace {

template <class T> string format(const char *Format, T Value) {
  char Buffer[64];
  int N = std::snprintf(Buffer, sizeof Buffer, Format, Value);
  if (N >= 0 && static_cast<size_t>(N) < sizeof Buffer)
    return string(Buffer, N);
  // %f of a large double: up to 309 digits before the point.
  string S(static_cast<size_t>(N), '\0');
  std::snprintf(&S[0], S.size() + 1, Format, Value);
  return S;
}

[[noreturn]] void fail(const char *Function, const char *What,
                       const string &Str) {
  std::fprintf(stderr,
               "lwp: libc++: %s(\"%s\"): %s (no C++ exceptions on Hexagon)\n",
               Function, Str.c_str(), What);
  std::abort();
}

// Converts Str with Convert (strtol ... or strtod ...), as libc++'s
// src/string.cpp: errno ERANGE is std::out_of_range, no digits
// std::invalid_argument.
template <class T, class Convert>
T convert(const char *Function, const string &Str, size_t *Index,
          Convert C) {
  const char *P = Str.c_str();
  char *End;
  int SavedErrno = errno;
  errno = 0;
  T Value = C(P, &End);
  int Error = errno;
  errno = SavedErrno;
  if (Error == ERANGE)
    fail(Function, "out of range (std::out_of_range)", Str);
  if (End == P)
    fail(Function, "no conversion (std::invalid_argument)", Str);
  if (Index)
    *Index = static_cast<size_t>(End - P);
  return Value;
}

} // namespace

string to_string(int V) { return format("%d", V); }
string to_string(unsigned V) { return format("%u", V); }
string to_string(long V) { return format("%ld", V); }
string to_string(unsigned long V) { return format("%lu", V); }
string to_string(long long V) { return format("%lld", V); }
string to_string(unsigned long long V) { return format("%llu", V); }
string to_string(float V) { return format("%f", static_cast<double>(V)); }
string to_string(double V) { return format("%f", V); }
string to_string(long double V) { return format("%Lf", V); }

int stoi(const string &S, size_t *Index, int Base) {
  long V = convert<long>("stoi", S, Index, [Base](const char *P, char **E) {
    return std::strtol(P, E, Base);
  });
  if (V < INT_MIN || V > INT_MAX)
    fail("stoi", "out of range (std::out_of_range)", S);
  return static_cast<int>(V);
}

long stol(const string &S, size_t *Index, int Base) {
  return convert<long>("stol", S, Index, [Base](const char *P, char **E) {
    return std::strtol(P, E, Base);
  });
}

unsigned long stoul(const string &S, size_t *Index, int Base) {
  return convert<unsigned long>(
      "stoul", S, Index,
      [Base](const char *P, char **E) { return std::strtoul(P, E, Base); });
}

long long stoll(const string &S, size_t *Index, int Base) {
  return convert<long long>(
      "stoll", S, Index,
      [Base](const char *P, char **E) { return std::strtoll(P, E, Base); });
}

unsigned long long stoull(const string &S, size_t *Index, int Base) {
  return convert<unsigned long long>(
      "stoull", S, Index,
      [Base](const char *P, char **E) { return std::strtoull(P, E, Base); });
}

float stof(const string &S, size_t *Index) {
  return convert<float>("stof", S, Index, [](const char *P, char **E) {
    return std::strtof(P, E);
  });
}

double stod(const string &S, size_t *Index) {
  return convert<double>("stod", S, Index, [](const char *P, char **E) {
    return std::strtod(P, E);
  });
}

long double stold(const string &S, size_t *Index) {
  return convert<long double>("stold", S, Index, [](const char *P, char **E) {
    return std::strtold(P, E);
  });
}

_LIBCPP_END_NAMESPACE_STD
