//===- LWPLLVMPlugin.cpp - opt / clang pass plugin ------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Loaded by stock opt and clang (docs/llvm-plugin.md):
//   opt -load-pass-plugin=LWPLLVMPlugin.so -passes=lwp-instrument \
//       -stats-level=70 -max-loop-depth=1 in.ll
//   clang -O2 -fpass-plugin=LWPLLVMPlugin.so -mllvm -stats-level=70 in.c
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/LLVMInstrument.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/Compiler.h"

/// Pass plugin entry point (llvm/Plugins/PassPlugin.h).
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "LWP", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &PB) { lwp::registerLWPInstrumentPass(PB); }};
}
