//===- Dump.cpp - Reader of LWP dump files --------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Dump.h"
#include "lwp/Report/Input.h"
#include "lwp/Runtime/DumpFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

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
static_assert(sizeof(lwp_dump_trailer) == 8, "trailer layout");

/// The bytes of a dump: a file read with pread, or a buffer in memory.
class lwp::DumpSource {
public:
  std::string Name;
  uint64_t Size = 0;
  std::unique_ptr<llvm::MemoryBuffer> Buffer; // in memory, else File
  llvm::sys::fs::file_t File = llvm::sys::fs::kInvalidFile;
  std::optional<llvm::sys::fs::UniqueID> Id; // of File

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

  /// Calls \p F on the \p Length bytes at \p Offset (the caller checked
  /// the range): a file's are mapped for the call, without a copy. Error:
  /// the file could not be mapped, or shrank since it was opened.
  llvm::Error view(uint64_t Offset, uint64_t Length,
                   llvm::function_ref<void(StringRef)> F) const {
    if (Buffer || !Length) {
      F(Buffer ? Buffer->getBuffer().substr(Offset, Length) : StringRef());
      return llvm::Error::success();
    }
    const uint64_t Align = llvm::sys::fs::mapped_file_region::alignment();
    uint64_t Base = Offset / Align * Align;
    // A mapping faults past the end of a file that shrank since it was
    // opened: check first.
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(File, Status))
      return createStringError(EC, "dump '%s': %s", Name.c_str(),
                               EC.message().c_str());
    if (Status.getSize() < Offset + Length)
      return createStringError("dump '" + Name +
                               "': the file shrank while it was read");
    std::error_code EC;
    llvm::sys::fs::mapped_file_region Window(
        File, llvm::sys::fs::mapped_file_region::readonly,
        Offset + Length - Base, Base, EC);
    if (EC)
      return createStringError(EC, "dump '%s': cannot map it: %s", Name.c_str(),
                               EC.message().c_str());
    F(StringRef(Window.const_data() + (Offset - Base), Length));
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

llvm::Expected<Dump> Dump::open(StringRef Path, unsigned Threads) {
  llvm::Expected<InputFile> In = openInputFile(Path, "dump", MaxDumpBytes);
  if (!In)
    return In.takeError();
  auto Source = std::make_shared<DumpSource>();
  Source->Name = Path.str();
  Source->Size = In->size();
  Source->Id = In->uniqueId();
  Source->File = In->release();
  return read(std::move(Source), Threads);
}

llvm::Expected<Dump> Dump::parse(std::unique_ptr<llvm::MemoryBuffer> Buf,
                                 unsigned Threads) {
  auto Source = std::make_shared<DumpSource>();
  Source->Name = Buf->getBufferIdentifier().str();
  Source->Size = Buf->getBufferSize();
  Source->Buffer = std::move(Buf);
  return read(std::move(Source), Threads);
}

bool Dump::hasContextTree() const {
  for (const DumpThread &T : Threads)
    if (!T.Nodes.empty())
      return true;
  return false;
}

uint64_t Dump::size() const { return Source ? Source->Size : 0; }

bool Dump::sameFile(const Dump &Other) const {
  return Source && Other.Source && Source->Id && Other.Source->Id &&
         *Source->Id == *Other.Source->Id;
}

llvm::Expected<bool> Dump::sameContents(const Dump &Other) const {
  if (!Source || !Other.Source || size() != Other.size() ||
      Checksum != Other.Checksum)
    return false;
  constexpr uint64_t Chunk = 1 << 20;
  std::vector<char> A(std::min(Chunk, size())), B(A.size());
  for (uint64_t Pos = 0; Pos < size(); Pos += Chunk) {
    uint64_t N = std::min(Chunk, size() - Pos);
    if (llvm::Error E = Source->read(Pos, {A.data(), N}))
      return std::move(E);
    if (llvm::Error E = Other.Source->read(Pos, {B.data(), N}))
      return std::move(E);
    if (memcmp(A.data(), B.data(), N) != 0)
      return false;
  }
  return true;
}

/// The version 3 checksum of the first \p Length bytes of \p Src
/// (LWP_DUMP_CHECKSUM_BLOCK): the blocks are hashed on up to \p Threads
/// threads, each mapping 8 blocks at a time, then their hashes are hashed in
/// order. Error: the file could not be mapped (or shrank).
static llvm::Expected<uint64_t> checksumOf(const DumpSource &Src,
                                           uint64_t Length, unsigned Threads) {
  constexpr uint64_t Block = LWP_DUMP_CHECKSUM_BLOCK;
  uint64_t NumBlocks = llvm::divideCeil(Length, Block);
  std::vector<uint8_t> Hashes(NumBlocks * 8);
  // Blocks [First, End), hashed into Hashes, mapped 8 at a time.
  auto hashBlocks = [&](uint64_t First, uint64_t End) -> llvm::Error {
    for (uint64_t I = First; I < End;) {
      uint64_t N = std::min<uint64_t>(End - I, 8);
      uint64_t Pos = I * Block, Bytes = std::min(N * Block, Length - Pos);
      if (llvm::Error E = Src.view(Pos, Bytes, [&](StringRef Window) {
            for (uint64_t K = 0; K != N; ++K)
              llvm::support::endian::write64le(
                  &Hashes[(I + K) * 8],
                  llvm::xxHash64(Window.substr(K * Block, Block)));
          }))
        return E;
      I += N;
    }
    return llvm::Error::success();
  };
  // A thread hashes 16 blocks (16 MiB) at least.
  uint64_t Parts =
      std::clamp<uint64_t>(NumBlocks / 16, 1, std::max(Threads, 1u));
  if (Parts == 1) {
    if (llvm::Error E = hashBlocks(0, NumBlocks))
      return std::move(E);
  } else {
    std::mutex M;
    llvm::Error First = llvm::Error::success();
    auto part = [&](uint64_t K) {
      llvm::Error E =
          hashBlocks(NumBlocks * K / Parts, NumBlocks * (K + 1) / Parts);
      std::lock_guard<std::mutex> Lock(M);
      if (E && !First)
        First = std::move(E);
      else
        llvm::consumeError(std::move(E));
    };
    std::vector<std::thread> Workers;
    for (uint64_t K = 1; K < Parts; ++K)
      Workers.emplace_back(part, K);
    part(0);
    for (std::thread &W : Workers)
      W.join();
    if (First)
      return std::move(First);
  }
  return llvm::xxHash64(Hashes);
}

uint64_t lwp::dumpChecksum(llvm::ArrayRef<uint8_t> Bytes) {
  DumpSource Src;
  Src.Size = Bytes.size();
  Src.Buffer =
      llvm::MemoryBuffer::getMemBuffer(llvm::toStringRef(Bytes), "",
                                       /*RequiresNullTerminator=*/false);
  return llvm::cantFail(checksumOf(Src, Bytes.size(), 1));
}

/// The offset where the threads of a version 3 dump end, by the sizes its
/// header \p H and its tables declare (image entries, thread headers: a few
/// bytes each, read through a 64 KiB window), within the first \p Size bytes
/// of \p Src (the file without its trailer). std::nullopt: a table or a
/// thread's records run past \p Size, a read failed, or the record size is
/// not one of the format's: the file is cut or damaged, which the checksum
/// says. Used before the checksum, whose cost is the file's size.
static std::optional<uint64_t> declaredEnd(const DumpSource &Src, const char *H,
                                           uint64_t Size) {
  uint32_t RecordSize = read32le(H + 20), NumIds = read32le(H + 32);
  uint32_t NumImages = read32le(H + 48), NumThreads = read32le(H + 52);
  uint32_t NumModules = read32le(H + 64);
  if (RecordSize != sizeof(lwp_record32) && RecordSize != sizeof(lwp_record64))
    return std::nullopt;
  std::vector<char> Window;
  uint64_t WindowPos = 0;
  // The \p N bytes at \p Pos (Pos + N <= Size), from the window.
  auto bytesAt = [&](uint64_t Pos, unsigned N) -> const char * {
    if (Pos < WindowPos || Pos + N > WindowPos + Window.size()) {
      Window.resize(std::min<uint64_t>(64 << 10, Size - Pos));
      WindowPos = Pos;
      if (llvm::Error E = Src.read(Pos, Window)) {
        llvm::consumeError(std::move(E));
        Window.clear();
        return nullptr;
      }
    }
    return Window.data() + (Pos - WindowPos);
  };
  uint64_t Pos = sizeof(lwp_dump_header);
  for (uint32_t I = 0; I != NumImages; ++I) {
    if (sizeof(lwp_dump_image) > Size - Pos)
      return std::nullopt;
    const char *IH = bytesAt(Pos, sizeof(lwp_dump_image));
    if (!IH)
      return std::nullopt;
    Pos += sizeof(lwp_dump_image);
    uint64_t Payload =
        llvm::alignTo(uint64_t(read32le(IH + 8)) + read32le(IH + 12), 8);
    if (Payload > Size - Pos)
      return std::nullopt;
    Pos += Payload;
  }
  uint64_t Tables = uint64_t(NumModules) * sizeof(lwp_dump_module) +
                    uint64_t(NumIds) * sizeof(lwp_dump_region);
  if (Tables > Size - Pos)
    return std::nullopt;
  Pos += Tables;
  for (uint32_t I = 0; I != NumThreads; ++I) {
    if (sizeof(lwp_dump_thread) > Size - Pos)
      return std::nullopt;
    const char *TH = bytesAt(Pos, sizeof(lwp_dump_thread));
    if (!TH)
      return std::nullopt;
    Pos += sizeof(lwp_dump_thread);
    uint64_t NumRecords = read64le(TH + 8);
    if (NumRecords > (Size - Pos) / RecordSize)
      return std::nullopt;
    Pos += NumRecords * RecordSize;
    uint64_t NumNodes = read32le(H + 8) >= 4 ? read64le(TH + 40) : 0;
    if (NumNodes > (Size - Pos) / sizeof(lwp_dump_node))
      return std::nullopt;
    Pos += NumNodes * sizeof(lwp_dump_node);
  }
  return Pos;
}

llvm::Expected<Dump> Dump::read(std::shared_ptr<const DumpSource> Src,
                                unsigned Threads) {
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
  if (D.Version < 1 || D.Version > 4)
    return fail("format version " + llvm::Twine(D.Version) +
                " is not supported (expected 1 to 3)");
  unsigned ExpectedHeader =
      D.Version == 1 ? HeaderSizeV1 : sizeof(lwp_dump_header);
  if (Size < ExpectedHeader)
    return fail("truncated: " + llvm::Twine(Size) +
                " bytes, shorter than the " + llvm::Twine(ExpectedHeader) +
                "-byte header");
  if (D.Version >= 3) {
    // Every byte before the trailer is checked before any is trusted, so
    // that a damaged file is said to be one, whatever its damage.
    if (Size < ExpectedHeader + sizeof(lwp_dump_trailer))
      return fail("truncated: " + llvm::Twine(Size) +
                  " bytes, shorter than the " + llvm::Twine(ExpectedHeader) +
                  "-byte header and the 8-byte checksum");
    Size -= sizeof(lwp_dump_trailer);
    // The sizes first: a file longer than its header and tables account for
    // is refused before the checksum, which would hash every byte of it (a
    // valid dump followed by a 200 GB hole took minutes). A shorter one, or
    // tables that do not fit, are left to the checksum: cut or damaged.
    if (std::optional<uint64_t> End = declaredEnd(*Src, H, Size);
        End && *End < Size)
      return fail(llvm::Twine(Size - *End) +
                  " bytes after the last thread (the file has " +
                  llvm::Twine(Src->Size) + " bytes, its header and tables " +
                  "account for " +
                  llvm::Twine(*End + sizeof(lwp_dump_trailer)) +
                  "): damaged, appended to, or not a dump of this version");
    char T[sizeof(lwp_dump_trailer)];
    if (llvm::Error E = Src->read(Size, T))
      return std::move(E);
    uint64_t Recorded = read64le(T);
    llvm::Expected<uint64_t> Computed = checksumOf(*Src, Size, Threads);
    if (!Computed)
      return Computed.takeError();
    if (*Computed != Recorded)
      return fail(llvm::formatv("checksum mismatch: the file was damaged or "
                                "cut after it was written (its bytes hash to "
                                "{0:x16}, its checksum is {1:x16})",
                                *Computed, Recorded)
                      .str());
    D.Checksum = Recorded;
  }
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
    if (D.Version >= 3)
      M.MapHash = read32le(MH + 20);
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
    uint64_t NumNodes = D.Version >= 4 ? read64le(TH + 40) : 0;
    if (NumNodes > (Size - Pos) / sizeof(lwp_dump_node))
      return fail("truncated in the calling-context tree of thread " +
                  llvm::Twine(I) + ": " + llvm::Twine(NumNodes) +
                  " nodes announced, " +
                  llvm::Twine((Size - Pos) / sizeof(lwp_dump_node)) +
                  " present");
    if (NumNodes) {
      std::vector<char> Bytes(NumNodes * sizeof(lwp_dump_node));
      if (llvm::Error E = Src->read(Pos, Bytes))
        return std::move(E);
      std::vector<DumpNode> &Nodes = D.Threads.back().Nodes;
      Nodes.resize(NumNodes);
      for (uint64_t K = 0; K != NumNodes; ++K) {
        const char *B = Bytes.data() + K * sizeof(lwp_dump_node);
        DumpNode &N = Nodes[K];
        N.Id = read32le(B);
        N.Parent = read32le(B + 4);
        N.Count = read64le(B + 8);
        N.Cycles = read64le(B + 16);
        N.Flags = read32le(B + 24);
        N.Folded = read32le(B + 28);
        bool Root = K == 0;
        if (Root ? N.Id != 0 || N.Parent != 0
                 : N.Parent >= K || N.Id == 0 || N.Id >= NumIds)
          return fail("calling-context node " + llvm::Twine(K) +
                      " of thread " + llvm::Twine(I) +
                      (Root ? " is not a root"
                            : " names a later parent or an unknown region") +
                      " (damaged)");
      }
      Pos += Bytes.size();
    }
  }
  if (Pos != Size)
    return fail(llvm::Twine(Size - Pos) +
                " bytes after the last thread (corrupt or not a dump of "
                "this version)");
  D.Source = std::move(Src);
  return D;
}
