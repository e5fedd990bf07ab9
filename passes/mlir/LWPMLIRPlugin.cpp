//===- LWPMLIRPlugin.cpp - mlir-opt dialect and pass plugin ---------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Loaded by stock mlir-opt:
//   mlir-opt --load-dialect-plugin=LWPMLIRPlugin.so \
//            --load-pass-plugin=LWPMLIRPlugin.so \
//            --lwp-instrument="stats-level=70 max-loop-depth=1" in.mlir
//
//===----------------------------------------------------------------------===//

#include "lwp/Dialect/LWPDialect.h"
#include "lwp/Frontend/Passes.h"
#include "lwp/Instrument/Passes.h"
#include "lwp/Lowering/Passes.h"
#include "lwp/Lowering/Pipelines.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

/// Dialect plugin entry point (mlir/Tools/Plugins/DialectPlugin.h).
extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {
      MLIR_PLUGIN_API_VERSION, "LWP", LLVM_VERSION_STRING,
      [](DialectRegistry *Registry) { Registry->insert<::lwp::LWPDialect>(); }};
}

/// Pass plugin entry point (mlir/Tools/Plugins/PassPlugin.h).
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "LWP", LLVM_VERSION_STRING, []() {
            ::lwp::registerLWPPasses();
            ::lwp::registerLWPFrontendPasses();
            ::lwp::registerLWPLoweringPasses();
            ::lwp::registerLWPPipelines();
          }};
}
