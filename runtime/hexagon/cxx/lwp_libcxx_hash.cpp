//===- lwp_libcxx_hash.cpp - Hashing for unordered containers -------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// What libc++'s headers declare for std::hash and the unordered containers
// and its compiled library defines: std::__hash_memory (the hash of strings,
// doubles, long longs ... on this 32-bit target: the headers' own
// murmur2) and std::__next_prime (the bucket counts: the smallest prime at
// least n, as libc++'s; past the largest 32-bit prime, one line and abort,
// where libc++ throws std::overflow_error).
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>

_LIBCPP_BEGIN_NAMESPACE_STD

size_t __hash_memory(_LIBCPP_NOESCAPE const void *P, size_t N) noexcept {
  return __murmur2_or_cityhash<size_t>()(P, N);
}

namespace {
bool isPrime(size_t N) {
  if (N < 2)
    return false;
  if (N % 2 == 0)
    return N == 2;
  for (size_t D = 3; D <= N / D; D += 2)
    if (N % D == 0)
      return false;
  return true;
}
} // namespace

size_t __next_prime(size_t N) {
  if (N > 4294967291u) {
    std::fputs("lwp: libc++: __next_prime overflow (std::overflow_error, no "
               "C++ exceptions on Hexagon)\n",
               stderr);
    std::abort();
  }
  while (!isPrime(N))
    ++N;
  return N;
}

_LIBCPP_END_NAMESPACE_STD
