//===- LegalizeMaskSelect.cpp - Selects of masks with vector conditions ---===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// lwp-legalize-mask-select (Passes.td): `llvm.select i1, <N x i1>, <N x i1>`
// becomes a select on the condition splat to N lanes, and a select of an
// array of such masks one select per element, forms LLVM 22's Hexagon
// instruction selection handles (it crashes on the scalar-condition ones).
//
//===----------------------------------------------------------------------===//

#include "lwp/Lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace lwp {
#define GEN_PASS_DEF_LEGALIZEMASKSELECT
#include "lwp/Lowering/Passes.h.inc"
} // namespace lwp

using namespace mlir;

namespace {
/// True for a vector of i1 (a mask), or an array of them, at any depth.
bool isMaskType(Type T) {
  if (auto V = dyn_cast<VectorType>(T))
    return V.getRank() == 1 && !V.isScalable() &&
           V.getElementType().isInteger(1);
  if (auto A = dyn_cast<LLVM::LLVMArrayType>(T))
    return isMaskType(A.getElementType());
  return false;
}

/// `select Cond, A, B` of mask type \p T: a vector select on \p Cond splat
/// for a mask, element by element for an array of them.
Value selectMask(OpBuilder &B, Location L, Value Cond, Value A, Value V,
                 Type T) {
  if (auto VecTy = dyn_cast<VectorType>(T)) {
    Value Poison = LLVM::PoisonOp::create(B, L, VecTy);
    Value Zero = LLVM::ConstantOp::create(B, L, B.getI64Type(),
                                          B.getI64IntegerAttr(0));
    Value One =
        LLVM::InsertElementOp::create(B, L, VecTy, Poison, Cond, Zero);
    SmallVector<int32_t> Lanes(VecTy.getNumElements(), 0);
    Value Splat = LLVM::ShuffleVectorOp::create(B, L, One, Poison, Lanes);
    return LLVM::SelectOp::create(B, L, Splat, A, V);
  }
  auto ArrTy = cast<LLVM::LLVMArrayType>(T);
  Value R = LLVM::PoisonOp::create(B, L, ArrTy);
  for (unsigned I = 0, E = ArrTy.getNumElements(); I != E; ++I) {
    Value X = LLVM::ExtractValueOp::create(B, L, A, I);
    Value Y = LLVM::ExtractValueOp::create(B, L, V, I);
    Value S = selectMask(B, L, Cond, X, Y, ArrTy.getElementType());
    R = LLVM::InsertValueOp::create(B, L, R, S, I);
  }
  return R;
}

struct LegalizeMaskSelect
    : public lwp::impl::LegalizeMaskSelectBase<LegalizeMaskSelect> {
  void runOnOperation() override {
    SmallVector<LLVM::SelectOp> Selects;
    getOperation().walk([&](LLVM::SelectOp Op) {
      if (Op.getCondition().getType().isInteger(1) && isMaskType(Op.getType()))
        Selects.push_back(Op);
    });
    for (LLVM::SelectOp Op : Selects) {
      OpBuilder B(Op);
      Value R = selectMask(B, Op.getLoc(), Op.getCondition(),
                           Op.getTrueValue(), Op.getFalseValue(),
                           Op.getType());
      Op.replaceAllUsesWith(R);
      Op.erase();
    }
  }
};
} // namespace
