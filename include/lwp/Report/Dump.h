//===- Dump.h - Reader of LWP dump files ------------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The one reader of the dump format (docs/dump-format.md,
// include/lwp/Runtime/DumpFormat.h) that every report output uses. It
// verifies a version 3 dump's checksum and validates the whole layout up
// front from the header and the thread headers, and then streams each
// thread's records from the file in fixed-size chunks, so memory grows with
// the number of regions and threads, not with the number of records.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_DUMP_H
#define LWP_REPORT_DUMP_H

#include "lwp/Runtime/DumpFormat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lwp {

/// One probe execution as recorded.
struct DumpRecord {
  uint64_t Site;   ///< return address of the probe call (process address)
  uint32_t Id;     ///< region ID (bit 31 of the ID word removed)
  bool IsEnd;      ///< an end probe (bit 31 set), else a start probe
  uint64_t Cycles; ///< counter value, in the dump's counter unit
  /// The instance's position on the runtime's stack of open instances (1:
  /// outermost); 0 when the record does not say (version 1, 16-byte
  /// records).
  uint32_t Depth = 0;
};

/// Decodes the record at \p P, \p RecordSize (16 or 24) bytes in the layout
/// of lwp_record32 or lwp_record64 (lwp/Runtime/DumpFormat.h), little-endian.
inline DumpRecord decodeRecord(const char *P, unsigned RecordSize) {
  using namespace llvm::support::endian;
  DumpRecord R;
  uint32_t Word;
  if (RecordSize == sizeof(lwp_record32)) {
    R.Site = read32le(P);
    Word = read32le(P + 4);
    R.Cycles = read64le(P + 8);
  } else {
    R.Site = read64le(P);
    Word = read32le(P + 8);
    R.Depth = read32le(P + 12);
    R.Cycles = read64le(P + 16);
  }
  R.Id = Word & LWP_ID_MASK;
  R.IsEnd = Word & LWP_ID_END_BIT;
  return R;
}

/// A loaded image (executable or shared object) of the profiled process.
struct DumpImage {
  uint64_t LoadBias = 0; ///< address of the image's vaddr 0
  std::string BuildId;   ///< raw GNU build ID bytes; empty when none
  std::string Name;      ///< path as the runtime saw it
};

/// A registered module of a version 2 dump: one lwp_map blob whose regions
/// have the IDs FirstId .. FirstId + NumRegions - 1, in blob order.
struct DumpModule {
  uint64_t BlobVaddr = 0;  ///< the blob's virtual address in its image's file
  uint32_t Image = 0;      ///< index into Dump::images()
  uint32_t FirstId = 0;    ///< ID of the blob's entry 0 (never 0)
  uint32_t NumRegions = 0; ///< entries of the blob
  /// Version 3: the low 32 bits of the XXH64 of the blob's bytes before its
  /// slots (lwp_dump_module.map_hash); 0 when not recorded.
  uint32_t MapHash = 0;
};

/// The exact figures of one region ID (lwp_dump_region, version 2): counter
/// ticks, raw. Version 1 dumps carry only Count.
struct DumpRegion {
  uint64_t Count = 0;    ///< executions
  uint64_t Total = 0;    ///< inclusive cycles of the outermost instances
  uint64_t Self = 0;     ///< cycles minus direct instrumented children's
  uint64_t Nested = 0;   ///< probes inside the outermost instances (2 an
                         ///< instance, 1 one left without its end)
  uint64_t Children = 0; ///< direct child instances
  uint64_t Outer = 0;    ///< outermost instances
  uint64_t Unwound = 0;  ///< instances closed without their end probe
};

/// Where a dump's bytes come from: a file read on demand, or memory.
class DumpSource;

/// Produces one thread's records, in execution order, for input that is not
/// a dump file but is converted as it is read (TVM's lwp.json): calls its
/// argument on consecutive runs of whole records, encoded as the dump's
/// record size says (DumpThread::forEachRecordRun), and stops when it
/// returns false. Error: the input is malformed (one line).
using RecordStream =
    std::function<llvm::Error(llvm::function_ref<bool(llvm::StringRef)>)>;

