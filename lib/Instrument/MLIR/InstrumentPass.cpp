//===- InstrumentPass.cpp - lwp-instrument for MLIR -----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Selects regions with lwp::SelectionPolicy over each function's
// MLIRLoopForest and wraps them in lwp.probe_start / lwp.probe_end.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/MLIRLoopTree.h"
#include "lwp/Instrument/Passes.h"
#include "lwp/Instrument/SelectionPolicy.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace lwp {
#define GEN_PASS_DEF_LWPINSTRUMENT
#include "lwp/Instrument/Passes.h.inc"
} // namespace lwp

using namespace mlir;
using namespace lwp;

namespace {
class InstrumentPass : public lwp::impl::LWPInstrumentBase<InstrumentPass> {
public:
  using LWPInstrumentBase::LWPInstrumentBase;

  /// Validates the options once, before any module is touched.
  LogicalResult initialize(MLIRContext *Ctx) override;
  void runOnOperation() override;

private:
  /// The validated options, from initialize().
  SelectionOptions Options;

  /// Inserts the probes of \p Plan into \p Func and adds its rows to \p Map.
  void instrumentFunction(FunctionOpInterface Func,
                          const MLIRLoopForest &Forest, FunctionPlan &Plan,
                          InstrumentationMap &Map);
};
} // namespace

void InstrumentPass::instrumentFunction(FunctionOpInterface Func,
                                        const MLIRLoopForest &Forest,
                                        FunctionPlan &Plan,
                                        InstrumentationMap &Map) {
  OpBuilder B(Func.getContext());
  if (Plan.FunctionRegion) {
    RegionEntry &Row = Plan.Regions[*Plan.FunctionRegion];
    Row.Loc = getSourceLocation(Func.getLoc());
    int32_t Id = static_cast<int32_t>(Row.Id);
    Region &Body = Func.getFunctionBody();
    B.setInsertionPointToStart(&Body.front());
    ProbeStartOp::create(B, Func.getLoc(), lwp::RegionKind::Function, Id);
    for (Block &Blk : Body) {
      Operation *Term = Blk.empty() ? nullptr : &Blk.back();
      if (!Term || !Term->hasTrait<OpTrait::ReturnLike>())
        continue;
      B.setInsertionPoint(Term);
      ProbeEndOp::create(B, Term->getLoc(), lwp::RegionKind::Function, Id);
    }
  }
  for (unsigned I = 0, E = Forest.Loops.size(); I != E; ++I) {
    if (!Plan.LoopRegion[I])
      continue;
    Operation *Loop = Forest.Loops[I];
    RegionEntry &Row = Plan.Regions[*Plan.LoopRegion[I]];
    Row.Loc = getSourceLocation(Loop->getLoc());
    int32_t Id = static_cast<int32_t>(Row.Id);
    B.setInsertionPoint(Loop);
    ProbeStartOp::create(B, Loop->getLoc(), lwp::RegionKind::Loop, Id);
    B.setInsertionPointAfter(Loop);
    ProbeEndOp::create(B, Loop->getLoc(), lwp::RegionKind::Loop, Id);
  }
  for (RegionEntry &Row : Plan.Regions)
    Map.add(std::move(Row));
}

LogicalResult InstrumentPass::initialize(MLIRContext *Ctx) {
  Options.StatsLevel = statsLevel;
  Options.MaxLoopDepth = maxLoopDepth;
  Options.MinLoopHeight = minLoopHeight;
  Options.InstrumentSiblings = instrumentSiblings;
  Options.NoFunctionRegions = noFunctionRegions;
  Options.FunctionFilter = functionFilter;
  llvm::Expected<SelectionPolicy> Policy = SelectionPolicy::create(Options);
  if (!Policy)
    return emitError(UnknownLoc::get(Ctx))
           << "lwp-instrument: " << llvm::toString(Policy.takeError());
  return success();
}

void InstrumentPass::runOnOperation() {
  ModuleOp Module = getOperation();
  // Validated in initialize(); a fresh policy numbers each module from the
  // ID base.
  llvm::Expected<SelectionPolicy> Policy = SelectionPolicy::create(Options);
  if (!Policy) {
    emitError(Module.getLoc()) << llvm::toString(Policy.takeError());
    return signalPassFailure();
  }
  if (Module->hasAttr(LWPDialect::getInstrumentationMapAttrName())) {
    emitError(Module.getLoc())
        << "lwp-instrument: the module is already instrumented "
           "(it carries '"
        << LWPDialect::getInstrumentationMapAttrName()
        << "'); run the pass once";
    return signalPassFailure();
  }

  InstrumentationMap Map;
  if (!Policy->selectsNothing()) {
    // Collect first, then rewrite: inserting probes must not disturb the walk.
    SmallVector<FunctionOpInterface> Functions;
    // Only functions that lower to executable code get regions: func.func
    // and llvm.func. Other function-like ops (transform.named_sequence,
    // symbol-only declarations of other dialects) never run as code.
    Module.walk([&](FunctionOpInterface Func) {
      StringRef Kind = Func->getName().getStringRef();
      if (!Func.isExternal() && (Kind == "func.func" || Kind == "llvm.func"))
        Functions.push_back(Func);
    });
    for (FunctionOpInterface Func : Functions) {
      MLIRLoopForest Forest = buildMLIRLoopForest(Func);
      llvm::Expected<FunctionPlan> Plan =
          Policy->planFunction(Func.getName(), Forest.Tree);
      if (!Plan) {
        emitError(Func.getLoc())
            << "lwp-instrument: " << llvm::toString(Plan.takeError());
        return signalPassFailure();
      }
      instrumentFunction(Func, Forest, *Plan, Map);
    }
    setInstrumentationMap(Module, Map);
  } else {
    markAllAnalysesPreserved();
  }

  if (!mapFile.empty()) {
    if (llvm::Error Err = Map.writeJSONFile(mapFile)) {
      emitError(Module.getLoc())
          << "lwp-instrument: " << llvm::toString(std::move(Err));
      return signalPassFailure();
    }
  }
}
