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
#include "lwp/Analysis/MLIROperators.h"
#include "lwp/Instrument/Passes.h"
#include "lwp/Instrument/SelectionPolicy.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

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
  /// Operator instances of the module whose work figures an operator region
  /// already carries: an operator split into several spans gives its work
  /// to the first only, so that totals count each execution's work once.
  llvm::DenseSet<int64_t> InstancesWithWork;

  /// Inserts the probes of \p Plan, and of the operator regions found in
  /// \p Func, and adds their rows to \p Map in pre-order. Fails (after an
  /// error) when the module runs out of region IDs.
  LogicalResult instrumentFunction(FunctionOpInterface Func,
                                   const MLIRLoopForest &Forest,
                                   FunctionPlan &Plan, SelectionPolicy &Policy,
                                   InstrumentationMap &Map);
};
} // namespace

/// The operator fields of a loop or operator region: its own operator (its
/// tag, else the nearest enclosing span's) and the operators it holds.
static void setOperatorFields(RegionEntry &Row, std::optional<OperatorTag> Own,
                              ArrayRef<Operation *> Ops) {
  OperatorLabels Held;
  if (Own)
    Held.insert(operatorLabel(*Own));
  for (Operation *Op : Ops)
    collectHeldOperators(Op, Held);
  if (Own) {
    Row.Operator = Own->Op.str();
    Row.OperatorName = Own->Name.str();
  }
  for (const std::string &Label : Held)
    Row.Operators.push_back(Label);
}

