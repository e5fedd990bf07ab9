//===- OpsElementwise.cpp - Elementwise ONNX operators --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Arithmetic with numpy broadcasting, activations, comparisons and Cast: one
// linalg.generic each. Nodes whose inputs are all known and small (shape
// arithmetic) are folded at import.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include <cmath>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
/// Builds one output element from the input elements; Type is the ONNX
/// element type of the inputs (after promotion) and Out the output's.
using ScalarBuilder =
    std::function<Value(OpBuilder &, Location, ValueRange, int32_t Type)>;
/// Folds one element (doubles; integer types are exact up to 2^53).
using ScalarFolder = std::function<double(ArrayRef<double>, int32_t Type)>;

constexpr int64_t FoldLimit = 4096;

Value cstF(OpBuilder &B, Location L, Type T, double V) {
  return arith::ConstantOp::create(B, L, B.getFloatAttr(T, V));
}

Value cstI(OpBuilder &B, Location L, Type T, int64_t V) {
  return arith::ConstantOp::create(B, L, B.getIntegerAttr(T, V));
}

/// Folds a node whose inputs are known: numpy broadcasting, element by
/// element. Returns false when an input is unknown or the result is large.
bool tryFold(NodeContext &C, ArrayRef<unsigned> Inputs,
             ArrayRef<int64_t> OutShape, int32_t OutType,
             const ScalarFolder &F, int32_t Type) {
  if (!F || product(OutShape) > FoldLimit)
    return false;
  SmallVector<const ConstData *> Known;
  for (unsigned I : Inputs) {
    const ConstData *K = C.constInput(I);
    if (!K)
      return false;
    Known.push_back(K);
  }
  auto Out = ConstData::zeros(OutType, OutShape);
  int64_t N = product(OutShape), Rank = OutShape.size();
  SmallVector<int64_t, 4> Index(Rank, 0);
  SmallVector<double, 4> Args(Known.size());
  for (int64_t E = 0; E != N; ++E) {
    int64_t Rest = E;
    for (int64_t D = Rank - 1; D >= 0; --D) {
      Index[D] = Rest % OutShape[D];
      Rest /= OutShape[D];
    }
    for (unsigned K = 0; K != Known.size(); ++K) {
      ArrayRef<int64_t> S = Known[K]->Shape;
      int64_t Lead = Rank - S.size(), Flat = 0;
      for (unsigned D = 0; D != S.size(); ++D)
        Flat = Flat * S[D] + (S[D] == 1 ? 0 : Index[Lead + D]);
      Args[K] = Known[K]->getDouble(Flat);
    }
    Out->setDouble(E, F(Args, Type));
  }
  C.setConstOutput(0, Out);
  return true;
}

/// Imports a node of \p Inputs (indices of present inputs) broadcast
/// together; the output has \p OutType (0: the inputs' type).
LogicalResult importBroadcast(NodeContext &C, ArrayRef<unsigned> Inputs,
                              int32_t OutType, int64_t OpsPerElement,
                              const ScalarBuilder &Build,
                              const ScalarFolder &Fold = nullptr,
                              int32_t Type = 0) {
  if (Inputs.empty())
    return C.error("no inputs");
  if (!Type)
    Type = C.input(Inputs[0]).Type;
  if (!OutType)
    OutType = Type;
  SmallVector<int64_t, 4> Shape(C.input(Inputs[0]).Shape);
  for (unsigned I : Inputs.drop_front()) {
    auto S = NodeContext::broadcastShapes(Shape, C.input(I).Shape);
    if (!S)
      return C.error("input shapes do not broadcast");
    Shape = *S;
  }
  if (tryFold(C, Inputs, Shape, OutType, Fold, Type))
    return success();
  SmallVector<Value> Values;
  SmallVector<int32_t> Types;
  for (unsigned I : Inputs) {
    Values.push_back(C.value(I));
    Types.push_back(C.input(I).Type);
  }
  Value R = C.elementwise(
      Values, Shape, OutType, [&](OpBuilder &B, Location L, ValueRange Args) {
        SmallVector<Value, 4> Converted;
        for (unsigned K = 0; K != Args.size(); ++K)
          Converted.push_back(C.convertScalar(B, L, Args[K], Types[K], Type));
        return Build(B, L, Converted, Type);
      });
  C.setOutput(0, R, OutType);
  setElementwiseWork(C, Shape, OutType, OpsPerElement);
  return success();
}

SmallVector<unsigned> presentInputs(NodeContext &C) {
  SmallVector<unsigned> In;
  for (unsigned I = 0; I != C.numInputs(); ++I)
    if (C.hasInput(I))
      In.push_back(I);
  return In;
}

