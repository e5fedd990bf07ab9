//===- OpsQuantization.cpp - Quantized and integer operators --------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The int8 operators as an integer target (Hexagon) runs them: 8-bit
// operands widened to i32 by their signedness (extsi / extui), their zero
// points subtracted, products accumulated in i32 by a linalg.generic with
// reduction iterators onto a linalg.fill of 0; then, for the QLinear forms,
// the accumulator requantized in float32:
//   y = saturate(round_half_to_even(acc * (x_scale * w_scale / y_scale))
//                + y_zero_point),
// the multiplier computed once (per tensor, channel, row or column; folded
// when the scales are known). A scale or zero point holding one value is a
// scalar the bodies capture (a constant when known, else extracted once
// before the generic); one per channel, row or column is an input of the
// generic whose indexing map follows that dimension. Convolution inputs are
// padded with their zero point (tensor.pad), so that padding contributes
// nothing. Rounding half to even is arithmetic (roundHalfEven), not
// math.roundeven, which Hexagon's C library cannot link. QuantizeLinear,
// DequantizeLinear and DynamicQuantizeLinear are elementwise generics.
//
// Work: an integer multiply-accumulate counts as 2 operations, like a float
// one; requantizing an output element as 6 (bias, multiply, round, zero
// point, two bounds), quantizing an element as 5 and dequantizing one as 2.
//
//===----------------------------------------------------------------------===//

#include "ConvGeometry.h"
#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <string>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

AffineExpr dim(MLIRContext *Ctx, unsigned I) {
  return getAffineDimExpr(I, Ctx);
}

Value cstF32(OpBuilder &B, Location L, double V) {
  return arith::ConstantOp::create(B, L, B.getF32FloatAttr(V));
}

Value cstI32(OpBuilder &B, Location L, int64_t V) {
  return arith::ConstantOp::create(B, L, B.getI32IntegerAttr(V));
}

bool is8Bit(int32_t Type) { return Type == Int8 || Type == UInt8; }

/// The values of the 8-bit type \p Type.
std::pair<int64_t, int64_t> range8(int32_t Type) {
  if (Type == UInt8)
    return {0, 255};
  return {-128, 127};
}

std::string shapeText(ArrayRef<int64_t> Shape) {
  std::string S = "[";
  for (size_t I = 0; I != Shape.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Shape[I]);
  return S + "]";
}

/// \p V, an integer of ONNX type \p OnnxType, widened to i32 by its
/// signedness.
Value toI32(OpBuilder &B, Location L, Value V, int32_t OnnxType) {
  Type I32 = B.getI32Type();
  if (V.getType() == I32)
    return V;
  if (isUnsignedType(OnnxType))
    return arith::ExtUIOp::create(B, L, I32, V);
  return arith::ExtSIOp::create(B, L, I32, V);
}

/// \p V, of ONNX type \p OnnxType, as f32.
Value toF32(OpBuilder &B, Location L, Value V, int32_t OnnxType) {
  Type F32 = B.getF32Type();
  if (V.getType() == F32)
    return V;
  if (isFloatType(OnnxType))
    return arith::TruncFOp::create(B, L, F32, V);
  if (isUnsignedType(OnnxType))
    return arith::UIToFPOp::create(B, L, F32, V);
  return arith::SIToFPOp::create(B, L, F32, V);
}

/// round_half_to_even(\p F), f32, in arithmetic: math.roundeven becomes a
/// call of roundevenf, which Hexagon's C library does not have. Adding and
/// subtracting 2^23 (of F's sign) rounds a magnitude below 2^23 to an
/// integer in the default rounding mode (to nearest, ties to even); larger
/// ones are integers already (and NaN stays NaN).
Value roundHalfEven(OpBuilder &B, Location L, Value F) {
  Value Big = cstF32(B, L, 8388608.0);
  Value Neg = arith::CmpFOp::create(B, L, arith::CmpFPredicate::OLT, F,
                                    cstF32(B, L, 0));
  Value S = arith::SelectOp::create(B, L, Neg, cstF32(B, L, -8388608.0), Big);
  Value R = arith::SubFOp::create(B, L, arith::AddFOp::create(B, L, F, S), S);
  Value Small = arith::CmpFOp::create(B, L, arith::CmpFPredicate::OLT,
                                      math::AbsFOp::create(B, L, F), Big);
  return arith::SelectOp::create(B, L, Small, R, F);
}

/// saturate(round_half_to_even(\p F) + \p Zp) as the 8-bit type \p Out;
/// \p F and \p Zp (null: none) are f32.
Value saturate8(OpBuilder &B, Location L, Value F, Value Zp, int32_t Out) {
  Value R = roundHalfEven(B, L, F);
  if (Zp)
    R = arith::AddFOp::create(B, L, R, Zp);
  auto [Lo, Hi] = range8(Out);
  R = arith::MaxNumFOp::create(B, L, R, cstF32(B, L, Lo));
  R = arith::MinNumFOp::create(B, L, R, cstF32(B, L, Hi));
  Value I = arith::FPToSIOp::create(B, L, B.getI32Type(), R);
  return arith::TruncIOp::create(B, L, B.getI8Type(), I);
}

/// A scale, zero point or bias as a generic's body reads it, as i32 (zero
/// points, bias) or f32 (scales; zero points added to a float).
struct QParam {
  /// ONNX type of the input; Undefined when the optional input is absent
  /// (its value is 0).
  int32_t Type = Undefined;
  bool Int = false;
  const ConstData *Const = nullptr;
  /// One value unknown at import: the converted element, made before the
  /// generic, and the element as the input holds it.
  Value Scalar, Raw;
  /// Several values: the input (made on first use, viewed as Shape), its
  /// map, and its position among the generic's inputs.
  NodeContext *Node = nullptr;
  unsigned Input = 0;
  SmallVector<int64_t, 4> Shape;
  Value Tensor;
  AffineMap Map;
  unsigned Arg = 0;

