//===- Profile.h - Per-region statistics from a dump ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The report's analysis, shared by every output format: pairs each thread's
// start and end records through a stack (repairing unbalanced regions), and
// turns the instances into per-region figures: exact counts, inclusive and
// self cycles (extrapolated past the cap from the recorded mean), per-instance
// distribution, and the probe overhead correction. docs/report.md explains
// every figure.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_PROFILE_H
#define LWP_REPORT_PROFILE_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Report/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lwp {

/// One recorded instance of a region, as the stack walk closes it.
struct InstanceEvent {
  size_t ThreadIndex;   ///< index in Dump::threads()
  uint64_t ThreadId;    ///< OS thread ID
  uint32_t Id;          ///< region ID
  uint64_t StartCycles; ///< counter value at its start probe
  uint64_t Inclusive;   ///< cycles, corrected when correction is on
  uint64_t Raw;         ///< cycles between its start and end records
  uint64_t Self;        ///< Inclusive minus its direct recorded children's
  /// IDs of the enclosing open instances, outermost first (not including Id).
  llvm::ArrayRef<uint32_t> Stack;
  bool Repaired; ///< closed by repair (its end was missing)
};

/// How the analysis runs.
struct ProfileOptions {
  /// Subtract the dump's calibrated probe costs from every instance: the
  /// pair cost once for its own pair and the nested cost once for each
  /// instance recorded inside it, never below the inclusive cycles of its
  /// recorded children.
  bool OverheadCorrection = true;
  /// Site address -> file address: subtract this (the image's load bias).
  uint64_t LoadBias = 0;
  /// Called for every recorded instance, in closing order per thread (the
  /// Chrome trace and folded stacks are built from these).
  llvm::function_ref<void(const InstanceEvent &)> OnInstance = nullptr;
  /// Threads the walk of one dump thread's records may use: with a runtime's
  /// version 2 records (each gives its instance's depth) and no OnInstance,
  /// a thread of N records is cut into up to Threads parts of at least 1 Mi
  /// records, each starting at a top-level start, walked at once and merged
  /// in order. Counts, cycles and shares are those of a walk in order; the
  /// median and p90 of a region with more than 4096 recorded instances come
  /// from another, equally uniform, sample. 1: in order.
  unsigned Threads = 1;
};

/// Why a region's figures cannot be real (docs/report.md, "Implausible
/// values"): bits of RegionProfile::Implausible.
enum ImplausibleReason : unsigned {
  /// A count of 2^63 or more (at one execution a cycle at 10 GHz, 29 years).
  CountTooLarge = 1u << 0,
  /// Fewer executions in the count table than recorded instances.
  CountBelowSamples = 1u << 1,
  /// An instance whose end record precedes its start, or that lasts 2^62
  /// ticks or more (15 years at 10 GHz); it counts with 0 cycles.
  BackwardsCycles = 1u << 2,
  /// A record whose counter value is 0 (version 2: the runtimes never
  /// write one).
  ZeroCounter = 1u << 3,
  /// Exact figures that contradict each other: self above total, more
  /// outermost or unwound instances than executions, cycles without any
  /// execution.
  InconsistentFigures = 1u << 4,
  /// Measured (not extrapolated) cycles above the top-level cycles of all
  /// threads (a share above 100%).
  AboveTopLevel = 1u << 5,
  /// A recorded instance longer than the exact total of all the region's
  /// executions.
  InstanceAboveTotal = 1u << 6,
};

/// Short names of the bits of \p Reasons, joined by ";" ("count",
/// "count<samples", "backwards", "zero-counter", "figures",
/// "above-top-level", "instance>total"); "" for none.
std::string stringifyImplausible(unsigned Reasons);

