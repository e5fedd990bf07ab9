//===- InstrumentationMapTest.cpp - Map JSON and table --------------------===//

#include "lwp/Instrument/InstrumentationMap.h"
#include "SampleTrees.h"

#include "llvm/Support/FormatVariadic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace lwp;

namespace {

InstrumentationMap sampleMap() {
  InstrumentationMap M;
  RegionEntry F;
  F.Id = 4;
  F.Kind = RegionKind::Function;
  F.Function = "conv";
  F.Loc = {"model.mlir", 3, 1};
  M.add(F);
  RegionEntry L;
  L.Id = 5;
  L.Kind = RegionKind::Loop;
  L.Function = "conv";
  L.Depth = 0;
  L.Height = 2;
  L.ParentId = 4;
  L.Loc = {"model.mlir", 7, 5};
  M.add(L);
  return M;
}

TEST(InstrumentationMapTest, JSONRoundTrip) {
  InstrumentationMap M = sampleMap();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  M.writeJSON(OS, 0);
  EXPECT_THAT(Text, testing::StartsWith("{\"version\":1,\"regions\":[{\"id\":4,"
                                        "\"kind\":\"function\","));
  EXPECT_THAT(Text, testing::HasSubstr("\"depth\":null"));
  auto Back = InstrumentationMap::fromJSON(Text);
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->size(), 2u);
  const RegionEntry *L = Back->lookup(5);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Kind, RegionKind::Loop);
  EXPECT_EQ(L->Depth, 0u);
  EXPECT_EQ(L->Height, 2u);
  EXPECT_EQ(L->ParentId, 4u);
  EXPECT_EQ(L->Loc.str(), "model.mlir:7:5");
  EXPECT_FALSE(Back->lookup(4)->Depth.has_value());
  EXPECT_EQ(Back->lookup(3), nullptr);
  EXPECT_EQ(Back->lookup(6), nullptr);
}

TEST(InstrumentationMapTest, BadJSON) {
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON("{")),
              testing::HasSubstr("not JSON"));
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(
                  R"({"version": 2, "regions": []})")),
              testing::HasSubstr("version 2 is not supported"));
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(
                  R"({"version": 1, "regions": [{"id": 1}]})")),
              testing::HasSubstr("region 0: field 'kind'"));
  const char *Unsorted =
      R"({"version": 1, "regions": [
        {"id": 2, "kind": "function", "function": "f", "depth": null,
         "height": null, "parent": null, "file": "", "line": 0, "column": 0},
        {"id": 1, "kind": "function", "function": "g", "depth": null,
         "height": null, "parent": null, "file": "", "line": 0, "column": 0}]})";
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(Unsorted)),
              testing::HasSubstr("region 1: field 'id' is not above"));
  const char *BadKind =
      R"({"version": 1, "regions": [
        {"id": 2, "kind": "block", "function": "f", "depth": null,
         "height": null, "parent": null, "file": "", "line": 0, "column": 0}]})";
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(BadKind)),
              testing::HasSubstr("neither 'function' nor 'loop'"));
  const char *Negative =
      R"({"version": 1, "regions": [
        {"id": -1, "kind": "loop", "function": "f", "depth": 0,
         "height": 0, "parent": null, "file": "", "line": 0, "column": 0}]})";
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(Negative)),
              testing::HasSubstr("field 'id' is not an unsigned"));
}

TEST(InstrumentationMapTest, Table) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  sampleMap().printTable(OS);
  EXPECT_EQ(Out, "ID  kind      function  depth  height  parent  location\n"
                 " 4  function  conv          -       -       -  "
                 "model.mlir:3:1\n"
                 " 5  loop      conv          0       2       4  "
                 "model.mlir:7:5\n");
}

TEST(InstrumentationMapTest, BlobRoundTripAndMerge) {
  InstrumentationMap A = sampleMap(); // IDs 4, 5
  InstrumentationMap B;
  RegionEntry G;
  G.Id = 1;
  G.Kind = RegionKind::Function;
  G.Function = "gemm";
  B.add(G);
  llvm::SmallVector<char> Section;
  A.writeBlob(Section);
  EXPECT_EQ(Section.size() % 8, 0u);
  size_t FirstSize = Section.size();
  // 32-byte header, two 40-byte rows, "conv\0model.mlir\0" padded to 8.
  EXPECT_EQ(FirstSize, 32u + 80u + 16u);
  Section.append(16, '\0'); // linker padding between input sections
  B.writeBlob(Section);
  auto Map = InstrumentationMap::readSection(
      llvm::StringRef(Section.data(), Section.size()));
  ASSERT_TRUE(static_cast<bool>(Map)) << llvm::toString(Map.takeError());
  ASSERT_EQ(Map->size(), 3u);
  EXPECT_EQ(Map->entries()[0].Id, 1u); // sorted by ID across modules
  EXPECT_EQ(Map->entries()[0].Function, "gemm");
  EXPECT_FALSE(Map->entries()[0].Loc.isKnown());
  const RegionEntry *L = Map->lookup(5);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Depth, 0u);
  EXPECT_EQ(L->Height, 2u);
  EXPECT_EQ(L->ParentId, 4u);
  EXPECT_EQ(L->Loc.str(), "model.mlir:7:5");
  EXPECT_FALSE(Map->lookup(4)->ParentId.has_value());
}

TEST(InstrumentationMapTest, BadBlobs) {
  llvm::SmallVector<char> Blob;
  sampleMap().writeBlob(Blob);
  llvm::StringRef Bytes(Blob.data(), Blob.size());
  EXPECT_THAT(
      test::errorOf(InstrumentationMap::readSection(Bytes.drop_back(8))),
      testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(test::errorOf(InstrumentationMap::readSection("ELF\x7f-garbage")),
              testing::HasSubstr("not an LWP map"));
  llvm::SmallVector<char> Twice(Blob);
  Twice.append(Blob.begin(), Blob.end());
  EXPECT_THAT(test::errorOf(InstrumentationMap::readSection(
                  llvm::StringRef(Twice.data(), Twice.size()))),
              testing::HasSubstr("region ID 4 is used by two modules"));
  llvm::SmallVector<char> BadVersion(Blob);
  BadVersion[8] = 9;
  EXPECT_THAT(test::errorOf(InstrumentationMap::readSection(
                  llvm::StringRef(BadVersion.data(), BadVersion.size()))),
              testing::HasSubstr("version 9"));
  // An empty section is an empty map.
  auto Empty = InstrumentationMap::readSection("");
  ASSERT_TRUE(static_cast<bool>(Empty));
  EXPECT_TRUE(Empty->empty());
}

} // namespace
