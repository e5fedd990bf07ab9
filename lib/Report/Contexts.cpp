//===- Contexts.cpp - Calling-context paths of a dump ---------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Contexts.h"
#include "lwp/Report/Dump.h"

#include "lwp/Runtime/DumpFormat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace lwp;

/// The cycles of each node of \p T less the probe costs (docs/report.md,
/// "Calling contexts"): a node's instances each lose \p Pair, and \p Nested
/// for every instance nested in them that the tree counts (its descendants'
/// counts and the instances folded into it or them); never below its
/// children's corrected cycles. Children follow their parents in the table,
/// so one walk from the end sees every node's children before it.
static std::vector<uint64_t> correctedCycles(const DumpThread &T, uint64_t Pair,
                                             uint64_t Nested) {
  size_t N = T.Nodes.size();
  std::vector<uint64_t> Fixed(N);
  if (!Pair && !Nested) {
    for (size_t K = 0; K != N; ++K)
      Fixed[K] = T.Nodes[K].Cycles;
    return Fixed;
  }
  // Per node: instances nested in its instances, and its children's
  // corrected cycles.
  std::vector<uint64_t> Inside(N, 0), Children(N, 0);
  for (size_t K = N; K-- > 1;) {
    const DumpNode &Node = T.Nodes[K];
    Inside[K] = llvm::SaturatingAdd(Inside[K], uint64_t(Node.Folded));
    uint64_t Cost =
        llvm::SaturatingAdd(llvm::SaturatingMultiply(Node.Count, Pair),
                            llvm::SaturatingMultiply(Inside[K], Nested));
    uint64_t C = Node.Cycles > Cost ? Node.Cycles - Cost : 0;
    Fixed[K] = std::max(C, Children[K]);
    Children[Node.Parent] =
        llvm::SaturatingAdd(Children[Node.Parent], Fixed[K]);
    Inside[Node.Parent] = llvm::SaturatingAdd(
        Inside[Node.Parent], llvm::SaturatingAdd(Node.Count, Inside[K]));
  }
  if (N) // the root: what its children hold (it is no path)
    Fixed[0] = Children[0];
  return Fixed;
}

std::vector<ContextPath> lwp::contextPaths(const Dump &D, uint32_t PairCost,
                                           uint32_t NestedCost) {
  // Paths are merged in a trie keyed by (parent path, region ID); the
  // reader checked that every node's parent precedes it.
  struct Merged {
    ContextPath P;
    std::map<uint32_t, size_t> Children; ///< by region ID, index in Trie
    std::vector<size_t> Order;           ///< children by first appearance
  };
  std::vector<Merged> Trie(1); // 0: the roots' common parent
  for (const DumpThread &T : D.threads()) {
    std::vector<uint64_t> Cycles = correctedCycles(T, PairCost, NestedCost);
    std::vector<size_t> Slot(T.Nodes.size(), 0);
    std::vector<size_t> Depth(T.Nodes.size(), 0); // the root's 0
    for (size_t K = 1; K < T.Nodes.size(); ++K) {
      const DumpNode &N = T.Nodes[K];
      size_t Parent = Slot[N.Parent];
      Depth[K] = Depth[N.Parent] + 1;
      if (Trie[Parent].P.Ids.size() >= MaxContextDepth) {
        // Deeper than a path is shown: its time stays in the ancestor's
        // self (whose cycles hold it already); the outermost of its
        // instances count as folded into it.
        Slot[K] = Parent;
        Trie[Parent].P.Folded = true;
        if (Depth[K] == MaxContextDepth + 1)
          Trie[Parent].P.FoldedInstances += N.Count;
        continue;
      }
      auto [It, New] = Trie[Parent].Children.try_emplace(N.Id, Trie.size());
      if (New) {
        Trie[Parent].Order.push_back(Trie.size());
        Merged M;
        M.P.Ids = Trie[Parent].P.Ids;
        M.P.Ids.push_back(N.Id);
        Trie.push_back(std::move(M));
      }
      Slot[K] = It->second;
      ContextPath &P = Trie[It->second].P;
      P.Count = llvm::SaturatingAdd(P.Count, N.Count);
      P.Cycles = llvm::SaturatingAdd(P.Cycles, Cycles[K]);
      P.Folded |= (N.Flags & LWP_NODE_FOLDED) != 0;
      P.FoldedInstances += N.Folded;
    }
  }
  // Self: cycles less the children's; then a depth-first order.
  for (Merged &M : Trie) {
    uint64_t Children = 0;
    for (size_t C : M.Order)
      Children = llvm::SaturatingAdd(Children, Trie[C].P.Cycles);
    M.P.Self = M.P.Cycles > Children ? M.P.Cycles - Children : 0;
  }
  std::vector<ContextPath> Paths;
  Paths.reserve(Trie.size() - 1);
  std::vector<size_t> Work(Trie[0].Order.rbegin(), Trie[0].Order.rend());
  while (!Work.empty()) {
    size_t I = Work.back();
    Work.pop_back();
    Paths.push_back(std::move(Trie[I].P));
    Work.insert(Work.end(), Trie[I].Order.rbegin(), Trie[I].Order.rend());
  }
  return Paths;
}

