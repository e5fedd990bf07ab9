//===- lwp_libcxx_abort.cpp - libc++'s verbose abort ----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// std::__libcpp_verbose_abort, which libc++'s headers call where they would
// throw (compiled with -fno-exceptions: "length_error was thrown in
// -fno-exceptions mode with message \"vector\"", std::bad_function_call
// ...) and when a hardening assertion fails: the message on stderr, one
// line, then abort (so the LWP dump is written, as for any abort). Weak, as
// libc++ lets a program define its own.
//
//===----------------------------------------------------------------------===//
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

_LIBCPP_BEGIN_NAMESPACE_STD

__attribute__((weak)) void __libcpp_verbose_abort(const char *Format,
                                                  ...) noexcept {
  std::fputs("lwp: libc++: ", stderr);
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
  std::size_t N = std::strlen(Format);
  if (!N || Format[N - 1] != '\n')
    std::fputc('\n', stderr);
  std::abort();
}

_LIBCPP_END_NAMESPACE_STD
