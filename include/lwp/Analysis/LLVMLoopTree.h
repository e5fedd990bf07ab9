//===- LLVMLoopTree.h - Loop forest of an LLVM IR function ------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Builds the lwp::LoopTree of one LLVM IR function from llvm::LoopInfo, i.e.
// over its natural loops (reducible cycles with a single header). Irreducible
// cycles are no natural loops: they are not in the tree, and
// countIrreducibleCycles counts them for the pass's remarks.
//
// Order (and so the order of region IDs): LoopInfo::getLoopsInPreorder(),
// that is parents before children and siblings in forward program order (the
// order LoopInfo discovers them walking the dominator tree from the entry
// block), which for code from a structured source is source order. The order
// depends only on the IR, so IDs are deterministic.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_ANALYSIS_LLVMLOOPTREE_H
#define LWP_ANALYSIS_LLVMLOOPTREE_H

#include "lwp/Analysis/LoopTree.h"
#include "lwp/Instrument/InstrumentationMap.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CycleInfo.h"

namespace llvm {
class DILocation;
class DISubprogram;
class Loop;
class LoopInfo;
} // namespace llvm

namespace lwp {

/// A function's natural loop forest and the llvm::Loop behind each node.
struct LLVMLoopForest {
  /// The finalized tree. No LLVM loop is parallel (IsParallel is false):
  /// parallel loops reach LLVM IR as outlined functions of their own.
  LoopTree Tree;
  /// Loops[I] is the loop of Tree.nodes()[I] (same pre-order). The pointers
  /// stay valid while the LoopInfo they come from does.
  llvm::SmallVector<llvm::Loop *, 8> Loops;
};

/// Builds the loop forest of the function \p LI was computed for, finalized,
/// in LoopInfo::getLoopsInPreorder() order (see the file comment).
LLVMLoopForest buildLLVMLoopForest(const llvm::LoopInfo &LI);

/// Number of irreducible cycles in \p CI, nested ones included (each counted
/// once). Zero for a function whose cycles are all natural loops.
unsigned countIrreducibleCycles(const llvm::CycleInfo &CI);

/// The source position of a debug location: its file (joined with its
/// directory when the file name is relative), line and column. Empty when
/// \p Loc is null or has no file.
SourceLocation getSourceLocation(const llvm::DILocation *Loc);

/// The source position of a function's debug info: file and line of
/// \p Subprogram, column 0. Empty when \p Subprogram is null or has no file.
SourceLocation getSourceLocation(const llvm::DISubprogram *Subprogram);

} // namespace lwp

#endif // LWP_ANALYSIS_LLVMLOOPTREE_H
