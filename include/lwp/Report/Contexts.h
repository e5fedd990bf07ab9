//===- Contexts.h - Calling-context paths of a dump -------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The paths of regions a profile ran, from which the folded stacks, the HTML
// icicle chart and calling-context tree and the JSON's "contexts" are drawn
// (docs/report.md, "Calling contexts"):
//
// - from the calling-context trees a version 4 dump carries, one per thread
//   (lwp_dump_node, lwp/Runtime/DumpFormat.h), merged across threads by
//   their paths of region IDs: the exact figures of every path, which add up
//   to the table's top-level cycles;
// - else (dumps of versions 1 to 3, TVM's lwp.json) from the recorded
//   instances' stacks, each region's paths scaled to its self cycles in the
//   table when the input has exact figures.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_CONTEXTS_H
#define LWP_REPORT_CONTEXTS_H

#include "lwp/Report/Profile.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace lwp {

class Dump;

/// One path of regions, root to leaf, with the figures of its nodes summed
/// over the threads that ran it. Cycles are in the dump's counter unit.
struct ContextPath {
  std::vector<uint32_t> Ids; ///< region IDs, outermost first
  uint64_t Count = 0;        ///< instances on this path
  uint64_t Cycles = 0;       ///< their inclusive cycles
  uint64_t Self = 0;         ///< Cycles minus its children paths' Cycles
  /// Instances whose path had no node left (the runtime's node budget), or
  /// paths deeper than MaxContextDepth, were folded into this path: they
  /// are in its Self, not in any child.
  bool Folded = false;
  uint64_t FoldedInstances = 0; ///< how many (outermost ones)
};

/// Regions a path holds at most: a deeper path (a deep recursion) is merged
/// into its ancestor at this depth, whose self cycles then hold it and which
/// is marked Folded (the paths of a 100,000-deep recursion would take
/// memory and output quadratic in its depth).
constexpr size_t MaxContextDepth = 256;

/// The paths of every thread's tree in \p D, merged by path, in the order
/// of a depth-first walk (a parent before its children, children by first
/// appearance); empty when the dump carries no tree (versions 1 to 3, or
/// threads that kept none).
///
/// Cycles are the dump's, less \p PairCost for each instance and
/// \p NestedCost for each instance nested in it (the node's descendants'
/// counts and the instances folded into it or them), computed per thread
/// before the merge, as the table corrects its figures (Profile::PairCost,
/// Profile::NestedCost: 0 and 0 for a compensated dump, whose cycles are
/// corrected already, and with --no-overhead-correction). A node's
/// corrected cycles are never below its children's: every Self is at least
/// 0, and the paths of each thread add up to its root's children's cycles. (Instances nested in a folded instance
/// are not counted anywhere, so a dump without compensation whose trees
/// folded keeps their probes' cost.)
std::vector<ContextPath> contextPaths(const Dump &D, uint32_t PairCost = 0,
                                      uint32_t NestedCost = 0);

/// Sum of the top-level paths' Cycles (one region long): the cycles the
/// threads' trees hold, the table's top-level cycles for a dump whose
/// every thread has a tree.
uint64_t contextTopCycles(const std::vector<ContextPath> &Paths);

/// The stacks of the recorded instances, as the analysis closes them
/// (ProfileOptions::OnInstance): per distinct path, its instances and
/// their self cycles.
class RecordedStacks {
public:
  /// Adds one closed instance.
  void add(const InstanceEvent &E);
  /// True when no instance was added.
  bool empty() const { return Stacks.empty(); }

private:
  friend std::vector<ContextPath> recordedPaths(const RecordedStacks &,
                                                const Profile &);
  struct Sample {
    uint64_t Count = 0; ///< instances
    uint64_t Self = 0;  ///< their self cycles, as corrected per instance
  };
  /// By path (IDs outermost first, the region last).
  std::map<std::vector<uint32_t>, Sample> Stacks;
};

/// The paths of \p S in path order (a parent before its children). With
/// exact figures (Profile::Exact), each region's paths are scaled so that
/// their self cycles add up to the region's SelfCycles in \p P (to the
/// tick: remainders go to the largest fractions; by instances when the
/// recorded paths hold no self cycles), so that the paths add up to the
/// table's top-level cycles however many instances the cap left
/// unrecorded; regions whose figures are implausible or unknown keep their
/// recorded figures. Without exact figures the recorded figures are kept.
/// Cycles: the self cycles of the path and of every path below it.
std::vector<ContextPath> recordedPaths(const RecordedStacks &S,
                                       const Profile &P);

/// What the folded stacks and the HTML chart draw: the dump's trees,
/// corrected with \p P's costs, when \p D has them (\p FromTree true), else
/// recordedPaths of \p S (none when \p S is null).
std::vector<ContextPath> profilePaths(const Dump &D, const Profile &P,
                                      const RecordedStacks *S,
                                      bool *FromTree = nullptr);

} // namespace lwp

#endif // LWP_REPORT_CONTEXTS_H
