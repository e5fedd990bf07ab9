//===- LWPDialect.cpp - The lwp dialect -----------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Dialect/LWPDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace lwp;

#include "lwp/Dialect/LWPOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "lwp/Dialect/LWPOpsAttrs.cpp.inc"

/// Parses the bare keyword form of a probe's kind: `function` or `loop`.
static ParseResult parseProbeKind(OpAsmParser &Parser, RegionKindAttr &Kind) {
  FailureOr<lwp::RegionKind> Value =
      FieldParser<lwp::RegionKind>::parse(Parser);
  if (failed(Value))
    return failure();
  Kind = RegionKindAttr::get(Parser.getContext(), *Value);
  return success();
}

/// Prints a probe's kind as a bare keyword.
static void printProbeKind(OpAsmPrinter &Printer, Operation *,
                           RegionKindAttr Kind) {
  Printer << stringifyRegionKind(Kind.getValue());
}

#define GET_OP_CLASSES
#include "lwp/Dialect/LWPOps.cpp.inc"

void LWPDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "lwp/Dialect/LWPOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "lwp/Dialect/LWPOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Instrumentation map attribute
//===----------------------------------------------------------------------===//

LogicalResult RegionInfoAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, uint32_t id,
    lwp::RegionKind kind, StringRef function, std::optional<uint32_t> depth,
    std::optional<uint32_t> height, std::optional<uint32_t> parent,
    StringRef file, uint32_t line, uint32_t column, StringRef op,
    StringRef opName, StringRef ops, std::optional<int64_t> flops,
    std::optional<int64_t> bytesRead, std::optional<int64_t> bytesWritten) {
  if (id > MaxRegionId)
    return emitError() << "region ID " << id << " is above the largest "
                       << "region ID " << MaxRegionId;
  bool IsLoop = kind == lwp::RegionKind::Loop;
  if (IsLoop != depth.has_value() || IsLoop != height.has_value())
    return emitError() << "a " << stringifyRegionKind(kind) << " region must "
                       << (IsLoop ? "have" : "not have")
                       << " a depth and a height";
  if ((kind == lwp::RegionKind::Operator) != !op.empty() &&
      kind != lwp::RegionKind::Loop)
    return emitError() << "a " << stringifyRegionKind(kind) << " region must "
                       << (op.empty() ? "have" : "not have") << " an operator";
  if (parent && *parent >= id)
    return emitError() << "parent region " << *parent
                       << " must have an ID below " << id;
  for (auto [Name, Value] :
       {std::pair("flops", flops), std::pair("bytes_read", bytesRead),
        std::pair("bytes_written", bytesWritten)})
    if (Value && *Value < 0)
      return emitError() << Name << " must not be negative";
  return success();
}

/// A work figure of a map row as an optional attribute parameter.
static std::optional<int64_t> workParameter(int64_t V) {
  return V >= 0 ? std::optional<int64_t>(V) : std::nullopt;
}

RegionInfoAttr lwp::toAttr(MLIRContext *Ctx, const RegionEntry &E) {
  return RegionInfoAttr::get(
      Ctx, E.Id, E.Kind, E.Function, E.Depth, E.Height, E.ParentId, E.Loc.File,
      E.Loc.Line, E.Loc.Column, E.Operator, E.OperatorName,
      llvm::join(E.Operators, ","), workParameter(E.Flops),
      workParameter(E.BytesRead), workParameter(E.BytesWritten));
}

RegionEntry lwp::fromAttr(RegionInfoAttr Attr) {
  RegionEntry E;
  E.Id = Attr.getId();
  E.Kind = Attr.getKind();
  E.Function = Attr.getFunction().str();
  E.Depth = Attr.getDepth();
  E.Height = Attr.getHeight();
  E.ParentId = Attr.getParent();
  E.Loc.File = Attr.getFile().str();
  E.Loc.Line = Attr.getLine();
  E.Loc.Column = Attr.getColumn();
  E.Operator = Attr.getOp().str();
  E.OperatorName = Attr.getOpName().str();
  SmallVector<StringRef, 4> Ops;
  Attr.getOps().split(Ops, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Op : Ops)
    E.Operators.push_back(Op.str());
  E.Flops = Attr.getFlops().value_or(-1);
  E.BytesRead = Attr.getBytesRead().value_or(-1);
  E.BytesWritten = Attr.getBytesWritten().value_or(-1);
  return E;
}

