//===- SelectionPolicy.h - Which regions get probes, and their IDs -*- C++ -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The one selection policy of LWP, shared by the MLIR and the LLVM pass: from
// the user's flags (-stats-level, -max-loop-depth, -lwp-*) and a function's
// LoopTree it decides which regions carry probes, gives each a dense,
// deterministic ID and finds its parent region. The flags' meanings are those
// of the design brief and docs/user-guide.md.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_INSTRUMENT_SELECTIONPOLICY_H
#define LWP_INSTRUMENT_SELECTIONPOLICY_H

#include "lwp/Analysis/LoopTree.h"
#include "lwp/Instrument/InstrumentationMap.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lwp {

/// Stats levels at which region kinds switch on (additive).
namespace stats_level {
constexpr int FunctionRegions = 40; ///< >= 40: function regions
constexpr int LoopRegions = 70;     ///< >= 70: loops by depth/height options
constexpr int AllLoops = 100;       ///< >= 100: every loop, whatever its depth
} // namespace stats_level

/// The user's selection flags. Names in comments are the flag names shared by
/// the LLVM plugin, the MLIR pass options and lwp-opt.
struct SelectionOptions {
  /// -stats-level: < 40 nothing; >= 40 function regions; >= 70 loop regions
  /// by the loop options; >= 100 every loop with height >= min height.
  int StatsLevel = stats_level::LoopRegions;
  /// -max-loop-depth: deepest loop depth instrumented (0: outermost only).
  unsigned MaxLoopDepth = 0;
  /// -lwp-min-loop-height: skip loops whose height is below this.
  unsigned MinLoopHeight = 0;
  /// -lwp-instrument-siblings: also loops deeper than the max depth that have
  /// siblings (TVM's mode, without TVM's bugs).
  bool InstrumentSiblings = false;
  /// -lwp-no-function-regions: loops only.
  bool NoFunctionRegions = false;
  /// -lwp-function-filter: instrument only functions whose name matches this
  /// llvm::Regex (searched, not anchored); empty matches every function.
  std::string FunctionFilter;
  /// -lwp-instruction-threshold: skip the function region of a function with
  /// fewer IR instructions than this (LLVM: instructions of the function;
  /// MLIR: ops nested in its body) that holds no selected loop region; 0
  /// keeps every function region. After XRay's -fxray-instruction-threshold.
  unsigned InstructionThreshold = 0;
};

/// Why a region did not get probes (or Selected when it did). Used for
/// remarks; stringifySkipReason gives the text.
enum class SkipReason : uint8_t {
  Selected,
  StatsLevel,        ///< the stats level does not reach this region kind
  FunctionFilter,    ///< the function does not match -lwp-function-filter
  NoFunctionRegions, ///< -lwp-no-function-regions
  TooDeep,           ///< depth > -max-loop-depth (and no sibling rule)
  TooLow,            ///< height < -lwp-min-loop-height
  TooSmall,          ///< fewer instructions than -lwp-instruction-threshold
};

/// A short English phrase for \p Reason, e.g. "depth 2 > max-loop-depth".
llvm::StringRef stringifySkipReason(SkipReason Reason);

/// The plan for one function: which regions get probes and their map rows.
struct FunctionPlan {
  /// The function region's row index in Regions, or std::nullopt.
  std::optional<unsigned> FunctionRegion;
  /// Why the function region was skipped (Selected when it was not).
  SkipReason FunctionReason = SkipReason::Selected;
  /// Per loop (LoopTree index): its row index in Regions, or std::nullopt.
  llvm::SmallVector<std::optional<unsigned>, 8> LoopRegion;
  /// Per loop (LoopTree index): why it was skipped, or Selected.
  llvm::SmallVector<SkipReason, 8> LoopReason;
  /// Map rows in ID order: the function region first, then loops in
  /// pre-order. Loc is left empty for the caller to fill in.
  llvm::SmallVector<RegionEntry, 8> Regions;
};

/// Applies the selection flags and hands out IDs. One instance numbers one
/// module: IDs are module-local and run densely from 0 in the order functions
/// are planned (each module's regions get their own slots in the binary, so
/// IDs need no coordination between modules; docs/instrumentation-map.md).
class SelectionPolicy {
public:
  /// Validates \p Options. Errors (one line each): negative stats level, an
  /// invalid function-filter regex.
  static llvm::Expected<SelectionPolicy> create(SelectionOptions Options);

  const SelectionOptions &options() const { return Options; }

  /// True when the stats level selects nothing at all (< 40): the passes then
  /// leave the IR untouched.
  bool selectsNothing() const;

  /// True when \p Function passes -lwp-function-filter.
  bool matchesFilter(llvm::StringRef Function) const;

  /// Decides the regions of \p Function with loop forest \p Loops and gives
  /// them the next IDs. \p Instructions is the function's size for
  /// -lwp-instruction-threshold (LLVM: IR instructions; MLIR: ops in the
  /// body); a function region skipped for it is counted in
  /// smallFunctions(). Errors: the module would need IDs above MaxRegionId.
  llvm::Expected<FunctionPlan> planFunction(llvm::StringRef Function,
                                            const LoopTree &Loops,
                                            uint64_t Instructions = UINT64_MAX);

  /// Functions whose region -lwp-instruction-threshold skipped so far (the
  /// map's small_functions, docs/instrumentation-map.md).
  uint32_t smallFunctions() const { return SmallFunctions; }

  /// The ID the next region would get.
  uint64_t nextId() const { return NextId; }

  /// Hands out \p Count more IDs for regions of \p Function that the pass
  /// finds besides its loops (MLIR operator regions); returns the first.
  /// Errors: the module would need IDs above MaxRegionId.
  llvm::Expected<uint32_t> reserveIds(llvm::StringRef Function, size_t Count);

  /// True when the flags select operator regions in \p Function (stats
  /// level >= 70 and the function passes the filter).
  bool selectsOperators(llvm::StringRef Function) const;

private:
  explicit SelectionPolicy(SelectionOptions Options);
  SkipReason classifyLoop(const LoopNode &Loop) const;

  SelectionOptions Options;
  std::shared_ptr<llvm::Regex> Filter; // null: no filter
  uint64_t NextId;
  uint32_t SmallFunctions = 0;
};

} // namespace lwp

#endif // LWP_INSTRUMENT_SELECTIONPOLICY_H
