//===- OpsConvolution.cpp - Conv and pooling ------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Conv of any spatial rank, groups, strides, dilations and pads is one
// linalg.generic over (n, g, m, o..., c, k...) on the input padded by
// tensor.pad and viewed as [N, G, C/G, D...] and the weights as
// [G, M/G, C/G, K...], accumulating onto the bias. Pools are generics over
// (n, c, o..., k...) whose window dimensions come from a kernel-shaped
// operand, as linalg's named pooling ops have it.
//
//===----------------------------------------------------------------------===//

#include "ConvGeometry.h"
#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

LogicalResult lwp::onnx::readConvGeometry(NodeContext &C,
                                          ArrayRef<int64_t> InShape,
                                          ArrayRef<int64_t> Kernel,
                                          ConvGeometry &G, bool CeilMode) {
  int64_t K = Kernel.size();
  G.Kernel.assign(Kernel.begin(), Kernel.end());
  G.Strides = C.attrInts("strides");
  G.Dilations = C.attrInts("dilations");
  G.Pads = C.attrInts("pads");
  if (G.Strides.empty())
    G.Strides.assign(K, 1);
  if (G.Dilations.empty())
    G.Dilations.assign(K, 1);
  std::string AutoPad = C.attrString("auto_pad", "NOTSET");
  if (int64_t(G.Strides.size()) != K || int64_t(G.Dilations.size()) != K)
    return C.error("strides and dilations need one value per spatial "
                   "dimension");
  for (int64_t I = 0; I != K; ++I)
    if (G.Strides[I] <= 0 || G.Dilations[I] <= 0)
      return C.error("strides and dilations must be positive");
  if (AutoPad == "NOTSET" || AutoPad.empty()) {
    if (G.Pads.empty())
      G.Pads.assign(2 * K, 0);
    if (int64_t(G.Pads.size()) != 2 * K)
      return C.error("pads need two values per spatial dimension");
  } else if (AutoPad == "VALID") {
    G.Pads.assign(2 * K, 0);
  } else if (AutoPad == "SAME_UPPER" || AutoPad == "SAME_LOWER") {
    G.Pads.assign(2 * K, 0);
    for (int64_t I = 0; I != K; ++I) {
      int64_t D = InShape[I], S = G.Strides[I];
      int64_t Out = (D + S - 1) / S;
      int64_t Window = (G.Kernel[I] - 1) * G.Dilations[I] + 1;
      int64_t Total = std::max<int64_t>(0, (Out - 1) * S + Window - D);
      int64_t Small = Total / 2, Large = Total - Small;
      G.Pads[I] = AutoPad == "SAME_UPPER" ? Small : Large;
      G.Pads[K + I] = AutoPad == "SAME_UPPER" ? Large : Small;
    }
  } else {
    return C.error("auto_pad '" + AutoPad + "' is not supported");
  }
  G.Out.clear();
  G.Extra.assign(K, 0);
  for (int64_t I = 0; I != K; ++I) {
    if (G.Pads[I] < 0 || G.Pads[K + I] < 0)
      return C.error("negative pads are not supported");
    int64_t Window = (G.Kernel[I] - 1) * G.Dilations[I] + 1;
    int64_t Span = InShape[I] + G.Pads[I] + G.Pads[K + I] - Window;
    if (Span < 0)
      return C.error("the kernel is larger than the padded input");
    int64_t O = Span / G.Strides[I] + 1;
    if (CeilMode && Span % G.Strides[I]) {
      ++O;
      // The last window starts inside the input or its begin padding.
      if ((O - 1) * G.Strides[I] >= InShape[I] + G.Pads[I])
        --O;
    }
    G.Out.push_back(O);
    // Room the last window needs beyond the end padding (ceil mode).
    G.Extra[I] = std::max<int64_t>(
        0, (O - 1) * G.Strides[I] + Window - (Span + Window));
  }
  return success();
}

