//===- MLIROperators.cpp - Structured ops and the code they lower to ------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/MLIROperators.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace lwp;
using namespace mlir;

namespace {
constexpr StringLiteral OpKey = "lwp.op", InstanceKey = "lwp.instance",
                        NameKey = "lwp.name", BodyKey = "lwp.body",
                        FlopsKey = "lwp.flops", BytesReadKey = "lwp.bytes_read",
                        BytesWrittenKey = "lwp.bytes_written";
} // namespace

/// True for a TOSA op that computes (a frontend's operator: tosa.conv2d,
/// tosa.matmul, tosa.clamp ...), not one that only names a value
/// (tosa.const, tosa.const_shape), a variable or control flow.
static bool isTosaOperator(Operation *Op) {
  if (Op->getName().getDialectNamespace() != "tosa")
    return false;
  StringRef Name = Op->getName().stripDialect();
  return !llvm::is_contained({"const", "const_shape", "variable",
                              "variable_read", "variable_write", "cond_if",
                              "while_loop", "yield"},
                             Name);
}

/// True for a tensor op that one-shot bufferization or the tensor lowerings
/// turn into loops of its own (tensor.pad becomes a linalg.map ...).
static bool isTensorOperator(Operation *Op) {
  return isa<tensor::PadOp, tensor::ConcatOp, tensor::SplatOp,
             tensor::GenerateOp, linalg::PackOp, linalg::UnPackOp>(Op);
}

