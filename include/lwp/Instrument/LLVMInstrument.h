//===- LLVMInstrument.h - lwp-instrument for LLVM IR ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The new pass manager's module pass `lwp-instrument`: it selects regions
// (function bodies and natural loops) with lwp::SelectionPolicy, wraps each in
// a pair of probe calls and records the instrumentation map in the module.
// The probe form is specified in docs/probe-form.md, the plugin that runs the
// pass from opt and clang in docs/llvm-plugin.md.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_INSTRUMENT_LLVMINSTRUMENT_H
#define LWP_INSTRUMENT_LLVMINSTRUMENT_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Instrument/ProbeNames.h"
#include "lwp/Instrument/SelectionPolicy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
class PassBuilder;
} // namespace llvm

namespace lwp {

/// Start probe: `declare void @__lwp_probe_start(i32 <id>)`. The ID is the
/// region's map ID (0..MaxRegionId).
constexpr llvm::StringLiteral ProbeStartName = ProbeStartHandler;
/// End probe: `declare void @__lwp_probe_end(i32 <id>)`.
constexpr llvm::StringLiteral ProbeEndName = ProbeEndHandler;
/// Resume probe: `declare void @__lwp_probe_resume(i32 <id>)`, right after
/// each call of a returns_twice function (setjmp; not vfork) and at the first
/// insertion point of each landing pad, in every function of a module that
/// has regions. The ID is that of the innermost region of the function that
/// encloses the point, or ResumeOutsideRegions.
constexpr llvm::StringLiteral ProbeResumeName = ProbeResumeHandler;
/// The ID of a resume probe that no region of its function encloses; the
/// lowerings pass a null slot for it.
constexpr uint32_t ResumeOutsideRegions = 0xffffffffu;
/// Named metadata that holds the instrumentation map of an instrumented
/// module: one operand per instrumented module (more after llvm-link), each
/// `!{i32 <InstrumentationMapVersion>, !"<map JSON>"}` where the JSON is
/// InstrumentationMap::toJSON() (docs/instrumentation-map.md).
constexpr llvm::StringLiteral MapMetadataName = "lwp.instrumentation_map";

/// The pass's settings: the selection flags and the map file.
struct LLVMInstrumentOptions {
  /// Which regions get probes (-stats-level, -max-loop-depth, -lwp-*).
  SelectionOptions Selection;
  /// -lwp-map-file: write the map's JSON here ("-" for stdout); empty for
  /// no file.
  std::string MapFile;
  /// Leave an already instrumented module alone instead of failing. Set for
  /// the instance the default pipelines run, so that an explicit
  /// `-passes=lwp-instrument,default<O2>` instruments once.
  bool SkipIfInstrumented = false;
  /// -lwp-keep-tail-calls: a function region ends before a call in tail
  /// position (a `tail call` right before `ret`), which then stays a tail
  /// call; the callee's cycles count for the caller's caller, as with XRay's
  /// tail exits. False: the region ends after the call, which becomes an
  /// ordinary call.
  bool KeepTailCalls = true;
};

/// The settings given on the command line (cl::opt, read when called):
/// -stats-level (default 0: the pass changes nothing), -max-loop-depth,
/// -lwp-min-loop-height, -lwp-instrument-siblings, -lwp-no-function-regions,
/// -lwp-function-filter, -lwp-instruction-threshold, -lwp-keep-tail-calls
/// and -lwp-map-file. Not validated here: the pass validates them with
/// SelectionPolicy::create.
LLVMInstrumentOptions getLLVMInstrumentOptionsFromCommandLine();

/// The module pass `lwp-instrument`. For each defined function, in module
/// order: plans its regions, gives loops that get probes a preheader and
/// dedicated exit blocks, puts a start probe at the end of the preheader and
/// an end probe at the start of every exit block; a function region starts
/// after the entry block's allocas and ends before every `ret` and `resume`
/// (before the call, for a call in tail position: KeepTailCalls).
/// Irreducible cycles are not instrumented (a missed remark counts them).
///
/// Errors, reported with LLVMContext::emitError (one line, "lwp-instrument:
/// ..."; opt and clang then exit non-zero), the module left unchanged:
/// invalid options, a module that already carries the map or probes (unless
/// SkipIfInstrumented), a probe function of another type, region IDs above
/// MaxRegionId. A map file that cannot be written is reported after the
/// module was instrumented. Skipped functions (declarations, __lwp_*,
/// available_externally, naked, unsplit coroutines, funclet EH) get no IDs.
class LWPInstrumentPass : public llvm::PassInfoMixin<LWPInstrumentPass> {
public:
  /// A pass with the command-line settings, read when the pass is built.
  LWPInstrumentPass();
  /// A pass with explicit settings.
  explicit LWPInstrumentPass(LLVMInstrumentOptions Options);

  /// Instruments \p M. Preserves all analyses when it changes nothing (stats
  /// level < 40 or an error), none otherwise.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

  /// Runs at -O0 and on optnone functions too.
  static bool isRequired() { return true; }

private:
  LLVMInstrumentOptions Options;
};

/// True when \p M carries the instrumentation map metadata or uses a probe
/// function, i.e. lwp-instrument already ran on it.
bool isInstrumented(const llvm::Module &M);

/// Reads the instrumentation map stored in \p M: all operands of
/// !lwp.instrumentation_map merged into one map sorted by ID. An
/// uninstrumented module gives an empty map. Errors: a malformed operand, a
/// version other than InstrumentationMapVersion, invalid map JSON, a region
/// ID that two operands (source modules linked with llvm-link) both use.
llvm::Expected<InstrumentationMap>
readInstrumentationMap(const llvm::Module &M);

/// Reads each operand of !lwp.instrumentation_map as a map of its own, in
/// operand order (one per source module; lwp-lower accepts one, since IDs
/// are module-local). An uninstrumented module gives none. Errors: as
/// readInstrumentationMap, except that IDs are not compared across operands.
llvm::Expected<std::vector<InstrumentationMap>>
readInstrumentationMapOperands(const llvm::Module &M);

/// Registers `lwp-instrument` with \p PB: by name for `-passes=` pipelines,
/// and at the end of the default optimization pipelines (OptimizerLast, also
/// run at -O0; not in the post-link phase of LTO, so a module is instrumented
/// once, at compile time). The pipeline pass reads the command-line settings
/// when the pipeline is built and leaves already instrumented modules alone.
void registerLWPInstrumentPass(llvm::PassBuilder &PB);

} // namespace lwp

#endif // LWP_INSTRUMENT_LLVMINSTRUMENT_H
