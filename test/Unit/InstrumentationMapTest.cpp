//===- InstrumentationMapTest.cpp - Map JSON and table --------------------===//

#include "lwp/Instrument/InstrumentationMap.h"

#include "SampleTrees.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"

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
  EXPECT_THAT(Text, testing::StartsWith("{\"version\":2,\"regions\":[{\"id\":4,"
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
                  R"({"version": 3, "regions": []})")),
              testing::HasSubstr("version 3 is not supported"));
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
  // 32-byte header, two 48-byte rows, "conv\0model.mlir\0\0" (17 bytes, the
  // last the empty operator fields), padding to 16, then two 64-byte slots.
  EXPECT_EQ(SlotsA, 32u + 96u + 32u);
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

/// \p Blob (one version 3 blob) rewritten as version 1 (40-byte entries, no
/// slots) or 2 (40-byte entries and slots), as older LWPs wrote them.
llvm::SmallVector<char> downgrade(llvm::ArrayRef<char> Blob, uint32_t Version) {
  using namespace llvm::support::endian;
  uint32_t Count = read32le(Blob.data() + 16);
  uint32_t Strings = read32le(Blob.data() + 20);
  uint32_t Slots = read32le(Blob.data() + 24);
  llvm::SmallVector<char> Out(Blob.begin(), Blob.begin() + 32);
  for (uint32_t I = 0; I != Count; ++I) {
    const char *E = Blob.data() + 32 + 48 * I;
    Out.append(E, E + 40);
    Out[Out.size() - 35] &= 3; // no operator flag in version 2
  }
  uint32_t NewStrings = Out.size();
  Out.append(Blob.begin() + Strings, Blob.begin() + Slots);
  while (Out.size() % 16)
    Out.push_back(0);
  uint32_t NewSlots = Out.size();
  if (Version == 2)
    Out.append(size_t(Count) * RegionSlotSize, '\0');
  write32le(Out.data() + 8, Version);
  write32le(Out.data() + 12, Out.size());
  write32le(Out.data() + 20, NewStrings);
  write32le(Out.data() + 24, Version == 2 ? NewSlots : 0);
  return Out;
}

TEST(InstrumentationMapTest, OperatorFields) {
  InstrumentationMap M;
  RegionEntry Op;
  Op.Id = 0;
  Op.Kind = RegionKind::Operator;
  Op.Function = "model";
  Op.Operator = "linalg.matmul";
  Op.OperatorName = "dense";
  Op.Operators = {"linalg.matmul \"dense\"", "linalg.fill"};
  M.add(Op);
  RegionEntry L;
  L.Id = 1;
  L.Kind = RegionKind::Loop;
  L.Function = "model";
  L.Depth = 0;
  L.Height = 1;
  L.ParentId = 0;
  L.Operator = "linalg.matmul";
  L.Operators = {"linalg.matmul"};
  M.add(L);
  EXPECT_EQ(operatorLabel(Op), "linalg.matmul \"dense\"");
  EXPECT_EQ(describeOperators(Op), "linalg.matmul \"dense\" + linalg.fill");
  EXPECT_EQ(describeOperators(RegionEntry()), "-");

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  M.writeJSON(OS, 0);
  EXPECT_THAT(
      Text, testing::HasSubstr("\"kind\":\"operator\",\"function\":\"model\""));
  EXPECT_THAT(Text, testing::HasSubstr(
                        "\"operator\":\"linalg.matmul\",\"operator_name\":"
                        "\"dense\",\"operators\":[\"linalg.matmul "
                        "\\\"dense\\\"\",\"linalg.fill\"]"));
  auto Back = InstrumentationMap::fromJSON(Text);
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->lookup(0)->Kind, RegionKind::Operator);
  EXPECT_EQ(Back->lookup(0)->OperatorName, "dense");
  EXPECT_EQ(Back->lookup(0)->Operators.size(), 2u);
  EXPECT_EQ(Back->lookup(1)->Operator, "linalg.matmul");
  EXPECT_TRUE(Back->lookup(1)->OperatorName.empty());

  llvm::SmallVector<char> Blob;
  M.writeBlob(Blob);
  auto Section = InstrumentationMap::readSection(
      llvm::StringRef(Blob.data(), Blob.size()));
  ASSERT_TRUE(static_cast<bool>(Section))
      << llvm::toString(Section.takeError());
  const RegionEntry *R = Section->lookup(1); // numbered from 1
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Kind, RegionKind::Operator);
  EXPECT_EQ(R->Operator, "linalg.matmul");
  EXPECT_EQ(R->OperatorName, "dense");
  EXPECT_EQ(R->Operators, (std::vector<std::string>{"linalg.matmul \"dense\"",
                                                    "linalg.fill"}));
  EXPECT_EQ(Section->lookup(2)->Operator, "linalg.matmul");

  // A version 1 JSON map has no operator fields, and no operator kind.
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(
                  R"({"version": 1, "regions": [
        {"id": 0, "kind": "operator", "function": "f", "depth": null,
         "height": null, "parent": null, "file": "", "line": 0,
         "column": 0}]})")),
              testing::HasSubstr("neither 'function' nor 'loop'"));
}

