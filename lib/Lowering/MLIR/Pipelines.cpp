//===- Pipelines.cpp - LWP's named MLIR pass pipelines --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Lowering/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct ToLLVMOptions : public PassPipelineOptions<ToLLVMOptions> {
  Option<std::string> Target{
      *this, "target",
      llvm::cl::desc("hexagon, x86_64 or aarch64 (default: from "
                     "llvm.target_triple)"),
      llvm::cl::init("")};
};

/// Appends the textual pipeline \p Text to \p PM; false (with the parser's
/// message on stderr) when a pass in it is not registered.
bool append(OpPassManager &PM, StringRef Text) {
  return succeeded(parsePassPipeline(Text, PM, llvm::errs()));
}
} // namespace

void lwp::registerLWPPipelines() {
  PassPipelineRegistration<>(
      "lwp-linalg-to-loops",
      "Bufferize linalg on tensors (function boundaries, identity layouts) "
      "and lower it to scf loops",
      [](OpPassManager &PM) {
        append(PM, "one-shot-bufferize{bufferize-function-boundaries "
                   "function-boundary-type-conversion=identity-layout-map},"
                   "convert-linalg-to-loops,canonicalize");
      });
  PassPipelineRegistration<ToLLVMOptions>(
      "lwp-to-llvm",
      "Lower lwp probes for a target and everything else to the LLVM dialect",
      [](OpPassManager &PM, const ToLLVMOptions &Options) {
        std::string Lower = "convert-lwp-to-llvm";
        if (!Options.Target.empty())
          Lower += "{target=" + Options.Target + "}";
        append(PM, Lower + ",expand-strided-metadata,lower-affine,"
                           "convert-scf-to-cf,convert-to-llvm,"
                           "reconcile-unrealized-casts");
      });
}
