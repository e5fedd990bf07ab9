//===- LoopTree.cpp - IR-independent loop forest of one function ----------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/LoopTree.h"

#include <algorithm>
#include <cassert>

using namespace lwp;

unsigned LoopTree::addLoop(unsigned Parent, bool IsParallel) {
  assert((Parent == NoParent || Parent < Nodes.size()) && "unknown parent");
  unsigned Index = Nodes.size();
  LoopNode Node;
  Node.Parent = Parent;
  Node.IsParallel = IsParallel;
  if (Parent != NoParent) {
    const LoopNode &P = Nodes[Parent];
    Node.Depth = P.Depth + 1;
    Node.InParallel = P.InParallel || P.IsParallel;
    Nodes[Parent].Children.push_back(Index);
  } else {
    Roots.push_back(Index);
  }
  Nodes.push_back(std::move(Node));
  return Index;
}

void LoopTree::finalize() {
  // Pre-order indices: every child has a larger index than its parent, so a
  // reverse sweep sees each subtree complete before its root.
  for (unsigned I = Nodes.size(); I-- > 0;) {
    LoopNode &Node = Nodes[I];
    unsigned Height = 0;
    for (unsigned C : Node.Children)
      Height = std::max(Height, Nodes[C].Height + 1);
    Node.Height = Height;
    bool Siblings = Node.Children.size() > 1;
    for (unsigned C : Node.Children)
      Nodes[C].HasSiblings = Siblings;
  }
  bool RootSiblings = Roots.size() > 1;
  for (unsigned R : Roots)
    Nodes[R].HasSiblings = RootSiblings;
}
