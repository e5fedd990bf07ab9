//===- Builders.cpp - IR the operator handlers share ----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

const OpTable &lwp::onnx::opTable() {
  static const OpTable Table = [] {
    OpTable T;
    registerElementwiseOps(T);
    registerConvolutionOps(T);
    registerLinearAlgebraOps(T);
    registerNormalizationOps(T);
    registerShapeOps(T);
    registerDataMovementOps(T);
    registerQuantizationOps(T);
    return T;
  }();
  return Table;
}

RankedTensorType NodeContext::tensorType(ArrayRef<int64_t> Shape,
                                         int32_t Type) {
  return RankedTensorType::get(Shape, mlirElemType(context(), Type));
}

Value NodeContext::scalar(double V, int32_t Type) {
  mlir::Type T = mlirElemType(context(), Type);
  if (isFloatType(Type))
    return arith::ConstantOp::create(B, Loc, B.getFloatAttr(T, V));
  return arith::ConstantOp::create(
      B, Loc, B.getIntegerAttr(T, static_cast<int64_t>(V)));
}

Value NodeContext::empty(ArrayRef<int64_t> Shape, int32_t Type) {
  return tensor::EmptyOp::create(B, Loc, Shape, mlirElemType(context(), Type));
}

Value NodeContext::filled(ArrayRef<int64_t> Shape, int32_t Type, double V) {
  Value Init = empty(Shape, Type);
  return linalg::FillOp::create(B, Loc, ValueRange{scalar(V, Type)},
                                ValueRange{Init})
      .getResult(0);
}

std::optional<SmallVector<int64_t, 4>>
NodeContext::broadcastShapes(ArrayRef<int64_t> A, ArrayRef<int64_t> Bs) {
  size_t Rank = std::max(A.size(), Bs.size());
  SmallVector<int64_t, 4> Out(Rank, 1);
  for (size_t I = 0; I != Rank; ++I) {
    int64_t X = I < Rank - A.size() ? 1 : A[I - (Rank - A.size())];
    int64_t Y = I < Rank - Bs.size() ? 1 : Bs[I - (Rank - Bs.size())];
    if (X != Y && X != 1 && Y != 1)
      return std::nullopt;
    Out[I] = X == 1 ? Y : X;
  }
  return Out;
}

Value NodeContext::elementwise(
    ArrayRef<Value> Inputs, ArrayRef<int64_t> OutShape, int32_t OutType,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> Body) {
  unsigned Rank = OutShape.size();
  SmallVector<AffineMap> Maps;
  for (Value In : Inputs) {
    ArrayRef<int64_t> Shape = cast<RankedTensorType>(In.getType()).getShape();
    SmallVector<AffineExpr> Exprs;
    unsigned Lead = Rank - Shape.size();
    for (unsigned I = 0; I != Shape.size(); ++I)
      Exprs.push_back(Shape[I] == 1 && OutShape[Lead + I] != 1
                          ? getAffineConstantExpr(0, context())
                          : getAffineDimExpr(Lead + I, context()));
    Maps.push_back(AffineMap::get(Rank, 0, Exprs, context()));
  }
  Maps.push_back(AffineMap::getMultiDimIdentityMap(Rank, context()));
  SmallVector<utils::IteratorType> Iterators(Rank,
                                             utils::IteratorType::parallel);
  Value Init = empty(OutShape, OutType);
  auto Generic = linalg::GenericOp::create(
      B, Loc, TypeRange{Init.getType()}, Inputs, ValueRange{Init}, Maps,
      Iterators, [&](OpBuilder &NB, Location L, ValueRange Args) {
        Value R = Body(NB, L, Args.drop_back());
        linalg::YieldOp::create(NB, L, R);
      });
  return Generic.getResult(0);
}

