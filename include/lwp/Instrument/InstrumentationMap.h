//===- InstrumentationMap.h - Region ID -> region description ---*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The instrumentation map: the compile-time table that tells, for every region
// ID a probe carries, what region it is (kind, function, depth, height, parent
// region, source location). This is the one definition of that table: the
// MLIR pass, the LLVM pass, the in-binary section and the report all use it.
// Its JSON form is specified in docs/instrumentation-map.md.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_INSTRUMENT_INSTRUMENTATIONMAP_H
#define LWP_INSTRUMENT_INSTRUMENTATIONMAP_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lwp {

/// Largest region ID. Bit 31 of a 32-bit ID word is reserved so that a target
/// lowering may tag start and end probes in the ID it passes to the handler.
constexpr uint32_t MaxRegionId = 0x7fffffffu;

/// Version of the map's JSON form (docs/instrumentation-map.md): 2 adds the
/// operator fields. Readers take versions 1 and 2 and refuse others.
constexpr unsigned InstrumentationMapVersion = 2;

/// Name of the ELF section that carries the map in a binary. Each module adds
/// one blob with its region slots (docs/instrumentation-map.md, "In the
/// binary"; lwp/Runtime/MapFormat.h); the linker concatenates them. The
/// section is allocated and writable, so `strip` keeps it.
constexpr llvm::StringLiteral InstrumentationMapSection = "lwp_map";
/// The 8 bytes a map blob starts with.
constexpr char InstrumentationMapMagic[8] = {'L', 'W', 'P',  'M',
                                             'A', 'P', '\0', '\0'};
/// Latest version of the binary map blob (4: header word 28 gives the offset
/// of an 8-byte module summary, -lwp-instruction-threshold's figures, which
/// the operators' work table may follow up to the strings; 3: 48-byte
/// entries with the operator fields; 2: module-local IDs and one 64-byte slot
/// per region). writeBlob writes version 4 for a map with a threshold or
/// work figures and version 3 otherwise. readSection also reads version 2 blobs
/// (40-byte entries) and version 1 blobs (global IDs, no slots).
constexpr unsigned InstrumentationMapBlobVersion = 4;
/// Bytes of one region slot (struct lwp_slot in lwp/Runtime/MapFormat.h).
constexpr unsigned RegionSlotSize = 64;
/// Alignment of slot 0 in its blob and of the blob's global (bytes).
constexpr unsigned RegionSlotAlign = 16;

/// What a region wraps.
enum class RegionKind : uint8_t {
  Function = 0, ///< a whole function body
  Loop = 1,     ///< one loop (MLIR loop op or LLVM natural loop)
  Operator = 2, ///< the code one structured MLIR op (linalg.*) lowered to
};

/// Returns "function", "loop" or "operator".
llvm::StringRef stringifyRegionKind(RegionKind Kind);
/// Parses "function", "loop" or "operator"; std::nullopt for anything else.
std::optional<RegionKind> parseRegionKind(llvm::StringRef Name);

/// A source position; Line and Column are 1-based, 0 when unknown. An empty
/// File means no location is known.
struct SourceLocation {
  std::string File;
  uint32_t Line = 0;
  uint32_t Column = 0;

  bool isKnown() const { return !File.empty(); }
  /// "file:line:col", or "-" when unknown.
  std::string str() const;
};