Value lwp::onnx::padSpatial(NodeContext &C, Value X, const ConvGeometry &G,
                            Value PadValue) {
  auto Type = cast<RankedTensorType>(X.getType());
  int64_t K = G.Kernel.size(), Lead = Type.getRank() - K;
  bool Any = false;
  SmallVector<int64_t, 4> Low(Lead, 0), High(Lead, 0), Shape(Type.getShape());
  for (int64_t I = 0; I != K; ++I) {
    Low.push_back(G.Pads[I]);
    High.push_back(G.Pads[K + I] + G.Extra[I]);
    Shape[Lead + I] += Low.back() + High.back();
    Any |= Low.back() || High.back();
  }
  if (!Any)
    return X;
  OpBuilder &B = C.builder();
  auto PadType = RankedTensorType::get(Shape, Type.getElementType());
  auto Pad = tensor::PadOp::create(B, C.loc(), PadType, X, Low, High,
                                   ValueRange{}, ValueRange{});
  Block *Body = B.createBlock(&Pad.getRegion());
  for (int64_t I = 0, E = Type.getRank(); I != E; ++I)
    Body->addArgument(B.getIndexType(), C.loc());
  B.setInsertionPointToEnd(Body);
  tensor::YieldOp::create(B, C.loc(), PadValue);
  B.setInsertionPointAfter(Pad);
  return Pad.getResult();
}

