//===- Contexts.cpp - Calling-context paths of a dump ---------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Contexts.h"
#include "lwp/Report/Dump.h"

#include "lwp/Runtime/DumpFormat.h"

#include <map>

using namespace lwp;

std::vector<ContextPath> lwp::contextPaths(const Dump &D) {
  // Paths are merged in a trie keyed by (parent path, region ID); the
  // reader checked that every node's parent precedes it.
  struct Merged {
    ContextPath P;
    std::map<uint32_t, size_t> Children; ///< by region ID, index in Paths
    std::vector<size_t> Order;           ///< children by first appearance
  };
  std::vector<Merged> Trie(1); // 0: the roots' common parent
  for (const DumpThread &T : D.threads()) {
    std::vector<size_t> Slot(T.Nodes.size(), 0);
    for (size_t K = 1; K < T.Nodes.size(); ++K) {
      const DumpNode &N = T.Nodes[K];
      size_t Parent = Slot[N.Parent];
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
      P.Count += N.Count;
      P.Cycles += N.Cycles;
      P.Folded |= (N.Flags & LWP_NODE_FOLDED) != 0;
      P.FoldedInstances += N.Folded;
    }
  }
  // Self: cycles less the children's; then a depth-first order.
  for (Merged &M : Trie) {
    uint64_t Children = 0;
    for (size_t C : M.Order)
      Children += Trie[C].P.Cycles;
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
      Sum += P.Cycles;
  return Sum;
}