  bool present() const { return Type != Undefined; }
  bool perTensor() const { return !Map; }
  /// The value when it is one known value.
  std::optional<double> known() const {
    if (!present())
      return 0.0;
    if (Const && perTensor())
      return Const->getDouble(0);
    return std::nullopt;
  }
  bool knownZero() const {
    std::optional<double> K = known();
    return K && *K == 0;
  }
  /// The one value, made at \p B's insertion point when known.
  Value scalar(OpBuilder &B, Location L) const {
    if (Scalar)
      return Scalar;
    double V = *known();
    return Int ? cstI32(B, L, static_cast<int64_t>(V)) : cstF32(B, L, V);
  }
  Value tensor() {
    if (!Tensor)
      Tensor = Node->reshape(Node->value(Input), Shape);
    return Tensor;
  }
  /// The element in a body whose block arguments are \p Args.
  Value get(OpBuilder &B, Location L, ValueRange Args) const {
    if (perTensor())
      return scalar(B, L);
    return Int ? toI32(B, L, Args[Arg], Type) : toF32(B, L, Args[Arg], Type);
  }
};

/// Reads input \p I of \p C as a parameter of a generic of \p Loops loops.
/// It broadcasts (numpy rules) to \p Target, whose dimension D the loop
/// Dims[D] walks (-1: the parameter may not vary along it); a parameter
/// holding one value is a scalar whatever its rank. \p View, when given,
/// reshapes a parameter of several values first (a per-row vector as
/// [M, 1]). \p Rule is the error when the shape does not fit.
FailureOr<QParam> readParam(NodeContext &C, unsigned I, bool Int,
                            ArrayRef<int64_t> Target, ArrayRef<int64_t> Dims,
                            unsigned Loops, const std::string &Rule,
                            ArrayRef<int64_t> View = {}) {
  OpBuilder &B = C.builder();
  Location L = C.loc();
  QParam P;
  P.Int = Int;
  if (!C.hasInput(I))
    return P;
  const TensorValue &T = C.input(I);
  P.Type = T.Type;
  P.Const = C.constInput(I);
  if (T.numElements() == 1) {
    if (P.Const)
      return P;
    SmallVector<Value> Index;
    if (T.rank())
      Index.assign(T.rank(), arith::ConstantIndexOp::create(B, L, 0));
    P.Raw = tensor::ExtractOp::create(B, L, C.value(I), Index);
    P.Scalar = Int ? toI32(B, L, P.Raw, T.Type) : toF32(B, L, P.Raw, T.Type);
    return P;
  }
  ArrayRef<int64_t> Shape = T.Shape;
  if (!View.empty() && product(View) == T.numElements())
    Shape = View;
  if (T.numElements() == 0 || Shape.size() > Target.size())
    return C.error(Rule + " (it has shape " + shapeText(T.Shape) + ")");
  unsigned Lead = Target.size() - Shape.size();
  SmallVector<AffineExpr> Exprs;
  for (unsigned D = 0; D != Shape.size(); ++D) {
    if (Shape[D] == 1) {
      Exprs.push_back(getAffineConstantExpr(0, C.context()));
      continue;
    }
    if (Shape[D] != Target[Lead + D] || Dims[Lead + D] < 0)
      return C.error(Rule + " (it has shape " + shapeText(T.Shape) + ")");
    Exprs.push_back(dim(C.context(), Dims[Lead + D]));
  }
  P.Node = &C;
  P.Input = I;
  P.Shape.assign(Shape.begin(), Shape.end());
  P.Map = AffineMap::get(Loops, 0, Exprs, C.context());
  return P;
}

/// The inputs of a linalg.generic and their maps.
struct Operands {
  SmallVector<Value> Values;
  SmallVector<AffineMap> Maps;

  unsigned add(Value V, AffineMap M) {
    Values.push_back(V);
    Maps.push_back(M);
    return Values.size() - 1;
  }
  void add(QParam &P) {
    if (!P.perTensor())
      P.Arg = add(P.tensor(), P.Map);
  }
};

/// A linalg.generic of \p Ops onto \p Init (its map \p OutMap) whose body
/// \p Body yields the new output element from the block arguments (inputs,
/// then the output element).
Value generic(
    NodeContext &C, Operands &Ops, Value Init, AffineMap OutMap,
    ArrayRef<utils::IteratorType> Iterators,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> Body) {
  SmallVector<AffineMap> Maps(Ops.Maps);
  Maps.push_back(OutMap);
  return linalg::GenericOp::create(
             C.builder(), C.loc(), TypeRange{Init.getType()}, Ops.Values,
             ValueRange{Init}, Maps, Iterators,
             [&](OpBuilder &B, Location L, ValueRange Args) {
               linalg::YieldOp::create(B, L, Body(B, L, Args));
             })
      .getResult(0);
}

/// Fails unless the node's first \p N inputs are given (not empty names).
LogicalResult requireInputs(NodeContext &C, unsigned N) {
  for (unsigned I = 0; I != N; ++I)
    if (!C.hasInput(I))
      return C.error("input " + std::to_string(I) + " is required");
  return success();
}

/// Whether scale input \p S and zero point input \p Z (fits when absent)
/// have one shape, or one value each.
bool samePairShape(NodeContext &C, unsigned S, unsigned Z) {
  if (!C.hasInput(Z))
    return true;
  const TensorValue &A = C.input(S), &B = C.input(Z);
  return A.Shape == B.Shape || (A.numElements() == 1 && B.numElements() == 1);
}

