//===- Dump.h - Reader of LWP dump files ------------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The one reader of the dump format (docs/dump-format.md,
// include/lwp/Runtime/DumpFormat.h) that every report output uses. It
// validates the whole layout up front and then reads records in place from
// the file's bytes, so memory grows with the number of regions and threads,
// not with the number of records.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_DUMP_H
#define LWP_REPORT_DUMP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lwp {

/// One probe execution as recorded.
struct DumpRecord {
  uint64_t Site;   ///< return address of the probe call (process address)
  uint32_t Id;     ///< region ID (bit 31 of the ID word removed)
  bool IsEnd;      ///< an end probe (bit 31 set), else a start probe
  uint64_t Cycles; ///< counter value, in the dump's counter unit
};

/// A loaded image (executable or shared object) of the profiled process.
struct DumpImage {
  uint64_t LoadBias = 0; ///< address of the image's vaddr 0
  std::string BuildId;   ///< raw GNU build ID bytes; empty when none
  std::string Name;      ///< path as the runtime saw it
};

/// One thread's records, read in place.
class DumpThread {
public:
  DumpThread(uint64_t ThreadId, llvm::StringRef Bytes, unsigned RecordSize)
      : ThreadId(ThreadId), Bytes(Bytes), RecordSize(RecordSize) {}
  /// OS thread ID (0 on Hexagon).
  uint64_t threadId() const { return ThreadId; }
  /// Number of records.
  uint64_t size() const { return Bytes.size() / RecordSize; }
  /// Record \p I (0 <= I < size()), in execution order.
  DumpRecord record(uint64_t I) const;

private:
  uint64_t ThreadId;
  llvm::StringRef Bytes;
  unsigned RecordSize;
};

/// Names of header enums, for printing.
llvm::StringRef stringifyDumpTarget(unsigned Target);
/// "TSC", "cntvct", "pcycles", "packets" or "unknown".
llvm::StringRef stringifyDumpCounter(unsigned Counter);

/// A dump file, validated.
class Dump {
public:
  /// Reads and validates \p Path. Errors (one line, naming the file): cannot
  /// be read, shorter than its header, a wrong magic (not an LWP dump), a
  /// version other than 1, a record size other than 16 or 24, a part that
  /// runs past the end of the file, or bytes left over after the last part.
  static llvm::Expected<Dump> open(llvm::StringRef Path);
  /// The same for bytes in memory; \p Name is used in errors.
  static llvm::Expected<Dump> parse(std::unique_ptr<llvm::MemoryBuffer> Buffer);

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
  /// Counter ticks an empty probe pair adds; 0 when unknown.
  uint32_t probePairCost() const { return ProbePairCost; }
  /// Exact executions per region ID; index = ID.
  llvm::ArrayRef<uint64_t> counts() const { return Counts; }
  llvm::ArrayRef<DumpImage> images() const { return Images; }
  llvm::ArrayRef<DumpThread> threads() const { return Threads; }

private:
  std::shared_ptr<llvm::MemoryBuffer> Buffer;
  unsigned Version = 0, Target = 0, Counter = 0, RecordSize = 0;
  uint64_t CounterHz = 0, Dropped = 0;
  uint32_t Cap = 0, ProbePairCost = 0;
  std::vector<uint64_t> Counts;
  std::vector<DumpImage> Images;
  std::vector<DumpThread> Threads;
};

} // namespace lwp

#endif // LWP_REPORT_DUMP_H
