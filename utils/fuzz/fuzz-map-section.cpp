//===- fuzz-map-section.cpp - libFuzzer target of the map section ---------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the lwp_map section readers (readSection and
// readBlobs). A map that parses is written back as one blob and must read
// back with as many regions, and print as a table and as JSON.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/InstrumentationMap.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

/// Writes \p Parsed back as one module's blob, reads it back: same size.
static void roundTrip(const lwp::InstrumentationMap &Parsed) {
  // A blob holds one module: IDs 0..N-1 (parents renumbered alike).
  lwp::InstrumentationMap Map;
  for (const lwp::RegionEntry &E : Parsed.entries()) {
    lwp::RegionEntry Local = E;
    Local.Id = Map.size();
    Local.ParentId.reset();
    if (E.ParentId)
      if (const lwp::RegionEntry *P = Parsed.lookup(*E.ParentId))
        Local.ParentId = uint32_t(P - Parsed.entries().data());
    Map.add(std::move(Local));
  }
  llvm::SmallVector<char> Blob;
  Map.writeBlob(Blob);
  llvm::Expected<lwp::InstrumentationMap> Back =
      lwp::InstrumentationMap::readSection(
          llvm::StringRef(Blob.data(), Blob.size()));
  if (!Back || Back->size() != Map.size())
    abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<lwp::InstrumentationMap> Section =
      lwp::InstrumentationMap::readSection(Bytes);
  if (!Section) {
    llvm::consumeError(Section.takeError());
  } else {
    roundTrip(*Section);
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    Section->printTable(OS);
    Section->writeJSON(OS, 0);
  }
  llvm::Expected<std::vector<lwp::MapBlob>> Blobs =
      lwp::InstrumentationMap::readBlobs(Bytes);
  if (!Blobs)
    llvm::consumeError(Blobs.takeError());
  return 0;
}
