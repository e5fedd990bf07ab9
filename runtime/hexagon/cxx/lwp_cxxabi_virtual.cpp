//===- lwp_cxxabi_virtual.cpp - Pure and deleted virtual functions --------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// __cxa_pure_virtual and __cxa_deleted_virtual (Itanium C++ ABI 3.2.6): the
// vtable entries of pure virtual and deleted virtual functions, called only
// by a program with undefined behaviour (a pure virtual function called from
// its class's constructor or destructor, say): one line on stderr and abort.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>

extern "C" [[noreturn]] void __cxa_pure_virtual() {
  std::fputs("lwp: pure virtual function called\n", stderr);
  std::abort();
}

extern "C" [[noreturn]] void __cxa_deleted_virtual() {
  std::fputs("lwp: deleted virtual function called\n", stderr);
  std::abort();
}
