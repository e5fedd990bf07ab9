//===- LLVMLower.h - lwp-lower for LLVM IR ----------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The new pass manager's module pass `lwp-lower`: the LLVM IR twin of the MLIR
// pass convert-lwp-to-llvm (lib/Lowering/MLIR/ConvertLWPToLLVM.cpp), whose
// output it reproduces. It rewrites the target-independent probe calls that
// lwp-instrument wrote (docs/probe-form.md, "Probe calls") into the target's
// handler calls and turns the !lwp.instrumentation_map metadata into the
// lwp_map section (docs/probe-form.md, "Lowering"):
//
//   hexagon   call void @llvm.hexagon.instrprof.custom(
//                 ptr @"__lwp_handler_name.__lwp_probe_start", i32 <id>)
//             with @"__lwp_handler_name.<handler>" = internal constant
//             [N x i8] c"<handler>\00"; llc emits one packet
//             { call <handler>; r0 = #<id> }.
//   x86_64    notail call preserve_allcc void @__lwp_probe_start(i32 <id>),
//   aarch64   the declaration preserve_allcc nounwind willreturn
//             memory(inaccessiblemem: readwrite).
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LOWERING_LLVMLOWER_H
#define LWP_LOWERING_LLVMLOWER_H

#include "lwp/Lowering/ProbeTarget.h"

#include "llvm/IR/PassManager.h"

#include <optional>

namespace llvm {
class Module;
class PassBuilder;
} // namespace llvm

namespace lwp {

/// The pass's settings.
struct LLVMLowerOptions {
  /// The target; std::nullopt: from the module's target triple
  /// (lwp::probeTargetFromTriple).
  std::optional<ProbeTarget> Target;
};

/// The settings given on the command line (cl::opt, read when called):
/// `-lwp-target=hexagon|x86_64|aarch64` (default empty: from the triple;
/// "x86-64" is accepted too).
/// Error: an unknown target name (the message of lwp::parseProbeTarget, which
/// names the supported targets).
llvm::Expected<LLVMLowerOptions> getLLVMLowerOptionsFromCommandLine();

/// The module pass `lwp-lower`.
///
/// A module that neither calls a probe function (`__lwp_probe_start`,
/// `__lwp_probe_end`) nor carries !lwp.instrumentation_map is left unchanged,
/// whatever its triple. Otherwise:
///  - every `call void @__lwp_probe_start(i32 <id>)` (and `_end`) becomes the
///    target's form above; debug location and `notail` are kept. Probe
///    declarations left without uses (all of them on Hexagon) are erased.
///  - each operand of !lwp.instrumentation_map (one per source module, more
///    after llvm-link) becomes one blob (InstrumentationMap::writeBlob) in a
///    hidden, external, constant [N x i8] global `__lwp_map.<first ID>.<hash>`
///    in section "lwp_map", align 8, listed in @llvm.compiler.used (so that
///    LTO internalizes but keeps it); an operand without regions gives no
///    global. The metadata is removed.
///
/// Errors, reported with LLVMContext::emitError (one line "lwp-lower: ...",
/// opt and clang exit 1), the module left unchanged: an invalid -lwp-target;
/// no target given and a triple other than hexagon, x86_64, aarch64 (both
/// name the supported targets); a probe function of another type than
/// void(i32); a use of a probe function other than as the callee of a
/// `call`; a probe ID that is not a constant or is above MaxRegionId; a
/// malformed map operand; a region ID in two map operands (or in an operand
/// and an lwp_map global already in the module): link modules instrumented
/// with distinct -lwp-id-base values.
class LWPLowerPass : public llvm::PassInfoMixin<LWPLowerPass> {
public:
  /// A pass with the command-line settings, read when the pass runs (so that
  /// an invalid -lwp-target is reported as a pass error). \p InPipeline: the
  /// instance of the default pipelines, whose target errors add a hint at
  /// -lwp-no-lower.
  explicit LWPLowerPass(bool InPipeline = false);
  /// A pass with explicit settings.
  explicit LWPLowerPass(LLVMLowerOptions Options);

  /// Lowers \p M. Preserves all analyses when it changes nothing (nothing to
  /// lower, or an error), none otherwise.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

  /// Runs at -O0 and on optnone functions too.
  static bool isRequired() { return true; }

private:
  /// Explicit settings; std::nullopt: read the command line in run().
  std::optional<LLVMLowerOptions> Options;
  bool InPipeline = false;
};

/// Registers `lwp-lower` with \p PB: by name for `-passes=` pipelines, and at
/// the end of the default optimization pipelines (OptimizerLast, every level
/// including -O0 and every LTO phase) unless `-lwp-no-lower` is given (read
/// when the pipeline is built). Register it after
/// lwp::registerLWPInstrumentPass: OptimizerLast callbacks run in
/// registration order, so the pipeline lowers the probes that lwp-instrument
/// just wrote.
void registerLWPLowerPass(llvm::PassBuilder &PB);

} // namespace lwp

#endif // LWP_LOWERING_LLVMLOWER_H