/// The figures of one region. Cycles are in the dump's counter unit.
struct RegionProfile {
  uint32_t Id = 0;
  /// The map row (never null after analyze()).
  const RegionEntry *Entry = nullptr;
  /// Exact executions (the runtime's count table).
  uint64_t Count = 0;
  /// Instances whose start and end were both recorded.
  uint64_t Samples = 0;
  /// Instances closed by repair (missing end) among the samples.
  uint64_t Repaired = 0;
  /// Inclusive cycles of the recorded instances (after correction).
  uint64_t SampledCycles = 0;
  /// Inclusive cycles of every execution (the outermost instances of a
  /// region nested in itself), after correction. Exact from a dump with
  /// figures (version 2, LWP_DUMP_FLAG_FIGURES); from input without them
  /// (version 1, TVM) the recorded mean times Count, marked Extrapolated.
  double TotalCycles = 0;
  /// TotalCycles minus the cycles of the instrumented regions that ran
  /// directly inside this one (never negative). Exact from a dump with
  /// figures.
  double SelfCycles = 0;
  /// True when TotalCycles is extrapolated from the recorded mean (input
  /// without exact figures and Count > Samples).
  bool Extrapolated = false;
  /// Instances the runtime closed without their end probe (longjmp, an
  /// exception, exit); their figures end where control resumed.
  uint64_t Unwound = 0;
  /// Per-instance inclusive cycles of the recorded instances: Min and Max
  /// exact; Median and P90 exact up to 4096 samples, beyond that from a
  /// uniform sample of 4096. With exact figures, a region executed once
  /// (recorded, not unwound, repaired or implausible) has all four equal to
  /// TotalCycles.
  uint64_t Min = 0, Median = 0, P90 = 0, Max = 0;
  /// True when some of Min..Max were above TotalCycles by more than its
  /// rounding and were lowered to it: no instance can exceed its region's
  /// total, so such a figure is not exact (a dump without compensation
  /// corrects an instance only for the instances recorded inside it, so a
  /// parent of children past the cap reads above its total; a corrupt dump;
  /// docs/report.md, "Overhead correction"). Shown "~" in the table,
  /// "instances_clamped" in CSV and JSON. (Figures above by less than a
  /// tick, the total's rounding, are lowered without a mark.)
  bool InstancesClamped = false;
  /// One recorded instance's inclusive cycles (the Chrome trace, the
  /// timeline) as this region's figures show it: lowered to the rounded
  /// TotalCycles when above (unless the cycles are unknown). \p Marked
  /// tells whether it was above by more than the rounding in a region
  /// marked InstancesClamped (not exact; a region executed once, whose one
  /// instance is its exact total, is not marked).
  uint64_t instanceFigure(uint64_t Cycles, bool *Marked = nullptr) const;
  /// File addresses of the start and end probe sites (first seen); 0 unknown.
  uint64_t StartSite = 0, EndSite = 0;
  /// ImplausibleReason bits: figures that cannot be real, flagged "?" and
  /// given no share.
  unsigned Implausible = 0;
  /// True when the region ran (Count > 0) but no instance was recorded and
  /// the input has no exact figures: its cycles are unknown, not 0.
  bool CyclesUnknown = false;
};

/// The analysis of one dump against one map.
struct Profile {
  /// One entry per map region that ran (Count > 0), in ID order.
  std::vector<RegionProfile> Regions;
  /// Cycles of the instances that ran inside no other instance, summed over
  /// threads, after correction: what shares are relative to.
  double TopLevelCycles = 0;
  /// Instances closed by repair (an end missing after longjmp, an exception
  /// or an early exit, or the end of the record stream).
  uint64_t RepairedInstances = 0;
  /// End records without a start (dropped to the cap, or a stray probe).
  uint64_t UnmatchedEnds = 0;
  /// Instances the runtime closed without their end probe (version 2).
  uint64_t UnwoundInstances = 0;
  /// True when the figures are exact (the dump has them, version 2).
  bool Exact = false;
  /// The calibrated costs subtracted (0 when correction is off): of an
  /// instance's own pair, and of each instance nested inside it.
  uint32_t PairCost = 0, NestedCost = 0;
  /// One line per kind of implausible value or unknown figure found (what,
  /// how many, which IDs, what it means); empty for a sound dump.
  std::vector<std::string> Warnings;

  /// The profile of region \p Id, or nullptr.
  const RegionProfile *lookup(uint32_t Id) const;
};

/// Analyzes \p D with \p Map. Errors (one line): an ID in the dump (counted
/// or recorded) that the map does not know ("IDs missing from the map": the
/// dump belongs to another binary, or a module's map was not linked in).
llvm::Expected<Profile> analyze(const Dump &D, const InstrumentationMap &Map,
                                const ProfileOptions &Options);

} // namespace lwp

#endif // LWP_REPORT_PROFILE_H