/// Checks the map attribute's shape: an array of #lwp.region, IDs strictly
/// increasing.
static LogicalResult verifyMapAttr(Operation *Op, Attribute Attr) {
  auto Array = dyn_cast<ArrayAttr>(Attr);
  if (!Array)
    return Op->emitOpError()
           << "'" << LWPDialect::getInstrumentationMapAttrName()
           << "' must be an array of #lwp.region";
  std::optional<uint32_t> Previous;
  for (Attribute Element : Array) {
    auto Region = dyn_cast<RegionInfoAttr>(Element);
    if (!Region)
      return Op->emitOpError()
             << "'" << LWPDialect::getInstrumentationMapAttrName() << "' holds "
             << Element << ", not a #lwp.region";
    if (Previous && Region.getId() <= *Previous)
      return Op->emitOpError()
             << "'" << LWPDialect::getInstrumentationMapAttrName()
             << "' must list region IDs in increasing order, but "
             << Region.getId() << " follows " << *Previous;
    Previous = Region.getId();
  }
  return success();
}

LogicalResult LWPDialect::verifyOperationAttribute(Operation *Op,
                                                   NamedAttribute Attr) {
  // lwp.operator (lwp/Analysis/MLIROperators.h) marks any op as an
  // operator: a string names it, a unit attribute does not.
  if (Attr.getName() == "lwp.operator") {
    if (!isa<StringAttr, UnitAttr>(Attr.getValue()))
      return Op->emitOpError()
             << "'lwp.operator' must be a string (the operator's name) or a "
                "unit attribute";
    return success();
  }
  if (Attr.getName() == getInstructionThresholdAttrName() ||
      Attr.getName() == getSmallFunctionsAttrName()) {
    auto Int = dyn_cast<IntegerAttr>(Attr.getValue());
    if (!isa<ModuleOp>(Op) || !Int || !Int.getType().isInteger(32) ||
        Int.getValue().isNegative())
      return Op->emitOpError()
             << "'" << Attr.getName().getValue()
             << "' must be a non-negative i32 on a builtin.module";
    return success();
  }
  if (Attr.getName() != getInstrumentationMapAttrName())
    return Op->emitOpError()
           << "unknown lwp attribute '" << Attr.getName().getValue() << "'";
  if (!isa<ModuleOp>(Op))
    return Op->emitOpError() << "'" << getInstrumentationMapAttrName()
                             << "' may only be attached to a builtin.module";
  return verifyMapAttr(Op, Attr.getValue());
}

FailureOr<InstrumentationMap> lwp::getInstrumentationMap(ModuleOp Module) {
  InstrumentationMap Map;
  Attribute Attr = Module->getAttr(LWPDialect::getInstrumentationMapAttrName());
  if (!Attr)
    return Map;
  if (failed(verifyMapAttr(Module, Attr)))
    return failure();
  for (Attribute Element : cast<ArrayAttr>(Attr))
    Map.add(fromAttr(cast<RegionInfoAttr>(Element)));
  auto get = [&](StringRef Name) -> uint32_t {
    auto Int = Module->getAttrOfType<IntegerAttr>(Name);
    return Int ? static_cast<uint32_t>(Int.getValue().getZExtValue()) : 0;
  };
  Map.setSmallFunctions(get(LWPDialect::getInstructionThresholdAttrName()),
                        get(LWPDialect::getSmallFunctionsAttrName()));
  return Map;
}

void lwp::setInstrumentationMap(ModuleOp Module,
                                const InstrumentationMap &Map) {
  MLIRContext *Ctx = Module.getContext();
  SmallVector<Attribute> Rows;
  Rows.reserve(Map.size());
  for (const RegionEntry &E : Map.entries())
    Rows.push_back(toAttr(Ctx, E));
  Module->setAttr(LWPDialect::getInstrumentationMapAttrName(),
                  ArrayAttr::get(Ctx, Rows));
  Builder B(Ctx);
  if (Map.instructionThreshold()) {
    Module->setAttr(LWPDialect::getInstructionThresholdAttrName(),
                    B.getI32IntegerAttr(Map.instructionThreshold()));
    Module->setAttr(LWPDialect::getSmallFunctionsAttrName(),
                    B.getI32IntegerAttr(Map.smallFunctions()));
  } else {
    Module->removeAttr(LWPDialect::getInstructionThresholdAttrName());
    Module->removeAttr(LWPDialect::getSmallFunctionsAttrName());
  }
}

