//===- fuzz-tvm.cpp - libFuzzer target of the TVM lwp.json import ---------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to lwp::analyzeTVMJSON as a TVM lwp.json, with a
// small fixed binary (FuzzSupport.h) at two load addresses. A file that
// imports is reported in every format through the inferred map (which reads
// its records, streamed from the text, again).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "lwp/Report/TVM.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Binary = std::make_shared<lwp::ProfiledBinary>(lwp::fuzz::smallBinary());
  for (uint64_t LoadAddress : {uint64_t(0), uint64_t(0x1000)}) {
    lwp::ProfileOptions Options;
    Options.OverheadCorrection = false;
    llvm::Expected<lwp::TVMReport> R =
        lwp::analyzeTVMJSON(Text, "fuzz.json", *Binary, LoadAddress, Options);
    if (!R) {
      llvm::consumeError(R.takeError());
      return 0;
    }
    lwp::Program Prog =
        lwp::Program::fromMap(std::move(R->Map), Binary, LoadAddress);
    lwp::rebindTVMProfile(R->P, Prog.map());
    lwp::fuzz::reportEverything(R->D, Prog);
  }
  return 0;
}
