//===- LWPLLVMPlugin.cpp - opt / clang pass plugin ------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Loaded by stock opt and clang (docs/llvm-plugin.md):
//   opt -load-pass-plugin=LWPLLVMPlugin.so -passes=lwp-instrument \
//       -stats-level=70 -max-loop-depth=1 in.ll
//   opt -load-pass-plugin=LWPLLVMPlugin.so -passes=lwp-lower \
//       [-lwp-target=hexagon|x86_64|aarch64] instrumented.ll
//   clang -O2 -fpass-plugin=LWPLLVMPlugin.so -mllvm -stats-level=70 in.c
// In the default pipelines lwp-instrument and then lwp-lower run at the
// optimizer's end, so clang's output calls the handlers and holds the map.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/LLVMInstrument.h"
#include "lwp/Lowering/LLVMLower.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/Compiler.h"

/// Pass plugin entry point (llvm/Plugins/PassPlugin.h).
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "LWP", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &PB) {
            // In this order: OptimizerLast callbacks run in registration
            // order, and lwp-lower lowers what lwp-instrument wrote.
            lwp::registerLWPInstrumentPass(PB);
            lwp::registerLWPLowerPass(PB);
          }};
}
