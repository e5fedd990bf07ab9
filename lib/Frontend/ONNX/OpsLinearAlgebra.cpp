//===- OpsLinearAlgebra.cpp - Gemm and MatMul -----------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Gemm is one linalg.generic over (i, j, k) accumulating onto beta * C;
// MatMul one over (batch..., i, j, k) with numpy's matmul rules (1-D
// operands promoted, batch dimensions broadcast).
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "mlir/IR/AffineMap.h"

#include <string>

using namespace mlir;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

AffineExpr dim(MLIRContext *Ctx, unsigned I) {
  return getAffineDimExpr(I, Ctx);
}

LogicalResult importGemm(NodeContext &C) {
  const TensorValue &A = C.input(0), &Bt = C.input(1);
  if (!isFloatType(A.Type))
    return C.error("Gemm takes float tensors");
  if (A.rank() != 2 || Bt.rank() != 2)
    return C.error("A and B must be matrices");
  bool TA = C.attrInt("transA", 0), TB = C.attrInt("transB", 0);
  float Alpha = C.attrFloat("alpha", 1.0f), Beta = C.attrFloat("beta", 1.0f);
  int64_t M = TA ? A.Shape[1] : A.Shape[0], K = TA ? A.Shape[0] : A.Shape[1];
  int64_t KB = TB ? Bt.Shape[1] : Bt.Shape[0],
          N = TB ? Bt.Shape[0] : Bt.Shape[1];
  if (K != KB)
    return C.error("inner dimensions differ (" + std::to_string(K) + " and " +
                   std::to_string(KB) + ")");
  MLIRContext *Ctx = C.context();
  OpBuilder &B = C.builder();
  Location L = C.loc();
  Value Init;
  if (C.hasInput(2) && Beta != 0.0f) {
    if (!NodeContext::broadcastShapes({M, N}, C.input(2).Shape) ||
        C.input(2).rank() > 2)
      return C.error("C does not broadcast to [M, N]");
    Value Scale = C.scalar(Beta, A.Type);
    Init = C.elementwise({C.value(2)}, {M, N}, A.Type,
                         [&](OpBuilder &NB, Location NL, ValueRange V) {
                           if (Beta == 1.0f)
                             return V[0];
                           return arith::MulFOp::create(NB, NL, V[0], Scale)
                               .getResult();
                         });
  } else {
    Init = C.filled({M, N}, A.Type, 0);
  }
  AffineExpr I = dim(Ctx, 0), J = dim(Ctx, 1), Kd = dim(Ctx, 2);
  SmallVector<AffineMap> Maps{
      AffineMap::get(3, 0, TA ? ArrayRef<AffineExpr>{Kd, I}
                              : ArrayRef<AffineExpr>{I, Kd},
                     Ctx),
      AffineMap::get(3, 0, TB ? ArrayRef<AffineExpr>{J, Kd}
                              : ArrayRef<AffineExpr>{Kd, J},
                     Ctx),
      AffineMap::get(3, 0, {I, J}, Ctx)};
  SmallVector<utils::IteratorType> It{utils::IteratorType::parallel,
                                      utils::IteratorType::parallel,
                                      utils::IteratorType::reduction};
  Value AlphaV = C.scalar(Alpha, A.Type);
  Value R = linalg::GenericOp::create(
                B, L, TypeRange{Init.getType()},
                ValueRange{C.value(0), C.value(1)}, ValueRange{Init}, Maps, It,
                [&](OpBuilder &NB, Location NL, ValueRange V) {
                  Value P = arith::MulFOp::create(NB, NL, V[0], V[1]);
                  if (Alpha != 1.0f)
                    P = arith::MulFOp::create(NB, NL, P, AlphaV);
                  linalg::YieldOp::create(
                      NB, NL,
                      ValueRange{arith::AddFOp::create(NB, NL, V[2], P)});
                })
                .getResult(0);
  C.setOutput(0, R, A.Type);
  int64_t Size = elemSize(A.Type);
  int64_t Read = A.numElements() + Bt.numElements() +
                 (C.hasInput(2) ? C.input(2).numElements() : 0);
  C.setWork(2 * M * N * K, Read * Size, M * N * Size);
  return success();
}

} // namespace