/// One row of the map.
struct RegionEntry {
  /// The ID both probes of the region carry (0..MaxRegionId).
  uint32_t Id = 0;
  RegionKind Kind = RegionKind::Function;
  /// Symbol name of the enclosing function (the function itself for a
  /// function region); for display, demangled by demangleFunctions().
  std::string Function;
  /// The symbol name when demangleFunctions() changed Function (the
  /// Itanium, Microsoft or Rust mangling llvm::demangle reads), else empty.
  std::string MangledFunction;
  /// Loop depth (outermost loop = 0); none for a function region.
  std::optional<uint32_t> Depth;
  /// Loop height (innermost loop = 0); none for a function region.
  std::optional<uint32_t> Height;
  /// ID of the nearest enclosing instrumented region; none at the top.
  std::optional<uint32_t> ParentId;
  /// Where the region starts in the source.
  SourceLocation Loc;
  /// The structured op the region belongs to (MLIR only), e.g.
  /// "linalg.conv_2d_nhwc_hwcf": for an operator region the op itself, for a
  /// loop the operator whose code it is; empty when none.
  std::string Operator;
  /// The model's own name for that op (a NameLoc or the `lwp.operator`
  /// attribute), e.g. "conv1"; empty when none.
  std::string OperatorName;
  /// Every operator whose code the region holds (a fused or tiled nest holds
  /// several), as labels (`linalg.generic "relu"`: the op name, then the
  /// model's name in quotes when there is one), distinct, in program order;
  /// empty when none. Labels hold no ','.
  std::vector<std::string> Operators;
  /// An operator region's work per execution, from its operator tag (the
  /// frontend's figures from the op's shapes; MLIROperators.h): operations
  /// and bytes of operands read and of results written; -1 when unknown
  /// (always for loops and functions). Docs: "flops", "bytes_read",
  /// "bytes_written" in docs/instrumentation-map.md.
  int64_t Flops = -1;
  int64_t BytesRead = -1;
  int64_t BytesWritten = -1;
  /// The image (executable or shared object) the region's module was linked
  /// into, as a file name; empty when only one image is known (the report
  /// fills it in for programs of several images).
  std::string Image;

  /// True when some work figure is known.
  bool hasWork() const {
    return Flops >= 0 || BytesRead >= 0 || BytesWritten >= 0;
  }

  /// Turns a module-local entry (a version 2 blob, a map file) into the
  /// program-wide one of a module whose region 0 got ID \p FirstId: adds
  /// \p FirstId to Id and ParentId.
  void rebase(uint32_t FirstId) {
    Id += FirstId;
    if (ParentId)
      *ParentId += FirstId;
  }
};

/// The operator of \p E as shown to users: `op` or `op "name"` (e.g.
/// `linalg.matmul "dense"`); empty when E has no operator.
std::string operatorLabel(const RegionEntry &E);
/// operatorLabel(E) followed by every other operator E holds, joined with
/// " + " (a fused nest: `linalg.generic "bias" + linalg.generic "relu"`);
/// "-" when none.
std::string describeOperators(const RegionEntry &E);

class InstrumentationMap;

/// One module's blob as read from a map section.
struct MapBlob {
  /// Byte offset of the blob in the section.
  uint64_t Offset = 0;
  /// Blob version (1 to 4).
  unsigned Version = 0;
  /// Offset of slot 0 from the blob start (0 for version 1).
  uint32_t SlotsOffset = 0;
  /// Version 4's module summary: the module's -lwp-instruction-threshold and
  /// the functions whose region it skipped (0 and 0 before version 4).
  uint32_t InstructionThreshold = 0;
  uint32_t SmallFunctions = 0;
  /// Its regions; from version 2 on the IDs are module-local (0..N-1, entry I
  /// has ID I), in version 1 they are the program-wide IDs.
  std::vector<RegionEntry> Entries;
};

/// The map of one module (or of several, once merged): entries sorted by ID.
class InstrumentationMap {
public:
  /// Appends an entry. IDs are expected to be added in increasing order.
  void add(RegionEntry Entry) { Entries.push_back(std::move(Entry)); }

  /// -lwp-instruction-threshold of the module (0: none); of a merged map,
  /// the largest of its modules'.
  uint32_t instructionThreshold() const { return InstructionThreshold; }
  /// Functions whose region -lwp-instruction-threshold skipped (the
  /// instrumentation map's "small_functions"); of a merged map, the sum
  /// (saturating at UINT32_MAX).
  uint32_t smallFunctions() const { return SmallFunctions; }
  /// Sets both figures of the threshold.
  void setSmallFunctions(uint32_t Threshold, uint32_t Count) {
    InstructionThreshold = Threshold;
    SmallFunctions = Count;
  }
  /// Adds another module's threshold figures (merging maps).
  void addSmallFunctions(uint32_t Threshold, uint32_t Count) {
    InstructionThreshold = std::max(InstructionThreshold, Threshold);
    SmallFunctions = Count > UINT32_MAX - SmallFunctions
                         ? UINT32_MAX
                         : SmallFunctions + Count;
  }

  const std::vector<RegionEntry> &entries() const { return Entries; }
  size_t size() const { return Entries.size(); }
  bool empty() const { return Entries.empty(); }

