//===- Dump.cpp - Reader of LWP dump files --------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Dump.h"
#include "lwp/Runtime/DumpFormat.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

using namespace lwp;
using llvm::createStringError;
using llvm::StringRef;
using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

static_assert(sizeof(lwp_dump_header) == 80, "header layout");
static_assert(sizeof(lwp_dump_module) == 24, "module layout");
/// Header bytes of version 1 (no module table).
constexpr unsigned HeaderSizeV1 = 64;
static_assert(sizeof(lwp_dump_image) == 16, "image layout");
static_assert(sizeof(lwp_dump_thread) == 48, "thread layout");
static_assert(sizeof(lwp_dump_region) == 64, "region layout");
/// Bytes of a thread header, and of a region table entry, in version 1.
constexpr unsigned ThreadSizeV1 = 16, RegionSizeV1 = 8;
static_assert(sizeof(lwp_record32) == 16 && sizeof(lwp_record64) == 24,
              "record layout");

/// The bytes of a dump: a file read with pread, or a buffer in memory.
class lwp::DumpSource {
public:
  std::string Name;
  uint64_t Size = 0;
  std::unique_ptr<llvm::MemoryBuffer> Buffer; // in memory, else File
  llvm::sys::fs::file_t File = llvm::sys::fs::kInvalidFile;

  ~DumpSource() {
    if (File != llvm::sys::fs::kInvalidFile)
      llvm::sys::fs::closeFile(File);
  }

  /// Reads Out.size() bytes at \p Offset (the caller checked the range).
  llvm::Error read(uint64_t Offset, llvm::MutableArrayRef<char> Out) const {
    if (Out.empty())
      return llvm::Error::success();
    if (Buffer) {
      memcpy(Out.data(), Buffer->getBufferStart() + Offset, Out.size());
      return llvm::Error::success();
    }
    while (!Out.empty()) {
      llvm::Expected<size_t> N =
          llvm::sys::fs::readNativeFileSlice(File, Out, Offset);
      if (!N)
        return createStringError("dump '" + Name +
                                 "': " + llvm::toString(N.takeError()));
      if (*N == 0)
        return createStringError("dump '" + Name +
                                 "': the file shrank while it was read");
      Out = Out.drop_front(*N);
      Offset += *N;
    }
    return llvm::Error::success();
  }
};

llvm::Error DumpThread::forEachRecordRun(llvm::function_ref<bool(StringRef)> F,
                                         uint64_t First, uint64_t Count) const {
  if (Stream) {
    // A stream converts its input as it is read: it has no random access.
    if (First != 0 || Count < NumRecords)
      return createStringError("a converted input (TVM's lwp.json) is read "
                               "whole, not from record " +
                               llvm::Twine(First));
    return Stream(F);
  }
  First = std::min(First, NumRecords);
  uint64_t End = First + std::min(Count, NumRecords - First);
  if (Source->Buffer) {
    F(StringRef(Source->Buffer->getBufferStart() + Offset + First * RecordSize,
                (End - First) * RecordSize));
    return llvm::Error::success();
  }
  // A file: mapped a window at a time (no copy, and a window's pages are
  // released when it is unmapped, so memory stays flat whatever the size of
  // the dump). Each window holds the whole records that start in it.
  constexpr uint64_t WindowBytes = 8 << 20;
  const uint64_t Align = llvm::sys::fs::mapped_file_region::alignment();
  for (uint64_t Done = First; Done < End;) {
    uint64_t Pos = Offset + Done * RecordSize;
    uint64_t Base = Pos / Align * Align;
    uint64_t N = std::min(End - Done, (Base + WindowBytes - Pos) / RecordSize);
    uint64_t Length = Pos - Base + N * RecordSize;
    // A mapping faults past the end of a file that shrank since it was
    // opened: check first.
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(Source->File, Status))
      return createStringError(EC, "dump '%s': %s", Source->Name.c_str(),
                               EC.message().c_str());
    if (Status.getSize() < Base + Length)
      return createStringError("dump '" + Source->Name +
                               "': the file shrank while it was read");
    std::error_code EC;
    llvm::sys::fs::mapped_file_region Window(
        Source->File, llvm::sys::fs::mapped_file_region::readonly, Length, Base,
        EC);
    if (EC)
      return createStringError(EC, "dump '%s': cannot map its records: %s",
                               Source->Name.c_str(), EC.message().c_str());
    if (!F(StringRef(Window.const_data() + (Pos - Base), N * RecordSize)))
      return llvm::Error::success();
    Done += N;
  }
  return llvm::Error::success();
}

llvm::Error DumpThread::forEachRecord(
    llvm::function_ref<bool(const DumpRecord &)> F) const {
  return forEachRecordRun([&](StringRef Bytes) {
    for (const char *P = Bytes.begin(); P != Bytes.end(); P += RecordSize)
      if (!F(decodeRecord(P, RecordSize)))
        return false;
    return true;
  });
}

void Dump::streamThread(size_t Index, uint64_t NumRecords,
                        RecordStream Stream) {
  Threads[Index].NumRecords = NumRecords;
  Threads[Index].Stream = std::move(Stream);
}