int64_t inputBytes(NodeContext &C) {
  int64_t Bytes = 0;
  for (unsigned I = 0; I != C.numInputs(); ++I)
    if (C.hasInput(I))
      Bytes += C.input(I).numElements() * elemSize(C.input(I).Type);
  return Bytes;
}

/// The requantization multiplier x_scale * w_scale / y_scale as float32
/// computes it.
float multiplier(double XS, double WS, double YS) {
  float P = static_cast<float>(XS) * static_cast<float>(WS);
  return P / static_cast<float>(YS);
}

/// The multiplier of three scales: one value when each is, folded when
/// known; else null, and the body computes it per element.
Value scalarMultiplier(NodeContext &C, const QParam &XS, const QParam &WS,
                       const QParam &YS) {
  if (!XS.perTensor() || !WS.perTensor() || !YS.perTensor())
    return nullptr;
  OpBuilder &B = C.builder();
  Location L = C.loc();
  if (XS.known() && WS.known() && YS.known())
    return cstF32(B, L, multiplier(*XS.known(), *WS.known(), *YS.known()));
  Value P = arith::MulFOp::create(B, L, XS.scalar(B, L), WS.scalar(B, L));
  return arith::DivFOp::create(B, L, P, YS.scalar(B, L));
}

/// The multiplier of three scales of which \p Vec alone holds several
/// values: a parameter over Vec's map, a constant when all are known, else
/// computed once per value of Vec by a generic before the requantization.
QParam vectorMultiplier(NodeContext &C, const QParam &S1, QParam &Vec,
                        const QParam &S3) {
  QParam M;
  M.Type = Float;
  M.Map = Vec.Map;
  ArrayRef<int64_t> Shape = Vec.Shape;
  if (S1.known() && S3.known() && Vec.Const) {
    SmallVector<float> Values;
    for (double S : Vec.Const->doubles())
      Values.push_back(multiplier(*S1.known(), S, *S3.known()));
    auto Type = RankedTensorType::get(Shape, C.builder().getF32Type());
    M.Tensor = arith::ConstantOp::create(
        C.builder(), C.loc(),
        DenseElementsAttr::get(Type, ArrayRef<float>(Values)));
    return M;
  }
  Value S1V = S1.scalar(C.builder(), C.loc());
  Value S3V = S3.scalar(C.builder(), C.loc());
  M.Tensor =
      C.elementwise({Vec.tensor()}, Shape, Float,
                    [&](OpBuilder &B, Location L, ValueRange A) {
                      Value P = arith::MulFOp::create(B, L, S1V, A[0]);
                      return arith::DivFOp::create(B, L, P, S3V).getResult();
                    });
  return M;
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

/// Where the scale and zero point of a quantized tensor \p X apply: per
/// tensor (empty), or per axis (attribute axis, default 1): the axis's size
/// and loop, readParam's Target and Dims.
struct AxisParams {
  SmallVector<int64_t, 1> Target, Dims;
};

FailureOr<AxisParams> readAxis(NodeContext &C, const TensorValue &X) {
  AxisParams A;
  bool PerAxis = C.input(1).numElements() != 1;
  if (!PerAxis)
    return A;
  std::optional<int64_t> Axis = normalizeAxis(C.attrInt("axis", 1), X.rank());
  if (!Axis)
    return C.error("axis " + std::to_string(C.attrInt("axis", 1)) +
                   " is outside the input's rank " + std::to_string(X.rank()));
  A.Target.push_back(X.Shape[*Axis]);
  A.Dims.push_back(*Axis);
  return A;
}

LogicalResult importQuantizeLinear(NodeContext &C) {
  if (failed(requireInputs(C, 2)))
    return failure();
  const TensorValue &X = C.input(0);
  if (X.Type != Float && X.Type != Int32)
    return C.error("x must be float or int32, not " + onnxTypeName(X.Type));
  int32_t Out = C.hasInput(2) ? C.input(2).Type : UInt8;
  if (!is8Bit(Out))
    return C.error("y_zero_point must be int8 or uint8, not " +
                   onnxTypeName(Out));
  if (!samePairShape(C, 1, 2))
    return C.error("y_scale and y_zero_point differ in shape");
  FailureOr<AxisParams> A = readAxis(C, X);
  if (failed(A))
    return failure();
  unsigned Loops = X.rank();
  std::string Rule = "y_scale and y_zero_point must be scalars or hold one "
                     "value per element of the axis";
  FailureOr<QParam> Scale =
      readParam(C, 1, false, A->Target, A->Dims, Loops, Rule);
  if (failed(Scale))
    return failure();
  FailureOr<QParam> Zp =
      readParam(C, 2, false, A->Target, A->Dims, Loops, Rule);
  if (failed(Zp))
    return failure();
  Operands Ops;
  MLIRContext *Ctx = C.context();
  Ops.add(C.value(0), AffineMap::getMultiDimIdentityMap(Loops, Ctx));
  Ops.add(*Scale);
  Ops.add(*Zp);
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  int32_t XType = X.Type;
  Value Y = generic(
      C, Ops, C.empty(X.Shape, Out),
      AffineMap::getMultiDimIdentityMap(Loops, Ctx), It,
      [&](OpBuilder &B, Location L, ValueRange Args) {
        Value F = toF32(B, L, Args[0], XType);
        F = arith::DivFOp::create(B, L, F, Scale->get(B, L, Args));
        return saturate8(B, L, F,
                         Zp->knownZero() ? Value() : Zp->get(B, L, Args), Out);
      });
  C.setOutput(0, Y, Out);
  setElementwiseWork(C, X.Shape, Out, 5);
  return success();
}

LogicalResult importDequantizeLinear(NodeContext &C) {
  if (failed(requireInputs(C, 2)))
    return failure();
  const TensorValue &X = C.input(0);
  if (!is8Bit(X.Type) && X.Type != Int32)
    return C.error("x must be int8, uint8 or int32, not " +
                   onnxTypeName(X.Type));
  if (C.hasInput(2) && C.input(2).Type != X.Type)
    return C.error("x_zero_point's type differs from x's");
  if (!samePairShape(C, 1, 2))
    return C.error("x_scale and x_zero_point differ in shape");
  FailureOr<AxisParams> A = readAxis(C, X);
  if (failed(A))
    return failure();
  unsigned Loops = X.rank();
  std::string Rule = "x_scale and x_zero_point must be scalars or hold one "
                     "value per element of the axis";
  FailureOr<QParam> Scale =
      readParam(C, 1, false, A->Target, A->Dims, Loops, Rule);
  if (failed(Scale))
    return failure();
  FailureOr<QParam> Zp = readParam(C, 2, true, A->Target, A->Dims, Loops, Rule);
  if (failed(Zp))
    return failure();
  Operands Ops;
  MLIRContext *Ctx = C.context();
  Ops.add(C.value(0), AffineMap::getMultiDimIdentityMap(Loops, Ctx));
  Ops.add(*Scale);
  Ops.add(*Zp);
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  int32_t XType = X.Type;
  Value Y =
      generic(C, Ops, C.empty(X.Shape, Float),
              AffineMap::getMultiDimIdentityMap(Loops, Ctx), It,
              [&](OpBuilder &B, Location L, ValueRange Args) {
                Value V = toI32(B, L, Args[0], XType);
                if (!Zp->knownZero())
                  V = arith::SubIOp::create(B, L, V, Zp->get(B, L, Args));
                Value F = arith::SIToFPOp::create(B, L, B.getF32Type(), V);
                return arith::MulFOp::create(B, L, F, Scale->get(B, L, Args))
                    .getResult();
              });
  C.setOutput(0, Y, Float);
  setElementwiseWork(C, X.Shape, Float, 2);
  return success();
}

/// y_scale = (max(x, 0) - min(x, 0)) / 255, y_zero_point =
/// saturate(round(-min / y_scale)), y = saturate(round(x / y_scale) +
/// y_zero_point), all uint8.
LogicalResult importDynamicQuantizeLinear(NodeContext &C) {
  const TensorValue &X = C.input(0);
  if (X.Type != Float)
    return C.error("x must be float, not " + onnxTypeName(X.Type));
  OpBuilder &B = C.builder();
  Location L = C.loc();
  MLIRContext *Ctx = C.context();
  unsigned Loops = X.rank();
  // min and max in one pass, both starting from 0 (the range holds 0).
  Value LoInit = C.filled({}, Float, 0), HiInit = C.filled({}, Float, 0);
  AffineMap ToScalar = AffineMap::get(Loops, 0, ArrayRef<AffineExpr>{}, Ctx);
  SmallVector<AffineMap> Maps{AffineMap::getMultiDimIdentityMap(Loops, Ctx),
                              ToScalar, ToScalar};
  SmallVector<utils::IteratorType> Red(Loops, utils::IteratorType::reduction);
  auto MinMax = linalg::GenericOp::create(
      B, L, TypeRange{LoInit.getType(), HiInit.getType()},
      ValueRange{C.value(0)}, ValueRange{LoInit, HiInit}, Maps, Red,
      [](OpBuilder &NB, Location NL, ValueRange A) {
        Value Lo = arith::MinimumFOp::create(NB, NL, A[1], A[0]);
        Value Hi = arith::MaximumFOp::create(NB, NL, A[2], A[0]);
        linalg::YieldOp::create(NB, NL, ValueRange{Lo, Hi});
      });
  Value Lo = tensor::ExtractOp::create(B, L, MinMax.getResult(0), ValueRange{});
  Value Hi = tensor::ExtractOp::create(B, L, MinMax.getResult(1), ValueRange{});
  Value Scale = arith::DivFOp::create(B, L, arith::SubFOp::create(B, L, Hi, Lo),
                                      cstF32(B, L, 255));
  Value ZpF = arith::DivFOp::create(
      B, L, arith::SubFOp::create(B, L, cstF32(B, L, 0), Lo), Scale);
  Value Zp = saturate8(B, L, ZpF, nullptr, UInt8);
  // The zero point as the quantization adds it (an integer in [0, 255]).
  Value ZpAdd = arith::UIToFPOp::create(B, L, B.getF32Type(), Zp);
  Value Y = C.elementwise({C.value(0)}, X.Shape, UInt8,
                          [&](OpBuilder &NB, Location NL, ValueRange A) {
                            Value F =
                                arith::DivFOp::create(NB, NL, A[0], Scale);
                            return saturate8(NB, NL, F, ZpAdd, UInt8);
                          });
  C.setOutput(0, Y, UInt8);
  C.setOutput(1,
              tensor::FromElementsOp::create(B, L, C.tensorType({}, Float),
                                             ValueRange{Scale}),
              Float);
  C.setOutput(2,
              tensor::FromElementsOp::create(B, L, C.tensorType({}, UInt8),
                                             ValueRange{Zp}),
              UInt8);
  int64_t N = X.numElements();
  C.setWork(2 * N + 5 * N + 8, N * 4, N + 5);
  return success();
}

//===----------------------------------------------------------------------===//
// MatMulInteger, QLinearMatMul
//===----------------------------------------------------------------------===//

/// Input positions of the matrix products' operands and parameters.
struct MatMulInputs {
  unsigned A, AScale, AZp, B, BScale, BZp, YScale, YZp;
};

LogicalResult importQMatMul(NodeContext &C, bool QLinear) {
  MatMulInputs In = QLinear ? MatMulInputs{0, 1, 2, 3, 4, 5, 6, 7}
                            : MatMulInputs{0, 0, 2, 1, 0, 3, 0, 0};
  if (failed(requireInputs(C, QLinear ? 8 : 2)))
    return failure();
  const TensorValue &A = C.input(In.A), &Bm = C.input(In.B);
  if (!is8Bit(A.Type) || !is8Bit(Bm.Type))
    return C.error("the matrices must be int8 or uint8, not " +
                   onnxTypeName(A.Type) + " and " + onnxTypeName(Bm.Type));
  for (unsigned Zp : {In.AZp, In.BZp})
    if (C.hasInput(Zp) &&
        C.input(Zp).Type != C.input(Zp == In.AZp ? In.A : In.B).Type)
      return C.error("a zero point's type differs from its matrix's");
  int32_t Out = Int32;
  if (QLinear) {
    Out = C.input(In.YZp).Type;
    if (!is8Bit(Out))
      return C.error("y_zero_point must be int8 or uint8, not " +
                     onnxTypeName(Out));
  }
  if (A.rank() < 1 || Bm.rank() < 1)
    return C.error("the matrices need rank 1 or more");
  // 1-D operands as numpy.matmul takes them: [K] as [1, K] and [K, 1].
  SmallVector<int64_t, 4> AS(A.Shape), BS(Bm.Shape);
  if (A.rank() == 1)
    AS.insert(AS.begin(), 1);
  if (Bm.rank() == 1)
    BS.push_back(1);
  int64_t M = AS[AS.size() - 2], K = AS.back(), N = BS.back();
  if (BS[BS.size() - 2] != K)
    return C.error("inner dimensions differ: " + shapeText(A.Shape) + " by " +
                   shapeText(Bm.Shape));
  auto Batch = NodeContext::broadcastShapes(ArrayRef<int64_t>(AS).drop_back(2),
                                            ArrayRef<int64_t>(BS).drop_back(2));
  if (!Batch)
    return C.error("batch dimensions do not broadcast: " + shapeText(A.Shape) +
                   " by " + shapeText(Bm.Shape));
  unsigned NB = Batch->size(), Loops = NB + 3, MD = NB, ND = NB + 1,
           KD = NB + 2;
  MLIRContext *Ctx = C.context();

  // Each operand's loops: its batch dimensions (numpy broadcasting), then
  // (m, k) for a and (k, n) for b.
  auto OperandDims = [&](ArrayRef<int64_t> S, int64_t Row, int64_t Col) {
    SmallVector<int64_t, 4> Dims;
    unsigned Lead = NB - (S.size() - 2);
    for (unsigned D = 0; D + 2 < S.size(); ++D)
      Dims.push_back(Lead + D);
    Dims.push_back(Row);
    Dims.push_back(Col);
    return Dims;
  };
  auto OperandMap = [&](ArrayRef<int64_t> S, ArrayRef<int64_t> Dims) {
    SmallVector<AffineExpr> Exprs;
    for (unsigned D = 0; D != S.size(); ++D)
      Exprs.push_back(D + 2 < S.size() && S[D] == 1 && (*Batch)[Dims[D]] != 1
                          ? getAffineConstantExpr(0, Ctx)
                          : dim(Ctx, Dims[D]));
    return AffineMap::get(Loops, 0, Exprs, Ctx);
  };
  SmallVector<int64_t, 4> ADims = OperandDims(AS, MD, KD),
                          BDims = OperandDims(BS, KD, ND);
  // Zero points and scales: per tensor, per row of a ([M] or [..., M, 1])
  // and per column of b ([N] or [..., 1, N]).
  SmallVector<int64_t, 4> ARow(ADims), BCol(BDims);
  ARow.back() = -1;
  BCol[BCol.size() - 2] = -1;
  SmallVector<int64_t, 2> RowView{M, 1};
  std::string ARule = QLinear ? "a_scale and a_zero_point must be scalars or "
                                "hold one value per row of a"
                              : "a_zero_point must be a scalar or hold one "
                                "value per row of A";
  std::string BRule = QLinear ? "b_scale and b_zero_point must be scalars or "
                                "hold one value per column of b"
                              : "b_zero_point must be a scalar or hold one "
                                "value per column of B";
  FailureOr<QParam> AZp =
      readParam(C, In.AZp, true, AS, ARow, Loops, ARule, RowView);
  if (failed(AZp))
    return failure();
  FailureOr<QParam> BZp = readParam(C, In.BZp, true, BS, BCol, Loops, BRule);
  if (failed(BZp))
    return failure();

  SmallVector<int64_t, 4> Full(*Batch);
  Full.push_back(M);
  Full.push_back(N);
  SmallVector<int64_t, 4> Result(*Batch);
  if (A.rank() != 1)
    Result.push_back(M);
  if (Bm.rank() != 1)
    Result.push_back(N);

  Operands Ops;
  Ops.add(C.reshape(C.value(In.A), AS), OperandMap(AS, ADims));
  Ops.add(C.reshape(C.value(In.B), BS), OperandMap(BS, BDims));
  Ops.add(*AZp);
  Ops.add(*BZp);
  SmallVector<AffineExpr> OutExprs;
  for (unsigned D = 0; D != NB + 2; ++D)
    OutExprs.push_back(dim(Ctx, D));
  AffineMap OutMap = AffineMap::get(Loops, 0, OutExprs, Ctx);
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  It[KD] = utils::IteratorType::reduction;
  int32_t AType = A.Type, BType = Bm.Type;
  Value Acc = generic(
      C, Ops, C.filled(Full, Int32, 0), OutMap, It,
      [&](OpBuilder &NB, Location NL, ValueRange Args) {
        Value X = toI32(NB, NL, Args[0], AType);
        Value W = toI32(NB, NL, Args[1], BType);
        if (!AZp->knownZero())
          X = arith::SubIOp::create(NB, NL, X, AZp->get(NB, NL, Args));
        if (!BZp->knownZero())
          W = arith::SubIOp::create(NB, NL, W, BZp->get(NB, NL, Args));
        Value P = arith::MulIOp::create(NB, NL, X, W);
        return arith::AddIOp::create(NB, NL, Args.back(), P).getResult();
      });
  int64_t Macs = product(Full) * K;
  if (!QLinear) {
    C.setOutput(0, C.reshape(Acc, Result), Int32);
    C.setWork(2 * Macs, inputBytes(C), product(Result) * 4);
    return success();
  }

  // Requantize over the output's loops (batch, m, n: numbered as in the
  // product).
  unsigned RLoops = NB + 2;
  SmallVector<int64_t, 4> OutDims;
  for (unsigned D = 0; D != RLoops; ++D)
    OutDims.push_back(D);
  FailureOr<QParam> AScale =
      readParam(C, In.AScale, false, AS, ARow, RLoops, ARule, RowView);
  if (failed(AScale))
    return failure();
  FailureOr<QParam> BScale =
      readParam(C, In.BScale, false, BS, BCol, RLoops, BRule);
  if (failed(BScale))
    return failure();
  std::string YRule = "y_scale and y_zero_point must be scalars or "
                      "broadcast to the output";
  FailureOr<QParam> YScale =
      readParam(C, In.YScale, false, Full, OutDims, RLoops, YRule);
  if (failed(YScale))
    return failure();
  FailureOr<QParam> YZp =
      readParam(C, In.YZp, false, Full, OutDims, RLoops, YRule);
  if (failed(YZp))
    return failure();
  for (auto [S, Z, Name] : {std::make_tuple(In.AScale, In.AZp, "a"),
                            std::make_tuple(In.BScale, In.BZp, "b"),
                            std::make_tuple(In.YScale, In.YZp, "y")})
    if (!samePairShape(C, S, Z))
      return C.error(std::string(Name) + "_scale and " + Name +
                     "_zero_point differ in shape");
  // The multiplier: one value, one per row or column, or (scales per row
  // and per column, or y's not one value) computed per element.
  Value Mult = scalarMultiplier(C, *AScale, *BScale, *YScale);
  Operands ROps;
  AffineMap Id = AffineMap::getMultiDimIdentityMap(RLoops, Ctx);
  ROps.add(Acc, Id);
  QParam MultV;
  bool PerElement = false;
  if (!Mult && YScale->perTensor() &&
      AScale->perTensor() != BScale->perTensor()) {
    MultV = AScale->perTensor()
                ? vectorMultiplier(C, *AScale, *BScale, *YScale)
                : vectorMultiplier(C, *BScale, *AScale, *YScale);
    ROps.add(MultV);
  } else if (!Mult) {
    PerElement = true;
    ROps.add(*AScale);
    ROps.add(*BScale);
    ROps.add(*YScale);
  }
  ROps.add(*YZp);
  SmallVector<utils::IteratorType> RIt(RLoops, utils::IteratorType::parallel);
  Value Y = generic(
      C, ROps, C.empty(Full, Out), Id, RIt,
      [&](OpBuilder &NB, Location NL, ValueRange Args) {
        Value Mul = Mult;
        if (MultV.Map)
          Mul = MultV.get(NB, NL, Args);
        else if (PerElement)
          Mul = arith::DivFOp::create(
              NB, NL,
              arith::MulFOp::create(NB, NL, AScale->get(NB, NL, Args),
                                    BScale->get(NB, NL, Args)),
              YScale->get(NB, NL, Args));
        Value F = arith::SIToFPOp::create(NB, NL, NB.getF32Type(), Args[0]);
        F = arith::MulFOp::create(NB, NL, F, Mul);
        return saturate8(NB, NL, F,
                         YZp->knownZero() ? Value() : YZp->get(NB, NL, Args),
                         Out);
      });
  C.setOutput(0, C.reshape(Y, Result), Out);
  C.setWork(2 * Macs + 6 * product(Full), inputBytes(C), product(Result));
  return success();
}

//===----------------------------------------------------------------------===//
// ConvInteger, QLinearConv
//===----------------------------------------------------------------------===//

/// \p V with its dimension \p D split in two, to \p Shape (a view).
Value splitDim(NodeContext &C, Value V, unsigned D, ArrayRef<int64_t> Shape) {
  auto Type = cast<RankedTensorType>(V.getType());
  SmallVector<ReassociationIndices> Groups;
  for (unsigned I = 0, J = 0; I != Type.getRank(); ++I) {
    ReassociationIndices G{J++};
    if (I == D)
      G.push_back(J++);
    Groups.push_back(G);
  }
  return tensor::ExpandShapeOp::create(
      C.builder(), C.loc(), RankedTensorType::get(Shape, Type.getElementType()),
      V, Groups);
}

/// \p V with its dimensions \p D and D + 1 merged, to \p Shape (a view).
Value mergeDims(NodeContext &C, Value V, unsigned D, ArrayRef<int64_t> Shape) {
  auto Type = cast<RankedTensorType>(V.getType());
  SmallVector<ReassociationIndices> Groups;
  for (unsigned J = 0; J != Type.getRank(); ++J) {
    if (J == D + 1)
      Groups.back().push_back(J);
    else
      Groups.push_back({J});
  }
  return tensor::CollapseShapeOp::create(
      C.builder(), C.loc(), RankedTensorType::get(Shape, Type.getElementType()),
      V, Groups);
}

/// Input positions of the convolutions' operands and parameters.
struct ConvInputs {
  unsigned X, XScale, XZp, W, WScale, WZp, YScale, YZp, Bias;
};

LogicalResult importQConv(NodeContext &C, bool QLinear) {
  ConvInputs In = QLinear ? ConvInputs{0, 1, 2, 3, 4, 5, 6, 7, 8}
                          : ConvInputs{0, 0, 2, 1, 0, 3, 0, 0, 99};
  if (failed(requireInputs(C, QLinear ? 8 : 2)))
    return failure();
  const TensorValue &X = C.input(In.X), &W = C.input(In.W);
  if (!is8Bit(X.Type) || !is8Bit(W.Type))
    return C.error("x and w must be int8 or uint8, not " +
                   onnxTypeName(X.Type) + " and " + onnxTypeName(W.Type));
  for (unsigned Zp : {In.XZp, In.WZp})
    if (C.hasInput(Zp) &&
        C.input(Zp).Type != C.input(Zp == In.XZp ? In.X : In.W).Type)
      return C.error("a zero point's type differs from its input's");
  int32_t Out = Int32;
  if (QLinear) {
    Out = C.input(In.YZp).Type;
    if (!is8Bit(Out))
      return C.error("y_zero_point must be int8 or uint8, not " +
                     onnxTypeName(Out));
  }
  int64_t Rank = X.rank();
  if (Rank < 3 || W.rank() != Rank)
    return C.error("x and w need rank 3 or more and equal ranks");
  int64_t K = Rank - 2, N = X.Shape[0], Cin = X.Shape[1], M = W.Shape[0];
  int64_t Groups = C.attrInt("group", 1);
  if (Groups <= 0 || Cin % Groups || M % Groups || W.Shape[1] != Cin / Groups)
    return C.error("channels (" + std::to_string(Cin) + " in, " +
                   std::to_string(M) + " out, weights for " +
                   std::to_string(W.Shape[1]) + ") do not fit group " +
                   std::to_string(Groups));
  SmallVector<int64_t, 4> Kernel(W.Shape.begin() + 2, W.Shape.end());
  SmallVector<int64_t, 4> KS = C.attrInts("kernel_shape");
  if (!KS.empty() && ArrayRef<int64_t>(KS) != ArrayRef<int64_t>(Kernel))
    return C.error("kernel_shape differs from the weights' shape");
  // The geometry Conv has (ConvGeometry.h).
  ConvGeometry Geometry;
  ConvGeometry *Win = &Geometry;
  if (failed(readConvGeometry(C, ArrayRef<int64_t>(X.Shape).drop_front(2),
                              Kernel, Geometry)))
    return failure();
  int64_t Cg = Cin / Groups, Mg = M / Groups;
  MLIRContext *Ctx = C.context();

  // Loops: n g m o1..oK c k1..kK.
  unsigned Loops = 3 + K + 1 + K, CDim = 3 + K;
  SmallVector<int64_t, 2> PerChannel{Groups, Mg}, ChannelDims{1, 2};
  std::string XRule = QLinear ? "x_scale and x_zero_point must be scalars"
                              : "x_zero_point must be a scalar";
  std::string WRule = QLinear ? "w_scale and w_zero_point must be scalars or "
                                "hold one value per output channel"
                              : "w_zero_point must be a scalar or hold one "
                                "value per output channel";
  if (C.hasInput(In.XZp) && C.input(In.XZp).numElements() != 1)
    return C.error(XRule);
  FailureOr<QParam> XZp = readParam(C, In.XZp, true, {}, {}, Loops, XRule);
  if (failed(XZp))
    return failure();
  FailureOr<QParam> WZp = readParam(C, In.WZp, true, PerChannel, ChannelDims,
                                    Loops, WRule, PerChannel);
  if (failed(WZp))
    return failure();

  // The input padded with its zero point, as [N, G, Cg, D...]; the weights
  // as [G, Mg, Cg, K...].
  Value PadValue = XZp->Raw;
  if (!PadValue)
    PadValue = C.scalar(*XZp->known(), X.Type);
  Value Padded = padSpatial(C, C.value(In.X), *Win, PadValue);
  auto PadType = cast<RankedTensorType>(Padded.getType());
  SmallVector<int64_t, 4> XShape{N, Groups, Cg};
  XShape.append(PadType.getShape().begin() + 2, PadType.getShape().end());
  SmallVector<int64_t, 4> WShape{Groups, Mg, Cg};
  WShape.append(Kernel.begin(), Kernel.end());
  SmallVector<int64_t, 4> Full{N, Groups, Mg};
  Full.append(Win->Out.begin(), Win->Out.end());
  SmallVector<int64_t, 4> Result{N, M};
  Result.append(Win->Out.begin(), Win->Out.end());

  SmallVector<AffineExpr> XExprs{dim(Ctx, 0), dim(Ctx, 1), dim(Ctx, CDim)};
  SmallVector<AffineExpr> WExprs{dim(Ctx, 1), dim(Ctx, 2), dim(Ctx, CDim)};
  SmallVector<AffineExpr> OutExprs{dim(Ctx, 0), dim(Ctx, 1), dim(Ctx, 2)};
  for (int64_t I = 0; I != K; ++I) {
    AffineExpr O = dim(Ctx, 3 + I), Kd = dim(Ctx, CDim + 1 + I);
    XExprs.push_back(O * Win->Strides[I] + Kd * Win->Dilations[I]);
    WExprs.push_back(Kd);
    OutExprs.push_back(O);
  }
  Operands Ops;
  Ops.add(splitDim(C, Padded, 1, XShape),
          AffineMap::get(Loops, 0, XExprs, Ctx));
  Ops.add(splitDim(C, C.value(In.W), 0, WShape),
          AffineMap::get(Loops, 0, WExprs, Ctx));
  Ops.add(*XZp);
  Ops.add(*WZp);
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  for (unsigned I = CDim; I != Loops; ++I)
    It[I] = utils::IteratorType::reduction;
  int32_t XType = X.Type, WType = W.Type;
  Value Acc = generic(
      C, Ops, C.filled(Full, Int32, 0), AffineMap::get(Loops, 0, OutExprs, Ctx),
      It, [&](OpBuilder &NB, Location NL, ValueRange Args) {
        Value XV = toI32(NB, NL, Args[0], XType);
        Value WV = toI32(NB, NL, Args[1], WType);
        if (!XZp->knownZero())
          XV = arith::SubIOp::create(NB, NL, XV, XZp->get(NB, NL, Args));
        if (!WZp->knownZero())
          WV = arith::SubIOp::create(NB, NL, WV, WZp->get(NB, NL, Args));
        Value P = arith::MulIOp::create(NB, NL, XV, WV);
        return arith::AddIOp::create(NB, NL, Args.back(), P).getResult();
      });
  int64_t Macs = N * M * product(Win->Out) * Cg * product(Kernel);
  if (!QLinear) {
    C.setOutput(0, mergeDims(C, Acc, 1, Result), Int32);
    C.setWork(2 * Macs, inputBytes(C), product(Result) * 4);
    return success();
  }

  // Requantize over (n, g, m, o...), adding the bias first.
  unsigned RLoops = 3 + K;
  FailureOr<QParam> XScale =
      readParam(C, In.XScale, false, {}, {}, RLoops, XRule);
  if (failed(XScale))
    return failure();
  FailureOr<QParam> WScale = readParam(C, In.WScale, false, PerChannel,
                                       ChannelDims, RLoops, WRule, PerChannel);
  if (failed(WScale))
    return failure();
  std::string YRule = "y_scale and y_zero_point must be scalars";
  for (unsigned I : {In.YScale, In.YZp})
    if (C.input(I).numElements() != 1)
      return C.error(YRule);
  FailureOr<QParam> YScale =
      readParam(C, In.YScale, false, {}, {}, RLoops, YRule);
  if (failed(YScale))
    return failure();
  FailureOr<QParam> YZp = readParam(C, In.YZp, false, {}, {}, RLoops, YRule);
  if (failed(YZp))
    return failure();
  if (!samePairShape(C, In.WScale, In.WZp))
    return C.error("w_scale and w_zero_point differ in shape");
  FailureOr<QParam> Bias = QParam();
  if (C.hasInput(In.Bias)) {
    if (C.input(In.Bias).Type != Int32)
      return C.error("B must be int32, not " +
                     onnxTypeName(C.input(In.Bias).Type));
    if (C.input(In.Bias).numElements() != M || C.input(In.Bias).rank() != 1)
      return C.error("B must hold one value per output channel");
    Bias = readParam(C, In.Bias, true, PerChannel, ChannelDims, RLoops,
                     "B must hold one value per output channel", PerChannel);
    if (failed(Bias))
      return failure();
  }

  // The multiplier: one value, or one per channel.
  Operands ROps;
  AffineMap Id = AffineMap::getMultiDimIdentityMap(RLoops, Ctx);
  ROps.add(Acc, Id);
  Value Mult = scalarMultiplier(C, *XScale, *WScale, *YScale);
  QParam MultV;
  if (!Mult) {
    MultV = vectorMultiplier(C, *XScale, *WScale, *YScale);
    ROps.add(MultV);
  }
  if (Bias->present())
    ROps.add(*Bias);
  ROps.add(*YZp);
  SmallVector<utils::IteratorType> RIt(RLoops, utils::IteratorType::parallel);
  Value Y =
      generic(C, ROps, C.empty(Full, Out), Id, RIt,
              [&](OpBuilder &NB, Location NL, ValueRange Args) {
                Value Mul = Mult ? Mult : MultV.get(NB, NL, Args);
                Value V = Args[0];
                if (Bias->present())
                  V = arith::AddIOp::create(NB, NL, V, Bias->get(NB, NL, Args));
                Value F = arith::SIToFPOp::create(NB, NL, NB.getF32Type(), V);
                F = arith::MulFOp::create(NB, NL, F, Mul);
                return saturate8(
                    NB, NL, F,
                    YZp->knownZero() ? Value() : YZp->get(NB, NL, Args), Out);
              });
  C.setOutput(0, mergeDims(C, Y, 1, Result), Out);
  C.setWork(2 * Macs + 6 * product(Full), inputBytes(C), product(Result));
  return success();
}

} // namespace

void lwp::onnx::registerQuantizationOps(OpTable &T) {
  T["QuantizeLinear"] = importQuantizeLinear;
  T["DequantizeLinear"] = importDequantizeLinear;
  T["DynamicQuantizeLinear"] = importDynamicQuantizeLinear;
  T["MatMulInteger"] = [](NodeContext &C) { return importQMatMul(C, false); };
  T["QLinearMatMul"] = [](NodeContext &C) { return importQMatMul(C, true); };
  T["ConvInteger"] = [](NodeContext &C) { return importQConv(C, false); };
  T["QLinearConv"] = [](NodeContext &C) { return importQConv(C, true); };
}
