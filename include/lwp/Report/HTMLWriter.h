//===- HTMLWriter.h - The offline HTML report -------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// lwp-report --format=html (docs/report.md, "The HTML page"): one
// self-contained page (styles, script and data inline, no network
// reference) that shows the report's header facts, the region table as a
// tree, an icicle chart, per-thread timelines, the source view, the
// operator summary and, for several dumps or --diff, the runs side by side.
// The data are the JSON writers' output (Writers.h), compressed with zlib
// and base64-encoded; the page inflates them with DecompressionStream.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_HTMLWRITER_H
#define LWP_REPORT_HTMLWRITER_H

#include "lwp/Report/Contexts.h"
#include "lwp/Report/Profile.h"
#include "lwp/Report/Runs.h"
#include "lwp/Report/Writers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lwp {

/// The recorded instances of one analysis, for the page's timeline (what the
/// Chrome trace holds) and its icicle chart (what the folded stacks hold,
/// when the dump has no calling-context tree).
class HTMLInstances {
public:
  /// Keeps at most \p MaxTimeline instances for the timeline (the first
  /// ones each thread closed, in closing order); the stacks count them all.
  explicit HTMLInstances(size_t MaxTimeline = 50000)
      : MaxTimeline(MaxTimeline) {}
  /// Pass as ProfileOptions::OnInstance.
  void add(const InstanceEvent &E);
  /// The page's "timeline" member: instances as flat rows [thread index,
  /// id, start (counter ticks from the earliest kept start), raw cycles,
  /// cycles, depth, clamped], the cycles never above the region's in \p P
  /// (clamped 1 when they were lowered by more than the rounding: not
  /// exact; RegionProfile::instanceFigure).
  void addTo(llvm::json::Object &Data, const Profile &P) const;
  /// The recorded instances' stacks (recordedPaths).
  const RecordedStacks &stacks() const { return Stacks; }

private:
  struct Instance {
    uint32_t Thread, Id, Depth;
    uint64_t Start, Raw, Inclusive;
  };
  size_t MaxTimeline;
  uint64_t Seen = 0;
  std::vector<Instance> Instances;
  RecordedStacks Stacks;
};

/// What the page shows beside the first run.
struct HTMLOptions {
  /// Folders where a region's relative source path (or, failing the path,
  /// its file name) is looked for; relative paths are also tried from the
  /// current folder, absolute ones as they are.
  std::vector<std::string> SourceDirs;
  /// Largest source file embedded, in bytes; larger or unreadable files
  /// show their locations only.
  uint64_t MaxSourceBytes = 1 << 20;
  /// Several runs (lwp-report BINARY D1 D2 ...): their spread (In's
  /// profile is then Runs->Mean), the dumps' names and the dumps.
  const RunsProfile *Runs = nullptr;
  llvm::ArrayRef<std::string> DumpNames;
  llvm::ArrayRef<const Dump *> Dumps;
  /// --diff: the second run, shown beside the first.
  const ReportInput *DiffB = nullptr;
  /// The recorded instances of the first run (null: no timeline, and an
  /// icicle chart only from calling-context trees).
  const HTMLInstances *Instances = nullptr;
  /// The analysis of the first run, whose instances those are (null: the
  /// report's, In.P; with several runs In.P holds their means).
  const Profile *FirstRun = nullptr;
};

/// The page's data as one JSON object (before compression): "mode"
/// ("single", "runs" or "diff"), "title", "header" (the text table's header
/// lines), "report" (writeJSON), "report_b" (--diff: writeJSON of B),
/// "runs" (writeRunsJSON), "summary" (writeOperatorSummary's JSON),
/// "map" (the map's naming fields of every region that ran), "timeline",
/// "stacks" (the icicle chart's paths, profilePaths of the first run:
/// [ids, self cycles] per path, or from calling-context trees [ids, self
/// cycles, folded, count, cycles] with "stacks_source": "contexts" and the
/// "contexts" tree), "threads" and "sources" ({file: text or null}).
llvm::json::Object htmlData(const ReportInput &In, const RowOptions &Rows,
                            const HTMLOptions &Options);

/// Writes the page: the embedded template (lib/Report/html) with the data
/// of htmlData compressed with zlib (RFC 1950) and base64-encoded; without
/// zlib in LLVM, the data are base64 only (the page reads both). Error: the
/// compression failed.
llvm::Error writeHTML(llvm::raw_ostream &OS, const ReportInput &In,
                      const RowOptions &Rows, const HTMLOptions &Options);

} // namespace lwp

#endif // LWP_REPORT_HTMLWRITER_H
