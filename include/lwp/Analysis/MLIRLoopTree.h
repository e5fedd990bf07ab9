//===- MLIRLoopTree.h - Loop forest of an MLIR function ---------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Builds the lwp::LoopTree of one MLIR function over every op that implements
// LoopLikeOpInterface (scf.for, scf.while, scf.parallel, scf.forall,
// affine.for, affine.parallel, ...), wherever it sits: under scf.if,
// scf.execute_region, memref.alloca_scope or any other op with regions.
// Functions nested in the body are not entered; they are functions of their
// own.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_ANALYSIS_MLIRLOOPTREE_H
#define LWP_ANALYSIS_MLIRLOOPTREE_H

#include "lwp/Analysis/LoopTree.h"
#include "lwp/Instrument/InstrumentationMap.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace lwp {

/// A function's loop forest and the loop ops behind its nodes.
struct MLIRLoopForest {
  LoopTree Tree;
  /// Loops[I] is the op of Tree.nodes()[I] (same pre-order).
  llvm::SmallVector<mlir::Operation *, 8> Loops;
};

/// True for the loop ops LWP profiles: ops with LoopLikeOpInterface.
bool isMLIRLoop(mlir::Operation *Op);
/// True for parallel loops: scf.parallel, scf.forall, affine.parallel.
bool isMLIRParallelLoop(mlir::Operation *Op);

/// Builds the loop forest of the regions of \p Function (usually a
/// FunctionOpInterface op), finalized.
MLIRLoopForest buildMLIRLoopForest(mlir::Operation *Function);

/// The source position of \p Loc: FileLineColLoc (a range's start) as is;
/// NameLoc through its child; CallSiteLoc through its callee; FusedLoc
/// through its first location that has a position; an empty SourceLocation
/// when none is found.
SourceLocation getSourceLocation(mlir::Location Loc);

} // namespace lwp

#endif // LWP_ANALYSIS_MLIRLOOPTREE_H
