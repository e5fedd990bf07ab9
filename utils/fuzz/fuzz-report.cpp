//===- fuzz-report.cpp - libFuzzer target of the whole report path --------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the dump reader (a version 3 dump also with its
// checksum made to match: FuzzSupport.h) as a dump of a program whose map
// is fixed and small (FuzzSupport.h, IDs 0..7, symbols of a small binary),
// then runs what lwp-report runs: the analysis with and without overhead
// correction, and every output format (table, tree, CSV, JSON, diff, Chrome
// trace, folded stacks).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<lwp::Dump> D = lwp::fuzz::parseFuzzDump(Bytes);
  if (!D) {
    llvm::consumeError(D.takeError());
    return 0;
  }
  static const auto Binary =
      std::make_shared<lwp::ProfiledBinary>(lwp::fuzz::smallBinary());
  // Sites as the small binary's addresses, and with a load bias.
  for (uint64_t Bias : {uint64_t(0), uint64_t(0x400000)}) {
    lwp::Program Prog =
        lwp::Program::fromMap(lwp::fuzz::smallMap(), Binary, Bias);
    lwp::fuzz::reportEverything(*D, Prog);
  }
  // A map file read with the dump (module-local IDs rebased).
  llvm::Expected<lwp::Program> FromFile = lwp::Program::fromMapFile(
      *D, lwp::fuzz::smallMap(), "fuzz.map", "fuzz.dump");
  if (!FromFile)
    llvm::consumeError(FromFile.takeError());
  else
    lwp::fuzz::reportEverything(*D, *FromFile);
  return 0;
}
