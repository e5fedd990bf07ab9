//===- fuzz-tvm.cpp - libFuzzer target of the TVM lwp.json import ---------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to lwp::importTVMJSON as a TVM lwp.json. A file that
// imports is joined with a small fixed binary (FuzzSupport.h) through the
// inferred map, at two load addresses, and reported in every format.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "lwp/Report/TVM.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<lwp::Dump> D = lwp::importTVMJSON(Text, "fuzz.json");
  if (!D) {
    llvm::consumeError(D.takeError());
    return 0;
  }
  auto Binary = std::make_shared<lwp::ProfiledBinary>(lwp::fuzz::smallBinary());
  for (uint64_t LoadAddress : {uint64_t(0), uint64_t(0x1000)}) {
    lwp::InstrumentationMap Map = lwp::inferTVMMap(*D, *Binary, LoadAddress);
    lwp::Program Prog =
        lwp::Program::fromMap(std::move(Map), Binary, LoadAddress);
    lwp::fuzz::reportEverything(*D, Prog);
  }
  return 0;
}
