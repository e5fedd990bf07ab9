//===- OpsConvTranspose.cpp - ConvTranspose -------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// ConvTranspose without multiplications by inserted zeros: output position
// o (per spatial axis) receives x[i] * w[k] where i * stride + k * dilation
// = o + pad_head. Output positions of one residue r = o mod stride (one
// "phase") take the kernel taps k = k0 + j * t (t = stride / gcd(stride,
// dilation)) that satisfy the congruence, and read x at q + c - j * (dilation
// / gcd) for o = r + q * stride: an ordinary convolution of the taps that
// strided tensor.extract_slice selects. Each phase is one linalg.generic
// (over n, group, output channel, q..., then the reduction over input
// channel and j...) that starts from the bias; tensor.insert_slice with the
// stride places it. The input is zero-padded once so that every phase reads
// inside it. With stride 1 there is one phase.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace lwp::onnx {
void registerConvTransposeOps(OpTable &T);
} // namespace lwp::onnx

namespace {

/// One spatial axis of one phase.
struct AxisPhase {
  int64_t Residue = 0;
  /// Output positions of the phase (o = Residue + q * stride, q < Count).
  int64_t Count = 0;
  /// Kernel taps k0 + j * TapStep (j < Taps).
  int64_t K0 = 0, TapStep = 1, Taps = 0;
  /// Input position read: q + Offset - j * InStep (before padding).
  int64_t Offset = 0, InStep = 0;
};

LogicalResult importConvTranspose(NodeContext &C) {
  const TensorValue &X = C.input(0), &W = C.input(1);
  int64_t Rank = X.rank(), K = Rank - 2;
  if (Rank < 3)
    return C.error("the input must have rank 3 or more (N, C, spatial...)");
  if (W.rank() != Rank)
    return C.error("the weights' rank differs from the input's");
  if (!isFloatType(X.Type) || W.Type != X.Type)
    return C.error("input and weights must be float or double, of one type");
  int64_t N = X.Shape[0], Ch = X.Shape[1];
  int64_t G = C.attrInt("group", 1);
  if (G <= 0 || Ch % G)
    return C.error(llvm::formatv("group {0} does not divide the {1} input "
                                 "channels",
                                 G, Ch));
  if (W.Shape[0] != Ch)
    return C.error(llvm::formatv("the weights have {0} input channels, the "
                                 "input {1}",
                                 W.Shape[0], Ch));
  int64_t Cg = Ch / G, Mg = W.Shape[1], M = Mg * G;
  if (C.hasInput(2) && (C.input(2).rank() != 1 || C.input(2).Shape[0] != M ||
                        C.input(2).Type != X.Type))
    return C.error(llvm::formatv("the bias must be a vector of {0} elements "
                                 "of the input's type",
                                 M));

  auto Ints = [&](llvm::StringRef Name, int64_t Size, int64_t Default,
                  SmallVector<int64_t, 4> &Out) -> LogicalResult {
    Out = C.attrInts(Name);
    if (Out.empty())
      Out.assign(Size, Default);
    if (int64_t(Out.size()) != Size)
      return C.error(llvm::formatv("{0} has {1} values, {2} expected", Name,
                                   Out.size(), Size));
    return success();
  };
  SmallVector<int64_t, 4> Strides, Dilations, OutPad, Pads, Kernel;
  if (failed(Ints("strides", K, 1, Strides)) ||
      failed(Ints("dilations", K, 1, Dilations)) ||
      failed(Ints("output_padding", K, 0, OutPad)) ||
      failed(Ints("pads", 2 * K, 0, Pads)))
    return failure();
  for (int64_t A = 0; A != K; ++A) {
    Kernel.push_back(W.Shape[2 + A]);
    if (Strides[A] <= 0 || Dilations[A] <= 0)
      return C.error("strides and dilations must be positive");
  }
  if (C.hasAttr("kernel_shape") &&
      ArrayRef<int64_t>(C.attrInts("kernel_shape")) != ArrayRef(Kernel))
    return C.error("kernel_shape differs from the weights' shape");
  std::string AutoPad = C.attrString("auto_pad", "NOTSET");
  if (AutoPad != "NOTSET" && AutoPad != "SAME_UPPER" &&
      AutoPad != "SAME_LOWER" && AutoPad != "VALID")
    return C.error("auto_pad '" + AutoPad + "' is not supported");
  SmallVector<int64_t, 4> OutputShape = C.attrInts("output_shape");
  if (int64_t(OutputShape.size()) == Rank)
    OutputShape.erase(OutputShape.begin(), OutputShape.begin() + 2);
  if (!OutputShape.empty() && int64_t(OutputShape.size()) != K)
    return C.error("output_shape must give the spatial dimensions");

  // Bounded attributes keep the sizes below in int64_t.
  for (int64_t A = 0; A != K; ++A)
    for (int64_t V : {Strides[A], Dilations[A], OutPad[A], Pads[A],
                      Pads[A + K]})
      if (std::abs(V) > MaxTensorElements)
        return C.error("strides, dilations and pads beyond 2^31");
  for (int64_t V : OutputShape)
    if (std::abs(V) > MaxTensorElements)
      return C.error("output_shape beyond 2^31");

  // Per axis: the full (unpadded) output, the output size and pad_head.
  SmallVector<int64_t, 4> Out(K), Head(K);
  for (int64_t A = 0; A != K; ++A) {
    int64_t In = X.Shape[2 + A];
    int64_t Full =
        Strides[A] * (In - 1) + OutPad[A] + (Kernel[A] - 1) * Dilations[A] + 1;
    bool Auto = AutoPad == "SAME_UPPER" || AutoPad == "SAME_LOWER";
    if (!OutputShape.empty() || Auto) {
      Out[A] = OutputShape.empty() ? In * Strides[A] : OutputShape[A];
      // The spec's split of the total padding; a negative total (a larger
      // output_shape) extends the output at the end.
      int64_t Total = Full - Out[A];
      if (Total < 0)
        Head[A] = 0;
      else if (AutoPad == "SAME_UPPER")
        Head[A] = Total / 2;
      else
        Head[A] = Total - Total / 2;
    } else if (AutoPad == "VALID") {
      Out[A] = Full;
      Head[A] = 0;
    } else {
      Head[A] = Pads[A];
      Out[A] = Full - Pads[A] - Pads[A + K];
    }
    if (Out[A] <= 0)
      return C.error(llvm::formatv("spatial output dimension {0} would be {1}",
                                   A, Out[A]));
  }

  // One generic per stride phase: a stride far above the kernel's reach
  // would make millions of them.
  int64_t PhaseCount = 1;
  for (int64_t A = 0; A != K; ++A) {
    PhaseCount *= std::min(Strides[A], Out[A]);
    if (PhaseCount > 4096)
      return C.error("strides make more than 4096 phases");
  }
  {
    SmallVector<int64_t, 4> Full{X.Shape[0], M};
    Full.append(Out.begin(), Out.end());
    if (failed(checkShape(C, Full, "the output")))
      return failure();
  }

  // The phases of each axis, and the input padding they need.
  SmallVector<SmallVector<AxisPhase, 4>, 4> Phases(K);
  SmallVector<int64_t, 4> PadLow(K, 0), PadHigh(K, 0);
  for (int64_t A = 0; A != K; ++A) {
    int64_t S = Strides[A], D = Dilations[A], In = X.Shape[2 + A];
    int64_t Gcd = std::gcd(S, D);
    for (int64_t R = 0; R != std::min(S, Out[A]); ++R) {
      AxisPhase P;
      P.Residue = R;
      P.Count = (Out[A] - R + S - 1) / S;
      P.TapStep = S / Gcd;
      P.InStep = D / Gcd;
      for (int64_t Kk = 0; Kk < Kernel[A]; ++Kk) {
        if ((R + Head[A] - Kk * D) % S)
          continue;
        if (!P.Taps)
          P.K0 = Kk;
        ++P.Taps;
        Kk += P.TapStep - 1;
      }
      if (P.Taps) {
        P.Offset = (R + Head[A] - P.K0 * D) / S;
        int64_t Lowest = P.Offset - (P.Taps - 1) * P.InStep;
        int64_t Highest = P.Count - 1 + P.Offset;
        PadLow[A] = std::max(PadLow[A], -Lowest);
        PadHigh[A] = std::max(PadHigh[A], Highest - (In - 1));
      }
      Phases[A].push_back(P);
    }
  }

  OpBuilder &B = C.builder();
  Location Loc = C.loc();
  MLIRContext *Ctx = C.context();
  Type ET = mlirElemType(Ctx, X.Type);
  // The input, zero-padded, as [N, G, Cg, spatial...].
  Value Xv = C.value(0);
  SmallVector<int64_t, 4> XpShape(X.Shape);
  bool Padded = false;
  for (int64_t A = 0; A != K; ++A) {
    XpShape[2 + A] += PadLow[A] + PadHigh[A];
    Padded |= PadLow[A] || PadHigh[A];
  }
  if (Padded) {
    SmallVector<OpFoldResult, 4> Lo(Rank, B.getIndexAttr(0)),
        Hi(Rank, B.getIndexAttr(0));
    for (int64_t A = 0; A != K; ++A) {
      Lo[2 + A] = B.getIndexAttr(PadLow[A]);
      Hi[2 + A] = B.getIndexAttr(PadHigh[A]);
    }
    Xv = tensor::PadOp::create(B, Loc, RankedTensorType::get(XpShape, ET), Xv,
                               Lo, Hi, C.scalar(0.0, X.Type));
  }
  SmallVector<int64_t, 4> XgShape{N, G, Cg};
  XgShape.append(XpShape.begin() + 2, XpShape.end());
  Xv = C.reshape(Xv, XgShape);
  // The weights as [G, Cg, Mg, kernel...].
  SmallVector<int64_t, 4> WgShape{G, Cg, Mg};
  WgShape.append(Kernel.begin(), Kernel.end());
  Value Wg = C.reshape(C.value(1), WgShape);
  Value Bias;
  if (C.hasInput(2))
    Bias = C.reshape(C.value(2), {G, Mg});

  // Loops: n, g, m, q... (parallel), c, j... (reduction).
  unsigned Loops = 3 + K + 1 + K;
  auto Dim = [&](unsigned I) { return getAffineDimExpr(I, Ctx); };
  unsigned CDim = 3 + K;
  SmallVector<AffineExpr, 4> OutExprs{Dim(0), Dim(1), Dim(2)};
  for (int64_t A = 0; A != K; ++A)
    OutExprs.push_back(Dim(3 + A));
  AffineMap OutMap = AffineMap::get(Loops, 0, OutExprs, Ctx);
  SmallVector<AffineExpr, 4> WExprs{Dim(1), Dim(CDim), Dim(2)};
  for (int64_t A = 0; A != K; ++A)
    WExprs.push_back(Dim(CDim + 1 + A));
  AffineMap WMap = AffineMap::get(Loops, 0, WExprs, Ctx);
  SmallVector<utils::IteratorType> Iterators(3 + K,
                                             utils::IteratorType::parallel);
  Iterators.append(1 + K, utils::IteratorType::reduction);

  SmallVector<int64_t, 4> YShape{N, M};
  YShape.append(Out.begin(), Out.end());
  int64_t NumPhases = 1;
  for (int64_t A = 0; A != K; ++A)
    NumPhases *= Phases[A].size();
  Value Y = C.empty(YShape, X.Type);
  SmallVector<ReassociationIndices, 4> Groups{{0}, {1, 2}};
  for (int64_t A = 0; A != K; ++A)
    Groups.push_back({3 + A});
  int64_t Macs = 0;
  for (int64_t Index = 0; Index != NumPhases; ++Index) {
    SmallVector<const AxisPhase *, 4> P(K);
    int64_t Rest = Index;
    for (int64_t A = K - 1; A >= 0; --A) {
      P[A] = &Phases[A][Rest % Phases[A].size()];
      Rest /= Phases[A].size();
    }
    // The phase's positions of the output, [N, M, q...], viewed as
    // [N, G, Mg, q...]; the phase computes into them (in place once
    // bufferized) and is inserted back.
    SmallVector<int64_t, 4> PShape{N, G, Mg}, CShape{N, M}, Off{0, 0},
        Stride{1, 1};
    bool NoTaps = false;
    for (int64_t A = 0; A != K; ++A) {
      PShape.push_back(P[A]->Count);
      CShape.push_back(P[A]->Count);
      Off.push_back(P[A]->Residue);
      Stride.push_back(Strides[A]);
      NoTaps |= P[A]->Taps == 0;
    }
    Value Init = Y;
    if (NumPhases != 1)
      Init = tensor::ExtractSliceOp::create(
          B, Loc, RankedTensorType::get(CShape, ET), Y, ValueRange{},
          ValueRange{}, ValueRange{}, Off, CShape, Stride);
    Init = tensor::ExpandShapeOp::create(
        B, Loc, RankedTensorType::get(PShape, ET), Init, Groups);
    // The phase starts from the bias (or zeros).
    Value Acc;
    if (Bias) {
      AffineMap BMap = AffineMap::get(3 + K, 0, {Dim(1), Dim(2)}, Ctx);
      Acc = linalg::GenericOp::create(
                B, Loc, TypeRange{Init.getType()}, ValueRange{Bias},
                ValueRange{Init},
                ArrayRef<AffineMap>{
                    BMap, AffineMap::getMultiDimIdentityMap(3 + K, Ctx)},
                SmallVector<utils::IteratorType>(3 + K,
                                                 utils::IteratorType::parallel),
                [](OpBuilder &NB, Location L, ValueRange Args) {
                  linalg::YieldOp::create(NB, L, Args[0]);
                })
                .getResult(0);
    } else {
      Acc = linalg::FillOp::create(B, Loc, ValueRange{C.scalar(0.0, X.Type)},
                                   ValueRange{Init})
                .getResult(0);
    }
    if (!NoTaps) {
      // The phase's taps: a strided slice of the weights.
      SmallVector<int64_t, 4> WOff(3, 0), WSize{G, Cg, Mg}, WStride(3, 1);
      SmallVector<AffineExpr, 4> XExprs{Dim(0), Dim(1), Dim(CDim)};
      int64_t Count = N * G * Mg * Cg;
      for (int64_t A = 0; A != K; ++A) {
        WOff.push_back(P[A]->K0);
        WSize.push_back(P[A]->Taps);
        WStride.push_back(P[A]->TapStep);
        XExprs.push_back(Dim(3 + A) + (P[A]->Offset + PadLow[A]) -
                         Dim(CDim + 1 + A) * P[A]->InStep);
        Count *= P[A]->Count * P[A]->Taps;
      }
      Macs += Count;
      Value Wp = Wg;
      if (ArrayRef<int64_t>(WSize) != ArrayRef<int64_t>(WgShape))
        Wp = tensor::ExtractSliceOp::create(
            B, Loc, RankedTensorType::get(WSize, ET), Wg, ValueRange{},
            ValueRange{}, ValueRange{}, WOff, WSize, WStride);
      AffineMap XMap = AffineMap::get(Loops, 0, XExprs, Ctx);
      Acc = linalg::GenericOp::create(
                B, Loc, TypeRange{Acc.getType()}, ValueRange{Xv, Wp},
                ValueRange{Acc}, ArrayRef<AffineMap>{XMap, WMap, OutMap},
                Iterators,
                [](OpBuilder &NB, Location L, ValueRange Args) {
                  Value Mul = arith::MulFOp::create(NB, L, Args[0], Args[1]);
                  Value Sum = arith::AddFOp::create(NB, L, Args[2], Mul);
                  linalg::YieldOp::create(NB, L, Sum);
                })
                .getResult(0);
    }
    Acc = tensor::CollapseShapeOp::create(
        B, Loc, RankedTensorType::get(CShape, ET), Acc, Groups);
    if (NumPhases == 1) {
      Y = Acc;
      break;
    }
    Y = tensor::InsertSliceOp::create(B, Loc, Acc, Y, ValueRange{},
                                      ValueRange{}, ValueRange{}, Off, CShape,
                                      Stride);
  }
  C.setOutput(0, Y, X.Type);
  int64_t Read = X.numElements() + W.numElements() +
                 (C.hasInput(2) ? C.input(2).numElements() : 0);
  C.setWork(2 * Macs, Read * elemSize(X.Type),
            product(YShape) * elemSize(X.Type));
  return success();
}

} // namespace

void lwp::onnx::registerConvTransposeOps(OpTable &T) {
  T["ConvTranspose"] = importConvTranspose;
}
