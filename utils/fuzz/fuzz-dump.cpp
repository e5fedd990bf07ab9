//===- fuzz-dump.cpp - libFuzzer target of the dump reader ----------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to lwp::Dump::parse (a version 3 dump also with its
// checksum made to match: FuzzSupport.h) and, when they parse, reads every
// record of every thread: no input may crash or read out of bounds.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<lwp::Dump> D = lwp::fuzz::parseFuzzDump(Bytes);
  if (!D) {
    llvm::consumeError(D.takeError());
    return 0;
  }
  uint64_t Sum = 0;
  for (const lwp::DumpThread &T : D->threads())
    llvm::cantFail(T.forEachRecord([&](const lwp::DumpRecord &R) {
      Sum += R.Cycles;
      return true;
    }));
  for (uint64_t C : D->counts())
    Sum += C;
  return Sum == 42 ? 0 : 0;
}