LogicalResult lwp::onnx::buildMatMul(
    NodeContext &C, Value A, ArrayRef<int64_t> AShape, Value Bv,
    ArrayRef<int64_t> BShape, int32_t AccType, Value &Result,
    SmallVector<int64_t, 4> &OutShape,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value, Value)>
        Body) {
  MLIRContext *Ctx = C.context();
  OpBuilder &B = C.builder();
  Location L = C.loc();
  if (AShape.empty() || BShape.empty())
    return C.error("MatMul operands must not be scalars");
  // 1-D operands: [K] as [1, K] and [K] as [K, 1], dropped afterwards.
  SmallVector<int64_t, 4> AS(AShape), BS(BShape);
  bool AVec = AS.size() == 1, BVec = BS.size() == 1;
  if (AVec) {
    AS.insert(AS.begin(), 1);
    A = C.reshape(A, AS);
  }
  if (BVec) {
    BS.push_back(1);
    Bv = C.reshape(Bv, BS);
  }
  int64_t M = AS[AS.size() - 2], K = AS.back(), KB = BS[BS.size() - 2],
          N = BS.back();
  if (K != KB)
    return C.error("inner dimensions differ (" + std::to_string(K) + " and " +
                   std::to_string(KB) + ")");
  auto Batch = NodeContext::broadcastShapes(
      ArrayRef<int64_t>(AS).drop_back(2), ArrayRef<int64_t>(BS).drop_back(2));
  if (!Batch)
    return C.error("batch dimensions do not broadcast");
  unsigned NB = Batch->size(), Loops = NB + 3;
  auto Operand = [&](ArrayRef<int64_t> S, AffineExpr X, AffineExpr Y) {
    SmallVector<AffineExpr> E;
    unsigned Lead = NB - (S.size() - 2);
    for (unsigned I = 0; I + 2 < S.size(); ++I)
      E.push_back(S[I] == 1 && (*Batch)[Lead + I] != 1
                      ? getAffineConstantExpr(0, Ctx)
                      : dim(Ctx, Lead + I));
    E.push_back(X);
    E.push_back(Y);
    return AffineMap::get(Loops, 0, E, Ctx);
  };
  AffineExpr I = dim(Ctx, NB), J = dim(Ctx, NB + 1), Kd = dim(Ctx, NB + 2);
  SmallVector<AffineExpr> OutE;
  for (unsigned D = 0; D != NB; ++D)
    OutE.push_back(dim(Ctx, D));
  OutE.push_back(I);
  OutE.push_back(J);
  SmallVector<AffineMap> Maps{Operand(AS, I, Kd), Operand(BS, Kd, J),
                              AffineMap::get(Loops, 0, OutE, Ctx)};
  SmallVector<int64_t, 4> Full(*Batch);
  Full.push_back(M);
  Full.push_back(N);
  Value Init = C.filled(Full, AccType, 0);
  SmallVector<utils::IteratorType> It(Loops, utils::IteratorType::parallel);
  It.back() = utils::IteratorType::reduction;
  Result = linalg::GenericOp::create(
               B, L, TypeRange{Init.getType()}, ValueRange{A, Bv},
               ValueRange{Init}, Maps, It,
               [&](OpBuilder &NBd, Location NL, ValueRange V) {
                 linalg::YieldOp::create(NBd, NL,
                                         ValueRange{Body(NBd, NL, V[0], V[1],
                                                         V[2])});
               })
               .getResult(0);
  OutShape.assign(Batch->begin(), Batch->end());
  if (!AVec)
    OutShape.push_back(M);
  if (!BVec)
    OutShape.push_back(N);
  Result = C.reshape(Result, OutShape);
  return success();
}

namespace {
LogicalResult importMatMul(NodeContext &C) {
  const TensorValue &A = C.input(0), &Bt = C.input(1);
  if (!isFloatType(A.Type) || A.Type != Bt.Type)
    return C.error("MatMul takes float tensors of one type (MatMulInteger "
                   "and QLinearMatMul take integers)");
  Value R;
  SmallVector<int64_t, 4> Shape;
  if (failed(buildMatMul(C, C.value(0), A.Shape, C.value(1), Bt.Shape, A.Type,
                         R, Shape,
                         [](OpBuilder &B, Location L, Value X, Value Y,
                            Value Acc) -> Value {
                           Value P = arith::MulFOp::create(B, L, X, Y);
                           return arith::AddFOp::create(B, L, Acc, P);
                         })))
    return failure();
  C.setOutput(0, R, A.Type);
  int64_t K = A.Shape.back();
  int64_t Size = elemSize(A.Type);
  C.setWork(2 * product(Shape) * K,
            (A.numElements() + Bt.numElements()) * Size,
            product(Shape) * Size);
  return success();
}
} // namespace

void lwp::onnx::registerLinearAlgebraOps(OpTable &T) {
  T["Gemm"] = importGemm;
  T["MatMul"] = importMatMul;
}
