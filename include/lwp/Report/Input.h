//===- Input.h - The report's input files -----------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Every file the report reads (dumps, binaries, map files, TVM's lwp.json)
// is opened through lwp/Support/InputFile.h: a regular file of bounded size,
// checked with stat before it is opened, so that /dev/zero, a FIFO, a
// directory or a device ends with one error line at once instead of a read
// that never ends or an open that blocks (docs/report.md, "Input files").
// Here: the bound of each kind of input, and the map JSON reader, whose
// nesting is bounded before it is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_INPUT_H
#define LWP_REPORT_INPUT_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Support/InputFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>

namespace lwp {

/// Largest dump, in bytes: its records are read a window at a time.
inline constexpr uint64_t MaxDumpBytes = uint64_t(1) << 40;
/// Largest binary (ELF file), in bytes: it is mapped whole.
inline constexpr uint64_t MaxBinaryBytes = uint64_t(16) << 30;
/// Largest map JSON file, in bytes: it is parsed into a tree (about ten
/// times its size in memory; a map of a million regions is 250 MB).
inline constexpr uint64_t MaxMapJSONBytes = uint64_t(1) << 30;
/// Largest TVM lwp.json, in bytes: it is mapped and read as a stream.
inline constexpr uint64_t MaxTVMJSONBytes = uint64_t(64) << 30;

/// A map from the JSON of lwp-instrument's map-file= \p Text: its nesting
/// bounded first (checkJSONDepth, MaxJSONDepth), then
/// InstrumentationMap::fromJSON. Errors (one line, starting
/// "instrumentation map"): nested too deeply (line and column), and those of
/// fromJSON.
llvm::Expected<InstrumentationMap> parseMapJSON(llvm::StringRef Text);

/// The map of the JSON file \p Path (readInputFile with \p Role and
/// MaxMapJSONBytes, then parseMapJSON). Errors name the file: "cannot read
/// ROLE 'PATH': ..." or "map 'PATH': ...".
llvm::Expected<InstrumentationMap>
readMapJSONFile(llvm::StringRef Path, llvm::StringRef Role = "map");

} // namespace lwp

#endif // LWP_REPORT_INPUT_H