TEST(InstrumentationMapTest, OlderBlobs) {
  // Blobs of version 2 (slots, 40-byte entries) still read.
  llvm::SmallVector<char> Blob;
  sampleMap(0).writeBlob(Blob);
  llvm::SmallVector<char> V2 = downgrade(Blob, 2);
  auto Blobs =
      InstrumentationMap::readBlobs(llvm::StringRef(V2.data(), V2.size()));
  ASSERT_TRUE(static_cast<bool>(Blobs)) << llvm::toString(Blobs.takeError());
  ASSERT_EQ(Blobs->size(), 1u);
  EXPECT_EQ((*Blobs)[0].Version, 2u);
  EXPECT_EQ((*Blobs)[0].Entries[1].Loc.str(), "model.mlir:7:5");
  EXPECT_EQ((*Blobs)[0].Entries[1].ParentId, 0u);
  EXPECT_TRUE((*Blobs)[0].Entries[1].Operator.empty());
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
  EXPECT_THAT(patched(32 + 48 + 16, 7),
              testing::HasSubstr("region 1 of blob 0 is corrupt"));
  EXPECT_THAT(patched(8, 9), testing::HasSubstr("version 9"));
  // An operator string out of range (version 3).
  EXPECT_THAT(patched(32 + 36, 5000),
              testing::HasSubstr("region 0 of blob 0 is corrupt"));
  // Version 1 blobs carry program-wide IDs: two modules with one ID clash.
  llvm::SmallVector<char> V1 = downgrade(Blob, 1);
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

TEST(InstrumentationMapTest, SmallFunctionsSummary) {
  // No threshold: version 3, word 28 zero, no summary.
  llvm::SmallVector<char> V3;
  InstrumentationMap A = sampleMap(0);
  A.writeBlob(V3);
  EXPECT_EQ(llvm::support::endian::read32le(V3.data() + 8), 3u);
  EXPECT_EQ(llvm::support::endian::read32le(V3.data() + 28), 0u);

  // A threshold: version 4, the 8-byte summary right after the 2 entries,
  // the strings 8 bytes later.
  A.setSmallFunctions(50, 7);
  llvm::SmallVector<char> Section;
  A.writeBlob(Section);
  EXPECT_EQ(llvm::support::endian::read32le(Section.data() + 8), 4u);
  EXPECT_EQ(llvm::support::endian::read32le(Section.data() + 28), 32u + 96u);
  EXPECT_EQ(llvm::support::endian::read32le(Section.data() + 20),
            32u + 96u + 8u);
  EXPECT_EQ(llvm::support::endian::read32le(Section.data() + 128), 7u);
  EXPECT_EQ(llvm::support::endian::read32le(Section.data() + 132), 50u);
  // A module without regions keeps its summary; two blobs add up, with the
  // larger threshold.
  InstrumentationMap None;
  None.setSmallFunctions(20, 3);
  None.writeBlob(Section);
  auto Map = InstrumentationMap::readSection(
      llvm::StringRef(Section.data(), Section.size()));
  ASSERT_TRUE(static_cast<bool>(Map)) << llvm::toString(Map.takeError());
  EXPECT_EQ(Map->size(), 2u);
  EXPECT_EQ(Map->smallFunctions(), 10u);
  EXPECT_EQ(Map->instructionThreshold(), 50u);
  EXPECT_EQ(Map->smallFunctionsNote(),
            "10 small functions not instrumented (below "
            "-lwp-instruction-threshold=50)");
  std::string Table;
  llvm::raw_string_ostream OS(Table);
  Map->printTable(OS);
  EXPECT_THAT(Table, testing::EndsWith("10 small functions not instrumented "
                                       "(below -lwp-instruction-threshold=50)"
                                       "\n"));

  // JSON: the two keys after the regions, read back; absent means 0.
  std::string JSON;
  llvm::raw_string_ostream JS(JSON);
  A.writeJSON(JS, 0);
  EXPECT_THAT(JSON,
              testing::EndsWith(
                  "],\"instruction_threshold\":50,\"small_functions\":7}"));
  auto Back = InstrumentationMap::fromJSON(JSON);
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->smallFunctions(), 7u);
  EXPECT_EQ(Back->instructionThreshold(), 50u);
  EXPECT_THAT(
      test::errorOf(InstrumentationMap::fromJSON(
          "{\"version\": 2, \"regions\": [], \"small_functions\": -1}")),
      testing::HasSubstr("'small_functions' is not an unsigned"));

  // A summary that overlaps the entries or runs into the strings.
  auto patched = [&](size_t Offset, uint32_t Value) {
    llvm::SmallVector<char> Copy(Section);
    llvm::support::endian::write32le(Copy.data() + Offset, Value);
    return test::errorOf(InstrumentationMap::readSection(
        llvm::StringRef(Copy.data(), Copy.size())));
  };
  EXPECT_THAT(patched(28, 40), testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(patched(28, 132), testing::HasSubstr("truncated or corrupt"));
  EXPECT_THAT(patched(28, 130), testing::HasSubstr("truncated or corrupt"));
}

TEST(InstrumentationMapTest, WorkFigures) {
  // An operator region with all three figures, a loop with flops only (the
  // map allows it anywhere), the function without.
  InstrumentationMap Sample = sampleMap(0), A;
  for (RegionEntry E : Sample.entries()) {
    if (E.Kind == RegionKind::Loop)
      E.Flops = 7;
    A.add(E);
  }
  RegionEntry Op;
  Op.Id = 2;
  Op.Kind = RegionKind::Operator;
  Op.Function = "conv";
  Op.ParentId = 0;
  Op.Operator = "onnx.Conv";
  Op.Flops = 1000;
  Op.BytesRead = 400;
  Op.BytesWritten = int64_t(1) << 40;
  A.add(Op);

  // JSON: the keys after "operators", only where known; read back.
  std::string JSON;
  llvm::raw_string_ostream JS(JSON);
  A.writeJSON(JS, 0);
  EXPECT_THAT(JSON, testing::HasSubstr(
                        "\"operators\":[],\"flops\":1000,\"bytes_read\":400,"
                        "\"bytes_written\":1099511627776}"));
  EXPECT_THAT(JSON, testing::HasSubstr("\"operators\":[],\"flops\":7}"));
  auto Back = InstrumentationMap::fromJSON(JSON);
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->lookup(0)->Flops, -1);
  EXPECT_FALSE(Back->lookup(0)->hasWork());
  EXPECT_EQ(Back->lookup(1)->Flops, 7);
  EXPECT_EQ(Back->lookup(1)->BytesRead, -1);
  EXPECT_EQ(Back->lookup(2)->BytesWritten, int64_t(1) << 40);
  EXPECT_THAT(test::errorOf(InstrumentationMap::fromJSON(
                  "{\"version\": 2, \"regions\": [{\"id\": 0, \"kind\": "
                  "\"function\", \"function\": \"f\", \"depth\": null, "
                  "\"height\": null, \"parent\": null, \"file\": \"\", "
                  "\"line\": 0, \"column\": 0, \"operator\": null, "
                  "\"operator_name\": null, \"operators\": [], \"flops\": "
                  "-1}]}")),
              testing::HasSubstr("field 'flops' is not a non-negative"));

  // The blob: version 4, the summary (zeros: no threshold) after the 3
  // entries, then the work table (2 records of 32 bytes), then the strings.
  llvm::SmallVector<char> Blob;
  A.writeBlob(Blob);
  using llvm::support::endian::read32le;
  using llvm::support::endian::read64le;
  const char *B = Blob.data();
  size_t Summary = 32 + 3 * 48;
  EXPECT_EQ(read32le(B + 8), 4u);
  EXPECT_EQ(read32le(B + 28), Summary);
  EXPECT_EQ(read32le(B + 20), Summary + 8 + 8 + 2 * 32);
  EXPECT_EQ(read32le(B + Summary + 8), 2u);
  EXPECT_EQ(read32le(B + Summary + 16), 1u); // the loop: flops
  EXPECT_EQ(read32le(B + Summary + 20), 1u);
  EXPECT_EQ(read64le(B + Summary + 24), 7u);
  EXPECT_EQ(read32le(B + Summary + 48), 2u); // the operator: all three
  EXPECT_EQ(read32le(B + Summary + 52), 7u);
  EXPECT_EQ(read64le(B + Summary + 72), uint64_t(1) << 40);
  auto Map = InstrumentationMap::readSection(
      llvm::StringRef(Blob.data(), Blob.size()));
  ASSERT_TRUE(static_cast<bool>(Map)) << llvm::toString(Map.takeError());
  EXPECT_EQ(Map->instructionThreshold(), 0u);
  EXPECT_EQ(Map->lookup(1)->Flops, -1); // IDs from 1: the function
  EXPECT_EQ(Map->lookup(2)->Flops, 7);
  EXPECT_EQ(Map->lookup(2)->BytesWritten, -1);
  EXPECT_EQ(Map->lookup(3)->Flops, 1000);
  EXPECT_EQ(Map->lookup(3)->BytesRead, 400);
  EXPECT_EQ(Map->lookup(3)->BytesWritten, int64_t(1) << 40);

  // The table gets the work columns before the location.
  std::string Table;
  llvm::raw_string_ostream OS(Table);
  Map->printTable(OS);
  EXPECT_THAT(Table, testing::StartsWith(
                         "ID  kind      function  depth  height  parent  flops"
                         "  bytes read  bytes written  location        "
                         "operator\n"));
  EXPECT_THAT(Table, testing::HasSubstr(
                         " 3  operator  conv          -       -       1   1000"
                         "         400  1099511627776  -               "
                         "onnx.Conv\n"));

  // A threshold and work: the summary keeps the threshold's figures.
  A.setSmallFunctions(50, 7);
  llvm::SmallVector<char> Both;
  A.writeBlob(Both);
  auto BothMap = InstrumentationMap::readSection(
      llvm::StringRef(Both.data(), Both.size()));
  ASSERT_TRUE(static_cast<bool>(BothMap))
      << llvm::toString(BothMap.takeError());
  EXPECT_EQ(BothMap->smallFunctions(), 7u);
  EXPECT_EQ(BothMap->lookup(3)->Flops, 1000);

  // A corrupt work table: a count that does not fill it, a record naming
  // no region, one region twice, no figure, a figure above INT64_MAX.
  auto patched = [&](size_t Offset, uint64_t Value, bool Wide) {
    llvm::SmallVector<char> Copy(Blob);
    if (Wide)
      llvm::support::endian::write64le(Copy.data() + Offset, Value);
    else
      llvm::support::endian::write32le(Copy.data() + Offset, Value);
    return test::errorOf(InstrumentationMap::readSection(
        llvm::StringRef(Copy.data(), Copy.size())));
  };
  EXPECT_THAT(patched(Summary + 8, 1, false),
              testing::HasSubstr("the work table of blob 0 is corrupt"));
  EXPECT_THAT(patched(Summary + 12, 1, false),
              testing::HasSubstr("the work table of blob 0 is corrupt"));
  EXPECT_THAT(patched(Summary + 16, 3, false),
              testing::HasSubstr("work record 0 of blob 0 is corrupt"));
  EXPECT_THAT(patched(Summary + 48, 1, false),
              testing::HasSubstr("work record 1 of blob 0 is corrupt"));
  EXPECT_THAT(patched(Summary + 20, 0, false),
              testing::HasSubstr("work record 0 of blob 0 is corrupt"));
  EXPECT_THAT(patched(Summary + 20, 9, false),
              testing::HasSubstr("work record 0 of blob 0 is corrupt"));
  EXPECT_THAT(patched(Summary + 24, uint64_t(1) << 63, true),
              testing::HasSubstr("work record 0 of blob 0 is corrupt"));
}

} // namespace
