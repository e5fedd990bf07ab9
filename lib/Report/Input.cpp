//===- Input.cpp - The report's input files -------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Input.h"
#include "lwp/Support/JSONDepth.h"

using namespace lwp;
using namespace llvm;

Expected<InstrumentationMap> lwp::parseMapJSON(StringRef Text) {
  if (Error E = checkJSONDepth(Text))
    return createStringError("instrumentation map: " + toString(std::move(E)));
  return InstrumentationMap::fromJSON(Text);
}

Expected<InstrumentationMap> lwp::readMapJSONFile(StringRef Path,
                                                  StringRef Role) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer =
      readInputFile(Path, Role, MaxMapJSONBytes);
  if (!Buffer)
    return Buffer.takeError();
  Expected<InstrumentationMap> Map = parseMapJSON((*Buffer)->getBuffer());
  if (!Map)
    return createStringError("map '" + Path +
                             "': " + toString(Map.takeError()));
  return Map;
}
