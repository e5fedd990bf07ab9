//===- OpsShape.cpp - Shape operators and constants -----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Reshape, Flatten, Squeeze and Unsqueeze are views (collapse and expand of
// the same buffer); Transpose and Concat move data. Shape, Size, Constant
// and ConstantOfShape are known at import (static shapes), and so is every
// one of these operators applied to known tensors: shape arithmetic folds
// away before any loop is made.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Output 0 is input 0 with shape \p Shape (same elements in order).
LogicalResult importView(NodeContext &C, ArrayRef<int64_t> Shape) {
  const TensorValue &In = C.input(0);
  if (product(Shape) != In.numElements())
    return C.error("cannot reshape " + std::to_string(In.numElements()) +
                   " elements to " + std::to_string(product(Shape)));
  if (const ConstData *K = C.constInput(0)) {
    auto Out = std::make_shared<ConstData>(*K);
    Out->Shape.assign(Shape.begin(), Shape.end());
    C.setConstOutput(0, Out);
    return success();
  }
  C.setOutput(0, C.reshape(C.value(0), Shape), In.Type);
  C.setWork(0, 0, 0);
  return success();
}

/// Axes from the attribute (opsets before \p InputSince) or input 1.
LogicalResult readAxes(NodeContext &C, int64_t InputSince,
                       SmallVector<int64_t, 4> &Axes, bool &Given) {
  Given = false;
  if (C.opset() < InputSince || C.hasAttr("axes")) {
    Given = C.hasAttr("axes");
    Axes = C.attrInts("axes");
    return success();
  }
  if (!C.hasInput(1))
    return success();
  const ConstData *K = C.constInput(1);
  if (!K)
    return C.error("axes must be known at import (a constant or "
                   "initializer)");
  Given = true;
  for (int64_t A : K->ints())
    Axes.push_back(A);
  return success();
}

LogicalResult importReshape(NodeContext &C) {
  const ConstData *K = C.constInput(1);
  if (!K)
    return C.error("the target shape must be known at import (a constant, "
                   "an initializer or static shape arithmetic)");
  ArrayRef<int64_t> In = C.input(0).Shape;
  bool AllowZero = C.attrInt("allowzero", 0) != 0;
  SmallVector<int64_t, 4> Shape;
  int64_t Infer = -1, Known = 1;
  std::vector<int64_t> Target = K->ints();
  for (size_t I = 0; I != Target.size(); ++I) {
    int64_t D = Target[I];
    if (D == 0 && !AllowZero) {
      if (I >= In.size())
        return C.error("shape copies dimension " + std::to_string(I) +
                       " that the input does not have");
      D = In[I];
    }
    if (D == -1) {
      if (Infer >= 0)
        return C.error("more than one -1 in the shape");
      Infer = I;
      Shape.push_back(1);
      continue;
    }
    if (D < 0)
      return C.error("negative dimension in the shape");
    if (__builtin_mul_overflow(Known, D, &Known) || Known > MaxTensorElements)
      return C.error("the target shape has more than 2^31 elements");
    Shape.push_back(D);
  }
  if (Infer >= 0) {
    if (Known == 0 || C.input(0).numElements() % Known)
      return C.error("cannot infer the -1 dimension");
    Shape[Infer] = C.input(0).numElements() / Known;
  }
  return importView(C, Shape);
}

LogicalResult importFlatten(NodeContext &C) {
  ArrayRef<int64_t> In = C.input(0).Shape;
  int64_t Rank = In.size();
  int64_t Axis = C.attrInt("axis", 1);
  if (Axis < 0)
    Axis += Rank;
  if (Axis < 0 || Axis > Rank)
    return C.error("axis out of range");
  int64_t Outer = product(In.take_front(Axis));
  return importView(C, {Outer, product(In.drop_front(Axis))});
}

