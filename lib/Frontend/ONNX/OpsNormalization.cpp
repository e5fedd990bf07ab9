//===- OpsNormalization.cpp - Reductions, Softmax, normalizations ---------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// A reduction is a linalg.generic whose output drops the reduced
// dimensions; Softmax and the normalizations are reductions followed by
// elementwise generics that read the reduced values back with maps that
// drop the same dimensions. BatchNormalization with known parameters folds
// them into one scale and one shift per channel at import.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

using Combine = std::function<Value(OpBuilder &, Location, Value X,
                                    Value Acc)>;

/// Reduces \p X (shape \p Shape, ONNX type \p Type) over the dimensions
/// marked in \p Reduced: the result keeps the other dimensions in order.
/// \p Prepare maps each element before combining (nullptr: as it is).
Value reduce(NodeContext &C, Value X, ArrayRef<int64_t> Shape, int32_t Type,
             ArrayRef<bool> Reduced, double Init, const Combine &Comb) {
  MLIRContext *Ctx = C.context();
  unsigned Rank = Shape.size();
  SmallVector<int64_t, 4> Kept;
  SmallVector<AffineExpr> OutE;
  SmallVector<utils::IteratorType> It;
  for (unsigned I = 0; I != Rank; ++I) {
    It.push_back(Reduced[I] ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
    if (!Reduced[I]) {
      Kept.push_back(Shape[I]);
      OutE.push_back(getAffineDimExpr(I, Ctx));
    }
  }
  Value Acc = C.filled(Kept, Type, Init);
  SmallVector<AffineMap> Maps{AffineMap::getMultiDimIdentityMap(Rank, Ctx),
                              AffineMap::get(Rank, 0, OutE, Ctx)};
  return linalg::GenericOp::create(
             C.builder(), C.loc(), TypeRange{Acc.getType()}, ValueRange{X},
             ValueRange{Acc}, Maps, It,
             [&](OpBuilder &B, Location L, ValueRange A) {
               linalg::YieldOp::create(B, L,
                                       ValueRange{Comb(B, L, A[0], A[1])});
             })
      .getResult(0);
}

/// An elementwise generic over \p Shape reading \p X (full shape) and
/// \p Reduced values (shape without the \p Mask dimensions).
Value withReduced(NodeContext &C, Value X, ArrayRef<Value> ReducedValues,
                  ArrayRef<int64_t> Shape, int32_t Type, ArrayRef<bool> Mask,
                  llvm::function_ref<Value(OpBuilder &, Location, ValueRange)>
                      Body) {
  MLIRContext *Ctx = C.context();
  unsigned Rank = Shape.size();
  SmallVector<AffineExpr> RedE;
  for (unsigned I = 0; I != Rank; ++I)
    if (!Mask[I])
      RedE.push_back(getAffineDimExpr(I, Ctx));
  SmallVector<AffineMap> Maps{AffineMap::getMultiDimIdentityMap(Rank, Ctx)};
  SmallVector<Value> Ins{X};
  for (Value R : ReducedValues) {
    Maps.push_back(AffineMap::get(Rank, 0, RedE, Ctx));
    Ins.push_back(R);
  }
  Maps.push_back(AffineMap::getMultiDimIdentityMap(Rank, Ctx));
  SmallVector<utils::IteratorType> It(Rank, utils::IteratorType::parallel);
  Value Init = C.empty(Shape, Type);
  return linalg::GenericOp::create(
             C.builder(), C.loc(), TypeRange{Init.getType()}, Ins,
             ValueRange{Init}, Maps, It,
             [&](OpBuilder &B, Location L, ValueRange A) {
               linalg::YieldOp::create(B, L,
                                       ValueRange{Body(B, L, A.drop_back())});
             })
      .getResult(0);
}

Value cstF(OpBuilder &B, Location L, Type T, double V) {
  return arith::ConstantOp::create(B, L, B.getFloatAttr(T, V));
}

enum class ReduceKind { Sum, Mean, Max, Min, Prod, L1, L2, SumSquare,
                        LogSumExp, LogSum };

LogicalResult importReduce(NodeContext &C, ReduceKind Kind) {
  const TensorValue &X = C.input(0);
  bool Float = isFloatType(X.Type);
  if (!Float && X.Type != Int64 && X.Type != Int32)
    return C.error("reductions take float, int32 or int64 tensors");
  int64_t Rank = X.rank();
  // Axes: an attribute, or input 1 (ReduceSum from opset 13).
  SmallVector<int64_t, 4> Axes;
  bool FromInput = C.hasInput(1);
  if (FromInput) {
    const ConstData *K = C.constInput(1);
    if (!K)
      return C.error("axes must be known at import");
    for (int64_t A : K->ints())
      Axes.push_back(A);
  } else {
    Axes = C.attrInts("axes");
  }
  bool KeepDims = C.attrInt("keepdims", 1) != 0;
  SmallVector<bool> Mask(Rank, Axes.empty());
  if (Axes.empty() && C.attrInt("noop_with_empty_axes", 0)) {
    C.forwardInput(0, 0);
    return success();
  }
  for (int64_t A : Axes) {
    auto N = normalizeAxis(A, Rank);
    if (!N)
      return C.error("axis " + std::to_string(A) + " out of range");
    Mask[*N] = true;
  }
  SmallVector<int64_t, 4> KeptShape, OutShape;
  int64_t Count = 1;
  for (int64_t I = 0; I != Rank; ++I) {
    if (Mask[I]) {
      Count *= X.Shape[I];
      if (KeepDims)
        OutShape.push_back(1);
    } else {
      KeptShape.push_back(X.Shape[I]);
      OutShape.push_back(X.Shape[I]);
    }
  }
  int32_t T = X.Type;
  double Init = 0;
  if (Kind == ReduceKind::Max)
    Init = Float ? -INFINITY : double(INT64_MIN);
  if (Kind == ReduceKind::Min)
    Init = Float ? INFINITY : double(INT64_MAX);
  if (Kind == ReduceKind::Prod)
    Init = 1;
  if (!Float && (Kind == ReduceKind::Max || Kind == ReduceKind::Min) &&
      T == Int32)
    Init = Kind == ReduceKind::Max ? INT32_MIN : INT32_MAX;
  Combine Comb = [&](OpBuilder &B, Location L, Value V, Value Acc) -> Value {
    switch (Kind) {
    case ReduceKind::Max:
      return Float ? Value(arith::MaximumFOp::create(B, L, Acc, V))
                   : Value(arith::MaxSIOp::create(B, L, Acc, V));
    case ReduceKind::Min:
      return Float ? Value(arith::MinimumFOp::create(B, L, Acc, V))
                   : Value(arith::MinSIOp::create(B, L, Acc, V));
    case ReduceKind::Prod:
      return Float ? Value(arith::MulFOp::create(B, L, Acc, V))
                   : Value(arith::MulIOp::create(B, L, Acc, V));
    case ReduceKind::L1:
      if (Float)
        V = math::AbsFOp::create(B, L, V);
      else
        V = math::AbsIOp::create(B, L, V);
      break;
    case ReduceKind::L2:
    case ReduceKind::SumSquare:
      V = Float ? Value(arith::MulFOp::create(B, L, V, V))
                : Value(arith::MulIOp::create(B, L, V, V));
      break;
    case ReduceKind::LogSumExp:
      V = math::ExpOp::create(B, L, V);
      break;
    default:
      break;
    }
    return Float ? Value(arith::AddFOp::create(B, L, Acc, V))
                 : Value(arith::AddIOp::create(B, L, Acc, V));
  };
  if (!Float && (Kind == ReduceKind::Mean || Kind == ReduceKind::L2 ||
                 Kind == ReduceKind::LogSumExp || Kind == ReduceKind::LogSum))
    return C.error("this reduction takes float tensors");
  Value R = reduce(C, C.value(0), X.Shape, T, Mask, Init, Comb);
  if (Kind == ReduceKind::Mean || Kind == ReduceKind::L2 ||
      Kind == ReduceKind::LogSumExp || Kind == ReduceKind::LogSum) {
    Value N = C.scalar(double(Count), T);
    R = C.elementwise({R}, KeptShape, T,
                      [&](OpBuilder &B, Location L, ValueRange A) -> Value {
                        if (Kind == ReduceKind::Mean)
                          return arith::DivFOp::create(B, L, A[0], N);
                        if (Kind == ReduceKind::L2)
                          return math::SqrtOp::create(B, L, A[0]);
                        return math::LogOp::create(B, L, A[0]);
                      });
  }
  C.setOutput(0, C.reshape(R, OutShape), T);
  int64_t Size = elemSize(T);
  C.setWork(X.numElements() + product(KeptShape), X.numElements() * Size,
            product(KeptShape) * Size);
  return success();
}

/// Softmax and LogSoftmax: opset 13 and later over one axis; before, over
/// the input flattened to [outer, inner] at the axis (default 1).
LogicalResult importSoftmax(NodeContext &C, bool Log) {
  const TensorValue &X = C.input(0);
  if (!isFloatType(X.Type))
    return C.error("Softmax takes float tensors");
  int64_t Rank = X.rank();
  bool Old = C.opset() < 13;
  auto AxisN = normalizeAxis(C.attrInt("axis", Old ? 1 : -1), Rank);
  if (!AxisN)
    return C.error("axis out of range");
  SmallVector<int64_t, 4> Shape(X.Shape);
  Value In = C.value(0);
  int64_t Axis = *AxisN;
  if (Old) {
    Shape = {product(ArrayRef<int64_t>(X.Shape).take_front(Axis)),
             product(ArrayRef<int64_t>(X.Shape).drop_front(Axis))};
    In = C.reshape(In, Shape);
    Axis = 1;
  }
  SmallVector<bool> Mask(Shape.size(), false);
  Mask[Axis] = true;
  int32_t T = X.Type;
  Value Max = reduce(C, In, Shape, T, Mask, -INFINITY,
                     [](OpBuilder &B, Location L, Value V, Value Acc) {
                       return arith::MaximumFOp::create(B, L, Acc, V)
                           .getResult();
                     });
  Value Exp = withReduced(C, In, {Max}, Shape, T, Mask,
                          [](OpBuilder &B, Location L, ValueRange A) {
                            Value D = arith::SubFOp::create(B, L, A[0], A[1]);
                            return math::ExpOp::create(B, L, D).getResult();
                          });
  Value Sum = reduce(C, Exp, Shape, T, Mask, 0.0,
                     [](OpBuilder &B, Location L, Value V, Value Acc) {
                       return arith::AddFOp::create(B, L, Acc, V).getResult();
                     });
  Value Y;
  if (Log) {
    Y = withReduced(C, In, {Max, Sum}, Shape, T, Mask,
                    [](OpBuilder &B, Location L, ValueRange A) {
                      Value D = arith::SubFOp::create(B, L, A[0], A[1]);
                      Value LS = math::LogOp::create(B, L, A[2]);
                      return arith::SubFOp::create(B, L, D, LS).getResult();
                    });
  } else {
    Y = withReduced(C, Exp, {Sum}, Shape, T, Mask,
                    [](OpBuilder &B, Location L, ValueRange A) {
                      return arith::DivFOp::create(B, L, A[0], A[1])
                          .getResult();
                    });
  }
  C.setOutput(0, C.reshape(Y, X.Shape), T);
  int64_t Size = elemSize(T);
  C.setWork(5 * X.numElements(), X.numElements() * Size,
            X.numElements() * Size);
  return success();
}

LogicalResult importBatchNorm(NodeContext &C) {
  const TensorValue &X = C.input(0);
  if (!isFloatType(X.Type))
    return C.error("BatchNormalization takes float tensors");
  if (C.attrInt("training_mode", 0))
    return C.error("training_mode 1 is not supported (inference only)");
  if (C.hasOutput(1) || C.hasOutput(2) || C.hasOutput(3) || C.hasOutput(4))
    return C.error("the training outputs (running mean and variance) are "
                   "not supported");
  if (X.rank() < 2)
    return C.error("input needs rank 2 or more");
  int64_t Ch = X.Shape[1];
  for (unsigned I = 1; I != 5; ++I)
    if (!C.hasInput(I) || C.input(I).numElements() != Ch)
      return C.error("scale, B, mean and var need one value per channel");
  double Eps = C.attrFloat("epsilon", 1e-5f);
  MLIRContext *Ctx = C.context();
  unsigned Rank = X.rank();
  AffineMap Channel =
      AffineMap::get(Rank, 0, {getAffineDimExpr(1, Ctx)}, Ctx);
  SmallVector<utils::IteratorType> It(Rank, utils::IteratorType::parallel);
  Value Init = C.empty(X.Shape, X.Type);
  AffineMap Id = AffineMap::getMultiDimIdentityMap(Rank, Ctx);
  const ConstData *S = C.constInput(1), *Bi = C.constInput(2),
                  *Mean = C.constInput(3), *Var = C.constInput(4);
  Value Y;
  if (S && Bi && Mean && Var) {
    // y = x * a + b, a = scale / sqrt(var + eps), b = B - mean * a.
    auto A = ConstData::zeros(X.Type, {Ch}), Sh = ConstData::zeros(X.Type,
                                                                   {Ch});
    for (int64_t I = 0; I != Ch; ++I) {
      double Av = S->getDouble(I) / std::sqrt(Var->getDouble(I) + Eps);
      A->setDouble(I, Av);
      Sh->setDouble(I, Bi->getDouble(I) - Mean->getDouble(I) * Av);
    }
    auto Dense = [&](const ConstData &K) -> Value {
      return arith::ConstantOp::create(
          C.builder(), C.loc(),
          DenseElementsAttr::getFromRawBuffer(
              C.tensorType({Ch}, X.Type),
              ArrayRef<char>(K.Raw.data(), K.Raw.size())));
    };
    Value AV = Dense(*A), BV = Dense(*Sh);
    Y = linalg::GenericOp::create(
            C.builder(), C.loc(), TypeRange{Init.getType()},
            ValueRange{C.value(0), AV, BV}, ValueRange{Init},
            ArrayRef<AffineMap>{Id, Channel, Channel, Id}, It,
            [](OpBuilder &B, Location L, ValueRange V) {
              Value M = arith::MulFOp::create(B, L, V[0], V[1]);
              linalg::YieldOp::create(
                  B, L, ValueRange{arith::AddFOp::create(B, L, M, V[2])});
            })
            .getResult(0);
  } else {
    Value EpsV = C.scalar(Eps, X.Type);
    Y = linalg::GenericOp::create(
            C.builder(), C.loc(), TypeRange{Init.getType()},
            ValueRange{C.value(0), C.value(1), C.value(2), C.value(3),
                       C.value(4)},
            ValueRange{Init},
            ArrayRef<AffineMap>{Id, Channel, Channel, Channel, Channel, Id},
            It,
            [EpsV](OpBuilder &B, Location L, ValueRange V) {
              Value D = arith::SubFOp::create(B, L, V[0], V[3]);
              Value Den = math::SqrtOp::create(
                  B, L, arith::AddFOp::create(B, L, V[4], EpsV));
              Value N = arith::DivFOp::create(B, L, D, Den);
              Value M = arith::MulFOp::create(B, L, N, V[1]);
              linalg::YieldOp::create(
                  B, L, ValueRange{arith::AddFOp::create(B, L, M, V[2])});
            })
            .getResult(0);
  }
  C.setOutput(0, Y, X.Type);
  int64_t Size = elemSize(X.Type);
  C.setWork(2 * X.numElements(), (X.numElements() + 4 * Ch) * Size,
            X.numElements() * Size);
  return success();
}

/// LayerNormalization (opset 17): over the dimensions from axis on, as
/// [outer, inner]; Scale and B broadcast to them.
LogicalResult importLayerNorm(NodeContext &C) {
  const TensorValue &X = C.input(0);
  if (!isFloatType(X.Type))
    return C.error("LayerNormalization takes float tensors");
  if (C.hasOutput(1) || C.hasOutput(2))
    return C.error("the Mean and InvStdDev outputs are not supported");
  int64_t Rank = X.rank();
  auto AxisN = normalizeAxis(C.attrInt("axis", -1), Rank);
  if (!AxisN)
    return C.error("axis out of range");
  double Eps = C.attrFloat("epsilon", 1e-5f);
  ArrayRef<int64_t> Tail = ArrayRef<int64_t>(X.Shape).drop_front(*AxisN);
  int64_t Outer = product(ArrayRef<int64_t>(X.Shape).take_front(*AxisN));
  int64_t Inner = product(Tail);
  SmallVector<int64_t, 4> Shape{Outer, Inner};
  int32_t T = X.Type;
  // Scale and B as [Inner]: broadcast to the normalized dimensions first.
  auto Param = [&](unsigned I) -> Value {
    if (!C.hasInput(I))
      return Value();
    const TensorValue &P = C.input(I);
    Value V = C.value(I);
    if (P.numElements() != Inner) {
      if (!NodeContext::broadcastShapes(Tail, P.Shape))
        return Value();
      V = C.elementwise({V}, Tail, T,
                        [](OpBuilder &, Location, ValueRange A) {
                          return A[0];
                        });
    }
    return C.reshape(V, {Inner});
  };
  Value Scale = Param(1), Bias = Param(2);
  if (!Scale || (C.hasInput(2) && !Bias))
    return C.error("Scale and B must broadcast to the normalized "
                   "dimensions");
  Value In = C.reshape(C.value(0), Shape);
  SmallVector<bool> Mask{false, true};
  auto Add = [](OpBuilder &B, Location L, Value V, Value Acc) {
    return arith::AddFOp::create(B, L, Acc, V).getResult();
  };
  Value N = C.scalar(double(Inner), T);
  Value Sum = reduce(C, In, Shape, T, Mask, 0.0, Add);
  Value Mean = C.elementwise({Sum}, {Outer}, T,
                             [&](OpBuilder &B, Location L, ValueRange A) {
                               return arith::DivFOp::create(B, L, A[0], N)
                                   .getResult();
                             });
  Value Centered = withReduced(C, In, {Mean}, Shape, T, Mask,
                               [](OpBuilder &B, Location L, ValueRange A) {
                                 return arith::SubFOp::create(B, L, A[0],
                                                              A[1])
                                     .getResult();
                               });
  Value SumSq = reduce(C, Centered, Shape, T, Mask, 0.0,
                       [](OpBuilder &B, Location L, Value V, Value Acc) {
                         Value Sq = arith::MulFOp::create(B, L, V, V);
                         return arith::AddFOp::create(B, L, Acc, Sq)
                             .getResult();
                       });
  Value EpsV = C.scalar(Eps, T);
  Value InvStd = C.elementwise(
      {SumSq}, {Outer}, T, [&](OpBuilder &B, Location L, ValueRange A) {
        Value Var = arith::DivFOp::create(B, L, A[0], N);
        return math::RsqrtOp::create(B, L,
                                     arith::AddFOp::create(B, L, Var, EpsV))
            .getResult();
      });
  // y = centered * invstd * scale + bias.
  MLIRContext *Ctx = C.context();
  AffineMap Id = AffineMap::getMultiDimIdentityMap(2, Ctx);
  AffineMap Row = AffineMap::get(2, 0, {getAffineDimExpr(0, Ctx)}, Ctx);
  AffineMap Col = AffineMap::get(2, 0, {getAffineDimExpr(1, Ctx)}, Ctx);
  SmallVector<Value> Ins{Centered, InvStd, Scale};
  SmallVector<AffineMap> Maps{Id, Row, Col};
  if (Bias) {
    Ins.push_back(Bias);
    Maps.push_back(Col);
  }
  Maps.push_back(Id);
  Value Init = C.empty(Shape, T);
  bool HasBias = static_cast<bool>(Bias);
  Value Y = linalg::GenericOp::create(
                C.builder(), C.loc(), TypeRange{Init.getType()}, Ins,
                ValueRange{Init}, Maps,
                SmallVector<utils::IteratorType>(
                    2, utils::IteratorType::parallel),
                [HasBias](OpBuilder &B, Location L, ValueRange V) {
                  Value R = arith::MulFOp::create(B, L, V[0], V[1]);
                  R = arith::MulFOp::create(B, L, R, V[2]);
                  if (HasBias)
                    R = arith::AddFOp::create(B, L, R, V[3]);
                  linalg::YieldOp::create(B, L, R);
                })
                .getResult(0);
  C.setOutput(0, C.reshape(Y, X.Shape), T);
  int64_t Size = elemSize(T);
  C.setWork(8 * X.numElements(), (X.numElements() + 2 * Inner) * Size,
            X.numElements() * Size);
  return success();
}

} // namespace

void lwp::onnx::registerNormalizationOps(OpTable &T) {
  auto R = [&](StringRef Name, ReduceKind K) {
    T[Name] = [K](NodeContext &C) { return importReduce(C, K); };
  };
  R("ReduceSum", ReduceKind::Sum);
  R("ReduceMean", ReduceKind::Mean);
  R("ReduceMax", ReduceKind::Max);
  R("ReduceMin", ReduceKind::Min);
  R("ReduceProd", ReduceKind::Prod);
  R("ReduceL1", ReduceKind::L1);
  R("ReduceL2", ReduceKind::L2);
  R("ReduceSumSquare", ReduceKind::SumSquare);
  R("ReduceLogSumExp", ReduceKind::LogSumExp);
  R("ReduceLogSum", ReduceKind::LogSum);
  T["Softmax"] = [](NodeContext &C) { return importSoftmax(C, false); };
  T["LogSoftmax"] = [](NodeContext &C) { return importSoftmax(C, true); };
  T["BatchNormalization"] = importBatchNorm;
  T["LayerNormalization"] = importLayerNorm;
}
