//===- Contexts.h - Calling-context paths of a dump -------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The calling-context trees a version 4 dump carries, one per thread
// (lwp_dump_node, lwp/Runtime/DumpFormat.h), merged across threads by their
// paths of region IDs: the exact figures of every path of regions the
// program ran, from which the folded stacks, the HTML icicle chart and the
// JSON's "contexts" are drawn, so that they add up to the table's top-level
// cycles (docs/report.md, "Calling contexts").
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_CONTEXTS_H
#define LWP_REPORT_CONTEXTS_H

#include <cstdint>
#include <vector>

namespace lwp {

class Dump;

/// One path of regions, root to leaf, with the figures of its nodes summed
/// over the threads that ran it.
struct ContextPath {
  std::vector<uint32_t> Ids; ///< region IDs, outermost first
  uint64_t Count = 0;        ///< instances on this path
  uint64_t Cycles = 0;       ///< their inclusive cycles (counter unit)
  uint64_t Self = 0;         ///< Cycles minus its children paths' Cycles
  /// Instances whose path had no node left (the runtime's node budget)
  /// were folded into this path: they are in its Self, not in any child.
  bool Folded = false;
  uint64_t FoldedInstances = 0; ///< how many (outermost ones)
};

/// The paths of every thread's tree in \p D, merged by path, in the order
/// of a depth-first walk (a parent before its children, children by first
/// appearance); empty when the dump carries no tree (versions 1 to 3, or
/// LWP_CCT_NODES of a thread that kept none). Cycles are the dump's (in a
/// compensated dump, corrected already; docs/report.md). A child whose
/// cycles exceed its parent's (a damaged or foreign dump) leaves the
/// parent's Self at 0, never negative.
std::vector<ContextPath> contextPaths(const Dump &D);

/// Sum of the top-level paths' Cycles (one region long): the cycles the
/// threads' trees hold, the table's top-level cycles for a dump whose
/// every thread has a tree.
uint64_t contextTopCycles(const std::vector<ContextPath> &Paths);

} // namespace lwp

#endif // LWP_REPORT_CONTEXTS_H