/// Registers a binary (or variadic) arithmetic operator.
void binary(OpTable &T, StringRef Name,
            std::function<Value(OpBuilder &, Location, Value, Value, int32_t)>
                Build,
            std::function<double(double, double, int32_t)> Fold) {
  T[Name] = [Build, Fold](NodeContext &C) {
    SmallVector<unsigned> In = presentInputs(C);
    return importBroadcast(
        C, In, 0, std::max<int64_t>(1, In.size() - 1),
        [Build](OpBuilder &B, Location L, ValueRange A, int32_t Ty) {
          Value R = A[0];
          for (Value V : A.drop_front())
            R = Build(B, L, R, V, Ty);
          return R;
        },
        [Fold](ArrayRef<double> A, int32_t Ty) {
          double R = A[0];
          for (double V : A.drop_front())
            R = Fold(R, V, Ty);
          return R;
        });
  };
}

/// Registers a unary operator that computes in floating point.
void unary(OpTable &T, StringRef Name, int64_t Ops,
           std::function<Value(NodeContext &, OpBuilder &, Location, Value,
                               int32_t)>
               Build,
           std::function<double(NodeContext &, double)> Fold = nullptr) {
  T[Name] = [Build, Fold, Ops](NodeContext &C) {
    ScalarFolder F;
    if (Fold)
      F = [&C, Fold](ArrayRef<double> A, int32_t) { return Fold(C, A[0]); };
    return importBroadcast(
        C, {0}, 0, Ops,
        [&C, Build](OpBuilder &B, Location L, ValueRange A, int32_t Ty) {
          return Build(C, B, L, A[0], Ty);
        },
        F);
  };
}

Value addV(OpBuilder &B, Location L, Value X, Value Y, int32_t Ty) {
  return isFloatType(Ty) ? Value(arith::AddFOp::create(B, L, X, Y))
                         : Value(arith::AddIOp::create(B, L, X, Y));
}
Value subV(OpBuilder &B, Location L, Value X, Value Y, int32_t Ty) {
  return isFloatType(Ty) ? Value(arith::SubFOp::create(B, L, X, Y))
                         : Value(arith::SubIOp::create(B, L, X, Y));
}
Value mulV(OpBuilder &B, Location L, Value X, Value Y, int32_t Ty) {
  return isFloatType(Ty) ? Value(arith::MulFOp::create(B, L, X, Y))
                         : Value(arith::MulIOp::create(B, L, X, Y));
}
Value divV(OpBuilder &B, Location L, Value X, Value Y, int32_t Ty) {
  if (isFloatType(Ty))
    return arith::DivFOp::create(B, L, X, Y);
  if (isUnsignedType(Ty))
    return arith::DivUIOp::create(B, L, X, Y);
  return arith::DivSIOp::create(B, L, X, Y);
}
Value minV(OpBuilder &B, Location L, Value X, Value Y, int32_t Ty) {
  if (isFloatType(Ty))
    return arith::MinimumFOp::create(B, L, X, Y);
  if (isUnsignedType(Ty))
    return arith::MinUIOp::create(B, L, X, Y);
  return arith::MinSIOp::create(B, L, X, Y);
}
Value maxV(OpBuilder &B, Location L, Value X, Value Y, int32_t Ty) {
  if (isFloatType(Ty))
    return arith::MaximumFOp::create(B, L, X, Y);
  if (isUnsignedType(Ty))
    return arith::MaxUIOp::create(B, L, X, Y);
  return arith::MaxSIOp::create(B, L, X, Y);
}

double truncIfInt(double V, int32_t Ty) {
  return isFloatType(Ty) ? V : std::trunc(V);
}

/// Registers a comparison; its output is bool.
void compare(OpTable &T, StringRef Name, arith::CmpFPredicate FP,
             arith::CmpIPredicate SP, arith::CmpIPredicate UP,
             std::function<bool(double, double)> Fold) {
  T[Name] = [=](NodeContext &C) {
    return importBroadcast(
        C, {0, 1}, Bool, 1,
        [=](OpBuilder &B, Location L, ValueRange A, int32_t Ty) -> Value {
          if (isFloatType(Ty))
            return arith::CmpFOp::create(B, L, FP, A[0], A[1]);
          return arith::CmpIOp::create(B, L, isUnsignedType(Ty) ? UP : SP,
                                       A[0], A[1]);
        },
        [=](ArrayRef<double> A, int32_t) { return Fold(A[0], A[1]) ? 1 : 0; });
  };
}

