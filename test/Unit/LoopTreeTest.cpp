//===- LoopTreeTest.cpp - Depth, height and siblings ----------------------===//

#include "lwp/Analysis/LoopTree.h"
#include "SampleTrees.h"

#include "gtest/gtest.h"

using namespace lwp;

namespace {

TEST(LoopTreeTest, DepthHeightSiblings) {
  LoopTree T = test::imperfectNest();
  ASSERT_EQ(T.size(), 5u);
  auto N = T.nodes();
  unsigned Depth[] = {0, 1, 2, 1, 0};
  // L3's height comes from its own (empty) subtree, not from its sibling L1:
  // TVM kept a running maximum across siblings.
  unsigned Height[] = {2, 1, 0, 0, 0};
  // Outermost loops count as siblings (TVM never counted them).
  bool Siblings[] = {true, true, false, true, true};
  for (unsigned I = 0; I != 5; ++I) {
    EXPECT_EQ(N[I].Depth, Depth[I]) << "loop " << I;
    EXPECT_EQ(N[I].Height, Height[I]) << "loop " << I;
    EXPECT_EQ(N[I].HasSiblings, Siblings[I]) << "loop " << I;
  }
  EXPECT_EQ(T.roots().size(), 2u);
  EXPECT_EQ(N[0].Children.size(), 2u);
}

TEST(LoopTreeTest, SingleOutermostLoopHasNoSiblings) {
  LoopTree T;
  unsigned L0 = T.addLoop(LoopTree::NoParent, false);
  T.addLoop(L0, false);
  T.finalize();
  EXPECT_FALSE(T.nodes()[0].HasSiblings);
  EXPECT_FALSE(T.nodes()[1].HasSiblings);
  EXPECT_EQ(T.nodes()[0].Height, 1u);
}

TEST(LoopTreeTest, InParallel) {
  LoopTree T;
  unsigned P = T.addLoop(LoopTree::NoParent, true);
  unsigned A = T.addLoop(P, false);
  unsigned B = T.addLoop(A, false);
  unsigned C = T.addLoop(LoopTree::NoParent, false);
  T.finalize();
  auto N = T.nodes();
  EXPECT_FALSE(N[P].InParallel);
  EXPECT_TRUE(N[P].IsParallel);
  EXPECT_TRUE(N[A].InParallel);
  EXPECT_TRUE(N[B].InParallel);
  EXPECT_FALSE(N[C].InParallel);
}

TEST(LoopTreeTest, Empty) {
  LoopTree T;
  T.finalize();
  EXPECT_TRUE(T.empty());
  EXPECT_TRUE(T.roots().empty());
}

} // namespace
