//===- SelectionPolicy.cpp - Which regions get probes, and their IDs ------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/SelectionPolicy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lwp;
using llvm::ArrayRef;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;

StringRef lwp::stringifySkipReason(SkipReason Reason) {
  switch (Reason) {
  case SkipReason::Selected:
    return "selected";
  case SkipReason::StatsLevel:
    return "stats-level too low for this region kind";
  case SkipReason::FunctionFilter:
    return "function does not match lwp-function-filter";
  case SkipReason::NoFunctionRegions:
    return "lwp-no-function-regions";
  case SkipReason::TooDeep:
    return "depth above max-loop-depth";
  case SkipReason::TooLow:
    return "height below lwp-min-loop-height";
  case SkipReason::TooSmall:
    return "fewer instructions than lwp-instruction-threshold";
  }
  return "unknown";
}

SelectionPolicy::SelectionPolicy(SelectionOptions Opts)
    : Options(std::move(Opts)), NextId(0) {}

Expected<SelectionPolicy> SelectionPolicy::create(SelectionOptions Options) {
  if (Options.StatsLevel < 0)
    return createStringError(
        "invalid stats-level %d: expected a level >= 0 (40 functions, 70 "
        "loops, 100 every loop)",
        Options.StatsLevel);
  SelectionPolicy Policy(Options);
  if (!Options.FunctionFilter.empty()) {
    auto Filter = std::make_shared<llvm::Regex>(Options.FunctionFilter);
    std::string Message;
    if (!Filter->isValid(Message))
      return createStringError("invalid lwp-function-filter '%s': %s",
                               Options.FunctionFilter.c_str(), Message.c_str());
    Policy.Filter = std::move(Filter);
  }
  return Policy;
}

bool SelectionPolicy::selectsNothing() const {
  return Options.StatsLevel < stats_level::FunctionRegions;
}

bool SelectionPolicy::matchesFilter(StringRef Function) const {
  return !Filter || Filter->match(Function);
}

SkipReason SelectionPolicy::classifyLoop(const LoopNode &Loop) const {
  if (Options.StatsLevel < stats_level::LoopRegions)
    return SkipReason::StatsLevel;
  if (Loop.Height < Options.MinLoopHeight)
    return SkipReason::TooLow;
  if (Options.StatsLevel >= stats_level::AllLoops)
    return SkipReason::Selected;
  if (Loop.Depth <= Options.MaxLoopDepth)
    return SkipReason::Selected;
  if (Options.InstrumentSiblings && Loop.HasSiblings)
    return SkipReason::Selected;
  return SkipReason::TooDeep;
}

Expected<uint32_t> SelectionPolicy::reserveIds(StringRef Function,
                                               size_t Count) {
  if (Count && NextId + Count - 1 > MaxRegionId)
    return createStringError(
        "function '%s' needs region IDs up to %llu, above the largest "
        "region ID %u (instrument fewer regions)",
        Function.str().c_str(),
        static_cast<unsigned long long>(NextId + Count - 1), MaxRegionId);
  uint32_t First = static_cast<uint32_t>(NextId);
  NextId += Count;
  return First;
}

bool SelectionPolicy::selectsOperators(StringRef Function) const {
  return Options.StatsLevel >= stats_level::LoopRegions &&
         matchesFilter(Function);
}

Expected<FunctionPlan> SelectionPolicy::planFunction(StringRef Function,
                                                     const LoopTree &Loops,
                                                     uint64_t Instructions) {
  FunctionPlan Plan;
  ArrayRef<LoopNode> Nodes = Loops.nodes();
  Plan.LoopRegion.assign(Nodes.size(), std::nullopt);
  Plan.LoopReason.assign(Nodes.size(), SkipReason::Selected);

  bool Matches = matchesFilter(Function);
  if (!Matches)
    Plan.FunctionReason = SkipReason::FunctionFilter;
  else if (Options.StatsLevel < stats_level::FunctionRegions)
    Plan.FunctionReason = SkipReason::StatsLevel;
  else if (Options.NoFunctionRegions)
    Plan.FunctionReason = SkipReason::NoFunctionRegions;
  for (unsigned I = 0, E = Nodes.size(); I != E; ++I)
    Plan.LoopReason[I] =
        Matches ? classifyLoop(Nodes[I]) : SkipReason::FunctionFilter;

  // -lwp-instruction-threshold (after XRay's -fxray-instruction-threshold):
  // a small function keeps its region when it holds a selected loop, whose
  // parent the function region is.
  if (Plan.FunctionReason == SkipReason::Selected &&
      Instructions < Options.InstructionThreshold &&
      llvm::none_of(Plan.LoopReason,
                    [](SkipReason R) { return R == SkipReason::Selected; })) {
    Plan.FunctionReason = SkipReason::TooSmall;
    if (SmallFunctions != UINT32_MAX)
      ++SmallFunctions;
  }

  size_t Count = Plan.FunctionReason == SkipReason::Selected;
  for (SkipReason R : Plan.LoopReason)
    Count += R == SkipReason::Selected;
  // Checked before any ID is handed out; addRegion below hands them out.
  Expected<uint32_t> First = reserveIds(Function, Count);
  if (!First)
    return First.takeError();
  NextId = *First;

  auto addRegion = [&](RegionKind Kind, std::optional<uint32_t> Parent,
                       const LoopNode *Loop) {
    RegionEntry Entry;
    Entry.Id = static_cast<uint32_t>(NextId++);
    Entry.Kind = Kind;
    Entry.Function = Function.str();
    Entry.ParentId = Parent;
    if (Loop) {
      Entry.Depth = Loop->Depth;
      Entry.Height = Loop->Height;
    }
    Plan.Regions.push_back(std::move(Entry));
    return static_cast<unsigned>(Plan.Regions.size() - 1);
  };

  std::optional<uint32_t> FunctionId;
  if (Plan.FunctionReason == SkipReason::Selected) {
    Plan.FunctionRegion =
        addRegion(RegionKind::Function, std::nullopt, nullptr);
    FunctionId = Plan.Regions[*Plan.FunctionRegion].Id;
  }
  // Pre-order: a loop's parent has its row (if any) before the loop's.
  for (unsigned I = 0, E = Nodes.size(); I != E; ++I) {
    if (Plan.LoopReason[I] != SkipReason::Selected)
      continue;
    std::optional<uint32_t> Parent = FunctionId;
    for (unsigned P = Nodes[I].Parent; P != LoopTree::NoParent;
         P = Nodes[P].Parent) {
      if (Plan.LoopRegion[P]) {
        Parent = Plan.Regions[*Plan.LoopRegion[P]].Id;
        break;
      }
    }
    Plan.LoopRegion[I] = addRegion(RegionKind::Loop, Parent, &Nodes[I]);
  }
  return Plan;
}
