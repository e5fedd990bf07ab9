//===- lwp_cxxabi_exceptions.cpp - Exceptions refused at run time ---------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// There is no unwinder and no exception runtime for Hexagon here: C++ for
// Hexagon is compiled with -fno-exceptions, and a translation unit compiled
// with exceptions that includes a standard header stops there with one line
// (__config_site). One that includes none (or an object built elsewhere)
// still links, with these: it runs as long as nothing is thrown, and a throw
// prints one line on stderr (with the type's mangled name) and aborts. The
// personality routine and _Unwind_Resume are reached only while unwinding,
// which never starts. (std::terminate and the exception classes:
// lwp_libcxx_exception.cpp.)
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <typeinfo>

namespace {
[[noreturn]] void refuse(const char *What) {
  std::fprintf(stderr,
               "lwp: %s: C++ exceptions are not supported on Hexagon "
               "(compile with -fno-exceptions)\n",
               What);
  std::abort();
}
} // namespace

extern "C" {

void *__cxa_allocate_exception(std::size_t Size) noexcept {
  void *P = std::malloc(Size ? Size : 1);
  if (!P)
    refuse("__cxa_allocate_exception");
  return P;
}

void __cxa_free_exception(void *P) noexcept { std::free(P); }

[[noreturn]] void __cxa_throw(void *, std::type_info *Type, void (*)(void *)) {
  std::fprintf(stderr,
               "lwp: exception of type %s thrown: C++ exceptions are not "
               "supported on Hexagon (compile with -fno-exceptions)\n",
               Type ? Type->name() : "?");
  std::abort();
}

[[noreturn]] void __cxa_rethrow() { refuse("__cxa_rethrow"); }
void *__cxa_begin_catch(void *) noexcept { refuse("__cxa_begin_catch"); }
void __cxa_end_catch() { refuse("__cxa_end_catch"); }
void *__cxa_get_exception_ptr(void *) noexcept {
  refuse("__cxa_get_exception_ptr");
}
[[noreturn]] void __cxa_call_unexpected(void *) {
  refuse("__cxa_call_unexpected");
}
int __gxx_personality_v0(...) { refuse("__gxx_personality_v0"); }
[[noreturn]] void _Unwind_Resume(void *) { refuse("_Unwind_Resume"); }

} // extern "C"