//===----------------------------------------------------------------------===//
// Probe verification
//===----------------------------------------------------------------------===//

namespace {
/// A probe as the nesting check sees it.
struct ProbeKey {
  bool IsStart;
  lwp::RegionKind Kind;
  uint32_t Id;
};
} // namespace

static std::optional<ProbeKey> getProbeKey(Operation *Op) {
  if (auto Start = dyn_cast<ProbeStartOp>(Op))
    return ProbeKey{true, Start.getKind(), Start.getId()};
  if (auto End = dyn_cast<ProbeEndOp>(Op))
    return ProbeKey{false, End.getKind(), End.getId()};
  return std::nullopt;
}

/// Finds the partner of the loop probe \p Probe in its block, walking forward
/// from a start or backward from an end, and checks that every probe pair on
/// the way is properly nested. Function probes on the way are an error: a
/// function region encloses every loop region of its function.
static LogicalResult verifyLoopProbe(Operation *Probe, ProbeKey Self) {
  SmallVector<ProbeKey, 4> Open;
  auto Describe = [](ProbeKey K) {
    return (Twine(K.IsStart ? "lwp.probe_start " : "lwp.probe_end ") +
            stringifyRegionKind(K.Kind) + " " + Twine(K.Id))
        .str();
  };
  auto Visit = [&](Operation &Op) -> std::optional<LogicalResult> {
    std::optional<ProbeKey> K = getProbeKey(&Op);
    if (!K)
      return std::nullopt;
    // Walking forward, starts open and ends close; backward, the reverse.
    bool Opens = K->IsStart == Self.IsStart;
    if (Opens) {
      Open.push_back(*K);
      return std::nullopt;
    }
    if (!Open.empty()) {
      ProbeKey Top = Open.pop_back_val();
      if (Top.Kind != K->Kind || Top.Id != K->Id)
        return Probe->emitOpError()
               << "probes are not properly nested: " << Describe(*K)
               << " pairs with " << Describe(Top);
      return std::nullopt;
    }
    if (K->Kind == Self.Kind && K->Id == Self.Id)
      return success();
    return Probe->emitOpError()
           << "probes are not properly nested: " << Describe(*K)
           << " stands between this probe and its partner";
  };

  Block *B = Probe->getBlock();
  if (Self.IsStart) {
    for (auto It = std::next(Probe->getIterator()), E = B->end(); It != E; ++It)
      if (std::optional<LogicalResult> R = Visit(*It))
        return *R;
  } else {
    for (auto It = std::next(Probe->getReverseIterator()), E = B->rend();
         It != E; ++It)
      if (std::optional<LogicalResult> R = Visit(*It))
        return *R;
  }
  return Probe->emitOpError()
         << "has no matching "
         << (Self.IsStart ? "lwp.probe_end" : "lwp.probe_start") << " "
         << stringifyRegionKind(Self.Kind) << " " << Self.Id
         << " in the same block";
}

/// A function probe must stand directly in the body of a function: a start in
/// the entry block, an end in a block that ends in a return.
static LogicalResult verifyFunctionProbe(Operation *Probe, ProbeKey Self) {
  auto Func = dyn_cast_or_null<FunctionOpInterface>(Probe->getParentOp());
  if (!Func)
    return Probe->emitOpError()
           << "of a function region must stand directly in a function body";
  Block *B = Probe->getBlock();
  if (Self.IsStart) {
    if (B != &Func.getFunctionBody().front())
      return Probe->emitOpError()
             << "of a function region must stand in the entry block";
    return success();
  }
  if (B->empty() || !B->back().hasTrait<OpTrait::ReturnLike>())
    return Probe->emitOpError()
           << "of a function region must stand in a block that returns";
  return success();
}

static LogicalResult verifyProbe(Operation *Probe) {
  ProbeKey Self = *getProbeKey(Probe);
  if (Self.Kind != lwp::RegionKind::Function)
    return verifyLoopProbe(Probe, Self);
  return verifyFunctionProbe(Probe, Self);
}

LogicalResult ProbeStartOp::verify() { return verifyProbe(*this); }
LogicalResult ProbeEndOp::verify() { return verifyProbe(*this); }
