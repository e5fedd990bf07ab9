//===- Runs.h - One binary's figures across several runs --------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// lwp-report over several dumps of one binary (docs/report.md, "Several
// runs"): each region's mean and spread across the runs, so that the user
// sees run-to-run noise next to the figures.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_RUNS_H
#define LWP_REPORT_RUNS_H

#include "lwp/Report/Dump.h"
#include "lwp/Report/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace lwp {

/// Mean and spread of one figure over the runs, in the figure's unit.
struct RunSpread {
  double Mean = 0, Min = 0, Max = 0;
  /// Sample standard deviation (n - 1 in the denominator); 0 for one run.
  double StdDev = 0;
  /// The figure in each run, in the order of the dumps.
  std::vector<double> Values;
};

/// One region across the runs. A region that did not run in a run counts
/// there with count 0 and 0 cycles.
struct RegionRuns {
  uint32_t Id = 0;
  const RegionEntry *Entry = nullptr; ///< the map row (never null)
  /// Executions: equal in every run for a deterministic program; when they
  /// differ, CountMin < CountMax and the report says so.
  uint64_t CountMin = 0, CountMax = 0;
  RunSpread Cycles; ///< inclusive cycles (RegionProfile::TotalCycles)
  RunSpread Self;   ///< self cycles (RegionProfile::SelfCycles)
  RunSpread Share;  ///< percent of the run's top-level cycles
  /// Some run's total is extrapolated (input without exact figures).
  bool Extrapolated = false;
  /// Some run has unwound instances of the region.
  bool Unwound = false;
  /// ImplausibleReason bits of the region in any run: its figures cannot be
  /// real there (a corrupt dump), so the means are not shown as figures.
  unsigned Implausible = 0;
  /// Some run has no cycles for the region (it ran but no instance was
  /// recorded, and the input has no exact figures).
  bool CyclesUnknown = false;
};

/// Several runs combined.
struct RunsProfile {
  /// The runs' mean figures as one profile (TotalCycles, SelfCycles and
  /// Count the means, Min..Max over every run's recorded instances), for
  /// sorting and filtering rows like a single run's.
  Profile Mean;
  /// One entry per region of Mean.Regions, in the same order.
  std::vector<RegionRuns> Regions;
  /// Top-level cycles per run.
  RunSpread TopLevel;
  /// Regions whose count differs between runs.
  unsigned CountsDiffer = 0;

  /// The runs of region \p Id, or nullptr.
  const RegionRuns *lookup(uint32_t Id) const;
};

/// Combines the profiles of several runs of one program (analyzed with the
/// same map, so IDs name the same regions in every run). Regions appear in
/// ID order.
RunsProfile combineRuns(llvm::ArrayRef<Profile> Runs);

/// Checks that dump \p Other was written by the same program as \p First
/// (so that one map reads both, and their IDs name the same regions): the
/// same target and counter, the same images by GNU build ID (by file name
/// where either has none) for every registered module, and the same module
/// table (blob address, first ID, regions, and map hash where both recorded
/// one). Error (one line, naming both dumps): the first difference.
llvm::Error checkSameProgram(const Dump &First, llvm::StringRef FirstName,
                             const Dump &Other, llvm::StringRef OtherName);

} // namespace lwp

#endif // LWP_REPORT_RUNS_H
