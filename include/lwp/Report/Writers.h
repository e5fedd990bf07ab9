//===- Writers.h - Report output formats ------------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The outputs of lwp-report, all from one Profile (docs/report.md): the human
// table, CSV, JSON (llvm::json), Chrome Trace Event JSON (for Perfetto) and
// folded stacks (flamegraph.pl, speedscope).
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_WRITERS_H
#define LWP_REPORT_WRITERS_H

#include "lwp/Report/Binary.h"
#include "lwp/Report/Contexts.h"
#include "lwp/Report/Dump.h"
#include "lwp/Report/Profile.h"
#include "lwp/Report/Program.h"
#include "lwp/Report/Runs.h"

#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lwp {

/// What the rows are sorted by (descending, but Id ascending).
enum class SortKey { Cycles, Self, Count, Id };

/// Which rows, in which order.
struct RowOptions {
  SortKey Sort = SortKey::Cycles;
  /// Keep the first N rows after sorting; 0 keeps all.
  unsigned Top = 0;
  /// Keep rows whose function matches; null keeps all.
  const llvm::Regex *Function = nullptr;
  /// Table only: each function's regions as their nest, indented under the
  /// function, functions sorted by Sort.
  bool Tree = false;
};

/// Everything a writer may show.
struct ReportInput {
  const Dump &D;
  const Profile &P;
  /// The binaries, for probe-site offsets (sites are process addresses).
  const Program *Prog = nullptr;
  std::string DumpName;
  std::string MapSource; ///< binary path or map JSON path
};

/// The rows \p Options selects, in order.
std::vector<const RegionProfile *> selectRows(const ReportInput &In,
                                              const RowOptions &Options);

/// The per-region table with a header (dump, target, counter, frequency,
/// cap, drops, correction, repairs), a legend for extrapolated figures and
/// the map's smallFunctionsNote() (lwp-instruction-threshold) when not empty.
/// When some region has work figures (RegionEntry::hasWork), the columns
/// FLOPs, bytes and FLOP/cycle before the source, with a legend; the CSV
/// and the JSON then get flops, bytes_read, bytes_written, total_flops,
/// total_bytes and flops_per_cycle (docs/report.md, "Work").
void writeTable(llvm::raw_ostream &OS, const ReportInput &In,
                const RowOptions &Options);
/// CSV with a header row; one row per region; cycles unrounded as decimals;
/// instances_clamped 1 for a region whose per-instance figures were
/// lowered to its cycles (RegionProfile::InstancesClamped).
void writeCSV(llvm::raw_ostream &OS, const ReportInput &In,
              const RowOptions &Options);
/// {"dump": {...}, "regions": [{...}]}, fields as in the CSV; with the
/// dump's calling-context trees (contextPaths, corrected with the
/// profile's costs), "contexts": [{"ids", "path" (region labels), "count",
/// "cycles", "self", "folded", "folded_instances"}], one per path merged
/// over the threads, a parent before its children, their self cycles
/// adding up to the top-level cycles.
void writeJSON(llvm::raw_ostream &OS, const ReportInput &In,
               const RowOptions &Options);

/// Two profiles of the same binary side by side: per region (union of both,
/// in ID order, filtered by Options.Function) count and cycles of A and of B
/// and the ratio B / A ("-" where A has none).
void writeDiffTable(llvm::raw_ostream &OS, const ReportInput &A,
                    const ReportInput &B, const RowOptions &Options);

/// Several runs of one binary (docs/report.md, "Several runs"): \p In holds
/// the first dump and \p Runs.Mean as its profile (for the header, sorting
/// and filtering); \p DumpNames names the dumps in run order. Per region:
/// count (min..max when the runs differ), inclusive and self cycles as
/// mean, min, max and sample standard deviation (the table: in percent of
/// the mean), mean share.
void writeRunsTable(llvm::raw_ostream &OS, const ReportInput &In,
                    const RunsProfile &Runs,
                    llvm::ArrayRef<std::string> DumpNames,
                    const RowOptions &Options);
/// The same as CSV: id,kind,function,depth,height,parent,runs,count_min,
/// count_max,cycles_mean,cycles_min,cycles_max,cycles_stddev,self_mean,
/// self_min,self_max,self_stddev,share_mean,share_min,share_max,
/// extrapolated,file,line,column.
void writeRunsCSV(llvm::raw_ostream &OS, const ReportInput &In,
                  const RunsProfile &Runs, const RowOptions &Options);
