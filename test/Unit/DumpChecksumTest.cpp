//===- DumpChecksumTest.cpp - The dump checksum (versions 3, 4) ----------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The checksum the runtimes' C writer streams (runtime/common/
// lwp_dump_writer.c) is the one the reader computes with llvm::xxHash64
// (lib/Report/Dump.cpp), whatever the pieces the bytes come in, across
// blocks, on one thread or several, in memory or from a file; a changed bit
// is an error.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Dump.h"
#include "lwp/Report/Input.h"
#include "lwp/Support/JSONDepth.h"

#include "lwp_dump_writer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <random>
#include <string>
#include <vector>

using namespace lwp;

namespace {

/// The reference: LWP_DUMP_CHECKSUM_BLOCK blocks through llvm::xxHash64.
uint64_t referenceChecksum(llvm::ArrayRef<uint8_t> Bytes) {
  std::vector<uint8_t> Hashes;
  for (size_t Pos = 0; Pos < Bytes.size(); Pos += LWP_DUMP_CHECKSUM_BLOCK) {
    uint8_t H[8];
    llvm::support::endian::write64le(
        H, llvm::xxHash64(
               Bytes.slice(Pos, std::min<size_t>(LWP_DUMP_CHECKSUM_BLOCK,
                                                 Bytes.size() - Pos))));
    Hashes.insert(Hashes.end(), H, H + 8);
  }
  return llvm::xxHash64(Hashes);
}

TEST(DumpChecksum, XXH64IsTheReference) {
  // The published XXH64 test vectors (seed 0).
  EXPECT_EQ(llvm::xxHash64(llvm::StringRef("")), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(llvm::xxHash64(llvm::StringRef("a")), 0xD24EC4F1A98C6E5Bull);
}

TEST(DumpChecksum, WriterMatchesReaderInAnyPieces) {
  std::mt19937_64 Rng(21);
  for (size_t Size : {size_t(1), size_t(31), size_t(32), size_t(33), size_t(80),
                      size_t(1000), size_t(1 << 20) - 1, size_t(1 << 20),
                      size_t(1 << 20) + 1, size_t(3 << 20) + 4093}) {
    std::vector<uint8_t> Bytes(Size);
    for (uint8_t &B : Bytes)
      B = uint8_t(Rng());
    uint64_t Expected = referenceChecksum(Bytes);
    for (size_t MaxPiece : {size_t(1), size_t(7), size_t(4096), Size}) {
      if (MaxPiece == 1 && Size > 100000)
        continue;
      struct lwp_dump_hasher H;
      lwp_dump_hasher_init(&H);
      for (size_t Pos = 0; Pos < Size;) {
        size_t N = std::min<size_t>(Size - Pos, 1 + Rng() % MaxPiece);
        lwp_dump_hasher_update(&H, Bytes.data() + Pos, N);
        Pos += N;
      }
      EXPECT_EQ(lwp_dump_hasher_final(&H), Expected)
          << Size << " bytes in pieces of at most " << MaxPiece;
    }
  }
}

int appendTo(void *Ctx, const void *Data, uint64_t Size) {
  static_cast<std::string *>(Ctx)->append(static_cast<const char *>(Data),
                                          Size);
  return 0;
}

/// A dump of one thread of \p NumRecords records (3 regions), written by the
/// runtimes' writer.
std::string writeDump(uint64_t NumRecords) {
  struct lwp_dump_region Regions[3] = {};
  Regions[1].count = NumRecords / 2;
  std::vector<struct lwp_record64> Records(NumRecords);
  for (uint64_t I = 0; I != NumRecords; ++I) {
    Records[I].site = 0x1000 + I % 7;
    Records[I].id_word = 1 | (I % 2 ? LWP_ID_END_BIT : 0);
    Records[I].depth = 1;
    Records[I].cycles = 100 + I;
  }
  // A calling-context tree of three nodes kept as a runtime keeps them, with
  // links after each dump node (written at their stride).
  struct Node {
    struct lwp_dump_node D;
    uint64_t Links;
  };
  static const Node Nodes[3] = {{{0, 0, 1, 900, 0, 0}, 7},
                                {{1, 0, 1, 900, 0, 0}, 7},
                                {{2, 1, 5, 300, LWP_NODE_FOLDED, 2}, 7}};
  struct lwp_thread_view Thread = {};
  Thread.thread_id = 42;
  Thread.records = Records.data();
  Thread.num_records = NumRecords;
  Thread.nodes = Nodes;
  Thread.num_nodes = 3;
  Thread.node_stride = sizeof(Node);
  struct lwp_dump_view View = {};
  View.header.target = LWP_TARGET_X86_64;
  View.header.counter = LWP_COUNTER_TSC;
  View.header.record_size = sizeof(struct lwp_record64);
  View.header.num_ids = 3;
  View.regions = Regions;
  View.threads = &Thread;
  View.num_threads = 1;
  std::string Out;
  EXPECT_EQ(lwp_write_dump(&View, appendTo, &Out), 0);
  return Out;
}

TEST(DumpChecksum, WrittenDumpsVerify) {
  // 2 records (one block), and 2 Mi records (48 MiB: 48 blocks, hashed on
  // up to three threads).
  for (uint64_t NumRecords : {uint64_t(2), uint64_t(2) << 20}) {
    std::string Bytes = writeDump(NumRecords);
    ASSERT_GT(Bytes.size(), 8u);
    uint64_t Recorded =
        llvm::support::endian::read64le(Bytes.data() + Bytes.size() - 8);
    EXPECT_EQ(Recorded, referenceChecksum(llvm::arrayRefFromStringRef(
                            llvm::StringRef(Bytes).drop_back(8))));
    for (unsigned Threads : {1u, 3u}) {
      llvm::Expected<Dump> D = Dump::parse(
          llvm::MemoryBuffer::getMemBufferCopy(Bytes, "mem"), Threads);
      ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
      EXPECT_EQ(D->version(), unsigned(LWP_DUMP_VERSION));
      EXPECT_EQ(D->checksum(), Recorded);
      EXPECT_EQ(D->threads()[0].size(), NumRecords);
      ASSERT_EQ(D->threads()[0].Nodes.size(), 3u);
      const DumpNode &Leaf = D->threads()[0].Nodes[2];
      EXPECT_EQ(Leaf.Id, 2u);
      EXPECT_EQ(Leaf.Parent, 1u);
      EXPECT_EQ(Leaf.Count, 5u);
      EXPECT_EQ(Leaf.Cycles, 300u);
      EXPECT_EQ(Leaf.Flags, unsigned(LWP_NODE_FOLDED));
      EXPECT_EQ(Leaf.Folded, 2u);
    }
    // The same from a file.
    llvm::SmallString<128> Path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("lwp-unit", "dump", Path));
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(Path, EC);
      ASSERT_FALSE(EC);
      OS << Bytes;
    }
    llvm::Expected<Dump> D = Dump::open(Path, 3);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    EXPECT_EQ(D->checksum(), Recorded);
    // A flipped bit in the last block, and in the first.
    for (size_t Byte : {Bytes.size() - 100, size_t(100)}) {
      std::string Bad = Bytes;
      Bad[Byte] ^= 4;
      llvm::Expected<Dump> B =
          Dump::parse(llvm::MemoryBuffer::getMemBufferCopy(Bad, "bad"), 3);
      ASSERT_FALSE(bool(B));
      EXPECT_NE(llvm::toString(B.takeError()).find("checksum mismatch"),
                std::string::npos);
    }
    llvm::sys::fs::remove(Path);
  }
}

TEST(JSONDepth, BoundsNestingOutsideStrings) {
  EXPECT_FALSE(
      bool(checkJSONDepth(std::string(64, '[') + std::string(64, ']'))));
  llvm::Error E = checkJSONDepth(std::string(65, '['));
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "JSON nested deeper than 64 levels at line 1, column 65");
  EXPECT_FALSE(bool(checkJSONDepth("\"" + std::string(100, '{') + "\\\"\"")));
  llvm::Error F = checkJSONDepth("{\"a\":\n [[[", 3);
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(llvm::toString(std::move(F)),
            "JSON nested deeper than 3 levels at line 2, column 4");
  // A string cut after its backslash: the escape must not step past the end
  // (found by lwp-fuzz-map-json; ASan reads one byte beyond the buffer).
  std::string Cut = "\"\\";
  EXPECT_FALSE(bool(checkJSONDepth(llvm::StringRef(Cut.data(), Cut.size()))));
}

} // namespace