/// One node of a thread's calling-context tree (lwp_dump_node, v4): the
/// exact figures of one path of regions from the thread's root.
struct DumpNode {
  uint32_t Id = 0;     ///< region ID; 0 for the root (node 0)
  uint32_t Parent = 0; ///< index of the parent node (< this node's)
  uint64_t Count = 0;  ///< instances on this path
  uint64_t Cycles = 0; ///< their inclusive cycles (counter unit)
  uint32_t Flags = 0;  ///< LWP_NODE_* (LWP_NODE_FOLDED)
  uint32_t Folded = 0; ///< instances folded into it past the node budget
};

/// One thread's records, streamed from the dump.
class DumpThread {
public:
  DumpThread(uint64_t ThreadId, uint64_t NumRecords, unsigned RecordSize,
             std::shared_ptr<const DumpSource> Source, uint64_t Offset)
      : ThreadId(ThreadId), NumRecords(NumRecords), RecordSize(RecordSize),
        Source(std::move(Source)), Offset(Offset) {}
  /// Inclusive cycles of the thread's top-level instances (v2; 0 in v1).
  uint64_t TopCycles = 0;
  /// Top-level instances, and probes inside them (v2, as DumpRegion::Nested).
  uint64_t TopInstances = 0, TopNested = 0;
  /// The thread's calling-context tree (v4; empty when the runtime kept
  /// none): node 0 is the root, every parent precedes its children.
  std::vector<DumpNode> Nodes;
  /// OS thread ID (0 on Hexagon).
  uint64_t threadId() const { return ThreadId; }
  /// Number of records.
  uint64_t size() const { return NumRecords; }
  /// Calls \p F on every record in execution order (through
  /// forEachRecordRun); stops early when \p F returns false. Error:
  /// the file could not be read (it changed since it was opened).
  llvm::Error
  forEachRecord(llvm::function_ref<bool(const DumpRecord &)> F) const;
  /// Calls \p F on consecutive runs of whole records, in execution order,
  /// as the dump's bytes (recordSize() bytes each; decode them with
  /// decodeRecord): the fast way through millions of records, one call per
  /// run of at most 8 MiB. A file's records are mapped a run at a time and
  /// released after, so memory stays flat. Stops early when \p F returns
  /// false. Only the records [First, First + Count) when given (clamped to
  /// the thread's; a streamed thread, Dump::streamThread, is read whole
  /// from First 0). Error: the file could not be mapped, or shrank since it
  /// was opened, or the stream of a converted input failed.
  llvm::Error forEachRecordRun(llvm::function_ref<bool(llvm::StringRef)> F,
                               uint64_t First = 0,
                               uint64_t Count = UINT64_MAX) const;
  /// Bytes of one record: 16 (lwp_record32) or 24 (lwp_record64).
  unsigned recordSize() const { return RecordSize; }

private:
  friend class Dump;
  RecordStream Stream; ///< when set, the records come from it
  uint64_t ThreadId;
  uint64_t NumRecords;
  unsigned RecordSize;
  std::shared_ptr<const DumpSource> Source;
  uint64_t Offset; ///< of the first record in the source
};

/// Names of header enums, for printing.
llvm::StringRef stringifyDumpTarget(unsigned Target);
/// "TSC", "cntvct", "pcycles", "packets" or "unknown".
llvm::StringRef stringifyDumpCounter(unsigned Counter);

/// The checksum of a version 3 dump whose bytes before the trailer are
/// \p Bytes (LWP_DUMP_CHECKSUM_BLOCK in lwp/Runtime/DumpFormat.h), as the
/// runtimes' writer computes it: for tools that build or edit dumps.
uint64_t dumpChecksum(llvm::ArrayRef<uint8_t> Bytes);

/// A dump file, validated.
class Dump {
public:
  /// Opens and validates \p Path (a regular file: lwp/Report/Input.h);
  /// records stay in the file until read. A version 3 dump's checksum is
  /// verified first, reading the file once on up to \p Threads threads.
  /// Errors (one line, naming the file): cannot be read (not a regular file,
  /// larger than MaxDumpBytes), shorter than its header, a wrong magic (not
  /// an LWP dump), a version other than 1 to 4, a checksum that does not
  /// match (a damaged file), a record size other than 16 or 24, a part that
  /// runs past the end of the file, a module that names a missing image or
  /// IDs past the count table, a calling-context node whose parent does not
  /// precede it or whose ID is past the region table, or bytes left over
  /// after the last part.
  static llvm::Expected<Dump> open(llvm::StringRef Path, unsigned Threads = 1);
  /// The same for bytes in memory (the buffer's identifier names it in
  /// errors).
  static llvm::Expected<Dump> parse(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                                    unsigned Threads = 1);