  /// The entry with ID \p Id, or nullptr. Binary search: entries are sorted.
  const RegionEntry *lookup(uint32_t Id) const;

  /// Replaces each entry's Function by its demangled form
  /// (llvm::demangle: `_ZN3Sum3addEl` becomes `Sum::add(long)`), keeping the
  /// symbol in MangledFunction; names that are not mangled (C functions)
  /// stay as they are. For reports; the map's JSON and blob forms always
  /// hold the symbols.
  void demangleFunctions();

  /// Writes the JSON form, keys in this order: {"version": 2, "regions":
  /// [{"id", "kind", "function", "depth", "height", "parent", "file", "line",
  /// "column", "operator", "operator_name", "operators"}, ...]}, with null
  /// for absent depth, height, parent, operator and operator name, and
  /// "flops", "bytes_read", "bytes_written" after "operators" each only when
  /// known; then,
  /// when the threshold is not 0, "instruction_threshold" and
  /// "small_functions"; \p Indent spaces per level (0: one line).
  void writeJSON(llvm::raw_ostream &OS, unsigned Indent = 2) const;

  /// Parses the JSON form (version 1, without the operator fields, or 2;
  /// "instruction_threshold" and "small_functions" are optional, 0 when
  /// absent, and so are a region's "flops", "bytes_read" and
  /// "bytes_written", -1 when absent). Errors (llvm::StringError, one line
  /// each): not JSON, another version, a missing or mistyped field (a work
  /// figure that is not a non-negative integer), an ID above MaxRegionId,
  /// IDs not strictly increasing.
  static llvm::Expected<InstrumentationMap> fromJSON(llvm::StringRef Text);

  /// Writes the JSON form to \p Path ("-" for stdout). Errors: the file
  /// cannot be opened or written.
  llvm::Error writeJSONFile(llvm::StringRef Path) const;

  /// Appends the binary blob of this map (one module, IDs 0..size()-1 in
  /// order) to \p Out: a 32-byte header, 48 bytes a region, with a
  /// threshold or work figures the 8-byte module summary (small functions,
  /// instruction threshold; version 4, else version 3) followed by the work
  /// table of the regions with work figures (8 + 32 bytes a region), a
  /// string table,
  /// zero padding to 16 bytes, then size() zeroed 64-byte region slots
  /// (docs/instrumentation-map.md, "In the binary"). Returns the offset of
  /// slot 0 from the start of the blob. Precondition: entry I has ID I.
  uint32_t writeBlob(llvm::SmallVectorImpl<char> &Out) const;

  /// Reads the content of a binary's map section: the blobs of every module,
  /// in link order, with zero padding between them. Errors (one line each): a
  /// foreign or truncated blob, an unknown blob version, strings out of
  /// range, a version 2 blob whose IDs are not 0..N-1, a work table whose
  /// size is not its records' or a work record naming no region, a region
  /// twice, no figure or a figure above INT64_MAX.
  static llvm::Expected<std::vector<MapBlob>> readBlobs(llvm::StringRef Bytes);

  /// The regions of a map section as one map, for printing without a dump:
  /// the blobs' regions numbered 1, 2, ... in section order (the order a
  /// runtime registering the modules in link order would give them; version
  /// 1 blobs keep their IDs); the blobs' small functions added up. Errors: as
  /// readBlobs, and a version 1 ID that two blobs use.
  static llvm::Expected<InstrumentationMap> readSection(llvm::StringRef Bytes);

  /// Prints a human table, one region a row, in ID order:
  ///   ID  kind  function  depth  height  parent  location  operator
  /// (operator only when some region has operators; "flops", "bytes read"
  /// and "bytes written" before location only when some region has work
  /// figures). Absent values print as "-". Then smallFunctionsNote(), when not
  /// empty, on a line of its own.
  void printTable(llvm::raw_ostream &OS) const;

  /// "N small function(s) not instrumented (below
  /// -lwp-instruction-threshold=T)", or "" when the threshold skipped none.
  std::string smallFunctionsNote() const;

private:
  std::vector<RegionEntry> Entries;
  uint32_t InstructionThreshold = 0;
  uint32_t SmallFunctions = 0;
};

} // namespace lwp

#endif // LWP_INSTRUMENT_INSTRUMENTATIONMAP_H