/// Clip: bounds from attributes before opset 11, from the optional inputs
/// 1 and 2 after (known at import, or scalars read in the loop). A bound
/// not given does not clip.
LogicalResult importClip(NodeContext &C) {
  std::optional<double> Lo, Hi;
  SmallVector<unsigned> In{0};
  std::optional<unsigned> LoIn, HiIn;
  if (C.opset() < 11) {
    if (C.hasAttr("min"))
      Lo = C.attrFloat("min", 0);
    if (C.hasAttr("max"))
      Hi = C.attrFloat("max", 0);
  } else {
    for (unsigned I : {1u, 2u}) {
      if (!C.hasInput(I))
        continue;
      if (C.input(I).numElements() != 1)
        return C.error("min and max must be scalars");
      if (const ConstData *K = C.constInput(I)) {
        (I == 1 ? Lo : Hi) = K->getDouble(0);
      } else {
        In.push_back(I);
        (I == 1 ? LoIn : HiIn) = In.size() - 1;
      }
    }
  }
  return importBroadcast(
      C, In, 0, 2,
      [=](OpBuilder &B, Location L, ValueRange A, int32_t T) {
        Value X = A[0];
        Type ET = X.getType();
        auto Bound = [&](double V) {
          return isFloatType(T) ? cstF(B, L, ET, V)
                                : cstI(B, L, ET, static_cast<int64_t>(V));
        };
        Value LoV = LoIn ? A[*LoIn] : (Lo ? Bound(*Lo) : Value());
        Value HiV = HiIn ? A[*HiIn] : (Hi ? Bound(*Hi) : Value());
        if (LoV)
          X = maxV(B, L, X, LoV, T);
        if (HiV)
          X = minV(B, L, X, HiV, T);
        return X;
      },
      [=](ArrayRef<double> A, int32_t) {
        double X = A[0];
        if (LoIn || Lo)
          X = std::max(X, LoIn ? A[*LoIn] : *Lo);
        if (HiIn || Hi)
          X = std::min(X, HiIn ? A[*HiIn] : *Hi);
        return X;
      });
}

LogicalResult importCast(NodeContext &C) {
  int32_t To = C.attrInt("to", 0);
  if (!elemSize(To))
    return C.error("Cast to " + onnxTypeName(To) + " is not supported");
  int32_t From = C.input(0).Type;
  return importBroadcast(
      C, {0}, To, 1,
      [&C, From, To](OpBuilder &B, Location L, ValueRange A, int32_t) {
        return C.convertScalar(B, L, A[0], From, To);
      },
      [To](ArrayRef<double> A, int32_t) {
        if (To == Bool)
          return A[0] != 0 ? 1.0 : 0.0;
        return isFloatType(To) ? A[0] : std::trunc(A[0]);
      },
      From);
}

LogicalResult importWhere(NodeContext &C) {
  int32_t Ty = C.input(1).Type;
  SmallVector<int64_t, 4> Shape(C.input(0).Shape);
  for (unsigned I : {1u, 2u}) {
    auto S = NodeContext::broadcastShapes(Shape, C.input(I).Shape);
    if (!S)
      return C.error("input shapes do not broadcast");
    Shape = *S;
  }
  if (tryFold(C, {0, 1, 2}, Shape, Ty,
              [](ArrayRef<double> A, int32_t) { return A[0] ? A[1] : A[2]; },
              Ty))
    return success();
  Value R = C.elementwise({C.value(0), C.value(1), C.value(2)}, Shape, Ty,
                          [](OpBuilder &B, Location L, ValueRange A) {
                            return arith::SelectOp::create(B, L, A[0], A[1],
                                                           A[2])
                                .getResult();
                          });
  C.setOutput(0, R, Ty);
  setElementwiseWork(C, Shape, Ty, 1);
  return success();
}

} // namespace

