//===- SelectionPolicyTest.cpp - Region selection and IDs -----------------===//

#include "lwp/Instrument/SelectionPolicy.h"
#include "SampleTrees.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace lwp;

namespace {

SelectionPolicy make(SelectionOptions O) {
  auto P = SelectionPolicy::create(O);
  EXPECT_TRUE(static_cast<bool>(P));
  return std::move(*P);
}

/// "F" for the function region, then the selected loop indices, in ID order.
std::string selected(const FunctionPlan &Plan) {
  std::string S = Plan.FunctionRegion ? "F" : "";
  for (unsigned I = 0; I != Plan.LoopRegion.size(); ++I)
    if (Plan.LoopRegion[I])
      S += std::to_string(I);
  return S;
}

std::string run(SelectionOptions O) {
  SelectionPolicy P = make(O);
  auto Plan = P.planFunction("f", test::imperfectNest());
  EXPECT_TRUE(static_cast<bool>(Plan));
  return selected(*Plan);
}

TEST(SelectionPolicyTest, StatsLevelBoundaries) {
  SelectionOptions O;
  O.StatsLevel = 39;
  EXPECT_EQ(run(O), "");
  O.StatsLevel = 40;
  EXPECT_EQ(run(O), "F");
  O.StatsLevel = 69;
  EXPECT_EQ(run(O), "F");
  O.StatsLevel = 70;
  EXPECT_EQ(run(O), "F04");
  O.StatsLevel = 99;
  EXPECT_EQ(run(O), "F04");
  O.StatsLevel = 100;
  EXPECT_EQ(run(O), "F01234");
}

TEST(SelectionPolicyTest, DepthHeightSiblings) {
  SelectionOptions O;
  O.MaxLoopDepth = 1;
  EXPECT_EQ(run(O), "F0134");
  O.MinLoopHeight = 1;
  EXPECT_EQ(run(O), "F01");
  O.MaxLoopDepth = 0;
  O.MinLoopHeight = 0;
  O.InstrumentSiblings = true;
  // L1 and L3 are siblings below depth 0; L2 is an only child.
  EXPECT_EQ(run(O), "F0134");
  O.StatsLevel = 100;
  O.MinLoopHeight = 1;
  EXPECT_EQ(run(O), "F01");
  O.NoFunctionRegions = true;
  EXPECT_EQ(run(O), "01");
}

TEST(SelectionPolicyTest, IdsAndParents) {
  SelectionOptions O;
  O.MaxLoopDepth = 2;
  SelectionPolicy P = make(O);
  auto Plan = P.planFunction("f", test::imperfectNest());
  ASSERT_TRUE(static_cast<bool>(Plan));
  ASSERT_EQ(Plan->Regions.size(), 6u);
  // Function first, then loops in pre-order.
  uint32_t Ids[] = {0, 1, 2, 3, 4, 5};
  std::optional<uint32_t> Parents[] = {std::nullopt, 0, 1, 2, 1, 0};
  for (unsigned I = 0; I != 6; ++I) {
    EXPECT_EQ(Plan->Regions[I].Id, Ids[I]);
    EXPECT_EQ(Plan->Regions[I].ParentId, Parents[I]) << "row " << I;
  }
  EXPECT_EQ(Plan->Regions[0].Kind, RegionKind::Function);
  EXPECT_FALSE(Plan->Regions[0].Depth.has_value());
  EXPECT_EQ(Plan->Regions[3].Depth, 2u);
  EXPECT_EQ(Plan->Regions[1].Height, 2u);
  // The next function continues densely.
  auto Next = P.planFunction("g", LoopTree());
  ASSERT_TRUE(static_cast<bool>(Next));
  EXPECT_EQ(Next->Regions[0].Id, 6u);
}

TEST(SelectionPolicyTest, ParentSkipsUninstrumentedLoops) {
  // f { L0 { L1 { L2 L3 } } }: L1 is too deep and an only child.
  LoopTree T;
  unsigned L0 = T.addLoop(LoopTree::NoParent, false);
  unsigned L1 = T.addLoop(L0, false);
  T.addLoop(L1, false);
  T.addLoop(L1, false);
  T.finalize();
  SelectionOptions O;
  O.InstrumentSiblings = true; // L0 (depth 0), L2 and L3 (siblings); not L1
  SelectionPolicy P = make(O);
  auto Plan = P.planFunction("f", T);
  ASSERT_TRUE(static_cast<bool>(Plan));
  EXPECT_EQ(selected(*Plan), "F023");
  EXPECT_EQ(Plan->LoopReason[1], SkipReason::TooDeep);
  // L2's parent region is L0's, since L1 has none.
  EXPECT_EQ(Plan->Regions[2].ParentId, Plan->Regions[1].Id);
}

TEST(SelectionPolicyTest, InsideParallelIsSelected) {
  // Loops inside parallel loops are instrumented like any other: the host
  // runtime records each thread's instances on its own.
  LoopTree T;
  unsigned P0 = T.addLoop(LoopTree::NoParent, true);
  T.addLoop(P0, false);
  T.finalize();
  SelectionOptions O;
  O.StatsLevel = 100;
  SelectionPolicy P = make(O);
  auto Plan = P.planFunction("f", T);
  ASSERT_TRUE(static_cast<bool>(Plan));
  EXPECT_EQ(Plan->LoopReason[1], SkipReason::Selected);
  ASSERT_TRUE(Plan->LoopRegion[1].has_value());
  EXPECT_EQ(Plan->Regions[*Plan->LoopRegion[1]].ParentId,
            Plan->Regions[*Plan->LoopRegion[0]].Id);
}

TEST(SelectionPolicyTest, ReserveIdsContinuesTheNumbering) {
  LoopTree T;
  T.addLoop(LoopTree::NoParent, false);
  T.finalize();
  SelectionPolicy P = make(SelectionOptions());
  ASSERT_TRUE(static_cast<bool>(P.planFunction("f", T))); // IDs 0 and 1
  auto First = P.reserveIds("f", 3);
  ASSERT_TRUE(static_cast<bool>(First));
  EXPECT_EQ(*First, 2u);
  EXPECT_EQ(P.nextId(), 5u);
  EXPECT_TRUE(P.selectsOperators("f"));
  SelectionOptions Functions;
  Functions.StatsLevel = 40;
  EXPECT_FALSE(make(Functions).selectsOperators("f"));
}

TEST(SelectionPolicyTest, FunctionFilter) {
  SelectionOptions O;
  O.FunctionFilter = "^conv";
  SelectionPolicy P = make(O);
  auto A = P.planFunction("matmul", test::imperfectNest());
  ASSERT_TRUE(static_cast<bool>(A));
  EXPECT_EQ(selected(*A), "");
  EXPECT_EQ(A->FunctionReason, SkipReason::FunctionFilter);
  auto B = P.planFunction("conv2d", test::imperfectNest());
  ASSERT_TRUE(static_cast<bool>(B));
  EXPECT_EQ(selected(*B), "F04");
  EXPECT_EQ(B->Regions[0].Id, 0u);
}

TEST(SelectionPolicyTest, BadOptions) {
  SelectionOptions O;
  O.StatsLevel = -1;
  EXPECT_THAT(test::errorOf(SelectionPolicy::create(O)),
              testing::HasSubstr("invalid stats-level -1"));
  O.StatsLevel = 70;
  O.FunctionFilter = "(";
  EXPECT_THAT(test::errorOf(SelectionPolicy::create(O)),
              testing::HasSubstr("invalid lwp-function-filter '('"));
}

} // namespace
