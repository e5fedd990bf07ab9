//===- fuzz-elf.cpp - libFuzzer target of the binary readers --------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to lwp::ProfiledBinary as an ELF image (symbols,
// build ID, lwp_map section). An image that reads is then joined by
// lwp::Program::load with dumps written for it (version 2: one module per
// blob, at the blob's address; version 1: the map's own IDs), with records
// at its functions, and reported in every format.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "llvm/Support/FileSystem.h"

#include <cstddef>
#include <cstdint>
#include <fstream>

using namespace lwp;

/// One thread of records: a start and an end of every ID in [First, Last] at
/// the functions' addresses (+ \p Bias).
static void addThread(fuzz::DumpBytes &Out, const ProfiledBinary &B,
                      uint32_t First, uint32_t Last, uint64_t Bias,
                      unsigned Version) {
  Out.put<uint64_t>(7);
  Out.put<uint64_t>(2 * uint64_t(Last - First + 1));
  if (Version >= 2)
    for (int I = 0; I != 4; ++I)
      Out.put<uint64_t>(0);
  uint64_t Cycles = 100;
  for (uint32_t Id = First; Id <= Last; ++Id) {
    uint64_t Site = Bias;
    if (!B.functions().empty())
      Site += B.functions()[Id % B.functions().size()].Address + 4;
    for (bool End : {false, true}) {
      Out.put<uint64_t>(Site + End);
      Out.put<uint32_t>(Id | (End ? LWP_ID_END_BIT : 0));
      Out.put<uint32_t>(1);
      Out.put<uint64_t>(Cycles += 50);
    }
  }
}

/// Joins the binary at \p Path with \p Dump and reports.
static void joinAndReport(std::string Bytes, const std::string &Path) {
  llvm::Expected<Dump> D =
      Dump::parse(llvm::MemoryBuffer::getMemBufferCopy(Bytes, "fuzz.dump"));
  if (!D)
    abort(); // the dumps written here are well formed
  ImageSearch Search;
  Search.Binaries.push_back(Path);
  llvm::Expected<Program> Prog = Program::load(*D, Search, "fuzz.dump");
  if (!Prog) {
    llvm::consumeError(Prog.takeError());
    return;
  }
  fuzz::reportEverything(*D, *Prog);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<ProfiledBinary> B = ProfiledBinary::parse(
      llvm::MemoryBufferRef(Bytes, "fuzz.elf"), "fuzz.elf");
  if (!B) {
    llvm::consumeError(B.takeError());
    return 0;
  }
  for (const FunctionSymbol &F : B->functions()) {
    B->symbolize(F.Address);
    B->symbolize(F.Address + F.Size - 1);
    B->symbolize(F.Address + F.Size);
  }
  {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    B->map().printTable(OS);
  }

  // Program::load reads binaries from files.
  static const std::string Path = [] {
    llvm::SmallString<128> P;
    if (llvm::sys::fs::createTemporaryFile("lwp-fuzz-elf", "elf", P))
      abort();
    std::atexit([] { llvm::sys::fs::remove(Path); });
    return std::string(P);
  }();
  {
    std::ofstream File(Path, std::ios::binary | std::ios::trunc);
    File.write(Bytes.data(), Bytes.size());
  }
  constexpr uint64_t Bias = 0x10000, MaxIds = 1 << 14;

  // Version 2: one module per version 2 blob.
  uint64_t NumIds = 1;
  std::vector<const MapBlob *> Blobs;
  for (const MapBlob &Blob : B->blobs())
    if (Blob.Version == 2 && NumIds + Blob.Entries.size() <= MaxIds) {
      Blobs.push_back(&Blob);
      NumIds += Blob.Entries.size();
    }
  {
    fuzz::DumpBytes Out;
    Out.header(2, uint32_t(NumIds), 1, 1, uint32_t(Blobs.size()));
    Out.image(Bias, B->buildId(), Path);
    uint32_t FirstId = 1;
    for (const MapBlob *Blob : Blobs) {
      Out.put<uint64_t>(B->mapAddress() + Blob->Offset);
      Out.put<uint32_t>(0);
      Out.put<uint32_t>(FirstId);
      Out.put<uint32_t>(uint32_t(Blob->Entries.size()));
      Out.put<uint32_t>(0);
      FirstId += Blob->Entries.size();
    }
    for (uint64_t Id = 0; Id != NumIds; ++Id) {
      Out.put<uint64_t>(Id ? 1 : 0);  // count
      Out.put<uint64_t>(Id ? 50 : 0); // total
      Out.put<uint64_t>(Id ? 50 : 0); // self
      for (int I = 0; I != 5; ++I)
        Out.put<uint64_t>(0);
    }
    if (NumIds > 1)
      addThread(Out, *B, 1, uint32_t(NumIds - 1), Bias, 2);
    else
      addThread(Out, *B, 1, 0, Bias, 2);
    joinAndReport(std::move(Out.Bytes), Path);
  }

  // Version 1: the map's own IDs, when they are few.
  const std::vector<RegionEntry> &Entries = B->map().entries();
  if (Entries.empty() || Entries.back().Id >= MaxIds)
    return 0;
  {
    fuzz::DumpBytes Out;
    uint32_t N = Entries.back().Id + 1;
    Out.header(1, N, 1, 1, 0);
    Out.image(Bias, B->buildId(), Path);
    for (uint32_t Id = 0; Id != N; ++Id)
      Out.put<uint64_t>(B->map().lookup(Id) ? 1 : 0);
    // Records of the map's IDs only.
    fuzz::DumpBytes Records;
    uint64_t NumRecords = 0, Cycles = 0;
    for (const RegionEntry &E : Entries)
      for (bool End : {false, true}) {
        Records.put<uint64_t>(Bias + 0x1000);
        Records.put<uint32_t>(E.Id | (End ? LWP_ID_END_BIT : 0));
        Records.put<uint32_t>(0);
        Records.put<uint64_t>(Cycles += 10);
        ++NumRecords;
      }
    Out.put<uint64_t>(7);
    Out.put<uint64_t>(NumRecords);
    Out.Bytes += Records.Bytes;
    joinAndReport(std::move(Out.Bytes), Path);
  }
  return 0;
}
