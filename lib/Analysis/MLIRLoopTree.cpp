//===- MLIRLoopTree.cpp - Loop forest of an MLIR function -----------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/MLIRLoopTree.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace lwp;
using namespace mlir;

bool lwp::isMLIRLoop(Operation *Op) { return isa<LoopLikeOpInterface>(Op); }

bool lwp::isMLIRParallelLoop(Operation *Op) {
  return isa<scf::ParallelOp, scf::ForallOp, affine::AffineParallelOp>(Op);
}

/// Adds the loops inside the regions of \p Op under \p Parent, in program
/// order. Iterative, so that deep nests cannot overflow the stack.
static void collectLoops(Operation *Root, MLIRLoopForest &Forest) {
  struct Item {
    Operation *Op;
    unsigned Parent;
  };
  SmallVector<Item, 32> Stack;
  auto pushChildren = [&](Operation *Op, unsigned Parent) {
    // Push in reverse so that the stack pops in program order.
    for (Region &R : llvm::reverse(Op->getRegions()))
      for (Block &B : llvm::reverse(R))
        for (Operation &Child : llvm::reverse(B))
          Stack.push_back({&Child, Parent});
  };
  pushChildren(Root, LoopTree::NoParent);
  while (!Stack.empty()) {
    Item It = Stack.pop_back_val();
    if (isa<FunctionOpInterface>(It.Op))
      continue;
    unsigned Parent = It.Parent;
    if (isMLIRLoop(It.Op)) {
      Parent = Forest.Tree.addLoop(It.Parent, isMLIRParallelLoop(It.Op));
      Forest.Loops.push_back(It.Op);
    }
    if (It.Op->getNumRegions())
      pushChildren(It.Op, Parent);
  }
}

MLIRLoopForest lwp::buildMLIRLoopForest(Operation *Function) {
  MLIRLoopForest Forest;
  collectLoops(Function, Forest);
  Forest.Tree.finalize();
  return Forest;
}

SourceLocation lwp::getSourceLocation(Location Loc) {
  SmallVector<Location, 4> Work{Loc};
  while (!Work.empty()) {
    Location L = Work.pop_back_val();
    if (auto File = dyn_cast<FileLineColRange>(L)) {
      SourceLocation S;
      S.File = File.getFilename().str();
      S.Line = File.getStartLine();
      S.Column = File.getStartColumn();
      if (S.isKnown())
        return S;
      continue;
    }
    if (auto Name = dyn_cast<NameLoc>(L)) {
      Work.push_back(Name.getChildLoc());
    } else if (auto Call = dyn_cast<CallSiteLoc>(L)) {
      Work.push_back(Call.getCallee());
    } else if (auto Fused = dyn_cast<FusedLoc>(L)) {
      // First location first: push in reverse.
      for (Location Inner : llvm::reverse(Fused.getLocations()))
        Work.push_back(Inner);
    } else if (auto Opaque = dyn_cast<OpaqueLoc>(L)) {
      Work.push_back(Opaque.getFallbackLocation());
    }
  }
  return SourceLocation();
}