  unsigned version() const { return Version; }
  unsigned target() const { return Target; }   ///< lwp_dump_target
  unsigned counter() const { return Counter; } ///< lwp_dump_counter
  unsigned recordSize() const { return RecordSize; }
  /// Counter ticks per second; 0 when unknown (e.g. QEMU packets).
  uint64_t counterHz() const { return CounterHz; }
  /// Records kept per ID (per thread on hosts).
  uint32_t cap() const { return Cap; }
  /// Records not stored.
  uint64_t dropped() const { return Dropped; }
  /// Counter ticks an empty probe pair adds to its own region; 0 unknown.
  uint32_t probePairCost() const { return ProbePairCost; }
  /// Counter ticks a nested empty probe pair adds to the region around it;
  /// 0 unknown (then probePairCost() is the best estimate).
  uint32_t probeNestedCost() const { return ProbeNestedCost; }
  /// Exact executions per region ID; index = ID.
  llvm::ArrayRef<uint64_t> counts() const { return Counts; }
  /// True when the dump has each region's exact cycles (version 2 with
  /// LWP_DUMP_FLAG_FIGURES): then regions() holds them and the threads their
  /// top-level figures.
  bool hasFigures() const {
    return Version >= 2 && (Flags & LWP_DUMP_FLAG_FIGURES);
  }
  /// True when the runtime could not count some executions
  /// (LWP_DUMP_FLAG_LOST): counts and cycles are lower bounds.
  bool lostExecutions() const { return Flags & LWP_DUMP_FLAG_LOST; }
  /// True when every cycle figure is in compensated time
  /// (LWP_DUMP_FLAG_COMPENSATED, v4): the probes' own time was taken out
  /// where it ran; probePairCost() and probeNestedCost() are what remains
  /// to subtract.
  bool compensated() const {
    return Version >= 4 && (Flags & LWP_DUMP_FLAG_COMPENSATED);
  }
  /// True when some thread carries a calling-context tree (v4).
  bool hasContextTree() const;
  /// Exact figures per region ID; index = ID (Count only in version 1).
  llvm::ArrayRef<DumpRegion> regions() const { return Regions; }
  llvm::ArrayRef<DumpImage> images() const { return Images; }
  /// Registered modules (version 2; none in version 1, whose IDs are the
  /// map's own).
  llvm::ArrayRef<DumpModule> modules() const { return Modules; }
  /// ID of the process that wrote the dump (version 2; 0 unknown).
  uint64_t processId() const { return ProcessId; }
  llvm::ArrayRef<DumpThread> threads() const { return Threads; }
  /// Bytes of the dump (the file's size when it was opened).
  uint64_t size() const;
  /// The checksum the dump carries, verified (version 3), else none.
  std::optional<uint64_t> checksum() const { return Checksum; }
  /// True when this dump and \p Other were opened from one file (by device
  /// and inode, whatever the paths).
  bool sameFile(const Dump &Other) const;
  /// True when this dump and \p Other hold the same bytes (compared
  /// a chunk at a time; different sizes or checksums tell at once). Error:
  /// a file could not be read (it changed since it was opened).
  llvm::Expected<bool> sameContents(const Dump &Other) const;

  /// Makes thread \p Index (< threads().size()) read its \p NumRecords
  /// records from \p Stream instead of the dump's bytes: for input converted
  /// as it is read, so that its records are never all in memory (TVM's
  /// lwp.json, lib/Report/TVM.cpp).
  void streamThread(size_t Index, uint64_t NumRecords, RecordStream Stream);

private:
  static llvm::Expected<Dump> read(std::shared_ptr<const DumpSource> Source,
                                   unsigned Threads);

  unsigned Version = 0, Target = 0, Counter = 0, RecordSize = 0;
  uint64_t CounterHz = 0, Dropped = 0, ProcessId = 0;
  uint32_t Flags = 0;
  uint32_t Cap = 0, ProbePairCost = 0, ProbeNestedCost = 0;
  std::vector<uint64_t> Counts;
  std::vector<DumpRegion> Regions;
  std::vector<DumpImage> Images;
  std::vector<DumpModule> Modules;
  std::vector<DumpThread> Threads;
  std::optional<uint64_t> Checksum;
  std::shared_ptr<const DumpSource> Source;
};

} // namespace lwp

#endif // LWP_REPORT_DUMP_H
