//===- OpsDataMovement.cpp - Slice, Split, Gather, Pad, Resize ... --------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Operators that move elements without arithmetic on them (Resize's linear
// and cubic modes aside). Their parameters (Slice's starts, Pad's pads,
// Resize's scales ...) decide the output shapes, so they must be known at
// import: constants, initializers or folded shape arithmetic. Slices and
// splits are tensor.extract_slice, constant padding tensor.pad, the others
// one linalg.generic each; Gather, reflect and edge padding and Resize read
// their input with tensor.extract at computed indices. Resize's coordinate
// arithmetic is done at import, in double precision as ONNX's reference
// does: the generic reads per-axis tables of source indices and weights.
// Small known inputs are folded (Shape -> Gather/Slice chains).
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

namespace lwp::onnx {
// OpsConvTranspose.cpp.
void registerConvTransposeOps(OpTable &T);
} // namespace lwp::onnx

namespace {
/// Outputs up to this many elements are folded when the data is known.
constexpr int64_t FoldLimit = 4096;

int64_t bytesOf(ArrayRef<int64_t> Shape, int32_t Type) {
  return product(Shape) * elemSize(Type);
}

/// The known integer contents of input \p I, or std::nullopt.
std::optional<SmallVector<int64_t, 4>> knownInts(NodeContext &C, unsigned I) {
  const ConstData *K = C.constInput(I);
  if (!K)
    return std::nullopt;
  std::vector<int64_t> V = K->ints();
  return SmallVector<int64_t, 4>(V.begin(), V.end());
}

/// Row-major flat index of \p Index in \p Shape.
int64_t flatten(ArrayRef<int64_t> Shape, ArrayRef<int64_t> Index) {
  int64_t Flat = 0;
  for (size_t D = 0; D != Shape.size(); ++D)
    Flat = Flat * Shape[D] + Index[D];
  return Flat;
}

/// Folds a node whose data \p In is known: element E of output \p Out (of
/// \p OutShape) is the element of \p In at flat index Source(index of E).
/// False when the output is too large to fold.
bool foldCopy(NodeContext &C, unsigned Out, const ConstData &In,
              ArrayRef<int64_t> OutShape,
              llvm::function_ref<int64_t(ArrayRef<int64_t>)> Source) {
  int64_t N = product(OutShape);
  if (N > FoldLimit)
    return false;
  auto R = ConstData::zeros(In.Type, OutShape);
  unsigned Size = elemSize(In.Type);
  SmallVector<int64_t, 4> Index(OutShape.size(), 0);
  for (int64_t E = 0; E != N; ++E) {
    int64_t Rest = E;
    for (int64_t D = OutShape.size() - 1; D >= 0; --D) {
      Index[D] = Rest % OutShape[D];
      Rest /= OutShape[D];
    }
    memcpy(R->Raw.data() + E * Size, In.Raw.data() + Source(Index) * Size,
           Size);
  }
  C.setConstOutput(Out, R);
  return true;
}

Value indexConst(OpBuilder &B, Location L, int64_t V) {
  return arith::ConstantIndexOp::create(B, L, V);
}

/// tensor.extract_slice of \p Src at static \p Offsets, \p Sizes and
/// \p Strides.
Value extractSlice(NodeContext &C, Value Src, ArrayRef<int64_t> Offsets,
                   ArrayRef<int64_t> Sizes, ArrayRef<int64_t> Strides) {
  auto SrcType = cast<RankedTensorType>(Src.getType());
  if (SrcType.getShape() == Sizes &&
      llvm::all_of(Offsets, [](int64_t O) { return O == 0; }) &&
      llvm::all_of(Strides, [](int64_t S) { return S == 1; }))
    return Src;
  auto Type = RankedTensorType::get(Sizes, SrcType.getElementType());
  return tensor::ExtractSliceOp::create(C.builder(), C.loc(), Type, Src,
                                        ValueRange{}, ValueRange{},
                                        ValueRange{}, Offsets, Sizes, Strides);
}

/// A linalg.generic over \p OutShape with no tensor inputs but \p Inputs
/// (indexed by \p InputMaps) whose body \p Body builds the element from
/// the loop indices and the inputs' elements.
Value indexedGeneric(
    NodeContext &C, ArrayRef<int64_t> OutShape, int32_t OutType,
    ArrayRef<Value> Inputs, ArrayRef<AffineMap> InputMaps,
    llvm::function_ref<Value(OpBuilder &, Location, ArrayRef<Value> Indices,
                             ValueRange Args)>
        Body) {
  unsigned Rank = OutShape.size();
  SmallVector<AffineMap> Maps(InputMaps.begin(), InputMaps.end());
  Maps.push_back(AffineMap::getMultiDimIdentityMap(Rank, C.context()));
  SmallVector<utils::IteratorType> Iterators(Rank,
                                             utils::IteratorType::parallel);
  Value Init = C.empty(OutShape, OutType);
  auto Generic = linalg::GenericOp::create(
      C.builder(), C.loc(), TypeRange{Init.getType()}, Inputs, ValueRange{Init},
      Maps, Iterators, [&](OpBuilder &B, Location L, ValueRange Args) {
        SmallVector<Value, 4> Indices;
        for (unsigned D = 0; D != Rank; ++D)
          Indices.push_back(linalg::IndexOp::create(B, L, D));
        Value R = Body(B, L, Indices, Args.drop_back());
        linalg::YieldOp::create(B, L, R);
        for (Value I : Indices)
          if (I.use_empty())
            I.getDefiningOp()->erase();
      });
  return Generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

LogicalResult importSlice(NodeContext &C) {
  const TensorValue &X = C.input(0);
  int64_t Rank = X.rank();
  SmallVector<int64_t, 4> Starts, Ends, Axes, Steps;
  if (C.opset() < 10) {
    Starts = C.attrInts("starts");
    Ends = C.attrInts("ends");
    Axes = C.attrInts("axes");
  } else {
    auto S = knownInts(C, 1), E = knownInts(C, 2);
    if (!S || !E)
      return C.error("starts and ends must be known at import (constants or "
                     "initializers): the importer needs static shapes");
    Starts = *S;
    Ends = *E;
    if (C.hasInput(3)) {
      auto A = knownInts(C, 3);
      if (!A)
        return C.error("axes must be known at import");
      Axes = *A;
    }
    if (C.hasInput(4)) {
      auto St = knownInts(C, 4);
      if (!St)
        return C.error("steps must be known at import");
      Steps = *St;
    }
  }
  size_t N = Starts.size();
  if (Ends.size() != N)
    return C.error(llvm::formatv("{0} starts but {1} ends", N, Ends.size()));
  if (Axes.empty())
    for (size_t I = 0; I != N; ++I)
      Axes.push_back(I);
  if (Steps.empty())
    Steps.assign(N, 1);
  if (Axes.size() != N || Steps.size() != N)
    return C.error("starts, ends, axes and steps differ in length");

  // Per dimension: the first element read, the count and the step.
  SmallVector<int64_t, 4> First(Rank, 0), Size(X.Shape), Step(Rank, 1);
  SmallVector<bool, 4> Seen(Rank, false);
  for (size_t I = 0; I != N; ++I) {
    auto Axis = normalizeAxis(Axes[I], Rank);
    if (!Axis)
      return C.error(llvm::formatv("axis {0} is out of range for rank {1}",
                                   Axes[I], Rank));
    if (Seen[*Axis])
      return C.error(llvm::formatv("axis {0} is repeated", Axes[I]));
    Seen[*Axis] = true;
    int64_t Dim = X.Shape[*Axis], S = Steps[I];
    if (S == 0)
      return C.error("a step is 0");
    int64_t Start = Starts[I], End = Ends[I];
    if (Start < 0)
      Start += Dim;
    if (End < 0)
      End += Dim;
    int64_t Count;
    if (Dim == 0) {
      Count = 0;
    } else if (S > 0) {
      Start = std::clamp<int64_t>(Start, 0, Dim);
      End = std::clamp<int64_t>(End, 0, Dim);
      Count = End > Start ? (End - Start + S - 1) / S : 0;
    } else {
      Start = std::clamp<int64_t>(Start, 0, Dim - 1);
      End = std::clamp<int64_t>(End, -1, Dim - 1);
      Count = Start > End ? (Start - End - S - 1) / -S : 0;
    }
    First[*Axis] = Count ? Start : 0;
    Size[*Axis] = Count;
    Step[*Axis] = Count ? S : 1;
  }

  if (const ConstData *K = C.constInput(0))
    if (foldCopy(C, 0, *K, Size, [&](ArrayRef<int64_t> Index) {
          SmallVector<int64_t, 4> Src(Rank);
          for (int64_t D = 0; D != Rank; ++D)
            Src[D] = First[D] + Index[D] * Step[D];
          return flatten(X.Shape, Src);
        }))
      return success();

  // Negative steps: the same elements in increasing order, then reversed
  // by a generic whose input map counts down.
  SmallVector<int64_t, 4> Offset(Rank), Stride(Rank);
  bool Reverse = false;
  for (int64_t D = 0; D != Rank; ++D) {
    if (Step[D] > 0) {
      Offset[D] = First[D];
      Stride[D] = Step[D];
      continue;
    }
    Offset[D] = First[D] + (Size[D] - 1) * Step[D];
    Stride[D] = -Step[D];
    Reverse = true;
  }
  Value R = extractSlice(C, C.value(0), Offset, Size, Stride);
  if (Reverse) {
    SmallVector<AffineExpr, 4> Exprs;
    for (int64_t D = 0; D != Rank; ++D) {
      AffineExpr E = getAffineDimExpr(D, C.context());
      if (Step[D] < 0)
        E = getAffineConstantExpr(Size[D] - 1, C.context()) - E;
      Exprs.push_back(E);
    }
    AffineMap Map = AffineMap::get(Rank, 0, Exprs, C.context());
    R = indexedGeneric(C, Size, X.Type, {R}, {Map},
                       [](OpBuilder &, Location, ArrayRef<Value>,
                          ValueRange Args) { return Args[0]; });
  }
  C.setOutput(0, R, X.Type);
  int64_t Bytes = bytesOf(Size, X.Type);
  C.setWork(0, Bytes, Bytes);
  return success();
}

//===----------------------------------------------------------------------===//
// Split
//===----------------------------------------------------------------------===//

LogicalResult importSplit(NodeContext &C) {
  const TensorValue &X = C.input(0);
  auto Axis = normalizeAxis(C.attrInt("axis", 0), X.rank());
  if (!Axis)
    return C.error("axis is out of range");
  int64_t Dim = X.Shape[*Axis];
  SmallVector<int64_t, 4> Parts;
  if (C.opset() < 13) {
    Parts = C.attrInts("split");
  } else if (C.hasInput(1)) {
    auto P = knownInts(C, 1);
    if (!P)
      return C.error("split must be known at import (a constant or an "
                     "initializer)");
    Parts = *P;
  }
  unsigned NumOut = C.numOutputs();
  if (Parts.empty()) {
    if (Dim % NumOut)
      return C.error(llvm::formatv("dimension {0} of size {1} does not split "
                                   "into {2} equal parts",
                                   *Axis, Dim, NumOut));
    Parts.assign(NumOut, Dim / NumOut);
  }
  if (Parts.size() != NumOut)
    return C.error(
        llvm::formatv("{0} split sizes for {1} outputs", Parts.size(), NumOut));
  int64_t Sum = 0;
  for (int64_t P : Parts) {
    if (P < 0)
      return C.error("a split size is negative");
    Sum += P;
  }
  if (Sum != Dim)
    return C.error(llvm::formatv("split sizes add up to {0}, dimension {1} "
                                 "has {2}",
                                 Sum, *Axis, Dim));
  const ConstData *K = C.constInput(0);
  int64_t Rank = X.rank(), At = 0;
  for (unsigned I = 0; I != NumOut; At += Parts[I], ++I) {
    if (!C.hasOutput(I))
      continue;
    SmallVector<int64_t, 4> Offset(Rank, 0), Size(X.Shape), Stride(Rank, 1);
    Offset[*Axis] = At;
    Size[*Axis] = Parts[I];
    if (K && foldCopy(C, I, *K, Size, [&](ArrayRef<int64_t> Index) {
          SmallVector<int64_t, 4> Src(Index);
          Src[*Axis] += At;
          return flatten(X.Shape, Src);
        }))
      continue;
    C.setOutput(I, extractSlice(C, C.value(0), Offset, Size, Stride), X.Type);
  }
  int64_t Bytes = bytesOf(X.Shape, X.Type);
  C.setWork(0, Bytes, Bytes);
  return success();
}

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

LogicalResult importGather(NodeContext &C) {
  const TensorValue &X = C.input(0), &Ind = C.input(1);
  int64_t Rank = X.rank(), Q = Ind.rank();
  if (Rank == 0)
    return C.error("data must have rank 1 or more");
  auto Axis = normalizeAxis(C.attrInt("axis", 0), Rank);
  if (!Axis)
    return C.error("axis is out of range");
  if (Ind.Type != Int64 && Ind.Type != Int32)
    return C.error("indices must be int32 or int64");
  int64_t Dim = X.Shape[*Axis];
  SmallVector<int64_t, 4> OutShape(X.Shape.begin(), X.Shape.begin() + *Axis);
  OutShape.append(Ind.Shape.begin(), Ind.Shape.end());
  OutShape.append(X.Shape.begin() + *Axis + 1, X.Shape.end());

  // Known indices: checked, negative ones made positive (for folding; the
  // generic reads the indices as given).
  std::optional<SmallVector<int64_t, 4>> Known = knownInts(C, 1);
  bool NonNegative =
      Known && llvm::all_of(*Known, [](int64_t I) { return I >= 0; });
  if (Known)
    for (int64_t &I : *Known) {
      if (I < -Dim || I >= Dim)
        return C.error(llvm::formatv("index {0} is out of range for "
                                     "dimension {1} of size {2}",
                                     I, *Axis, Dim));
      if (I < 0)
        I += Dim;
    }
  if (const ConstData *K = C.constInput(0); K && Known)
    if (foldCopy(C, 0, *K, OutShape, [&](ArrayRef<int64_t> Index) {
          SmallVector<int64_t, 4> Src(Index.begin(), Index.begin() + *Axis);
          Src.push_back((*Known)[flatten(Ind.Shape, Index.slice(*Axis, Q))]);
          Src.append(Index.begin() + *Axis + Q, Index.end());
          return flatten(X.Shape, Src);
        }))
      return success();

  Value Data = C.value(0);
  // The indices are read element by element (one per output element);
  // their map drops the data dimensions around them.
  unsigned OutRank = OutShape.size();
  SmallVector<AffineExpr, 4> IndExprs;
  for (int64_t D = 0; D != Q; ++D)
    IndExprs.push_back(getAffineDimExpr(*Axis + D, C.context()));
  AffineMap IndMap = AffineMap::get(OutRank, 0, IndExprs, C.context());
  Value R = indexedGeneric(
      C, OutShape, X.Type, {C.value(1)}, {IndMap},
      [&](OpBuilder &B, Location L, ArrayRef<Value> Indices,
          ValueRange Args) -> Value {
        Value I = arith::IndexCastOp::create(B, L, B.getIndexType(), Args[0]);
        if (!NonNegative) {
          // Negative indices count from the end; out-of-range ones (ONNX
          // leaves them undefined) are clamped so that reads stay inside.
          Value Zero = indexConst(B, L, 0);
          Value Neg =
              arith::CmpIOp::create(B, L, arith::CmpIPredicate::slt, I, Zero);
          Value Wrapped = arith::AddIOp::create(B, L, I, indexConst(B, L, Dim));
          I = arith::SelectOp::create(B, L, Neg, Wrapped, I);
          I = arith::MaxSIOp::create(B, L, I, Zero);
          I = arith::MinSIOp::create(B, L, I, indexConst(B, L, Dim - 1));
        }
        SmallVector<Value, 4> Src(Indices.begin(), Indices.begin() + *Axis);
        Src.push_back(I);
        Src.append(Indices.begin() + *Axis + Q, Indices.end());
        return tensor::ExtractOp::create(B, L, Data, Src);
      });
  C.setOutput(0, R, X.Type);
  int64_t Bytes = bytesOf(OutShape, X.Type);
  C.setWork(0, Bytes + bytesOf(Ind.Shape, Ind.Type), Bytes);
  return success();
}

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

LogicalResult importPad(NodeContext &C) {
  const TensorValue &X = C.input(0);
  int64_t Rank = X.rank();
  std::string Mode = C.attrString("mode", "constant");
  if (Mode != "constant" && Mode != "reflect" && Mode != "edge")
    return C.error("mode '" + Mode +
                   "' is not supported (constant, reflect, edge)");
  SmallVector<int64_t, 4> Pads;
  double Value0 = 0;
  std::optional<unsigned> ValueInput;
  if (C.opset() < 11) {
    Pads = C.attrInts("pads");
    Value0 = C.attrFloat("value", 0.0f);
  } else {
    auto P = knownInts(C, 1);
    if (!P)
      return C.error("pads must be known at import (a constant or an "
                     "initializer): the importer needs static shapes");
    Pads = *P;
    if (C.hasInput(2)) {
      if (C.input(2).numElements() != 1)
        return C.error("constant_value must hold one element");
      if (const ConstData *K = C.constInput(2))
        Value0 = K->getDouble(0);
      else
        ValueInput = 2;
    }
  }
  if (int64_t(Pads.size()) != 2 * Rank)
    return C.error(llvm::formatv("{0} pads for rank {1} (2 per dimension)",
                                 Pads.size(), Rank));

  // Negative pads crop first.
  SmallVector<int64_t, 4> Offset(Rank, 0), Size(X.Shape), Ones(Rank, 1),
      Low(Rank), High(Rank), OutShape(Rank);
  for (int64_t D = 0; D != Rank; ++D) {
    int64_t Lo = Pads[D], Hi = Pads[D + Rank];
    if (std::abs(Lo) > MaxTensorElements || std::abs(Hi) > MaxTensorElements)
      return C.error("pads beyond 2^31 elements");
    Offset[D] = std::max<int64_t>(0, -Lo);
    Size[D] = X.Shape[D] + std::min<int64_t>(0, Lo) + std::min<int64_t>(0, Hi);
    if (Size[D] < 0)
      return C.error(llvm::formatv("pads crop dimension {0} below size 0", D));
    Low[D] = std::max<int64_t>(0, Lo);
    High[D] = std::max<int64_t>(0, Hi);
    OutShape[D] = Size[D] + Low[D] + High[D];
    if (Mode != "constant" && Size[D] == 0 && OutShape[D] != 0)
      return C.error(llvm::formatv("{0} padding of dimension {1}, which is "
                                   "empty",
                                   Mode, D));
  }
  if (failed(checkShape(C, OutShape, "the padded tensor")))
    return failure();
  Value Src = extractSlice(C, C.value(0), Offset, Size, Ones);
  Value R;
  if (Mode == "constant") {
    OpBuilder &B = C.builder();
    Value Fill;
    if (ValueInput) {
      const TensorValue &V = C.input(*ValueInput);
      SmallVector<Value, 4> Zeros(V.rank(), indexConst(B, C.loc(), 0));
      Fill = tensor::ExtractOp::create(B, C.loc(), C.value(*ValueInput), Zeros);
      Fill = C.convertScalar(B, C.loc(), Fill, V.Type, X.Type);
    } else {
      Fill = C.scalar(Value0, X.Type);
    }
    SmallVector<OpFoldResult, 4> Lo, Hi;
    for (int64_t D = 0; D != Rank; ++D) {
      Lo.push_back(B.getIndexAttr(Low[D]));
      Hi.push_back(B.getIndexAttr(High[D]));
    }
    R = tensor::PadOp::create(B, C.loc(), C.tensorType(OutShape, X.Type), Src,
                              Lo, Hi, Fill);
  } else {
    bool Edge = Mode == "edge";
    R = indexedGeneric(
        C, OutShape, X.Type, {}, {},
        [&](OpBuilder &B, Location L, ArrayRef<Value> Indices,
            ValueRange) -> Value {
          SmallVector<Value, 4> SrcIndex;
          for (int64_t D = 0; D != Rank; ++D) {
            Value I = Indices[D];
            int64_t Dim = Size[D];
            if (!Low[D] && !High[D]) {
              SrcIndex.push_back(I);
              continue;
            }
            if (Low[D])
              I = arith::SubIOp::create(B, L, I, indexConst(B, L, Low[D]));
            Value Zero = indexConst(B, L, 0), Last = indexConst(B, L, Dim - 1);
            if (Edge) {
              I = arith::MaxSIOp::create(B, L, I, Zero);
              I = arith::MinSIOp::create(B, L, I, Last);
              SrcIndex.push_back(I);
              continue;
            }
            // Reflection without the edge: period 2 (Dim - 1), as numpy's
            // 'reflect' (pads as wide as the dimension reflect again).
            int64_t Period = std::max<int64_t>(2 * (Dim - 1), 1);
            if (std::max(Low[D], High[D]) > Dim - 1) {
              Value P = indexConst(B, L, Period);
              I = arith::RemSIOp::create(B, L, I, P);
              Value Neg = arith::CmpIOp::create(B, L, arith::CmpIPredicate::slt,
                                                I, Zero);
              I = arith::SelectOp::create(B, L, Neg,
                                          arith::AddIOp::create(B, L, I, P), I);
            } else {
              Value Neg = arith::CmpIOp::create(B, L, arith::CmpIPredicate::slt,
                                                I, Zero);
              I = arith::SelectOp::create(
                  B, L, Neg, arith::SubIOp::create(B, L, Zero, I), I);
            }
            Value Over =
                arith::CmpIOp::create(B, L, arith::CmpIPredicate::sgt, I, Last);
            Value Back =
                arith::SubIOp::create(B, L, indexConst(B, L, Period), I);
            I = arith::SelectOp::create(B, L, Over, Back, I);
            SrcIndex.push_back(I);
          }
          return tensor::ExtractOp::create(B, L, Src, SrcIndex);
        });
  }
  C.setOutput(0, R, X.Type);
  C.setWork(0, bytesOf(Size, X.Type), bytesOf(OutShape, X.Type));
  return success();
}

//===----------------------------------------------------------------------===//
// Expand and Tile
//===----------------------------------------------------------------------===//

LogicalResult importExpand(NodeContext &C) {
  const TensorValue &X = C.input(0);
  auto Shape = knownInts(C, 1);
  if (!Shape)
    return C.error("shape must be known at import (a constant or an "
                   "initializer): the importer needs static shapes");
  for (int64_t D : *Shape)
    if (D < 0)
      return C.error("shape has a negative dimension");
  auto Out = NodeContext::broadcastShapes(X.Shape, *Shape);
  if (!Out)
    return C.error("the input does not broadcast to shape");
  int64_t Lead = Out->size() - X.rank();
  if (const ConstData *K = C.constInput(0))
    if (foldCopy(C, 0, *K, *Out, [&](ArrayRef<int64_t> Index) {
          SmallVector<int64_t, 4> Src;
          for (int64_t D = 0; D != X.rank(); ++D)
            Src.push_back(X.Shape[D] == 1 ? 0 : Index[Lead + D]);
          return flatten(X.Shape, Src);
        }))
      return success();
  if (ArrayRef<int64_t>(*Out) == ArrayRef<int64_t>(X.Shape)) {
    C.forwardInput(0, 0);
    C.setWork(0, 0, 0);
    return success();
  }
  Value R =
      C.elementwise({C.value(0)}, *Out, X.Type,
                    [](OpBuilder &, Location, ValueRange A) { return A[0]; });
  C.setOutput(0, R, X.Type);
  C.setWork(0, bytesOf(X.Shape, X.Type), bytesOf(*Out, X.Type));
  return success();
}

LogicalResult importTile(NodeContext &C) {
  const TensorValue &X = C.input(0);
  int64_t Rank = X.rank();
  auto Repeats = knownInts(C, 1);
  if (!Repeats)
    return C.error("repeats must be known at import (a constant or an "
                   "initializer): the importer needs static shapes");
  if (int64_t(Repeats->size()) != Rank)
    return C.error(
        llvm::formatv("{0} repeats for rank {1}", Repeats->size(), Rank));
  SmallVector<int64_t, 4> OutShape(Rank), Pairs;
  for (int64_t D = 0; D != Rank; ++D) {
    int64_t Rep = (*Repeats)[D];
    if (Rep < 0)
      return C.error("a repeat is negative");
    OutShape[D] = X.Shape[D] * Rep;
    Pairs.push_back(Rep);
    Pairs.push_back(X.Shape[D]);
  }
  if (const ConstData *K = C.constInput(0))
    if (foldCopy(C, 0, *K, OutShape, [&](ArrayRef<int64_t> Index) {
          SmallVector<int64_t, 4> Src;
          for (int64_t D = 0; D != Rank; ++D)
            Src.push_back(Index[D] % X.Shape[D]);
          return flatten(X.Shape, Src);
        }))
      return success();
  if (ArrayRef<int64_t>(OutShape) == ArrayRef<int64_t>(X.Shape)) {
    C.forwardInput(0, 0);
    C.setWork(0, 0, 0);
    return success();
  }
  // Over [R0, D0, R1, D1, ...], reading the input at (d1, d3, ...); the
  // pairs then collapse (a view).
  SmallVector<AffineExpr, 4> Exprs;
  for (int64_t D = 0; D != Rank; ++D)
    Exprs.push_back(getAffineDimExpr(2 * D + 1, C.context()));
  AffineMap Map = AffineMap::get(2 * Rank, 0, Exprs, C.context());
  Value R = indexedGeneric(C, Pairs, X.Type, {C.value(0)}, {Map},
                           [](OpBuilder &, Location, ArrayRef<Value>,
                              ValueRange Args) { return Args[0]; });
  SmallVector<ReassociationIndices, 4> Groups;
  for (int64_t D = 0; D != Rank; ++D)
    Groups.push_back({2 * D, 2 * D + 1});
  R = tensor::CollapseShapeOp::create(
      C.builder(), C.loc(), C.tensorType(OutShape, X.Type), R, Groups);
  C.setOutput(0, R, X.Type);
  C.setWork(0, bytesOf(X.Shape, X.Type), bytesOf(OutShape, X.Type));
  return success();
}

//===----------------------------------------------------------------------===//
// Resize and Upsample
//===----------------------------------------------------------------------===//

enum class InterpMode { Nearest, Linear, Cubic };

/// How one axis of a Resize reads its input: the output position o reads
/// source positions Index[t][o] with weights Weight[t][o] (t < taps);
/// Outside[o] marks positions outside the crop (tf_crop_and_resize).
struct AxisPlan {
  int64_t In = 1, Out = 1;
  /// Identity: o reads o with weight 1 (the axis is not resized).
  bool Identity = true;
  /// One tap of weight 1 (nearest, or a linear axis that only copies).
  bool Single = true;
  SmallVector<SmallVector<int64_t>> Index;
  SmallVector<SmallVector<double>> Weight;
  SmallVector<bool> Outside;
  bool AnyOutside = false;
};

/// The resize parameters shared by the axes.
struct ResizeParams {
  InterpMode Mode = InterpMode::Nearest;
  std::string Transform = "half_pixel";
  std::string Nearest = "round_prefer_floor";
  double CubicA = -0.75;
  bool ExcludeOutside = false;
  /// Opset 10 Resize and Upsample: asymmetric, nearest rounds down.
  bool Legacy = false;
};

/// Source coordinate of output position \p X on an axis of \p In elements
/// resized by \p Scale to \p Out (ONNX's reference, in double precision;
/// the output width it uses is Scale * In). \p RoiStart and \p RoiEnd are
/// the axis's crop (tf_crop_and_resize); \p Outside is set when the
/// position falls outside the input.
double sourceCoord(const ResizeParams &P, int64_t X, int64_t In, double Scale,
                   double RoiStart, double RoiEnd, bool &Outside) {
  double Width = Scale * double(In);
  double Xd = double(X);
  Outside = false;
  const std::string &T = P.Transform;
  if (T == "align_corners")
    return Width == 1 ? 0.0 : Xd * double(In - 1) / (Width - 1);
  if (T == "asymmetric")
    return Xd / Scale;
  if (T == "tf_half_pixel_for_nn")
    return (Xd + 0.5) / Scale;
  if (T == "pytorch_half_pixel")
    return Width == 1 ? -0.5 : (Xd + 0.5) / Scale - 0.5;
  if (T == "tf_crop_and_resize") {
    double R;
    if (Width == 1)
      R = (RoiEnd - RoiStart) * double(In - 1) / 2;
    else
      R = Xd * (RoiEnd - RoiStart) * double(In - 1) / (Width - 1);
    R += RoiStart * double(In - 1);
    Outside = R < 0 || R > double(In - 1);
    return R;
  }
  return (Xd + 0.5) / Scale - 0.5; // half_pixel
}

/// Plans one axis.
AxisPlan planAxis(const ResizeParams &P, int64_t In, int64_t Out, double Scale,
                  double RoiStart, double RoiEnd) {
  AxisPlan A;
  A.In = In;
  A.Out = Out;
  unsigned Taps = P.Mode == InterpMode::Nearest  ? 1
                  : P.Mode == InterpMode::Linear ? 2
                                                 : 4;
  A.Index.assign(Taps, SmallVector<int64_t>(Out, 0));
  A.Weight.assign(Taps, SmallVector<double>(Out, 0.0));
  A.Outside.assign(Out, false);
  auto Clamp = [&](int64_t I) { return std::clamp<int64_t>(I, 0, In - 1); };
  for (int64_t O = 0; O != Out; ++O) {
    bool Outside = false;
    double X = P.Legacy
                   ? double(O) / Scale
                   : sourceCoord(P, O, In, Scale, RoiStart, RoiEnd, Outside);
    if (P.Legacy)
      Outside = false;
    if (Outside) {
      A.Outside[O] = true;
      A.AnyOutside = true;
      A.Weight[0][O] = 1;
      continue;
    }
    double Floor = std::floor(X);
    int64_t X0 = int64_t(Floor);
    // The reference's ratio is in (0, 1]: an integral coordinate is the
    // right neighbour of the pair below it.
    bool Integral = X == Floor;
    double Ratio = Integral ? 1.0 : X - Floor;
    if (Integral)
      X0 -= 1;
    if (P.Mode == InterpMode::Nearest) {
      bool Up;
      if (Integral)
        Up = true;
      else if (P.Legacy || P.Nearest == "floor")
        Up = false;
      else if (P.Nearest == "ceil")
        Up = true;
      else if (P.Nearest == "round_prefer_ceil")
        Up = Ratio >= 0.5;
      else
        Up = Ratio > 0.5;
      A.Index[0][O] = Clamp(Up ? X0 + 1 : X0);
      A.Weight[0][O] = 1;
      continue;
    }
    SmallVector<int64_t, 4> Src;
    SmallVector<double, 4> W;
    if (P.Mode == InterpMode::Linear) {
      Src = {X0, X0 + 1};
      W = {1 - Ratio, Ratio};
    } else {
      double Al = P.CubicA, R = Ratio;
      Src = {X0 - 1, X0, X0 + 1, X0 + 2};
      W = {((Al * (R + 1) - 5 * Al) * (R + 1) + 8 * Al) * (R + 1) - 4 * Al,
           ((Al + 2) * R - (Al + 3)) * R * R + 1,
           ((Al + 2) * (1 - R) - (Al + 3)) * (1 - R) * (1 - R) + 1,
           ((Al * ((1 - R) + 1) - 5 * Al) * ((1 - R) + 1) + 8 * Al) *
                   ((1 - R) + 1) -
               4 * Al};
      if (P.ExcludeOutside) {
        double Sum = 0;
        for (unsigned T = 0; T != 4; ++T) {
          if (Src[T] < 0 || Src[T] >= In)
            W[T] = 0;
          Sum += W[T];
        }
        for (double &V : W)
          V /= Sum;
      }
    }
    for (unsigned T = 0; T != Taps; ++T) {
      A.Index[T][O] = Clamp(Src[T]);
      A.Weight[T][O] = W[T];
    }
  }
  // Taps that read one source with weight 1 merge into one; an axis whose
  // every position does so is Single, and Identity when it reads o.
  for (int64_t O = 0; O != Out; ++O) {
    if (A.Outside[O]) {
      A.Identity = A.Single = false;
      continue;
    }
    int64_t Src = -1;
    double Sum = 0;
    bool One = true;
    for (unsigned T = 0; T != Taps; ++T) {
      if (A.Weight[T][O] == 0)
        continue;
      if (Src >= 0 && A.Index[T][O] != Src)
        One = false;
      Src = A.Index[T][O];
      Sum += A.Weight[T][O];
    }
    if (!One || Sum != 1 || Src < 0) {
      A.Identity = A.Single = false;
      continue;
    }
    if (Src != O)
      A.Identity = false;
    A.Index[0][O] = Src;
  }
  if (A.Single) {
    A.Index.resize(1);
    A.Weight.assign(1, SmallVector<double>(Out, 1.0));
  }
  return A;
}

Value tableI64(OpBuilder &B, Location L, ArrayRef<int64_t> V) {
  auto T = RankedTensorType::get({int64_t(V.size())}, B.getI64Type());
  return arith::ConstantOp::create(B, L, DenseElementsAttr::get(T, V));
}

Value tableFloat(OpBuilder &B, Location L, Type ET, ArrayRef<double> V) {
  auto T = RankedTensorType::get({int64_t(V.size())}, ET);
  SmallVector<Attribute> Attrs;
  for (double X : V)
    Attrs.push_back(B.getFloatAttr(ET, X));
  return arith::ConstantOp::create(B, L, DenseElementsAttr::get(T, Attrs));
}

/// Resize (and Upsample) of X to \p OutShape with per-axis \p Scales.
LogicalResult emitResize(NodeContext &C, const ResizeParams &P,
                         ArrayRef<int64_t> OutShape, ArrayRef<double> Scales,
                         ArrayRef<double> Roi, double Extrapolation) {
  if (failed(checkShape(C, OutShape, "the resized tensor")))
    return failure();
  const TensorValue &X = C.input(0);
  int64_t Rank = X.rank();
  if (P.Mode != InterpMode::Nearest && !isFloatType(X.Type))
    return C.error("linear and cubic modes need a floating-point input, not " +
                   onnxTypeName(X.Type));
  SmallVector<AxisPlan, 4> Plans;
  for (int64_t D = 0; D != Rank; ++D) {
    if (OutShape[D] <= 0)
      return C.error(llvm::formatv("output dimension {0} is empty", D));
    double Lo = Roi.empty() ? 0.0 : Roi[D];
    double Hi = Roi.empty() ? 1.0 : Roi[D + Rank];
    Plans.push_back(planAxis(P, X.Shape[D], OutShape[D], Scales[D], Lo, Hi));
  }
  bool AllIdentity = llvm::all_of(
      Plans, [](const AxisPlan &A) { return A.Identity && A.In == A.Out; });
  if (AllIdentity) {
    C.forwardInput(0, 0);
    C.setWork(0, 0, 0);
    return success();
  }

  OpBuilder &B = C.builder();
  Location Loc = C.loc();
  Type ET = mlirElemType(C.context(), X.Type);
  // The generic's inputs: per axis that is not the identity, its index
  // tables, then (several taps) its weight tables, then its crop flags.
  SmallVector<Value> Inputs;
  SmallVector<AffineMap> Maps;
  struct AxisArgs {
    SmallVector<unsigned> Index, Weight;
    int Outside = -1;
  };
  SmallVector<AxisArgs, 4> Args(Rank);
  auto AddTable = [&](int64_t D, Value T) {
    Inputs.push_back(T);
    Maps.push_back(AffineMap::get(Rank, 0, {getAffineDimExpr(D, C.context())},
                                  C.context()));
    return unsigned(Inputs.size() - 1);
  };
  int64_t Taps = 1;
  for (int64_t D = 0; D != Rank; ++D) {
    const AxisPlan &A = Plans[D];
    if (A.Identity)
      continue;
    for (const auto &I : A.Index)
      Args[D].Index.push_back(AddTable(D, tableI64(B, Loc, I)));
    if (!A.Single)
      for (const auto &W : A.Weight)
        Args[D].Weight.push_back(AddTable(D, tableFloat(B, Loc, ET, W)));
    if (A.AnyOutside) {
      SmallVector<int64_t> Flags(A.Outside.begin(), A.Outside.end());
      Args[D].Outside = AddTable(D, tableI64(B, Loc, Flags));
    }
    Taps *= A.Index.size();
  }
  Value Data = C.value(0);
  bool Weighted = llvm::any_of(
      Plans, [](const AxisPlan &A) { return !A.Identity && !A.Single; });
  bool Crop =
      llvm::any_of(Plans, [](const AxisPlan &A) { return A.AnyOutside; });
  int64_t Flops = 0;
  Value R = indexedGeneric(
      C, OutShape, X.Type, Inputs, Maps,
      [&](OpBuilder &NB, Location L, ArrayRef<Value> Indices,
          ValueRange In) -> Value {
        // Source indices per axis and tap.
        SmallVector<SmallVector<Value, 4>, 4> Src(Rank);
        for (int64_t D = 0; D != Rank; ++D) {
          if (Plans[D].Identity) {
            Src[D].push_back(Indices[D]);
            continue;
          }
          for (unsigned T : Args[D].Index)
            Src[D].push_back(
                arith::IndexCastOp::create(NB, L, NB.getIndexType(), In[T]));
        }
        // Every combination of taps, the first axis slowest.
        Value Acc;
        SmallVector<unsigned, 4> Tap(Rank, 0);
        for (int64_t K = 0; K != Taps; ++K) {
          int64_t Rest = K;
          for (int64_t D = Rank - 1; D >= 0; --D) {
            Tap[D] = Rest % Src[D].size();
            Rest /= Src[D].size();
          }
          SmallVector<Value, 4> At;
          Value W;
          for (int64_t D = 0; D != Rank; ++D) {
            At.push_back(Src[D][Tap[D]]);
            if (Args[D].Weight.empty())
              continue;
            Value WD = In[Args[D].Weight[Tap[D]]];
            if (W) {
              W = arith::MulFOp::create(NB, L, W, WD);
              ++Flops;
            } else {
              W = WD;
            }
          }
          Value V = tensor::ExtractOp::create(NB, L, Data, At);
          if (!Weighted) {
            Acc = V;
            break;
          }
          V = arith::MulFOp::create(NB, L, V, W);
          ++Flops;
          if (Acc) {
            Acc = arith::AddFOp::create(NB, L, Acc, V);
            ++Flops;
          } else {
            Acc = V;
          }
        }
        if (Crop) {
          Value Out;
          for (int64_t D = 0; D != Rank; ++D) {
            if (Args[D].Outside < 0)
              continue;
            Value Flag = In[Args[D].Outside];
            Value Zero = arith::ConstantOp::create(
                NB, L, NB.getIntegerAttr(Flag.getType(), 0));
            Value F = arith::CmpIOp::create(NB, L, arith::CmpIPredicate::ne,
                                            Flag, Zero);
            Out = Out ? arith::OrIOp::create(NB, L, Out, F).getResult() : F;
          }
          Type AT = Acc.getType();
          Value E = arith::ConstantOp::create(
              NB, L,
              isa<FloatType>(AT)
                  ? TypedAttr(NB.getFloatAttr(AT, Extrapolation))
                  : TypedAttr(NB.getIntegerAttr(AT, int64_t(Extrapolation))));
          Acc = arith::SelectOp::create(NB, L, Out, E, Acc);
        }
        return Acc;
      });
  C.setOutput(0, R, X.Type);
  int64_t Elements = product(OutShape);
  int64_t Read = std::min(product(X.Shape), Elements * Taps);
  C.setWork(Elements * Flops, Read * elemSize(X.Type),
            Elements * elemSize(X.Type));
  return success();
}

/// Reads a float tensor input's contents (scales, roi).
std::optional<SmallVector<double, 8>> knownDoubles(NodeContext &C, unsigned I) {
  const ConstData *K = C.constInput(I);
  if (!K)
    return std::nullopt;
  std::vector<double> V = K->doubles();
  return SmallVector<double, 8>(V.begin(), V.end());
}

LogicalResult parseMode(NodeContext &C, StringRef Mode, ResizeParams &P) {
  if (Mode == "nearest")
    P.Mode = InterpMode::Nearest;
  else if (Mode == "linear" || Mode == "bilinear")
    P.Mode = InterpMode::Linear;
  else if (Mode == "cubic")
    P.Mode = InterpMode::Cubic;
  else
    return C.error("mode '" + Mode +
                   "' is not supported (nearest, linear, cubic)");
  return success();
}

/// Output shape from scales: floor(in * scale), as the reference does.
LogicalResult shapeFromScales(NodeContext &C, ArrayRef<double> Scales,
                              SmallVector<int64_t, 4> &OutShape) {
  const TensorValue &X = C.input(0);
  if (int64_t(Scales.size()) != X.rank())
    return C.error(
        llvm::formatv("{0} scales for rank {1}", Scales.size(), X.rank()));
  for (int64_t D = 0; D != X.rank(); ++D) {
    if (!(Scales[D] > 0))
      return C.error("scales must be positive");
    if (!(Scales[D] * double(X.Shape[D]) < double(MaxTensorElements)))
      return C.error("the resized tensor would have more than 2^31 "
                     "elements");
    OutShape.push_back(int64_t(Scales[D] * double(X.Shape[D])));
  }
  return success();
}

LogicalResult importResize(NodeContext &C) {
  const TensorValue &X = C.input(0);
  int64_t Rank = X.rank();
  ResizeParams P;
  if (failed(parseMode(C, C.attrString("mode", "nearest"), P)))
    return failure();
  SmallVector<double, 8> Scales, Roi;
  SmallVector<int64_t, 4> OutShape;
  double Extrapolation = 0;
  if (C.opset() < 11) {
    P.Legacy = true;
    if (P.Mode == InterpMode::Cubic)
      return C.error("mode 'cubic' needs opset 11");
    auto S = knownDoubles(C, 1);
    if (!S)
      return C.error("scales must be known at import (a constant or an "
                     "initializer): the importer needs static shapes");
    Scales = *S;
    if (failed(shapeFromScales(C, Scales, OutShape)))
      return failure();
    return emitResize(C, P, OutShape, Scales, Roi, Extrapolation);
  }
  P.Transform = C.attrString("coordinate_transformation_mode", "half_pixel");
  P.Nearest = C.attrString("nearest_mode", "round_prefer_floor");
  P.CubicA = C.attrFloat("cubic_coeff_a", -0.75f);
  P.ExcludeOutside = C.attrInt("exclude_outside", 0) != 0;
  Extrapolation = C.attrFloat("extrapolation_value", 0.0f);
  static const char *const Transforms[] = {
      "half_pixel", "pytorch_half_pixel",   "align_corners",
      "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (!llvm::is_contained(Transforms, P.Transform))
    return C.error("coordinate_transformation_mode '" + P.Transform +
                   "' is not supported");
  static const char *const Roundings[] = {"round_prefer_floor",
                                          "round_prefer_ceil", "floor", "ceil"};
  if (!llvm::is_contained(Roundings, P.Nearest))
    return C.error("nearest_mode '" + P.Nearest + "' is not supported");
  if (P.Transform == "tf_crop_and_resize") {
    auto R = C.hasInput(1) ? knownDoubles(C, 1) : std::nullopt;
    if (!R || int64_t(R->size()) != 2 * Rank)
      return C.error("tf_crop_and_resize needs a known roi of 2 * rank "
                     "values");
    Roi = *R;
  }
  // Scales, or sizes (an empty scales tensor stands for none).
  bool HasScales = C.hasInput(2) && C.input(2).numElements() > 0;
  bool HasSizes = C.hasInput(3) && C.input(3).numElements() > 0;
  if (HasScales == HasSizes)
    return C.error("exactly one of scales and sizes must be given");
  if (HasScales) {
    auto S = knownDoubles(C, 2);
    if (!S)
      return C.error("scales must be known at import (a constant or an "
                     "initializer): the importer needs static shapes");
    Scales = *S;
    if (failed(shapeFromScales(C, Scales, OutShape)))
      return failure();
  } else {
    auto S = knownInts(C, 3);
    if (!S)
      return C.error("sizes must be known at import (a constant or an "
                     "initializer): the importer needs static shapes");
    if (int64_t(S->size()) != Rank)
      return C.error(llvm::formatv("{0} sizes for rank {1}", S->size(), Rank));
    OutShape = *S;
    for (int64_t D = 0; D != Rank; ++D) {
      if (OutShape[D] <= 0)
        return C.error("sizes must be positive");
      Scales.push_back(double(OutShape[D]) / double(X.Shape[D]));
    }
  }
  return emitResize(C, P, OutShape, Scales, Roi, Extrapolation);
}

LogicalResult importUpsample(NodeContext &C) {
  ResizeParams P;
  P.Legacy = true;
  std::string Mode = C.attrString("mode", "nearest");
  if (Mode == "cubic" || failed(parseMode(C, Mode, P)))
    return Mode == "cubic" ? C.error("mode 'cubic' is not an Upsample mode")
                           : failure();
  SmallVector<double, 8> Scales;
  if (C.opset() < 9) {
    for (float S : C.attrFloats("scales"))
      Scales.push_back(S);
  } else {
    auto S = knownDoubles(C, 1);
    if (!S)
      return C.error("scales must be known at import (a constant or an "
                     "initializer): the importer needs static shapes");
    Scales = *S;
  }
  SmallVector<int64_t, 4> OutShape;
  if (failed(shapeFromScales(C, Scales, OutShape)))
    return failure();
  return emitResize(C, P, OutShape, Scales, {}, 0.0);
}

} // namespace

void lwp::onnx::registerDataMovementOps(OpTable &T) {
  T["Slice"] = importSlice;
  T["Split"] = importSplit;
  T["Gather"] = importGather;
  T["Pad"] = importPad;
  T["Expand"] = importExpand;
  T["Tile"] = importTile;
  T["Resize"] = importResize;
  T["Upsample"] = importUpsample;
  registerConvTransposeOps(T);
}