uint64_t lwp::contextTopCycles(const std::vector<ContextPath> &Paths) {
  uint64_t Sum = 0;
  for (const ContextPath &P : Paths)
    if (P.Ids.size() == 1)
      Sum = llvm::SaturatingAdd(Sum, P.Cycles);
  return Sum;
}

void RecordedStacks::add(const InstanceEvent &E) {
  std::vector<uint32_t> Path(E.Stack.begin(), E.Stack.end());
  Path.push_back(E.Id);
  Sample &S = Stacks[std::move(Path)];
  ++S.Count;
  S.Self = llvm::SaturatingAdd(S.Self, E.Self);
}

/// Splits \p Target into parts proportional to \p Weights (not all 0), each
/// rounded down, the remainder one tick each to the largest fractions (the
/// first of equal ones): the parts add up to \p Target exactly.
static std::vector<uint64_t> apportion(uint64_t Target,
                                       llvm::ArrayRef<uint64_t> Weights) {
  unsigned __int128 Sum = 0;
  for (uint64_t W : Weights)
    Sum += W;
  std::vector<uint64_t> Parts(Weights.size());
  std::vector<std::pair<unsigned __int128, size_t>> Fractions;
  uint64_t Given = 0;
  for (size_t I = 0; I != Weights.size(); ++I) {
    unsigned __int128 Product = (unsigned __int128)Target * Weights[I];
    Parts[I] = uint64_t(Product / Sum);
    Given += Parts[I];
    Fractions.push_back({Product % Sum, I});
  }
  llvm::stable_sort(Fractions, [](const auto &A, const auto &B) {
    return A.first > B.first;
  });
  for (size_t K = 0; Given < Target && K != Fractions.size(); ++K, ++Given)
    ++Parts[Fractions[K].second];
  return Parts;
}

std::vector<ContextPath> lwp::recordedPaths(const RecordedStacks &S,
                                            const Profile &P) {
  std::vector<ContextPath> Paths;
  llvm::DenseMap<uint32_t, std::vector<size_t>> ByRegion;
  for (const auto &[Ids, Sample] : S.Stacks) {
    ContextPath C;
    C.Ids = Ids;
    C.Count = Sample.Count;
    C.Self = Sample.Self;
    ByRegion[Ids.back()].push_back(Paths.size());
    Paths.push_back(std::move(C));
  }
  if (P.Exact) {
    for (auto &[Id, Indices] : ByRegion) {
      const RegionProfile *R = P.lookup(Id);
      if (!R || R->Implausible || R->CyclesUnknown)
        continue;
      uint64_t Target = uint64_t(std::llround(R->SelfCycles));
      std::vector<uint64_t> Weights;
      for (size_t I : Indices)
        Weights.push_back(Paths[I].Self);
      if (llvm::all_of(Weights, [](uint64_t W) { return W == 0; })) {
        Weights.clear();
        for (size_t I : Indices)
          Weights.push_back(Paths[I].Count);
      }
      std::vector<uint64_t> Parts = apportion(Target, Weights);
      for (size_t K = 0; K != Indices.size(); ++K)
        Paths[Indices[K]].Self = Parts[K];
    }
  }
  // Inclusive cycles: each path's self, and its cycles added to the
  // nearest path above it once its subtree is done. The paths are in path
  // order, so the ones above a path are a chain of its prefixes (every
  // enclosing instance of a recorded instance was recorded).
  std::vector<size_t> Chain;
  auto pop = [&] {
    size_t I = Chain.back();
    Chain.pop_back();
    if (!Chain.empty())
      Paths[Chain.back()].Cycles =
          llvm::SaturatingAdd(Paths[Chain.back()].Cycles, Paths[I].Cycles);
  };
  for (size_t I = 0; I != Paths.size(); ++I) {
    Paths[I].Cycles = Paths[I].Self;
    llvm::ArrayRef<uint32_t> Ids = Paths[I].Ids;
    while (!Chain.empty()) {
      llvm::ArrayRef<uint32_t> Above = Paths[Chain.back()].Ids;
      if (Above.size() < Ids.size() && Ids.take_front(Above.size()) == Above)
        break;
      pop();
    }
    Chain.push_back(I);
  }
  while (!Chain.empty())
    pop();
  return Paths;
}

std::vector<ContextPath> lwp::profilePaths(const Dump &D, const Profile &P,
                                           const RecordedStacks *S,
                                           bool *FromTree) {
  std::vector<ContextPath> Paths = contextPaths(D, P.PairCost, P.NestedCost);
  if (FromTree)
    *FromTree = !Paths.empty();
  if (Paths.empty() && S)
    Paths = recordedPaths(*S, P);
  return Paths;
}