LogicalResult importSqueeze(NodeContext &C) {
  SmallVector<int64_t, 4> Axes;
  bool Given;
  if (failed(readAxes(C, 13, Axes, Given)))
    return failure();
  ArrayRef<int64_t> In = C.input(0).Shape;
  int64_t Rank = In.size();
  SmallVector<bool> Drop(Rank, false);
  if (!Given || Axes.empty()) {
    for (int64_t I = 0; I != Rank; ++I)
      Drop[I] = In[I] == 1;
  }
  for (int64_t A : Axes) {
    auto N = normalizeAxis(A, Rank);
    if (!N)
      return C.error("axis " + std::to_string(A) + " out of range");
    if (In[*N] != 1)
      return C.error("cannot squeeze dimension " + std::to_string(*N) +
                     " of size " + std::to_string(In[*N]));
    Drop[*N] = true;
  }
  SmallVector<int64_t, 4> Shape;
  for (int64_t I = 0; I != Rank; ++I)
    if (!Drop[I])
      Shape.push_back(In[I]);
  return importView(C, Shape);
}

LogicalResult importUnsqueeze(NodeContext &C) {
  SmallVector<int64_t, 4> Axes;
  bool Given;
  if (failed(readAxes(C, 13, Axes, Given)))
    return failure();
  ArrayRef<int64_t> In = C.input(0).Shape;
  int64_t Rank = In.size() + Axes.size();
  SmallVector<bool> New(Rank, false);
  for (int64_t A : Axes) {
    auto N = normalizeAxis(A, Rank);
    if (!N || New[*N])
      return C.error("axis " + std::to_string(A) + " out of range or "
                     "repeated");
    New[*N] = true;
  }
  SmallVector<int64_t, 4> Shape;
  unsigned Next = 0;
  for (int64_t I = 0; I != Rank; ++I)
    Shape.push_back(New[I] ? 1 : In[Next++]);
  return importView(C, Shape);
}

LogicalResult importTranspose(NodeContext &C) {
  const TensorValue &In = C.input(0);
  int64_t Rank = In.rank();
  SmallVector<int64_t, 4> Perm = C.attrInts("perm");
  if (Perm.empty())
    for (int64_t I = Rank - 1; I >= 0; --I)
      Perm.push_back(I);
  SmallVector<bool> Seen(Rank, false);
  if (int64_t(Perm.size()) != Rank)
    return C.error("perm has " + std::to_string(Perm.size()) +
                   " entries for rank " + std::to_string(Rank));
  for (int64_t &P : Perm) {
    if (P < 0)
      P += Rank;
    if (P < 0 || P >= Rank || Seen[P])
      return C.error("perm is not a permutation");
    Seen[P] = true;
  }
  SmallVector<int64_t, 4> Shape;
  for (int64_t P : Perm)
    Shape.push_back(In.Shape[P]);
  if (const ConstData *K = C.constInput(0)) {
    // Weights laid out at import, as onnxruntime's constant folding does.
    auto Out = ConstData::zeros(K->Type, Shape);
    unsigned Size = elemSize(K->Type);
    SmallVector<int64_t, 4> InStrides(Rank, 1);
    for (int64_t I = Rank - 2; I >= 0; --I)
      InStrides[I] = InStrides[I + 1] * In.Shape[I + 1];
    SmallVector<int64_t, 4> Index(Rank, 0);
    for (int64_t E = 0, N = Out->numElements(); E != N; ++E) {
      int64_t Rest = E, Src = 0;
      for (int64_t D = Rank - 1; D >= 0; --D) {
        Index[D] = Rest % Shape[D];
        Rest /= Shape[D];
      }
      for (int64_t D = 0; D != Rank; ++D)
        Src += Index[D] * InStrides[Perm[D]];
      memcpy(Out->Raw.data() + E * Size, K->Raw.data() + Src * Size, Size);
    }
    C.setConstOutput(0, Out);
    return success();
  }
  OpBuilder &B = C.builder();
  Value Init = C.empty(Shape, In.Type);
  Value R =
      linalg::TransposeOp::create(B, C.loc(), C.value(0), Init, Perm)
          .getResult()[0];
  C.setOutput(0, R, In.Type);
  int64_t Bytes = In.numElements() * elemSize(In.Type);
  C.setWork(0, Bytes, Bytes);
  return success();
}