LogicalResult InstrumentPass::instrumentFunction(FunctionOpInterface Func,
                                                 const MLIRLoopForest &Forest,
                                                 FunctionPlan &Plan,
                                                 SelectionPolicy &Policy,
                                                 InstrumentationMap &Map) {
  OpBuilder B(Func.getContext());
  // Operator regions: one per span of an operator that lwp-mark-operators
  // tagged, with IDs after the plan's; all rows are renumbered in pre-order
  // below.
  SmallVector<OperatorSpan, 8> Spans;
  if (Policy.selectsOperators(Func.getName()))
    Spans = collectOperatorSpans(Func);
  if (!Spans.empty()) {
    llvm::Expected<uint32_t> First =
        Policy.reserveIds(Func.getName(), Spans.size());
    if (!First)
      return emitError(Func.getLoc())
             << "lwp-instrument: " << llvm::toString(First.takeError());
  }

  // Pre-order position of every op, and which span each top-level op of a
  // span belongs to.
  llvm::DenseMap<Operation *, unsigned> Position;
  Func->walk<WalkOrder::PreOrder>(
      [&](Operation *Op) { Position.try_emplace(Op, Position.size()); });
  llvm::DenseMap<Operation *, unsigned> SpanOf;
  for (auto [I, S] : llvm::enumerate(Spans))
    for (Operation *Op = S.First;; Op = Op->getNextNode()) {
      SpanOf[Op] = I;
      if (Op == S.Last)
        break;
    }
  llvm::DenseMap<Operation *, unsigned> LoopIndex;
  for (auto [I, Loop] : llvm::enumerate(Forest.Loops))
    LoopIndex[Loop] = I;

  // Rows: the plan's (function, loops), then one per span.
  struct Row {
    uint64_t Key;              // pre-order; a span sorts before its first op
    unsigned Plan = ~0u;       // index in Plan.Regions, or ~0u for a span
    unsigned Span = ~0u;       // index in Spans
    Operation *Loop = nullptr; // the loop of a loop row
  };
  SmallVector<Row, 16> Rows;
  if (Plan.FunctionRegion)
    Rows.push_back({0, *Plan.FunctionRegion, ~0u, nullptr});
  for (unsigned I = 0, E = Forest.Loops.size(); I != E; ++I)
    if (Plan.LoopRegion[I])
      Rows.push_back({2 * uint64_t(Position[Forest.Loops[I]]) + 2,
                      *Plan.LoopRegion[I], ~0u, Forest.Loops[I]});
  for (unsigned I = 0, E = Spans.size(); I != E; ++I)
    Rows.push_back(
        {2 * uint64_t(Position[Spans[I].First]) + 1, ~0u, I, nullptr});
  llvm::stable_sort(Rows,
                    [](const Row &A, const Row &B) { return A.Key < B.Key; });
  if (Rows.empty())
    return success();

  // IDs in pre-order from the smallest one handed out for this function.
  uint32_t FirstId = static_cast<uint32_t>(Policy.nextId() - Rows.size());
  SmallVector<RegionEntry, 16> Entries(Rows.size());
  llvm::DenseMap<Operation *, uint32_t> LoopId, SpanId;
  std::optional<uint32_t> FunctionId;
  for (auto [I, R] : llvm::enumerate(Rows)) {
    uint32_t Id = FirstId + static_cast<uint32_t>(I);
    if (R.Span == ~0u) {
      Entries[I] = Plan.Regions[R.Plan];
      if (Entries[I].Kind == lwp::RegionKind::Function)
        FunctionId = Id;
    } else {
      Entries[I].Kind = lwp::RegionKind::Operator;
      Entries[I].Function = Func.getName().str();
    }
    Entries[I].Id = Id;
  }
  for (auto [I, R] : llvm::enumerate(Rows)) {
    if (R.Span != ~0u)
      SpanId[Spans[R.Span].First] = Entries[I].Id;
    else if (R.Loop)
      LoopId[R.Loop] = Entries[I].Id;
  }

  // The nearest instrumented region around \p Op (the op itself counts when
  // it stands in a span), and the nearest span around it.
  auto enclosing = [&](Operation *Op, bool Self) {
    std::optional<uint32_t> Parent;
    std::optional<unsigned> Span;
    for (Operation *X = Self ? Op : Op->getParentOp(); X && X != Func;
         X = X->getParentOp()) {
      if (X != Op && !Parent) {
        auto It = LoopId.find(X);
        if (It != LoopId.end())
          Parent = It->second;
      }
      auto S = SpanOf.find(X);
      if (S != SpanOf.end() && !(X == Op && !Self)) {
        if (!Parent)
          Parent = SpanId[Spans[S->second].First];
        if (!Span)
          Span = S->second;
      }
      if (Parent && Span)
        break;
    }
    return std::make_pair(Parent ? Parent : FunctionId, Span);
  };

  for (auto [I, R] : llvm::enumerate(Rows)) {
    RegionEntry &E = Entries[I];
    if (E.Kind == lwp::RegionKind::Function) {
      E.Loc = getSourceLocation(Func.getLoc());
      continue;
    }
    if (R.Span != ~0u) {
      const OperatorSpan &S = Spans[R.Span];
      E.ParentId = enclosing(S.First, /*Self=*/false).first;
      E.Loc = getSourceLocation(S.First->getLoc());
      SmallVector<Operation *, 4> Ops;
      for (Operation *Op = S.First;; Op = Op->getNextNode()) {
        Ops.push_back(Op);
        if (Op == S.Last)
          break;
      }
      setOperatorFields(E, S.Tag, Ops);
      if (InstancesWithWork.insert(S.Tag.Instance).second) {
        E.Flops = S.Tag.Flops;
        E.BytesRead = S.Tag.BytesRead;
        E.BytesWritten = S.Tag.BytesWritten;
      }
      continue;
    }
    Operation *Loop = R.Loop;
    auto [Parent, Span] = enclosing(Loop, /*Self=*/true);
    E.ParentId = Parent;
    E.Loc = getSourceLocation(Loop->getLoc());
    std::optional<OperatorTag> Own = findOperatorTag(Loop->getLoc());
    if (!Own || Own->Body)
      Own = Span ? std::optional<OperatorTag>(Spans[*Span].Tag) : std::nullopt;
    setOperatorFields(E, Own, {Loop});
  }

  // Probes: operator probes first, so that a loop that opens or closes a
  // span gets its own probes inside the operator's.
  for (auto [I, R] : llvm::enumerate(Rows)) {
    if (R.Span == ~0u)
      continue;
    const OperatorSpan &S = Spans[R.Span];
    int32_t Id = static_cast<int32_t>(Entries[I].Id);
    B.setInsertionPoint(S.First);
    ProbeStartOp::create(B, S.First->getLoc(), lwp::RegionKind::Operator, Id);
    B.setInsertionPointAfter(S.Last);
    ProbeEndOp::create(B, S.Last->getLoc(), lwp::RegionKind::Operator, Id);
  }
  if (FunctionId) {
    Region &Body = Func.getFunctionBody();
    B.setInsertionPointToStart(&Body.front());
    ProbeStartOp::create(B, Func.getLoc(), lwp::RegionKind::Function,
                         static_cast<int32_t>(*FunctionId));
    for (Block &Blk : Body) {
      Operation *Term = Blk.empty() ? nullptr : &Blk.back();
      if (!Term || !Term->hasTrait<OpTrait::ReturnLike>())
        continue;
      B.setInsertionPoint(Term);
      ProbeEndOp::create(B, Term->getLoc(), lwp::RegionKind::Function,
                         static_cast<int32_t>(*FunctionId));
    }
  }
  for (auto [Loop, Id] : LoopId) {
    B.setInsertionPoint(Loop);
    ProbeStartOp::create(B, Loop->getLoc(), lwp::RegionKind::Loop,
                         static_cast<int32_t>(Id));
    B.setInsertionPointAfter(Loop);
    ProbeEndOp::create(B, Loop->getLoc(), lwp::RegionKind::Loop,
                       static_cast<int32_t>(Id));
  }
  for (RegionEntry &E : Entries)
    Map.add(std::move(E));
  return success();
}

LogicalResult InstrumentPass::initialize(MLIRContext *Ctx) {
  Options.StatsLevel = statsLevel;
  Options.MaxLoopDepth = maxLoopDepth;
  Options.MinLoopHeight = minLoopHeight;
  Options.InstrumentSiblings = instrumentSiblings;
  Options.NoFunctionRegions = noFunctionRegions;
  Options.FunctionFilter = functionFilter;
  Options.InstructionThreshold = instructionThreshold;
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
  InstancesWithWork.clear();
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
      // The function's size for lwp-instruction-threshold: every op nested
      // in its body (terminators included), not the function op itself.
      uint64_t Ops = 0;
      Func.getFunctionBody().walk([&](Operation *) { ++Ops; });
      llvm::Expected<FunctionPlan> Plan =
          Policy->planFunction(Func.getName(), Forest.Tree, Ops);
      if (!Plan) {
        emitError(Func.getLoc())
            << "lwp-instrument: " << llvm::toString(Plan.takeError());
        return signalPassFailure();
      }
      if (failed(instrumentFunction(Func, Forest, *Plan, *Policy, Map)))
        return signalPassFailure();
    }
    Map.setSmallFunctions(Options.InstructionThreshold,
                          Policy->smallFunctions());
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
