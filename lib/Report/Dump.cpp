//===- Dump.cpp - Reader of LWP dump files --------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Dump.h"
#include "lwp/Runtime/DumpFormat.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

using namespace lwp;
using llvm::createStringError;
using llvm::StringRef;
using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

static_assert(sizeof(lwp_dump_header) == 64, "header layout");
static_assert(sizeof(lwp_dump_image) == 16, "image layout");
static_assert(sizeof(lwp_dump_thread) == 16, "thread layout");
static_assert(sizeof(lwp_record32) == 16 && sizeof(lwp_record64) == 24,
              "record layout");

DumpRecord DumpThread::record(uint64_t I) const {
  const char *P = Bytes.data() + I * RecordSize;
  DumpRecord R;
  uint32_t Word;
  if (RecordSize == sizeof(lwp_record32)) {
    R.Site = read32le(P);
    Word = read32le(P + 4);
    R.Cycles = read64le(P + 8);
  } else {
    R.Site = read64le(P);
    Word = read32le(P + 8);
    R.Cycles = read64le(P + 16);
  }
  R.Id = Word & LWP_ID_MASK;
  R.IsEnd = Word & LWP_ID_END_BIT;
  return R;
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
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read dump '%s': %s",
                             Path.str().c_str(),
                             Buffer.getError().message().c_str());
  return parse(std::move(*Buffer));
}

llvm::Expected<Dump> Dump::parse(std::unique_ptr<llvm::MemoryBuffer> Buf) {
  std::string Name = Buf->getBufferIdentifier().str();
  StringRef Bytes = Buf->getBuffer();
  auto fail = [&](const llvm::Twine &What) -> llvm::Error {
    return createStringError("dump '" + Name + "': " + What);
  };
  if (Bytes.size() < LWP_DUMP_MAGIC_SIZE ||
      memcmp(Bytes.data(), LWP_DUMP_MAGIC, LWP_DUMP_MAGIC_SIZE) != 0)
    return fail("not an LWP dump (wrong magic)");
  if (Bytes.size() < sizeof(lwp_dump_header))
    return fail("truncated: " + llvm::Twine(Bytes.size()) +
                " bytes, shorter than the 64-byte header");
  const char *H = Bytes.data();
  Dump D;
  D.Version = read32le(H + 8);
  if (D.Version != LWP_DUMP_VERSION)
    return fail("format version " + llvm::Twine(D.Version) +
                " is not supported (expected " + llvm::Twine(LWP_DUMP_VERSION) +
                ")");
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
  if (HeaderSize != sizeof(lwp_dump_header))
    return fail("header size " + llvm::Twine(HeaderSize) + " is not 64");
  if (D.RecordSize != sizeof(lwp_record32) &&
      D.RecordSize != sizeof(lwp_record64))
    return fail("record size " + llvm::Twine(D.RecordSize) +
                " is neither 16 nor 24");

  uint64_t Pos = sizeof(lwp_dump_header);
  auto need = [&](uint64_t Size, const llvm::Twine &What) -> llvm::Error {
    if (Size > Bytes.size() - Pos)
      return fail("truncated in " + What + " at offset " + llvm::Twine(Pos) +
                  " (needs " + llvm::Twine(Size) + " bytes, " +
                  llvm::Twine(Bytes.size() - Pos) + " left)");
    return llvm::Error::success();
  };
  for (uint32_t I = 0; I != NumImages; ++I) {
    if (llvm::Error E = need(sizeof(lwp_dump_image), "image " + llvm::Twine(I)))
      return std::move(E);
    uint32_t IdSize = read32le(H + Pos + 8), NameSize = read32le(H + Pos + 12);
    DumpImage Img;
    Img.LoadBias = read64le(H + Pos);
    Pos += sizeof(lwp_dump_image);
    uint64_t Payload = llvm::alignTo(uint64_t(IdSize) + NameSize, 8);
    if (llvm::Error E = need(Payload, "image " + llvm::Twine(I)))
      return std::move(E);
    Img.BuildId = Bytes.substr(Pos, IdSize).str();
    Img.Name = Bytes.substr(Pos + IdSize, NameSize).str();
    Pos += Payload;
    D.Images.push_back(std::move(Img));
  }
  if (llvm::Error E = need(uint64_t(NumIds) * 8, "the count table"))
    return std::move(E);
  D.Counts.resize(NumIds);
  for (uint32_t I = 0; I != NumIds; ++I)
    D.Counts[I] = read64le(H + Pos + 8 * uint64_t(I));
  Pos += uint64_t(NumIds) * 8;
  for (uint32_t I = 0; I != NumThreads; ++I) {
    if (llvm::Error E =
            need(sizeof(lwp_dump_thread), "thread " + llvm::Twine(I)))
      return std::move(E);
    uint64_t ThreadId = read64le(H + Pos), NumRecords = read64le(H + Pos + 8);
    Pos += sizeof(lwp_dump_thread);
    if (NumRecords > (Bytes.size() - Pos) / D.RecordSize)
      return fail("truncated in the records of thread " + llvm::Twine(I) +
                  ": " + llvm::Twine(NumRecords) + " records announced, " +
                  llvm::Twine((Bytes.size() - Pos) / D.RecordSize) +
                  " present");
    uint64_t Size = NumRecords * D.RecordSize;
    D.Threads.emplace_back(ThreadId, Bytes.substr(Pos, Size), D.RecordSize);
    Pos += Size;
  }
  if (Pos != Bytes.size())
    return fail(llvm::Twine(Bytes.size() - Pos) +
                " bytes after the last thread (corrupt or not a dump of "
                "this version)");
  D.Buffer = std::move(Buf);
  return D;
}
