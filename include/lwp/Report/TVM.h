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
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_TVM_H
#define LWP_REPORT_TVM_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Report/Binary.h"
#include "lwp/Report/Dump.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

namespace lwp {

/// The function name of the regions that TVM counted but never recorded.
inline constexpr llvm::StringLiteral UnrecordedTVMFunction = "<not recorded>";

/// Converts the text of a TVM lwp.json into an LWP dump (Hexagon, pcycles,
/// 16-byte records, one thread, the count table from loop_counts), starts
/// and ends told apart by alternation per ID as TVM does. \p Name names it in
/// errors. Errors (one line): not JSON (with line and column), no "entries"
/// array, an entry without integer ret / id / cyc, a negative value, a
/// return address above 2^32-1, an ID above 2^31-1, far beyond the entries
/// and counts, or beyond the loop_counts table when the file has one.
llvm::Expected<Dump> importTVMJSON(llvm::StringRef Text, llvm::StringRef Name);
/// The same for a file read with MemoryBuffer::getFile, named by its
/// identifier. Memory holds 16 bytes per entry (the records) plus the count
/// table, not the text: when the file is mapped, the pages already read are
/// given back as the import goes (docs/report.md, "TVM interop").
llvm::Expected<Dump> importTVMJSON(const llvm::MemoryBuffer &Buffer);

/// Builds the map TVM does not write, from the records and the binary's
/// symbols: each ID's function is the one holding its start site (minus
/// \p LoadBias); the outermost region of a function instance is its function
/// region, the others loops, with depth and parent from the dynamic nesting
/// within the function, height from the inferred nest. Source locations are
/// unknown (TVM records none). A region that ran (a non-zero loop_counts
/// entry) but has no entry at all (TVM's buffer was full before it first
/// ran) becomes a loop of function UnrecordedTVMFunction, without depth.
/// \p D must come from importTVMJSON (in memory).
InstrumentationMap inferTVMMap(const Dump &D, const ProfiledBinary &Binary,
                               uint64_t LoadBias);

} // namespace lwp

#endif // LWP_REPORT_TVM_H