StringRef lwp::stringifyDumpTarget(unsigned Target) {
  switch (Target) {
  case LWP_TARGET_X86_64:
    return "x86_64";
  case LWP_TARGET_AARCH64:
    return "aarch64";
  case LWP_TARGET_HEXAGON:
    return "hexagon";
  }
  return "unknown";
}

StringRef lwp::stringifyDumpCounter(unsigned Counter) {
  switch (Counter) {
  case LWP_COUNTER_TSC:
    return "TSC";
  case LWP_COUNTER_CNTVCT:
    return "cntvct";
  case LWP_COUNTER_PCYCLES:
    return "pcycles";
  case LWP_COUNTER_QEMU_PACKETS:
    return "packets";
  }
  return "unknown";
}

llvm::Expected<Dump> Dump::open(StringRef Path) {
  auto Source = std::make_shared<DumpSource>();
  Source->Name = Path.str();
  llvm::Expected<llvm::sys::fs::file_t> File =
      llvm::sys::fs::openNativeFileForRead(Path);
  if (!File) {
    std::error_code EC = llvm::errorToErrorCode(File.takeError());
    return createStringError(EC, "cannot read dump '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  }
  Source->File = *File;
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Source->File, Status))
    return createStringError(EC, "cannot read dump '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  if (Status.type() != llvm::sys::fs::file_type::regular_file)
    return createStringError("cannot read dump '%s': not a regular file",
                             Path.str().c_str());
  Source->Size = Status.getSize();
  return read(std::move(Source));
}

llvm::Expected<Dump> Dump::parse(std::unique_ptr<llvm::MemoryBuffer> Buf) {
  auto Source = std::make_shared<DumpSource>();
  Source->Name = Buf->getBufferIdentifier().str();
  Source->Size = Buf->getBufferSize();
  Source->Buffer = std::move(Buf);
  return read(std::move(Source));
}

llvm::Expected<Dump> Dump::read(std::shared_ptr<const DumpSource> Src) {
  const std::string &Name = Src->Name;
  uint64_t Size = Src->Size;
  auto fail = [&](const llvm::Twine &What) -> llvm::Error {
    return createStringError("dump '" + Name + "': " + What);
  };
  char H[sizeof(lwp_dump_header)];
  if (Size < LWP_DUMP_MAGIC_SIZE)
    return fail("not an LWP dump (wrong magic)");
  if (llvm::Error E = Src->read(0, {H, std::min<uint64_t>(Size, sizeof(H))}))
    return std::move(E);
  if (memcmp(H, LWP_DUMP_MAGIC, LWP_DUMP_MAGIC_SIZE) != 0)
    return fail("not an LWP dump (wrong magic)");
  Dump D;
  D.Version = Size >= 12 ? read32le(H + 8) : 0;
  if (D.Version != 1 && D.Version != 2)
    return fail("format version " + llvm::Twine(D.Version) +
                " is not supported (expected 1 or 2)");
  unsigned ExpectedHeader =
      D.Version == 1 ? HeaderSizeV1 : sizeof(lwp_dump_header);
  if (Size < ExpectedHeader)
    return fail("truncated: " + llvm::Twine(Size) +
                " bytes, shorter than the " + llvm::Twine(ExpectedHeader) +
                "-byte header");
  uint32_t HeaderSize = read32le(H + 12);
  D.Target = read16le(H + 16);
  D.Counter = read16le(H + 18);
  D.RecordSize = read32le(H + 20);
  D.CounterHz = read64le(H + 24);
  uint32_t NumIds = read32le(H + 32);
  D.Cap = read32le(H + 36);
  D.Dropped = read64le(H + 40);
  uint32_t NumImages = read32le(H + 48);
  uint32_t NumThreads = read32le(H + 52);
  D.ProbePairCost = read32le(H + 56);
  D.ProbeNestedCost = read32le(H + 60);
  uint32_t NumModules = 0;
  if (D.Version >= 2) {
    NumModules = read32le(H + 64);
    D.Flags = read32le(H + 68);
    D.ProcessId = read64le(H + 72);
  }
  if (HeaderSize != ExpectedHeader)
    return fail("header size " + llvm::Twine(HeaderSize) + " is not " +
                llvm::Twine(ExpectedHeader));
  if (D.RecordSize != sizeof(lwp_record32) &&
      D.RecordSize != sizeof(lwp_record64))
    return fail("record size " + llvm::Twine(D.RecordSize) +
                " is neither 16 nor 24");

  uint64_t Pos = ExpectedHeader;
  auto need = [&](uint64_t Bytes, const llvm::Twine &What) -> llvm::Error {
    if (Bytes > Size - Pos)
      return fail("truncated in " + What + " at offset " + llvm::Twine(Pos) +
                  " (needs " + llvm::Twine(Bytes) + " bytes, " +
                  llvm::Twine(Size - Pos) + " left)");
    return llvm::Error::success();
  };
  for (uint32_t I = 0; I != NumImages; ++I) {
    char IH[sizeof(lwp_dump_image)];
    if (llvm::Error E = need(sizeof(IH), "image " + llvm::Twine(I)))
      return std::move(E);
    if (llvm::Error E = Src->read(Pos, IH))
      return std::move(E);
    uint32_t IdSize = read32le(IH + 8), NameSize = read32le(IH + 12);
    Pos += sizeof(IH);
    uint64_t Payload = llvm::alignTo(uint64_t(IdSize) + NameSize, 8);
    if (llvm::Error E = need(Payload, "image " + llvm::Twine(I)))
      return std::move(E);
    std::string Bytes(IdSize + uint64_t(NameSize), '\0');
    if (llvm::Error E = Src->read(Pos, Bytes))
      return std::move(E);
    DumpImage Img;
    Img.LoadBias = read64le(IH);
    Img.BuildId = Bytes.substr(0, IdSize);
    Img.Name = Bytes.substr(IdSize);
    Pos += Payload;
    D.Images.push_back(std::move(Img));
  }
  if (llvm::Error E = need(uint64_t(NumModules) * sizeof(lwp_dump_module),
                           "the module table"))
    return std::move(E);
  for (uint32_t I = 0; I != NumModules; ++I) {
    char MH[sizeof(lwp_dump_module)];
    if (llvm::Error E = Src->read(Pos, MH))
      return std::move(E);
    DumpModule M;
    M.BlobVaddr = read64le(MH);
    M.Image = read32le(MH + 8);
    M.FirstId = read32le(MH + 12);
    M.NumRegions = read32le(MH + 16);
    if (M.Image >= D.Images.size())
      return fail("module " + llvm::Twine(I) + " names image " +
                  llvm::Twine(M.Image) + " of " + llvm::Twine(D.Images.size()));
    if (uint64_t(M.FirstId) + M.NumRegions > NumIds || M.FirstId == 0)
      return fail("module " + llvm::Twine(I) + " has IDs " +
                  llvm::Twine(M.FirstId) + ".." +
                  llvm::Twine(uint64_t(M.FirstId) + M.NumRegions) +
                  " outside the count table of " + llvm::Twine(NumIds));
    D.Modules.push_back(M);
    Pos += sizeof(MH);
  }
  unsigned RegionSize = D.Version == 1 ? RegionSizeV1 : sizeof(lwp_dump_region);
  if (llvm::Error E =
          need(uint64_t(NumIds) * RegionSize,
               D.Version == 1 ? "the count table" : "the region table"))
    return std::move(E);
  D.Counts.resize(NumIds);
  D.Regions.resize(NumIds);
  {
    // In chunks, so that a large table needs no second copy.
    constexpr uint32_t Chunk = 4096;
    std::vector<char> Bytes;
    for (uint32_t First = 0; First < NumIds; First += Chunk) {
      uint32_t N = std::min(Chunk, NumIds - First);
      Bytes.resize(uint64_t(N) * RegionSize);
      if (llvm::Error E = Src->read(Pos, Bytes))
        return std::move(E);
      for (uint32_t I = 0; I != N; ++I) {
        const char *P = Bytes.data() + uint64_t(I) * RegionSize;
        DumpRegion &R = D.Regions[First + I];
        R.Count = read64le(P);
        if (D.Version >= 2) {
          R.Total = read64le(P + 8);
          R.Self = read64le(P + 16);
          R.Nested = read64le(P + 24);
          R.Children = read64le(P + 32);
          R.Outer = read64le(P + 40);
          R.Unwound = read64le(P + 48);
        }
        D.Counts[First + I] = R.Count;
      }
      Pos += Bytes.size();
    }
  }
  unsigned ThreadSize = D.Version == 1 ? ThreadSizeV1 : sizeof(lwp_dump_thread);
  for (uint32_t I = 0; I != NumThreads; ++I) {
    char TH[sizeof(lwp_dump_thread)];
    if (llvm::Error E = need(ThreadSize, "thread " + llvm::Twine(I)))
      return std::move(E);
    if (llvm::Error E = Src->read(Pos, {TH, ThreadSize}))
      return std::move(E);
    uint64_t ThreadId = read64le(TH), NumRecords = read64le(TH + 8);
    Pos += ThreadSize;
    if (NumRecords > (Size - Pos) / D.RecordSize)
      return fail("truncated in the records of thread " + llvm::Twine(I) +
                  ": " + llvm::Twine(NumRecords) + " records announced, " +
                  llvm::Twine((Size - Pos) / D.RecordSize) + " present");
    D.Threads.emplace_back(ThreadId, NumRecords, D.RecordSize, Src, Pos);
    if (D.Version >= 2) {
      D.Threads.back().TopCycles = read64le(TH + 16);
      D.Threads.back().TopInstances = read64le(TH + 24);
      D.Threads.back().TopNested = read64le(TH + 32);
    }
    Pos += NumRecords * D.RecordSize;
  }
  if (Pos != Size)
    return fail(llvm::Twine(Size - Pos) +
                " bytes after the last thread (corrupt or not a dump of "
                "this version)");
  return D;
}