LogicalResult importConcat(NodeContext &C) {
  SmallVector<unsigned> In;
  for (unsigned I = 0; I != C.numInputs(); ++I)
    if (C.hasInput(I))
      In.push_back(I);
  if (In.empty())
    return C.error("no inputs");
  const TensorValue &First = C.input(In[0]);
  int64_t Rank = First.rank();
  auto AxisN = normalizeAxis(C.attrInt("axis", 0), Rank);
  if (!AxisN)
    return C.error("axis out of range");
  int64_t Axis = *AxisN;
  SmallVector<int64_t, 4> Shape(First.Shape);
  Shape[Axis] = 0;
  bool AllKnown = true;
  SmallVector<unsigned> NonEmpty;
  for (unsigned I : In) {
    const TensorValue &V = C.input(I);
    if (V.rank() != Rank || V.Type != First.Type)
      return C.error("inputs differ in rank or element type");
    for (int64_t D = 0; D != Rank; ++D)
      if (D != Axis && V.Shape[D] != First.Shape[D])
        return C.error("inputs differ in dimension " + std::to_string(D));
    Shape[Axis] += V.Shape[Axis];
    AllKnown &= C.constInput(I) != nullptr;
    if (V.numElements())
      NonEmpty.push_back(I);
  }
  if (AllKnown) {
    auto Out = ConstData::zeros(First.Type, Shape);
    unsigned Size = elemSize(First.Type);
    int64_t Outer = product(ArrayRef<int64_t>(Shape).take_front(Axis));
    int64_t Inner = product(ArrayRef<int64_t>(Shape).drop_front(Axis + 1));
    int64_t Offset = 0;
    for (unsigned I : In) {
      const ConstData *K = C.constInput(I);
      int64_t Chunk = K->Shape[Axis] * Inner;
      for (int64_t O = 0; O != Outer; ++O)
        memcpy(Out->Raw.data() + (O * Shape[Axis] * Inner + Offset) * Size,
               K->Raw.data() + O * Chunk * Size, Chunk * Size);
      Offset += Chunk;
    }
    C.setConstOutput(0, Out);
    return success();
  }
  if (NonEmpty.size() == 1) {
    C.forwardInput(0, NonEmpty[0]);
    return success();
  }
  SmallVector<Value> Values;
  for (unsigned I : NonEmpty)
    Values.push_back(C.value(I));
  Value R = tensor::ConcatOp::create(C.builder(), C.loc(), Axis, Values);
  C.setOutput(0, R, First.Type);
  int64_t Bytes = product(Shape) * elemSize(First.Type);
  C.setWork(0, Bytes, Bytes);
  return success();
}

LogicalResult importConstant(NodeContext &C) {
  std::shared_ptr<ConstData> K;
  if (const ::onnx::TensorProto *T = C.attrTensor("value")) {
    std::string Error;
    K = readTensorProto(*T, Error);
    if (!K)
      return C.error(Error);
  } else if (C.hasAttr("value_float")) {
    K = ConstData::zeros(Float, {});
    K->setDouble(0, C.attrFloat("value_float", 0));
  } else if (C.hasAttr("value_int")) {
    K = ConstData::zeros(Int64, {});
    K->setInt(0, C.attrInt("value_int", 0));
  } else if (C.hasAttr("value_floats")) {
    SmallVector<float, 4> V = C.attrFloats("value_floats");
    K = ConstData::zeros(Float, {int64_t(V.size())});
    for (size_t I = 0; I != V.size(); ++I)
      K->setDouble(I, V[I]);
  } else if (C.hasAttr("value_ints")) {
    SmallVector<int64_t, 4> V = C.attrInts("value_ints");
    K = ConstData::zeros(Int64, {int64_t(V.size())});
    for (size_t I = 0; I != V.size(); ++I)
      K->setInt(I, V[I]);
  } else {
    return C.error("a Constant without value, value_float(s) or "
                   "value_int(s) (sparse and string constants are not "
                   "supported)");
  }
  C.setConstOutput(0, K);
  return success();
}

