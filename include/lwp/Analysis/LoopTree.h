//===- LoopTree.h - IR-independent loop forest of one function --*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The loop forest of one function as the selection policy sees it: each loop's
// depth, height, siblings and whether it runs inside a parallel loop. The MLIR
// analysis (scf/affine loops) and the LLVM analysis (LoopInfo natural loops)
// both build this one structure, so that one policy serves both passes.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_ANALYSIS_LOOPTREE_H
#define LWP_ANALYSIS_LOOPTREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace lwp {

/// One loop of a function. Indices refer to LoopTree::nodes().
struct LoopNode {
  /// Index of the enclosing loop, or LoopTree::NoParent for an outermost loop.
  unsigned Parent;
  /// Indices of the loops directly inside this one, in program order.
  llvm::SmallVector<unsigned, 4> Children;
  /// Nesting depth: an outermost loop has depth 0.
  unsigned Depth = 0;
  /// Distance to the innermost loop below, from this loop's own subtree: an
  /// innermost loop has height 0, its parent 1, and so on.
  unsigned Height = 0;
  /// True when the parent (a loop, or the function for an outermost loop) holds
  /// more than one loop directly.
  bool HasSiblings = false;
  /// True for a parallel loop (scf.parallel, scf.forall, affine.parallel).
  bool IsParallel = false;
  /// True when some enclosing loop is parallel.
  bool InParallel = false;
};

/// The loop forest of one function. Build it by adding loops in pre-order
/// (program order, parents before children), then call finalize() once.
class LoopTree {
public:
  /// Parent index of an outermost loop.
  static constexpr unsigned NoParent = ~0u;

  /// Adds a loop directly inside \p Parent (a node index or NoParent) and
  /// returns its index. Depth and InParallel are known at once.
  unsigned addLoop(unsigned Parent, bool IsParallel);

  /// Computes heights and siblings. Must be called after the last addLoop.
  void finalize();

  /// All loops, in pre-order: an index is smaller than those of its subtree.
  llvm::ArrayRef<LoopNode> nodes() const { return Nodes; }
  /// Outermost loops in program order.
  llvm::ArrayRef<unsigned> roots() const { return Roots; }
  /// Number of loops.
  size_t size() const { return Nodes.size(); }
  bool empty() const { return Nodes.empty(); }

private:
  llvm::SmallVector<LoopNode, 8> Nodes;
  llvm::SmallVector<unsigned, 4> Roots;
};

} // namespace lwp

#endif // LWP_ANALYSIS_LOOPTREE_H
