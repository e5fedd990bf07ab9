//===- lwp_libcxx_memory.cpp - std::shared_ptr's control block ------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The members of std::__shared_count and std::__shared_weak_count (the
// control block of std::shared_ptr and std::weak_ptr) that libc++'s headers
// declare and its compiled library defines, as libc++'s src/memory.cpp;
// single thread, so the counts are plain words (the headers' inline
// increments are atomic all the same).
//
//===----------------------------------------------------------------------===//
#include <memory>

_LIBCPP_BEGIN_NAMESPACE_STD

__shared_count::~__shared_count() {}

__shared_weak_count::~__shared_weak_count() {}

// The weak count is one less than the number of weak_ptrs plus one for all
// the shared_ptrs; the control block goes when it falls below zero.
void __shared_weak_count::__release_weak() noexcept {
  if (__shared_weak_owners_ == 0 || --__shared_weak_owners_ == -1)
    __on_zero_shared_weak();
}

__shared_weak_count *__shared_weak_count::lock() noexcept {
  if (__shared_owners_ == -1)
    return nullptr;
  ++__shared_owners_;
  return this;
}

const void *__shared_weak_count::__get_deleter(const type_info &) const noexcept {
  return nullptr;
}

_LIBCPP_END_NAMESPACE_STD
