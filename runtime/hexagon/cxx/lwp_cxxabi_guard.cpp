//===- lwp_cxxabi_guard.cpp - Guards of static local variables ------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// __cxa_guard_acquire, __cxa_guard_release and __cxa_guard_abort (Itanium
// C++ ABI 3.3.2), which the compiler calls around the initialization of a
// static local variable, for single-thread Hexagon programs
// (docs/hexagon-runtime.md, "C++"). The guard is 64 bits; byte 0 is set once
// the variable is initialized (the compiler tests it inline before calling
// __cxa_guard_acquire), byte 1 while its initialization runs: an
// initialization that reaches its own variable again (undefined in C++) is
// one line on stderr and abort, as libc++abi does.
//
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {
unsigned char *bytes(std::uint64_t *Guard) {
  return reinterpret_cast<unsigned char *>(Guard);
}
} // namespace

// 1: initialize the variable (then release, or abort); 0: it is.
extern "C" int __cxa_guard_acquire(std::uint64_t *Guard) {
  unsigned char *B = bytes(Guard);
  if (B[0])
    return 0;
  if (B[1]) {
    std::fputs("lwp: __cxa_guard_acquire: the initialization of a static "
               "local variable uses the variable (recursive initialization)\n",
               stderr);
    std::abort();
  }
  B[1] = 1;
  return 1;
}

extern "C" void __cxa_guard_release(std::uint64_t *Guard) {
  unsigned char *B = bytes(Guard);
  B[1] = 0;
  B[0] = 1;
}

extern "C" void __cxa_guard_abort(std::uint64_t *Guard) { bytes(Guard)[1] = 0; }