/// True for elementwise arithmetic on ranked tensors (`arith.mulf %x, %y :
/// tensor<4x8xf32>`), which convert-elementwise-to-linalg turns into a
/// linalg.generic.
static bool isElementwiseOnTensors(Operation *Op) {
  return OpTrait::hasElementwiseMappableTraits(Op) &&
         llvm::any_of(Op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
}

bool lwp::isStructuredOperator(Operation *Op) {
  return isa<linalg::LinalgOp>(Op) || Op->hasAttr(OperatorAttrName) ||
         isTosaOperator(Op) || isTensorOperator(Op) ||
         isElementwiseOnTensors(Op);
}

Location lwp::tagLocation(Location Loc, const OperatorTag &Tag) {
  MLIRContext *Ctx = Loc.getContext();
  Builder B(Ctx);
  SmallVector<NamedAttribute, 4> Fields{
      B.getNamedAttr(OpKey, B.getStringAttr(Tag.Op)),
      B.getNamedAttr(InstanceKey, B.getI64IntegerAttr(Tag.Instance))};
  if (!Tag.Name.empty())
    Fields.push_back(B.getNamedAttr(NameKey, B.getStringAttr(Tag.Name)));
  if (Tag.Body)
    Fields.push_back(B.getNamedAttr(BodyKey, B.getUnitAttr()));
  for (auto [Key, Value] :
       {std::pair(FlopsKey, Tag.Flops), std::pair(BytesReadKey, Tag.BytesRead),
        std::pair(BytesWrittenKey, Tag.BytesWritten)})
    if (Value >= 0)
      Fields.push_back(B.getNamedAttr(Key, B.getI64IntegerAttr(Value)));
  return FusedLoc::get({Loc}, B.getDictionaryAttr(Fields), Ctx);
}

static std::optional<OperatorTag> readTag(Attribute Metadata) {
  auto Dict = dyn_cast_or_null<DictionaryAttr>(Metadata);
  if (!Dict)
    return std::nullopt;
  auto Op = Dict.getAs<StringAttr>(OpKey);
  auto Instance = Dict.getAs<IntegerAttr>(InstanceKey);
  if (!Op || !Instance)
    return std::nullopt;
  OperatorTag Tag;
  Tag.Op = Op.getValue();
  Tag.Instance = Instance.getInt();
  if (auto Name = Dict.getAs<StringAttr>(NameKey))
    Tag.Name = Name.getValue();
  Tag.Body = Dict.contains(BodyKey);
  // The work figures: non-negative integers that fit in 64 bits; anything
  // else is unknown (-1).
  auto work = [&](StringRef Key) -> int64_t {
    auto Int = Dict.getAs<IntegerAttr>(Key);
    if (!Int || Int.getValue().isNegative() ||
        Int.getValue().getActiveBits() > 63)
      return -1;
    return Int.getValue().getSExtValue();
  };
  Tag.Flops = work(FlopsKey);
  Tag.BytesRead = work(BytesReadKey);
  Tag.BytesWritten = work(BytesWrittenKey);
  return Tag;
}

std::optional<OperatorTag> lwp::findOperatorTag(Location Loc) {
  SmallVector<Location, 4> Work{Loc};
  while (!Work.empty()) {
    Location L = Work.pop_back_val();
    if (auto Fused = dyn_cast<FusedLoc>(L)) {
      if (std::optional<OperatorTag> Tag = readTag(Fused.getMetadata()))
        return Tag;
      for (Location Inner : llvm::reverse(Fused.getLocations()))
        Work.push_back(Inner);
    } else if (auto Name = dyn_cast<NameLoc>(L)) {
      Work.push_back(Name.getChildLoc());
    } else if (auto Call = dyn_cast<CallSiteLoc>(L)) {
      Work.push_back(Call.getCallee());
    } else if (auto Opaque = dyn_cast<OpaqueLoc>(L)) {
      Work.push_back(Opaque.getFallbackLocation());
    }
  }
  return std::nullopt;
}

StringRef lwp::findLocationName(Location Loc) {
  SmallVector<Location, 4> Work{Loc};
  while (!Work.empty()) {
    Location L = Work.pop_back_val();
    if (auto Name = dyn_cast<NameLoc>(L))
      return Name.getName().getValue();
    if (auto Fused = dyn_cast<FusedLoc>(L)) {
      for (Location Inner : llvm::reverse(Fused.getLocations()))
        Work.push_back(Inner);
    } else if (auto Call = dyn_cast<CallSiteLoc>(L)) {
      Work.push_back(Call.getCallee());
    } else if (auto Opaque = dyn_cast<OpaqueLoc>(L)) {
      Work.push_back(Opaque.getFallbackLocation());
    }
  }
  return {};
}

/// True for ops that do an operator's work: ops with regions (loops), ops
/// that write memory, and ops whose effects are unknown (calls). Buffer
/// allocation, views and pure arithmetic are not work: they may carry an
/// operator's tag (bufferization gives a result buffer its op's location)
/// without starting or ending its span.
static bool isWork(Operation *Op) {
  if (Op->getNumRegions())
    return true;
  auto Effects = dyn_cast<MemoryEffectOpInterface>(Op);
  if (!Effects)
    return !Op->hasTrait<OpTrait::ConstantLike>() && !isPure(Op);
  return Effects.hasEffect<MemoryEffects::Write>();
}

namespace {
/// Finds the spans of one function, block by block, in pre-order.
class SpanCollector {
public:
  llvm::SmallVector<OperatorSpan, 8> Spans;

  void visitBlock(Block &B) {
    std::optional<unsigned> Open;
    for (Operation &Op : B) {
      std::optional<OperatorTag> Tag = findOperatorTag(Op.getLoc());
      bool Enclosed = Tag && llvm::is_contained(Enclosing, Tag->Instance);
      if (Tag && !isWork(&Op)) {
        // Neutral: inside an open span it is part of it (up to Last).
      } else if (Tag && !Tag->Body && !Enclosed) {
        if (Open && Spans[*Open].Tag.Instance == Tag->Instance) {
          Spans[*Open].Last = &Op;
        } else {
          Open = Spans.size();
          Spans.push_back({&Op, &Op, *Tag});
        }
      } else if (Tag && Open && Tag->Instance != Spans[*Open].Tag.Instance &&
                 !Enclosed) {
        Open.reset(); // another operator's op ends the run
      }
      if (!Op.getNumRegions())
        continue;
      if (Tag)
        Enclosing.push_back(Tag->Instance);
      for (Region &R : Op.getRegions())
        for (Block &Inner : R)
          visitBlock(Inner);
      if (Tag)
        Enclosing.pop_back();
    }
  }

private:
  /// Instances of the ops enclosing the block being visited.
  llvm::SmallVector<int64_t, 8> Enclosing;
};
} // namespace

llvm::SmallVector<OperatorSpan, 8>
lwp::collectOperatorSpans(Operation *Function) {
  SpanCollector C;
  for (Region &R : Function->getRegions())
    for (Block &B : R)
      C.visitBlock(B);
  return std::move(C.Spans);
}

std::string lwp::operatorLabel(const OperatorTag &Tag) {
  std::string Label = Tag.Op.str();
  if (!Tag.Name.empty())
    Label += " \"" + Tag.Name.str() + "\"";
  return Label;
}

void lwp::collectHeldOperators(Operation *Op, OperatorLabels &Out) {
  Op->walk<WalkOrder::PreOrder>([&](Operation *Inner) {
    if (std::optional<OperatorTag> Tag = findOperatorTag(Inner->getLoc()))
      Out.insert(operatorLabel(*Tag));
  });
}
