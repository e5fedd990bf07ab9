//===- fuzz-map-json.cpp - libFuzzer target of the map JSON reader --------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the map JSON reader of lwp-report
// (lwp::parseMapJSON: the nesting bound, then InstrumentationMap::fromJSON).
// A map that parses is written as JSON and must read back equal in size.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Report/Input.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<lwp::InstrumentationMap> Map = lwp::parseMapJSON(Bytes);
  if (!Map) {
    llvm::consumeError(Map.takeError());
    return 0;
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Map->writeJSON(OS, 0);
  llvm::Expected<lwp::InstrumentationMap> Back =
      lwp::InstrumentationMap::fromJSON(Text);
  if (!Back || Back->size() != Map->size())
    abort();
  Map->printTable(OS);
  return 0;
}
