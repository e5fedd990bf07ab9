//===- TVM.h - Import of TVM's LWP output (lwp.json) ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Apache TVM's Hexagon lightweight profiling writes lwp.json:
//   {"entries": [{"ret": <return address>, "id": <id>, "cyc": <pcycles>}, ...],
//    "loop_counts": [<executions of id 0>, <of id 1>, ...]}
// with no start/end flag (the first record of an ID is its start, the next its
// end) and no map: TVM's post-processor finds each ID's function from the
// return address and the model .so's symbols. lwp-report reads such a file
// with the .so and its load address, so TVM users can switch.
//
// The file is never held as records: its entries are parsed (simdjson's
// On-Demand API, window by window) while the analysis runs, so memory
// follows the regions, not the entries (docs/report.md, "TVM interop").
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_TVM_H
#define LWP_REPORT_TVM_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Report/Binary.h"
#include "lwp/Report/Dump.h"
#include "lwp/Report/Profile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace lwp {

/// The function name of the regions that TVM counted but never recorded.
inline constexpr llvm::StringLiteral UnrecordedTVMFunction = "<not recorded>";

/// A TVM lwp.json joined with its model and analyzed.
struct TVMReport {
  /// The input as an LWP dump: Hexagon, pcycles, 16-byte records, one thread
  /// whose records are the entries (starts and ends told apart by
  /// alternation per ID, as TVM does), the count table from loop_counts. Its
  /// records are parsed from the text again whenever they are read: the
  /// text must outlive it (analyzeTVMFile keeps its file mapped).
  Dump D;
  /// The map TVM does not write, inferred from the entries and the binary's
  /// symbols: each ID's function is the one holding its start site (minus
  /// the load bias); the outermost region of a function instance is its
  /// function region, the others loops, with depth and parent from the
  /// dynamic nesting within the function, height from the inferred nest.
  /// Source locations are unknown (TVM records none). A region that ran (a
  /// non-zero loop_counts entry) but has no entry at all (TVM's buffer was
  /// full before it first ran) becomes a loop of function
  /// UnrecordedTVMFunction, without depth.
  InstrumentationMap Map;
  /// The analysis of D with Map. Its regions point into Map: after moving
  /// Map, call rebindTVMProfile with the map's new home.
  Profile P;
  /// Entries of the file.
  uint64_t NumEntries = 0;
  /// Entries whose return address (minus the load bias) falls in no function
  /// of the binary, and the first such return address (0: none).
  uint64_t Outside = 0, FirstOutside = 0;
};

/// Reads the text of a TVM lwp.json named \p Name (in errors), infers its
/// map with \p Binary loaded at \p LoadBias, and analyzes it with \p Options
/// (whose LoadBias applies to the analysis' sites only), in one pass over
/// the text when the
/// count table can be found before the entries (TVM's layout: at the end of
/// the file), else two. Memory holds the regions, not the entries.
/// Errors (one line): not JSON (with line and column; nesting deeper than
/// MaxJSONDepth included), no "entries" array,
/// an entry without integer ret / id / cyc, a negative value, a return
/// address above 2^32-1, an ID above 2^31-1, far beyond the entries and
/// counts, or beyond the loop_counts table when the file has one.
llvm::Expected<TVMReport> analyzeTVMJSON(llvm::StringRef Text,
                                         llvm::StringRef Name,
                                         const ProfiledBinary &Binary,
                                         uint64_t LoadBias,
                                         const ProfileOptions &Options);

/// The same for the file \p Path, mapped (its pages are given back as the
/// pass goes). Errors: the file cannot be read (not a regular file, larger
/// than MaxTVMJSONBytes: lwp/Report/Input.h), and those above.
llvm::Expected<TVMReport> analyzeTVMFile(llvm::StringRef Path,
                                         const ProfiledBinary &Binary,
                                         uint64_t LoadBias,
                                         const ProfileOptions &Options);

/// Points every region of \p P at its entry in \p Map (a TVMReport's map,
/// moved). Regions whose ID \p Map lacks are dropped (none for the map of
/// the same report).
void rebindTVMProfile(Profile &P, const InstrumentationMap &Map);

} // namespace lwp

#endif // LWP_REPORT_TVM_H
