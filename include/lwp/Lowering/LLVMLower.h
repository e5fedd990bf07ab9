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
//   hexagon   call void asm sideeffect
//                 "{ r0 = ##$0; call __lwp_probe_start }",
//                 "i,~{r0},~{r14},~{r15},~{r16},~{r28},~{r31}"(ptr <slot>)
//             one packet, with the register contract of
//             llvm.hexagon.instrprof.custom (lwp::hexagonProbeAsm).
//   x86_64    notail call preserve_allcc void @__lwp_probe_start(ptr <slot>),
//   aarch64   the declaration hidden dso_local preserve_allcc nounwind
//             willreturn memory(argmem: read, inaccessiblemem: readwrite).
//
// <slot> is the address of the region's 64-byte slot in the module's map
// global (lwp/Runtime/MapFormat.h); a constructor registers the global with
// the runtime, which gives the slots their program-wide IDs.
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
/// A module that neither calls an unlowered probe function
/// (`__lwp_probe_start` / `__lwp_probe_end` declared void(i32)) nor carries
/// !lwp.instrumentation_map is left unchanged, whatever its triple (so a
/// lowered module, e.g. after an LTO link, is not lowered again). Otherwise:
///  - the map (one operand of !lwp.instrumentation_map, module-local IDs
///    0..N-1) becomes one blob with N slots (InstrumentationMap::writeBlob)
///    in an internal [S x i8] global `__lwp_map.<hash>` in the writable
///    section "lwp_map", align 16, listed in @llvm.compiler.used;
///  - every `call void @__lwp_probe_start(i32 <id>)` (and `_end`) becomes the
///    target's form above with the address of slot <id>; debug location and
///    `notail` are kept;
///  - `internal void @__lwp_module_ctor()` calls
///    `@__lwp_register_module(ptr <global>)`, from @llvm.global_ctors at
///    priority 1. The metadata is removed.
///
/// Errors, reported with LLVMContext::emitError (one line "lwp-lower: ...",
/// opt and clang exit 1), the module left unchanged: an invalid -lwp-target;
/// no target given and a triple other than hexagon, x86_64, aarch64 (both
/// name the supported targets); a probe function of another type than
/// void(i32); a use of a probe function other than as the callee of a
/// `call`; a probe ID that is not a constant or not in the map; a malformed
/// map operand; a map whose IDs are not 0..N-1; several map operands
/// (modules linked with llvm-link before they were lowered: lower each
/// module first).
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