LogicalResult importShape(NodeContext &C) {
  ArrayRef<int64_t> In = C.input(0).Shape;
  int64_t Rank = In.size();
  int64_t Start = C.attrInt("start", 0), End = C.attrInt("end", Rank);
  if (Start < 0)
    Start += Rank;
  if (End < 0)
    End += Rank;
  Start = std::clamp<int64_t>(Start, 0, Rank);
  End = std::clamp<int64_t>(End, Start, Rank);
  auto K = ConstData::zeros(Int64, {End - Start});
  for (int64_t I = Start; I != End; ++I)
    K->setInt(I - Start, In[I]);
  C.setConstOutput(0, K);
  return success();
}

LogicalResult importConstantOfShape(NodeContext &C) {
  const ConstData *S = C.constInput(0);
  if (!S)
    return C.error("the shape must be known at import");
  SmallVector<int64_t, 4> Shape;
  for (int64_t D : S->ints()) {
    if (D < 0)
      return C.error("negative dimension");
    Shape.push_back(D);
  }
  int32_t Type = Float;
  double Value = 0;
  if (const ::onnx::TensorProto *T = C.attrTensor("value")) {
    std::string Error;
    auto V = readTensorProto(*T, Error);
    if (!V || V->numElements() != 1)
      return C.error(V ? "value must hold one element" : Error);
    Type = V->Type;
    Value = V->getDouble(0);
  }
  if (product(Shape) <= 4096) {
    auto K = ConstData::zeros(Type, Shape);
    for (int64_t I = 0, N = K->numElements(); I != N; ++I)
      K->setDouble(I, Value);
    C.setConstOutput(0, K);
    return success();
  }
  C.setOutput(0, C.filled(Shape, Type, Value), Type);
  C.setWork(0, 0, product(Shape) * elemSize(Type));
  return success();
}

} // namespace

void lwp::onnx::registerShapeOps(OpTable &T) {
  T["Reshape"] = importReshape;
  T["Flatten"] = importFlatten;
  T["Squeeze"] = importSqueeze;
  T["Unsqueeze"] = importUnsqueeze;
  T["Transpose"] = importTranspose;
  T["Concat"] = importConcat;
  T["Constant"] = importConstant;
  T["Shape"] = importShape;
  T["ConstantOfShape"] = importConstantOfShape;
  T["Size"] = [](NodeContext &C) {
    auto K = ConstData::zeros(Int64, {});
    K->setInt(0, C.input(0).numElements());
    C.setConstOutput(0, K);
    return success();
  };
  T["Identity"] = [](NodeContext &C) {
    C.forwardInput(0, 0);
    return success();
  };
  // Inference: the output is the input; the mask (output 1) all true.
  T["Dropout"] = [](NodeContext &C) {
    // training_mode (input 2, opset 12 and later) must be known and false.
    if (C.hasInput(2)) {
      const ConstData *Mode = C.constInput(2);
      if (!Mode || Mode->numElements() != 1 || Mode->getInt(0) != 0)
        return C.error("training_mode must be a known false (inference "
                       "only)");
    }
    C.forwardInput(0, 0);
    if (C.hasOutput(1)) {
      auto Mask = ConstData::zeros(Bool, C.input(0).Shape);
      for (int64_t I = 0, N = Mask->numElements(); I != N; ++I)
        Mask->setInt(I, 1);
      C.setConstOutput(1, Mask);
    }
    return success();
  };
}
