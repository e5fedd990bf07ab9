//===- InstrumentationMapTest.cpp - Map JSON and table --------------------===//

#include "lwp/Instrument/InstrumentationMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "SampleTrees.h"

#include "llvm/Support/FormatVariadic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace lwp;

namespace {

/// A function region and its loop, with IDs Base and Base + 1 (a blob holds
/// module-local IDs: Base 0).
InstrumentationMap sampleMap(uint32_t Base = 4) {
  InstrumentationMap M;
  RegionEntry F;
  F.Id = Base;
  F.Kind = RegionKind::Function;
  F.Function = "conv";
  F.Loc = {"model.mlir", 3, 1};
  M.add(F);
  RegionEntry L;
  L.Id = Base + 1;
  L.Kind = RegionKind::Loop;
  L.Function = "conv";
  L.Depth = 0;
  L.Height = 2;
  L.ParentId = Base;
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
  InstrumentationMap A = sampleMap(0); // module-local IDs 0, 1
  InstrumentationMap B;
  RegionEntry G;
  G.Id = 0;
  G.Kind = RegionKind::Function;
  G.Function = "gemm";
  B.add(G);
  llvm::SmallVector<char> Section;
  uint32_t SlotsA = A.writeBlob(Section);
  // 32-byte header, two 40-byte rows, "conv\0model.mlir\0" (16 bytes), then
  // two 16-byte slots.
  EXPECT_EQ(SlotsA, 32u + 80u + 16u);
  size_t FirstSize = Section.size();
  EXPECT_EQ(FirstSize, SlotsA + 2 * RegionSlotSize);
  EXPECT_TRUE(llvm::all_of(llvm::ArrayRef(Section).drop_front(SlotsA),
                           [](char C) { return C == 0; }));
  Section.append(16, '\0'); // linker padding between input sections
  uint32_t SlotsB = B.writeBlob(Section);
  EXPECT_EQ(SlotsB % RegionSlotAlign, 0u);

  auto Blobs = InstrumentationMap::readBlobs(
      llvm::StringRef(Section.data(), Section.size()));
  ASSERT_TRUE(static_cast<bool>(Blobs)) << llvm::toString(Blobs.takeError());
  ASSERT_EQ(Blobs->size(), 2u);
  EXPECT_EQ((*Blobs)[0].Offset, 0u);
  EXPECT_EQ((*Blobs)[0].SlotsOffset, SlotsA);
  EXPECT_EQ((*Blobs)[1].Offset, FirstSize + 16);
  EXPECT_EQ((*Blobs)[1].Entries[0].Function, "gemm");
  EXPECT_EQ((*Blobs)[0].Entries[1].ParentId, 0u); // local IDs in a blob

  // Without a dump, the blobs' regions are numbered 1, 2, ... in order.
  auto Map = InstrumentationMap::readSection(
      llvm::StringRef(Section.data(), Section.size()));
  ASSERT_TRUE(static_cast<bool>(Map)) << llvm::toString(Map.takeError());
  ASSERT_EQ(Map->size(), 3u);
  const RegionEntry *L = Map->lookup(2);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Depth, 0u);
  EXPECT_EQ(L->Height, 2u);
  EXPECT_EQ(L->ParentId, 1u);
  EXPECT_EQ(L->Loc.str(), "model.mlir:7:5");
  EXPECT_FALSE(Map->lookup(1)->ParentId.has_value());
  EXPECT_EQ(Map->lookup(3)->Function, "gemm");
  EXPECT_FALSE(Map->lookup(3)->Loc.isKnown());
}

TEST(InstrumentationMapTest, BadBlobs) {
  llvm::SmallVector<char> Blob;
  sampleMap(0).writeBlob(Blob);
  llvm::StringRef Bytes(Blob.data(), Blob.size());
  EXPECT_THAT(
      test::errorOf(InstrumentationMap::readSection(Bytes.drop_back(8))),
      testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(test::errorOf(InstrumentationMap::readSection("ELF\x7f-garbage")),
              testing::HasSubstr("not an LWP map"));
  auto patched = [&](size_t Offset, uint32_t Value) {
    llvm::SmallVector<char> Copy(Blob);
    llvm::support::endian::write32le(Copy.data() + Offset, Value);
    return test::errorOf(InstrumentationMap::readSection(
        llvm::StringRef(Copy.data(), Copy.size())));
  };
  // A string table that starts inside the header or the entries (the
  // subtraction of a 32-bit reader would wrap), slots past the end or not
  // 16-aligned.
  EXPECT_THAT(patched(20, 8), testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(patched(20, 100), testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(patched(24, 136), testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(patched(24, 120), testing::HasSubstr("truncated or corrupt"));
  // A version 2 entry whose ID is not its index, a parent out of range.
  EXPECT_THAT(patched(32, 3), testing::HasSubstr("region 0 of blob 0 is "
                                                 "corrupt"));
  EXPECT_THAT(patched(32 + 40 + 16, 7),
              testing::HasSubstr("region 1 of blob 0 is corrupt"));
  EXPECT_THAT(patched(8, 9), testing::HasSubstr("version 9"));
  // Version 1 blobs carry program-wide IDs: two modules with one ID clash.
  llvm::SmallVector<char> V1(Blob);
  llvm::support::endian::write32le(V1.data() + 8, 1);
  llvm::SmallVector<char> Twice(V1);
  Twice.append(V1.begin(), V1.end());
  EXPECT_THAT(test::errorOf(InstrumentationMap::readSection(
                  llvm::StringRef(Twice.data(), Twice.size()))),
              testing::HasSubstr("region ID 0 is used by two modules"));
  // An empty section is an empty map.
  auto Empty = InstrumentationMap::readSection("");
  ASSERT_TRUE(static_cast<bool>(Empty));
  EXPECT_TRUE(Empty->empty());
}

} // namespace
