//===- lwp_libcxx_exception.cpp - The standard exception classes ----------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The standard exception classes' out-of-line members (their key functions:
// destructors and what(), so their vtables and type_info objects), which
// libc++'s headers declare and libc++ / libc++abi define: std::exception,
// bad_exception, bad_alloc, bad_array_new_length, bad_cast, bad_typeid,
// logic_error and runtime_error (with their message, a reference-counted
// copy: __libcpp_refstring) and their derived classes, bad_function_call,
// bad_optional_access, bad_variant_access, bad_any_cast, bad_weak_ptr,
// bad_expected_access<void>; and std::terminate, set_terminate,
// get_terminate, uncaught_exceptions. The what() strings are libc++'s.
//
// Nothing is thrown on Hexagon (docs/hexagon-runtime.md, "C++"), but a
// program may still construct these objects, derive from them, call what(),
// or pass them around: TVM's and Halide's error types derive from
// std::runtime_error.
//
//===----------------------------------------------------------------------===//
#include <any>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <expected>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <variant>

namespace std {

exception::~exception() noexcept {}
const char *exception::what() const noexcept { return "std::exception"; }

bad_exception::~bad_exception() noexcept {}
const char *bad_exception::what() const noexcept {
  return "std::bad_exception";
}

bad_alloc::bad_alloc() noexcept {}
bad_alloc::~bad_alloc() noexcept {}
const char *bad_alloc::what() const noexcept { return "std::bad_alloc"; }

bad_array_new_length::bad_array_new_length() noexcept {}
bad_array_new_length::~bad_array_new_length() noexcept {}
const char *bad_array_new_length::what() const noexcept {
  return "bad_array_new_length";
}

bad_cast::bad_cast() noexcept {}
bad_cast::~bad_cast() noexcept {}
const char *bad_cast::what() const noexcept { return "std::bad_cast"; }

bad_typeid::bad_typeid() noexcept {}
bad_typeid::~bad_typeid() noexcept {}
const char *bad_typeid::what() const noexcept { return "std::bad_typeid"; }

} // namespace std

_LIBCPP_BEGIN_NAMESPACE_STD

// A message: a block holding a count of the other references to it and the
// characters, which __imp_ points to (single thread: a plain count).
namespace {
struct RefString {
  unsigned Others;
  char Chars[1];
};

RefString *block(const char *Chars) {
  return reinterpret_cast<RefString *>(const_cast<char *>(Chars) -
                                       offsetof(RefString, Chars));
}
} // namespace

__libcpp_refstring::__libcpp_refstring(const char *Msg) {
  size_t N = std::strlen(Msg);
  RefString *R = static_cast<RefString *>(
      std::malloc(offsetof(RefString, Chars) + N + 1));
  if (!R) {
    std::fputs("lwp: libc++: no memory for an exception's message\n", stderr);
    std::abort();
  }
  R->Others = 0;
  std::memcpy(R->Chars, Msg, N + 1);
  __imp_ = R->Chars;
}

__libcpp_refstring::__libcpp_refstring(const __libcpp_refstring &S) noexcept
    : __imp_(S.__imp_) {
  ++block(__imp_)->Others;
}

__libcpp_refstring &
__libcpp_refstring::operator=(const __libcpp_refstring &S) noexcept {
  const char *Old = __imp_;
  __imp_ = S.__imp_;
  ++block(__imp_)->Others;
  RefString *R = block(Old);
  if (R->Others-- == 0)
    std::free(R);
  return *this;
}

__libcpp_refstring::~__libcpp_refstring() {
  RefString *R = block(__imp_);
  if (R->Others-- == 0)
    std::free(R);
}

bool __libcpp_refstring::__uses_refcount() const { return true; }

_LIBCPP_END_NAMESPACE_STD

namespace std {

logic_error::logic_error(const string &S) : __imp_(S.c_str()) {}
logic_error::logic_error(const char *S) : __imp_(S) {}
logic_error::logic_error(const logic_error &E) noexcept
    : exception(E), __imp_(E.__imp_) {}
logic_error &logic_error::operator=(const logic_error &E) noexcept {
  __imp_ = E.__imp_;
  return *this;
}
logic_error::~logic_error() noexcept {}
const char *logic_error::what() const noexcept { return __imp_.c_str(); }

runtime_error::runtime_error(const string &S) : __imp_(S.c_str()) {}
runtime_error::runtime_error(const char *S) : __imp_(S) {}
runtime_error::runtime_error(const runtime_error &E) noexcept
    : exception(E), __imp_(E.__imp_) {}
runtime_error &runtime_error::operator=(const runtime_error &E) noexcept {
  __imp_ = E.__imp_;
  return *this;
}
runtime_error::~runtime_error() noexcept {}
const char *runtime_error::what() const noexcept { return __imp_.c_str(); }

domain_error::~domain_error() noexcept {}
invalid_argument::~invalid_argument() noexcept {}
length_error::~length_error() noexcept {}
out_of_range::~out_of_range() noexcept {}
range_error::~range_error() noexcept {}
overflow_error::~overflow_error() noexcept {}
underflow_error::~underflow_error() noexcept {}

bad_optional_access::~bad_optional_access() noexcept {}
const char *bad_optional_access::what() const noexcept {
  return "bad_optional_access";
}

const char *bad_variant_access::what() const noexcept {
  return "bad_variant_access";
}

const char *bad_any_cast::what() const noexcept { return "bad any cast"; }

const char *bad_expected_access<void>::what() const noexcept {
  return "bad access to std::expected";
}

} // namespace std

_LIBCPP_BEGIN_NAMESPACE_STD

bad_function_call::~bad_function_call() noexcept {}
const char *bad_function_call::what() const noexcept {
  return "std::bad_function_call";
}

bad_weak_ptr::~bad_weak_ptr() noexcept {}
const char *bad_weak_ptr::what() const noexcept { return "bad_weak_ptr"; }

_LIBCPP_END_NAMESPACE_STD

// std::terminate: the handler set_terminate installed, then (if it
// returns, or there is none) one line and abort. Nothing is ever thrown,
// so no exception is ever uncaught.
namespace {
std::terminate_handler Terminate;
} // namespace

namespace std {

terminate_handler set_terminate(terminate_handler H) noexcept {
  terminate_handler Old = Terminate;
  Terminate = H;
  return Old;
}

terminate_handler get_terminate() noexcept { return Terminate; }

[[noreturn]] void terminate() noexcept {
  if (Terminate)
    Terminate();
  std::fputs("lwp: std::terminate called\n", stderr);
  std::abort();
}

bool uncaught_exception() noexcept { return false; }
int uncaught_exceptions() noexcept { return 0; }

} // namespace std