void lwp::onnx::registerElementwiseOps(OpTable &T) {
  binary(T, "Add", addV,
         [](double X, double Y, int32_t Ty) { return X + Y; });
  binary(T, "Sum", addV,
         [](double X, double Y, int32_t Ty) { return X + Y; });
  binary(T, "Sub", subV,
         [](double X, double Y, int32_t Ty) { return X - Y; });
  binary(T, "Mul", mulV,
         [](double X, double Y, int32_t Ty) { return X * Y; });
  binary(T, "Div", divV, [](double X, double Y, int32_t Ty) {
    return truncIfInt(Y == 0 ? 0 : X / Y, Ty);
  });
  binary(T, "Min", minV,
         [](double X, double Y, int32_t) { return std::min(X, Y); });
  binary(T, "Max", maxV,
         [](double X, double Y, int32_t) { return std::max(X, Y); });
  T["Mean"] = [](NodeContext &C) {
    SmallVector<unsigned> In = presentInputs(C);
    double N = In.size();
    return importBroadcast(
        C, In, 0, In.size(),
        [N](OpBuilder &B, Location L, ValueRange A, int32_t Ty) {
          Value R = A[0];
          for (Value V : A.drop_front())
            R = addV(B, L, R, V, Ty);
          return arith::DivFOp::create(B, L, R, cstF(B, L, R.getType(), N))
              .getResult();
        });
  };
  T["Pow"] = [](NodeContext &C) {
    int32_t Ty = C.input(0).Type;
    if (!isFloatType(Ty))
      return C.error("Pow of integers is not supported");
    int32_t ExpTy = C.input(1).Type;
    SmallVector<int64_t, 4> Shape(C.input(0).Shape);
    auto S = NodeContext::broadcastShapes(Shape, C.input(1).Shape);
    if (!S)
      return C.error("input shapes do not broadcast");
    if (tryFold(C, {0, 1}, *S, Ty,
                [](ArrayRef<double> A, int32_t) {
                  return std::pow(A[0], A[1]);
                },
                Ty))
      return success();
    // x^2 (LayerNorm's variance) as a multiplication: exact, and cheaper.
    const ConstData *E = C.constInput(1);
    bool Square = E && E->numElements() == 1 && E->getDouble(0) == 2.0;
    Value R = C.elementwise(
        {C.value(0), C.value(1)}, *S, Ty,
        [&](OpBuilder &B, Location L, ValueRange A) -> Value {
          if (Square)
            return arith::MulFOp::create(B, L, A[0], A[0]);
          Value Y = C.convertScalar(B, L, A[1], ExpTy, Ty);
          return math::PowFOp::create(B, L, A[0], Y);
        });
    C.setOutput(0, R, Ty);
    setElementwiseWork(C, *S, Ty, 1);
    return success();
  };

  auto FloatOnly = [](std::function<Value(OpBuilder &, Location, Value)> F) {
    return [F](NodeContext &C, OpBuilder &B, Location L, Value X,
               int32_t Ty) -> Value {
      if (!isFloatType(Ty)) {
        (void)C.error("integer inputs are not supported");
        return X;
      }
      return F(B, L, X);
    };
  };
  unary(T, "Sqrt", 1,
        FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::SqrtOp::create(B, L, X).getResult();
        }),
        [](NodeContext &, double X) { return std::sqrt(X); });
  unary(T, "Exp", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::ExpOp::create(B, L, X).getResult();
        }));
  unary(T, "Log", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::LogOp::create(B, L, X).getResult();
        }));
  unary(T, "Tanh", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::TanhOp::create(B, L, X).getResult();
        }));
  unary(T, "Erf", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::ErfOp::create(B, L, X).getResult();
        }));
  unary(T, "Floor", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::FloorOp::create(B, L, X).getResult();
        }),
        [](NodeContext &, double X) { return std::floor(X); });
  unary(T, "Ceil", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return math::CeilOp::create(B, L, X).getResult();
        }),
        [](NodeContext &, double X) { return std::ceil(X); });
  unary(T, "Reciprocal", 1, FloatOnly([](OpBuilder &B, Location L, Value X) {
          return arith::DivFOp::create(B, L, cstF(B, L, X.getType(), 1.0), X)
              .getResult();
        }));
  unary(T, "Sigmoid", 4, FloatOnly([](OpBuilder &B, Location L, Value X) {
          Type Ty = X.getType();
          Value E = math::ExpOp::create(B, L, arith::NegFOp::create(B, L, X));
          Value D = arith::AddFOp::create(B, L, cstF(B, L, Ty, 1.0), E);
          return arith::DivFOp::create(B, L, cstF(B, L, Ty, 1.0), D)
              .getResult();
        }));
  unary(
      T, "Neg", 1,
      [](NodeContext &, OpBuilder &B, Location L, Value X,
         int32_t Ty) -> Value {
        if (isFloatType(Ty))
          return arith::NegFOp::create(B, L, X);
        return arith::SubIOp::create(B, L, cstI(B, L, X.getType(), 0), X);
      },
      [](NodeContext &, double X) { return -X; });
  unary(
      T, "Abs", 1,
      [](NodeContext &, OpBuilder &B, Location L, Value X,
         int32_t Ty) -> Value {
        if (isFloatType(Ty))
          return math::AbsFOp::create(B, L, X);
        if (isUnsignedType(Ty))
          return X;
        return math::AbsIOp::create(B, L, X);
      },
      [](NodeContext &, double X) { return std::fabs(X); });
  unary(T, "Relu", 1,
        [](NodeContext &, OpBuilder &B, Location L, Value X, int32_t Ty) {
          Value Zero = isFloatType(Ty) ? cstF(B, L, X.getType(), 0.0)
                                       : cstI(B, L, X.getType(), 0);
          return maxV(B, L, X, Zero, Ty);
        });
  unary(T, "LeakyRelu", 2,
        [](NodeContext &C, OpBuilder &B, Location L, Value X,
           int32_t Ty) -> Value {
          Type ET = X.getType();
          Value Alpha = cstF(B, L, ET, C.attrFloat("alpha", 0.01f));
          Value Neg = arith::MulFOp::create(B, L, X, Alpha);
          Value IsNeg = arith::CmpFOp::create(B, L, arith::CmpFPredicate::OLT,
                                              X, cstF(B, L, ET, 0.0));
          return arith::SelectOp::create(B, L, IsNeg, Neg, X);
        });
  unary(T, "HardSigmoid", 4,
        [](NodeContext &C, OpBuilder &B, Location L, Value X,
           int32_t Ty) -> Value {
          Type ET = X.getType();
          Value A = cstF(B, L, ET, C.attrFloat("alpha", 0.2f));
          Value Bt = cstF(B, L, ET, C.attrFloat("beta", 0.5f));
          Value Y = arith::AddFOp::create(
              B, L, arith::MulFOp::create(B, L, X, A), Bt);
          Y = arith::MaximumFOp::create(B, L, Y, cstF(B, L, ET, 0.0));
          return arith::MinimumFOp::create(B, L, Y, cstF(B, L, ET, 1.0));
        });
  unary(T, "HardSwish", 5,
        [](NodeContext &C, OpBuilder &B, Location L, Value X,
           int32_t Ty) -> Value {
          Type ET = X.getType();
          Value Y = arith::AddFOp::create(
              B, L, arith::MulFOp::create(B, L, X, cstF(B, L, ET, 1.0 / 6)),
              cstF(B, L, ET, 0.5));
          Y = arith::MaximumFOp::create(B, L, Y, cstF(B, L, ET, 0.0));
          Y = arith::MinimumFOp::create(B, L, Y, cstF(B, L, ET, 1.0));
          return arith::MulFOp::create(B, L, X, Y);
        });
  unary(T, "Not", 1,
        [](NodeContext &, OpBuilder &B, Location L, Value X, int32_t) {
          return arith::XOrIOp::create(B, L, X, cstI(B, L, X.getType(), 1))
              .getResult();
        },
        [](NodeContext &, double X) { return X ? 0.0 : 1.0; });
  T["Clip"] = importClip;
  T["Cast"] = importCast;
  T["Where"] = importWhere;
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  compare(T, "Equal", FP::OEQ, IP::eq, IP::eq,
          [](double X, double Y) { return X == Y; });
  compare(T, "Less", FP::OLT, IP::slt, IP::ult,
          [](double X, double Y) { return X < Y; });
  compare(T, "LessOrEqual", FP::OLE, IP::sle, IP::ule,
          [](double X, double Y) { return X <= Y; });
  compare(T, "Greater", FP::OGT, IP::sgt, IP::ugt,
          [](double X, double Y) { return X > Y; });
  compare(T, "GreaterOrEqual", FP::OGE, IP::sge, IP::uge,
          [](double X, double Y) { return X >= Y; });
  binary(
      T, "And",
      [](OpBuilder &B, Location L, Value X, Value Y, int32_t) {
        return arith::AndIOp::create(B, L, X, Y).getResult();
      },
      [](double X, double Y, int32_t) { return (X && Y) ? 1.0 : 0.0; });
  binary(
      T, "Or",
      [](OpBuilder &B, Location L, Value X, Value Y, int32_t) {
        return arith::OrIOp::create(B, L, X, Y).getResult();
      },
      [](double X, double Y, int32_t) { return (X || Y) ? 1.0 : 0.0; });
  binary(
      T, "Xor",
      [](OpBuilder &B, Location L, Value X, Value Y, int32_t) {
        return arith::XOrIOp::create(B, L, X, Y).getResult();
      },
      [](double X, double Y, int32_t) { return (!X != !Y) ? 1.0 : 0.0; });
}
