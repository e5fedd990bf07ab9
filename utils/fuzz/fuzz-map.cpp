//===- fuzz-map.cpp - libFuzzer target of the map readers -----------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to both readers of the instrumentation map: the
// lwp_map section reader (binary blobs) and the JSON reader. A map that
// parses is written back and must read back equal.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/InstrumentationMap.h"

#include "llvm/ADT/SmallVector.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

static void roundTrip(const lwp::InstrumentationMap &Parsed) {
  // A blob holds one module: IDs 0..N-1 (parents renumbered alike).
  lwp::InstrumentationMap Map;
  for (const lwp::RegionEntry &E : Parsed.entries()) {
    lwp::RegionEntry Local = E;
    Local.Id = Map.size();
    Local.ParentId.reset();
    if (E.ParentId)
      for (size_t I = 0; I != Parsed.size(); ++I)
        if (Parsed.entries()[I].Id == *E.ParentId)
          Local.ParentId = I;
    Map.add(std::move(Local));
  }
  llvm::SmallVector<char> Blob;
  Map.writeBlob(Blob);
  llvm::Expected<lwp::InstrumentationMap> Back =
      lwp::InstrumentationMap::readSection(
          llvm::StringRef(Blob.data(), Blob.size()));
  if (!Back || Back->size() != Map.size())
    abort();
  llvm::consumeError(Back.takeError());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<lwp::InstrumentationMap> Section =
      lwp::InstrumentationMap::readSection(Bytes);
  if (Section)
    roundTrip(*Section);
  else
    llvm::consumeError(Section.takeError());
  llvm::Expected<lwp::InstrumentationMap> JSON =
      lwp::InstrumentationMap::fromJSON(Bytes);
  if (JSON)
    roundTrip(*JSON);
  else
    llvm::consumeError(JSON.takeError());
  return 0;
}