namespace {

AffineExpr dim(MLIRContext *Ctx, unsigned I) {
  return getAffineDimExpr(I, Ctx);
}

LogicalResult importConv(NodeContext &C) {
  const TensorValue &X = C.input(0), &W = C.input(1);
  if (X.Type != Float && X.Type != Double)
    return C.error("Conv takes float tensors (QLinearConv and ConvInteger "
                   "take integers)");
  int64_t Rank = X.rank();
  if (Rank < 3 || W.rank() != Rank)
    return C.error("input and weights need rank 3 or more and equal ranks");
  int64_t K = Rank - 2, N = X.Shape[0], Cin = X.Shape[1], M = W.Shape[0];
  int64_t Groups = C.attrInt("group", 1);
  if (Groups <= 0 || Cin % Groups || M % Groups ||
      W.Shape[1] != Cin / Groups)
    return C.error("channels (" + std::to_string(Cin) + " in, " +
                   std::to_string(M) + " out, weights for " +
                   std::to_string(W.Shape[1]) + ") do not fit group " +
                   std::to_string(Groups));
  SmallVector<int64_t, 4> Kernel(W.Shape.begin() + 2, W.Shape.end());
  SmallVector<int64_t, 4> KS = C.attrInts("kernel_shape");
  if (!KS.empty() && ArrayRef<int64_t>(KS) != ArrayRef<int64_t>(Kernel))
    return C.error("kernel_shape differs from the weights' shape");
  ConvGeometry G;
  if (failed(readConvGeometry(C, ArrayRef<int64_t>(X.Shape).drop_front(2),
                              Kernel, G)))
    return failure();
  int64_t Cg = Cin / Groups, Mg = M / Groups;
  MLIRContext *Ctx = C.context();
  OpBuilder &B = C.builder();
  Location L = C.loc();

  Value In = padSpatial(C, C.value(0), G, C.scalar(0, X.Type));
  auto InType = cast<RankedTensorType>(In.getType());
  // [N, C, D...] as [N, G, Cg, D...]; weights [M, Cg, K...] as
  // [G, Mg, Cg, K...].
  SmallVector<ReassociationIndices> Split{{0}, {1, 2}};
  for (int64_t I = 0; I != K; ++I)
    Split.push_back({I + 3});
  SmallVector<int64_t, 4> InShape{N, Groups, Cg};
  InShape.append(InType.getShape().begin() + 2, InType.getShape().end());
  Value InG = tensor::ExpandShapeOp::create(
      B, L, RankedTensorType::get(InShape, InType.getElementType()), In,
      Split);
  SmallVector<ReassociationIndices> WSplit{{0, 1}};
  for (int64_t I = 1; I != Rank; ++I)
    WSplit.push_back({I + 1});
  SmallVector<int64_t, 4> WShape{Groups, Mg, Cg};
  WShape.append(Kernel.begin(), Kernel.end());
  Value WG = tensor::ExpandShapeOp::create(
      B, L, RankedTensorType::get(WShape, InType.getElementType()),
      C.value(1), WSplit);

  // Output [N, G, Mg, O...], starting from the bias.
  SmallVector<int64_t, 4> OutShape{N, Groups, Mg};
  OutShape.append(G.Out.begin(), G.Out.end());
  Value Init;
  if (C.hasInput(2)) {
    if (C.input(2).numElements() != M)
      return C.error("bias needs one value per output channel");
    Value Bias = C.reshape(C.value(2), {Groups, Mg});
    SmallVector<AffineExpr> BiasExprs{dim(Ctx, 1), dim(Ctx, 2)};
    unsigned R = OutShape.size();
    SmallVector<AffineMap> Maps{
        AffineMap::get(R, 0, BiasExprs, Ctx),
        AffineMap::getMultiDimIdentityMap(R, Ctx)};
    SmallVector<utils::IteratorType> It(R, utils::IteratorType::parallel);
    Init = linalg::GenericOp::create(
               B, L, TypeRange{C.tensorType(OutShape, X.Type)},
               ValueRange{Bias}, ValueRange{C.empty(OutShape, X.Type)}, Maps,
               It,
               [](OpBuilder &NB, Location NL, ValueRange A) {
                 linalg::YieldOp::create(NB, NL, A[0]);
               })
               .getResult(0);
  } else {
    Init = C.filled(OutShape, X.Type, 0);
  }
  // Loops: n g m o1..oK c k1..kK.
  unsigned Loops = 3 + K + 1 + K, CDim = 3 + K;
  SmallVector<AffineExpr> InExprs{dim(Ctx, 0), dim(Ctx, 1), dim(Ctx, CDim)};
  SmallVector<AffineExpr> WExprs{dim(Ctx, 1), dim(Ctx, 2), dim(Ctx, CDim)};
  SmallVector<AffineExpr> OutExprs{dim(Ctx, 0), dim(Ctx, 1), dim(Ctx, 2)};
  for (int64_t I = 0; I != K; ++I) {
    AffineExpr O = dim(Ctx, 3 + I), Kd = dim(Ctx, CDim + 1 + I);
    InExprs.push_back(O * G.Strides[I] + Kd * G.Dilations[I]);
    WExprs.push_back(Kd);
    OutExprs.push_back(O);
  }
  SmallVector<AffineMap> Maps{AffineMap::get(Loops, 0, InExprs, Ctx),
                              AffineMap::get(Loops, 0, WExprs, Ctx),
                              AffineMap::get(Loops, 0, OutExprs, Ctx)};
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  for (unsigned I = CDim; I != Loops; ++I)
    It[I] = utils::IteratorType::reduction;
  Value Acc = linalg::GenericOp::create(
                  B, L, TypeRange{Init.getType()}, ValueRange{InG, WG},
                  ValueRange{Init}, Maps, It,
                  [](OpBuilder &NB, Location NL, ValueRange A) {
                    Value P = arith::MulFOp::create(NB, NL, A[0], A[1]);
                    linalg::YieldOp::create(
                        NB, NL,
                        ValueRange{arith::AddFOp::create(NB, NL, A[2], P)});
                  })
                  .getResult(0);
  SmallVector<ReassociationIndices> Merge{{0}, {1, 2}};
  for (int64_t I = 0; I != K; ++I)
    Merge.push_back({I + 3});
  SmallVector<int64_t, 4> YShape{N, M};
  YShape.append(G.Out.begin(), G.Out.end());
  Value Y = tensor::CollapseShapeOp::create(
      B, L, C.tensorType(YShape, X.Type), Acc, Merge);
  C.setOutput(0, Y, X.Type);
  int64_t Macs = N * M * product(G.Out) * Cg * product(Kernel);
  int64_t Size = elemSize(X.Type);
  C.setWork(2 * Macs,
            (X.numElements() + W.numElements() + M * C.hasInput(2)) * Size,
            product(YShape) * Size);
  return success();
}

/// MaxPool, AveragePool and LpPool-like windows: \p Kind is "max" or "avg".
LogicalResult importPool(NodeContext &C, bool Max) {
  const TensorValue &X = C.input(0);
  if (!isFloatType(X.Type))
    return C.error("pooling takes float tensors");
  if (C.hasOutput(1))
    return C.error("the Indices output of MaxPool is not supported");
  if (C.attrInt("storage_order", 0) != 0)
    return C.error("storage_order 1 is not supported");
  int64_t Rank = X.rank(), K = Rank - 2;
  if (Rank < 3)
    return C.error("input needs rank 3 or more");
  SmallVector<int64_t, 4> Kernel = C.attrInts("kernel_shape");
  if (int64_t(Kernel.size()) != K)
    return C.error("kernel_shape needs one value per spatial dimension");
  ConvGeometry G;
  ArrayRef<int64_t> Spatial = ArrayRef<int64_t>(X.Shape).drop_front(2);
  if (failed(readConvGeometry(C, Spatial, Kernel, G,
                              C.attrInt("ceil_mode", 0) != 0)))
    return failure();
  MLIRContext *Ctx = C.context();
  OpBuilder &B = C.builder();
  Location L = C.loc();
  double PadV = Max ? -INFINITY : 0.0;
  Value In = padSpatial(C, C.value(0), G, C.scalar(PadV, X.Type));
  SmallVector<int64_t, 4> OutShape{X.Shape[0], X.Shape[1]};
  OutShape.append(G.Out.begin(), G.Out.end());
  Value Init = C.filled(OutShape, X.Type, PadV);
  Value Window = C.empty(Kernel, X.Type);
  unsigned Loops = 2 + 2 * K;
  SmallVector<AffineExpr> InExprs{dim(Ctx, 0), dim(Ctx, 1)};
  SmallVector<AffineExpr> WinExprs, OutExprs{dim(Ctx, 0), dim(Ctx, 1)};
  for (int64_t I = 0; I != K; ++I) {
    AffineExpr O = dim(Ctx, 2 + I), Kd = dim(Ctx, 2 + K + I);
    InExprs.push_back(O * G.Strides[I] + Kd * G.Dilations[I]);
    WinExprs.push_back(Kd);
    OutExprs.push_back(O);
  }
  SmallVector<AffineMap> Maps{AffineMap::get(Loops, 0, InExprs, Ctx),
                              AffineMap::get(Loops, 0, WinExprs, Ctx),
                              AffineMap::get(Loops, 0, OutExprs, Ctx)};
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  for (unsigned I = 2 + K; I != Loops; ++I)
    It[I] = utils::IteratorType::reduction;
  Value Acc = linalg::GenericOp::create(
                  B, L, TypeRange{Init.getType()}, ValueRange{In, Window},
                  ValueRange{Init}, Maps, It,
                  [Max](OpBuilder &NB, Location NL, ValueRange A) {
                    Value R = Max ? Value(arith::MaximumFOp::create(
                                        NB, NL, A[2], A[0]))
                                  : Value(arith::AddFOp::create(NB, NL, A[2],
                                                                A[0]));
                    linalg::YieldOp::create(NB, NL, R);
                  })
                  .getResult(0);
  int64_t Size = elemSize(X.Type);
  int64_t Windows = product(OutShape) * product(Kernel);
  C.setWork(Windows + (Max ? 0 : product(OutShape)),
            X.numElements() * Size, product(OutShape) * Size);
  if (Max) {
    C.setOutput(0, Acc, X.Type);
    return success();
  }
  // The divisor of each output position, known at import: the window's
  // elements inside the input (count_include_pad=0) or inside the input
  // and its pads (=1), never the ceil-mode overhang.
  bool IncludePad = C.attrInt("count_include_pad", 0) != 0;
  auto Divisor = ConstData::zeros(X.Type, G.Out);
  SmallVector<int64_t, 4> Index(K, 0);
  for (int64_t E = 0, NO = product(G.Out); E != NO; ++E) {
    int64_t Rest = E;
    for (int64_t D = K - 1; D >= 0; --D) {
      Index[D] = Rest % G.Out[D];
      Rest /= G.Out[D];
    }
    double Count = 1;
    for (int64_t D = 0; D != K; ++D) {
      int64_t Lo = IncludePad ? -G.Pads[D] : 0;
      int64_t Hi = IncludePad ? Spatial[D] + G.Pads[K + D] : Spatial[D];
      int64_t In1 = 0;
      for (int64_t Kd = 0; Kd != Kernel[D]; ++Kd) {
        int64_t P = Index[D] * G.Strides[D] - G.Pads[D] + Kd * G.Dilations[D];
        In1 += P >= Lo && P < Hi;
      }
      Count *= std::max<int64_t>(In1, 1);
    }
    Divisor->setDouble(E, 1.0 / Count);
  }
  TensorValue DivV;
  Value DivT = arith::ConstantOp::create(
      B, L,
      DenseElementsAttr::getFromRawBuffer(
          C.tensorType(G.Out, X.Type),
          ArrayRef<char>(Divisor->Raw.data(), Divisor->Raw.size())));
  Value Y = C.elementwise({Acc, DivT}, OutShape, X.Type,
                          [](OpBuilder &NB, Location NL, ValueRange A) {
                            return arith::MulFOp::create(NB, NL, A[0], A[1])
                                .getResult();
                          });
  C.setOutput(0, Y, X.Type);
  return success();
}

/// GlobalAveragePool and GlobalMaxPool: one reduction over every spatial
/// dimension, to [N, C, 1, ...].
LogicalResult importGlobalPool(NodeContext &C, bool Max) {
  const TensorValue &X = C.input(0);
  if (!isFloatType(X.Type))
    return C.error("pooling takes float tensors");
  int64_t Rank = X.rank();
  if (Rank < 3)
    return C.error("input needs rank 3 or more");
  MLIRContext *Ctx = C.context();
  OpBuilder &B = C.builder();
  Location L = C.loc();
  int64_t N = X.Shape[0], Ch = X.Shape[1];
  double Start = Max ? -INFINITY : 0.0;
  Value Init = C.filled({N, Ch}, X.Type, Start);
  SmallVector<AffineMap> Maps{
      AffineMap::getMultiDimIdentityMap(Rank, Ctx),
      AffineMap::get(Rank, 0, {dim(Ctx, 0), dim(Ctx, 1)}, Ctx)};
  SmallVector<utils::IteratorType> It(Rank, utils::IteratorType::reduction);
  It[0] = It[1] = utils::IteratorType::parallel;
  Value Acc = linalg::GenericOp::create(
                  B, L, TypeRange{Init.getType()}, ValueRange{C.value(0)},
                  ValueRange{Init}, Maps, It,
                  [Max](OpBuilder &NB, Location NL, ValueRange A) {
                    Value R = Max ? Value(arith::MaximumFOp::create(
                                        NB, NL, A[1], A[0]))
                                  : Value(arith::AddFOp::create(NB, NL, A[1],
                                                                A[0]));
                    linalg::YieldOp::create(NB, NL, R);
                  })
                  .getResult(0);
  int64_t Count = X.numElements() / std::max<int64_t>(N * Ch, 1);
  if (!Max) {
    Value Inv = C.scalar(1.0 / Count, X.Type);
    Acc = C.elementwise({Acc}, {N, Ch}, X.Type,
                        [Inv](OpBuilder &NB, Location NL, ValueRange A) {
                          return arith::MulFOp::create(NB, NL, A[0], Inv)
                              .getResult();
                        });
  }
  SmallVector<int64_t, 4> OutShape{N, Ch};
  OutShape.append(Rank - 2, 1);
  C.setOutput(0, C.reshape(Acc, OutShape), X.Type);
  int64_t Size = elemSize(X.Type);
  C.setWork(X.numElements() + (Max ? 0 : N * Ch), X.numElements() * Size,
            N * Ch * Size);
  return success();
}

} // namespace

void lwp::onnx::registerConvolutionOps(OpTable &T) {
  T["Conv"] = importConv;
  T["MaxPool"] = [](NodeContext &C) { return importPool(C, true); };
  T["AveragePool"] = [](NodeContext &C) { return importPool(C, false); };
  T["GlobalAveragePool"] = [](NodeContext &C) {
    return importGlobalPool(C, false);
  };
  T["GlobalMaxPool"] = [](NodeContext &C) {
    return importGlobalPool(C, true);
  };
}