/// The same as JSON: {"runs": [{path, dropped, top_level_cycles}], "dump":
/// {target, counter, ...}, "regions": [{..., "count": {min, max, equal},
/// "cycles"/"self"/"share": {mean, min, max, stddev, runs: [...]}}]}.
void writeRunsJSON(llvm::raw_ostream &OS, const ReportInput &In,
                   const RunsProfile &Runs,
                   llvm::ArrayRef<std::string> DumpNames,
                   llvm::ArrayRef<const Dump *> Dumps,
                   const RowOptions &Options);

/// One operator type of the summary (lwp-report --summary), in the manner of
/// qaic-opstats --summary. Cycles are in the dump's counter unit.
struct OperatorSummaryRow {
  /// The op name, e.g. "linalg.conv_2d_nhwc_hwcf".
  std::string Operator;
  /// Operator regions of this type (one per op instance in the model, more
  /// when an op's code was split by another op's).
  uint64_t Regions = 0;
  /// Executions of those regions (exact counts).
  uint64_t Instances = 0;
  /// Inclusive cycles of the regions, summed.
  double Total = 0;
  /// Total minus the cycles of the operator regions nested in them (fused
  /// or called operators), never negative.
  double Self = 0;
  /// Total in percent of the profile's top-level cycles.
  double Share = 0;
  /// Work of the regions whose operator has the figures (from its frontend):
  /// flops, and bytes read + written, per execution x count, summed over
  /// those regions (saturating); none when no region of the type has them.
  std::optional<uint64_t> Flops, Bytes;
  /// The flops of the regions that have them and plausible, known cycles,
  /// over those regions' inclusive cycles; none when there are none.
  std::optional<double> FlopsPerCycle;
};

/// The operator regions of \p In grouped by op name, by total cycles
/// (descending, then name). \p Outside gets the top-level cycles spent
/// outside every operator region (never negative).
std::vector<OperatorSummaryRow> summarizeOperators(const ReportInput &In,
                                                   double &Outside);
/// The summary as a table (operator, regions, instances, cycles, self,
/// share, mean cycles per instance) with the header of writeTable, as CSV
/// (operator,regions,instances,cycles,self,share,mean) or as JSON
/// ({"operators": [...], "outside_cycles"}). When some region has work
/// figures, the table adds FLOPs, bytes and FLOP/cycle, the CSV flops,
/// bytes, flops_per_cycle and the JSON's operators the same keys (null when
/// unknown). A profile without operator regions gets one line saying so
/// (table) or no rows.
void writeOperatorSummary(llvm::raw_ostream &OS, const ReportInput &In,
                          bool CSV, bool JSON);

/// Collects the instances of an analysis for the trace and folded outputs.
class InstanceLog {
public:
  /// Pass as ProfileOptions::OnInstance.
  void add(const InstanceEvent &E);
  /// Chrome Trace Event Format: one "X" (complete) event per recorded
  /// instance, pid 1, tid = OS thread ID, ts/dur in microseconds from the
  /// dump's counter frequency (in counter ticks when it is unknown), with
  /// thread-name metadata. Perfetto and chrome://tracing open it. Times are
  /// raw (as recorded), so every child lies inside its parent; the
  /// instance's cycles (corrected, never above its region's cycles: lowered
  /// to them and marked "clamped" when they were above by more than the
  /// rounding) are an argument of each event (docs/report.md).
  void writeChromeTrace(llvm::raw_ostream &OS, const ReportInput &In) const;
  /// Folded stacks: "outer;inner;region self-cycles" per distinct stack,
  /// frames named function:region (flamegraph.pl, speedscope): from the
  /// dump's calling-context trees when it has them (every execution; a
  /// path that holds instances folded past the runtime's node budget ends
  /// in " [folded]"), else from the recorded instances (recordedPaths:
  /// scaled to the table's self cycles with exact figures).
  void writeFolded(llvm::raw_ostream &OS, const ReportInput &In) const;

private:
  struct Instance {
    uint64_t ThreadId;
    uint32_t Id;
    uint64_t Start, Inclusive, Raw;
    bool Repaired;
  };
  std::vector<Instance> Instances;
  /// The recorded instances' stacks.
  RecordedStacks Stacks;
};

/// "conv2d:loop#3" or "conv2d" for a function region.
std::string regionLabel(const RegionEntry &E);

/// regionLabel of region \p Id of \p In's profile, or "#ID" for an ID the
/// map does not name (a calling-context node of a module the binary lacks).
std::string contextLabel(const ReportInput &In, uint32_t Id);

} // namespace lwp

#endif // LWP_REPORT_WRITERS_H
