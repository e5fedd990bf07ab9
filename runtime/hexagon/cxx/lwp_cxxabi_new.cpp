//===- lwp_cxxabi_new.cpp - operator new and delete for Hexagon -----------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Every replaceable global operator new and delete of C++20 ([new.delete]:
// single and array; plain, nothrow, sized, aligned and their combinations),
// std::nothrow, std::set_new_handler and std::get_new_handler, over the C
// library's malloc, memalign and free (newlib; docs/hexagon-runtime.md,
// "C++").
//
// The operators are weak: a program that defines some of them itself gets
// its own, whichever of the others it uses still come from here (and the
// array and sized forms go through the program's single-object ones,
// below).
//
// No exceptions: when memory runs out and no new handler is installed, the
// throwing forms print one line on stderr and abort (where a hosted
// implementation throws std::bad_alloc); the nothrow forms return null.
// A new handler is called after each failed attempt, as long as one is
// installed, as C++ says.
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <new>

#define LWP_WEAK __attribute__((weak))

namespace {
std::new_handler Handler;

// Size bytes aligned to Align (a power of two; 0: malloc's alignment).
// Null when memory runs out and no new handler is installed (Nothrow), or
// never (one line and abort).
void *allocate(std::size_t Size, std::size_t Align, bool Nothrow) {
  if (Size == 0)
    Size = 1;
  for (;;) {
    void *P = Align > __STDCPP_DEFAULT_NEW_ALIGNMENT__ ? memalign(Align, Size)
                                                       : std::malloc(Size);
    if (P)
      return P;
    std::new_handler H = Handler;
    if (!H) {
      if (Nothrow)
        return nullptr;
      std::fprintf(stderr,
                   "lwp: operator new: out of memory (%zu bytes; "
                   "std::bad_alloc, no C++ exceptions on Hexagon)\n",
                   Size);
      std::abort();
    }
    H();
  }
}

std::size_t alignment(std::align_val_t Align) {
  return static_cast<std::size_t>(Align);
}
} // namespace

const std::nothrow_t std::nothrow{};

std::new_handler std::set_new_handler(std::new_handler H) noexcept {
  std::new_handler Old = Handler;
  Handler = H;
  return Old;
}

std::new_handler std::get_new_handler() noexcept { return Handler; }

// The throwing single-object forms allocate; the array forms, and every
// delete but the two plain ones, call the corresponding single-object form,
// as C++ describes their default behaviour ([new.delete]): a program that
// replaces operator new(size_t) and operator delete(void *) gets new[] and
// the sized deletes (which the compiler calls) through them. The nothrow
// forms allocate themselves: without exceptions, the throwing form cannot
// report a failure to them.
LWP_WEAK void *operator new(std::size_t Size) {
  return allocate(Size, 0, false);
}
LWP_WEAK void *operator new[](std::size_t Size) {
  return ::operator new(Size);
}
LWP_WEAK void *operator new(std::size_t Size, const std::nothrow_t &) noexcept {
  return allocate(Size, 0, true);
}
LWP_WEAK void *operator new[](std::size_t Size,
                              const std::nothrow_t &) noexcept {
  return allocate(Size, 0, true);
}
LWP_WEAK void *operator new(std::size_t Size, std::align_val_t Align) {
  return allocate(Size, alignment(Align), false);
}
LWP_WEAK void *operator new[](std::size_t Size, std::align_val_t Align) {
  return ::operator new(Size, Align);
}
LWP_WEAK void *operator new(std::size_t Size, std::align_val_t Align,
                            const std::nothrow_t &) noexcept {
  return allocate(Size, alignment(Align), true);
}
LWP_WEAK void *operator new[](std::size_t Size, std::align_val_t Align,
                              const std::nothrow_t &) noexcept {
  return allocate(Size, alignment(Align), true);
}

// delete: memalign's blocks are free's too.
LWP_WEAK void operator delete(void *P) noexcept { std::free(P); }
LWP_WEAK void operator delete[](void *P) noexcept { ::operator delete(P); }
LWP_WEAK void operator delete(void *P, const std::nothrow_t &) noexcept {
  ::operator delete(P);
}
LWP_WEAK void operator delete[](void *P, const std::nothrow_t &) noexcept {
  ::operator delete[](P);
}
LWP_WEAK void operator delete(void *P, std::size_t) noexcept {
  ::operator delete(P);
}
LWP_WEAK void operator delete[](void *P, std::size_t) noexcept {
  ::operator delete[](P);
}
LWP_WEAK void operator delete(void *P, std::align_val_t) noexcept {
  std::free(P);
}
LWP_WEAK void operator delete[](void *P, std::align_val_t Align) noexcept {
  ::operator delete(P, Align);
}
LWP_WEAK void operator delete(void *P, std::align_val_t Align,
                              const std::nothrow_t &) noexcept {
  ::operator delete(P, Align);
}
LWP_WEAK void operator delete[](void *P, std::align_val_t Align,
                                const std::nothrow_t &) noexcept {
  ::operator delete[](P, Align);
}
LWP_WEAK void operator delete(void *P, std::size_t,
                              std::align_val_t Align) noexcept {
  ::operator delete(P, Align);
}
LWP_WEAK void operator delete[](void *P, std::size_t,
                                std::align_val_t Align) noexcept {
  ::operator delete[](P, Align);
}