Value NodeContext::reshape(Value V, ArrayRef<int64_t> Shape) {
  auto From = cast<RankedTensorType>(V.getType());
  if (From.getShape() == Shape)
    return V;
  auto ToType = RankedTensorType::get(Shape, From.getElementType());
  // A scalar to or from all-unit dimensions: no reassociation groups.
  if (From.getRank() == 0)
    return tensor::ExpandShapeOp::create(B, Loc, ToType, V,
                                         ArrayRef<ReassociationIndices>{});
  if (Shape.empty())
    return tensor::CollapseShapeOp::create(B, Loc, ToType, V,
                                           ArrayRef<ReassociationIndices>{});
  // Collapse to one dimension, then expand: views, no copy.
  auto Group = [](int64_t N) {
    ReassociationIndices R;
    for (int64_t I = 0; I != N; ++I)
      R.push_back(I);
    return SmallVector<ReassociationIndices>{R};
  };
  Value Flat = V;
  if (From.getRank() != 1)
    Flat = tensor::CollapseShapeOp::create(
        B, Loc,
        RankedTensorType::get({From.getNumElements()}, From.getElementType()),
        V, Group(From.getRank()));
  if (Shape.size() == 1)
    return Flat;
  return tensor::ExpandShapeOp::create(B, Loc, ToType, Flat,
                                       Group(Shape.size()));
}

Value NodeContext::convertScalar(OpBuilder &NB, Location L, Value V,
                                 int32_t From, int32_t To) {
  Type T = mlirElemType(context(), To);
  if (From == To || V.getType() == T) {
    if (From == Bool || To != Bool)
      return V;
  }
  if (To == Bool) {
    if (isFloatType(From)) {
      Value Zero = arith::ConstantOp::create(
          NB, L, NB.getFloatAttr(V.getType(), 0.0));
      return arith::CmpFOp::create(NB, L, arith::CmpFPredicate::UNE, V, Zero);
    }
    Value Zero = arith::ConstantOp::create(
        NB, L, NB.getIntegerAttr(V.getType(), 0));
    return arith::CmpIOp::create(NB, L, arith::CmpIPredicate::ne, V, Zero);
  }
  if (isFloatType(From) && isFloatType(To)) {
    unsigned FW = V.getType().getIntOrFloatBitWidth(), TW =
                                                         T.getIntOrFloatBitWidth();
    if (FW < TW)
      return arith::ExtFOp::create(NB, L, T, V);
    return arith::TruncFOp::create(NB, L, T, V);
  }
  if (isFloatType(From)) {
    if (isUnsignedType(To))
      return arith::FPToUIOp::create(NB, L, T, V);
    return arith::FPToSIOp::create(NB, L, T, V);
  }
  if (isFloatType(To)) {
    if (isUnsignedType(From))
      return arith::UIToFPOp::create(NB, L, T, V);
    return arith::SIToFPOp::create(NB, L, T, V);
  }
  unsigned FW = V.getType().getIntOrFloatBitWidth(),
           TW = T.getIntOrFloatBitWidth();
  if (FW == TW)
    return V;
  if (FW > TW)
    return arith::TruncIOp::create(NB, L, T, V);
  if (isUnsignedType(From))
    return arith::ExtUIOp::create(NB, L, T, V);
  return arith::ExtSIOp::create(NB, L, T, V);
}

void lwp::onnx::setElementwiseWork(NodeContext &C, ArrayRef<int64_t> OutShape,
                                   int32_t OutType, int64_t OpsPerElement) {
  int64_t Read = 0;
  for (unsigned I = 0; I != C.numInputs(); ++I)
    if (C.hasInput(I))
      Read += C.input(I).numElements() * elemSize(C.input(I).Type);
  int64_t Elements = product(OutShape);
  C.setWork(Elements * OpsPerElement, Read, Elements * elemSize(OutType));
}

LogicalResult lwp::onnx::checkShape(NodeContext &C, ArrayRef<int64_t> Shape,
                                    llvm::StringRef What) {
  int64_t Elements = 1;
  for (int64_t D : Shape) {
    if (D < 0)
      return C.error(What + " would have a negative dimension");
    if (__builtin_mul_overflow(Elements, D, &Elements) ||
        Elements > MaxTensorElements)
      return C.error(What + " would have more than 2^31 elements");
  }
  return success();
}
