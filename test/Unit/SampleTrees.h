//===- SampleTrees.h - Loop forests shared by the unit tests ----*- C++ -*-===//

#ifndef LWP_TEST_UNIT_SAMPLETREES_H
#define LWP_TEST_UNIT_SAMPLETREES_H

#include "lwp/Analysis/LoopTree.h"

#include "llvm/Support/Error.h"

#include <string>

namespace lwp::test {

/// f { L0 { L1 { L2 } L3 } L4 }: an imperfect nest and two outermost loops.
inline LoopTree imperfectNest() {
  LoopTree T;
  unsigned L0 = T.addLoop(LoopTree::NoParent, false);
  unsigned L1 = T.addLoop(L0, false);
  T.addLoop(L1, false);
  T.addLoop(L0, false);
  T.addLoop(LoopTree::NoParent, false);
  T.finalize();
  return T;
}

/// The message of a failed Expected, or "" on success.
template <typename T> std::string errorOf(llvm::Expected<T> E) {
  if (E)
    return "";
  return llvm::toString(E.takeError());
}

} // namespace lwp::test

#endif // LWP_TEST_UNIT_SAMPLETREES_H
