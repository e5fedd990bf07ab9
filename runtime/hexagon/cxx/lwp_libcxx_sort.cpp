//===- lwp_libcxx_sort.cpp - std::sort of arithmetic types ----------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// libc++'s <algorithm> sorts arrays of arithmetic types with the default
// comparison through std::__sort<__less<T> &, T *>, which its headers only
// declare (extern templates) and its compiled library defines: defined and
// instantiated here, with the headers' own introsort, as libc++'s
// src/algorithm.cpp does. Compiled once per type (-DLWP_SORT_TYPE=int ...:
// CMakeLists.txt), one archive member each (about 7 KB of code): a program
// links the sorts it uses.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <bit>
#include <cstddef>

_LIBCPP_BEGIN_NAMESPACE_STD

// __less<T> is an empty tag: the comparison is __less<>'s operator <.
template <class Comp, class It> void __sort(It First, It Last, Comp) {
  auto Depth = 2 * std::__bit_log2(static_cast<std::size_t>(Last - First));
  __less<> Less;
  std::__introsort<_ClassicAlgPolicy, __less<> &, It,
                   __use_branchless_sort<__less<> &, It> >(First, Last, Less,
                                                          Depth);
}

#ifndef LWP_SORT_TYPE
#error "compile with -DLWP_SORT_TYPE=<type> (runtime/hexagon/cxx/CMakeLists.txt)"
#endif
template void __sort<__less<LWP_SORT_TYPE> &, LWP_SORT_TYPE *>(
    LWP_SORT_TYPE *, LWP_SORT_TYPE *, __less<LWP_SORT_TYPE> &);

_LIBCPP_END_NAMESPACE_STD
