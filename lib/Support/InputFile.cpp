//===- InputFile.cpp - Checked opening of input files ---------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Support/InputFile.h"

#include "llvm/Support/FormatVariadic.h"

#include <iterator>

using namespace lwp;
using namespace llvm;
namespace fs = llvm::sys::fs;

InputFile::~InputFile() {
  if (File != fs::kInvalidFile)
    fs::closeFile(File);
}

/// What a file that is not a regular one is, for messages.
static StringRef describe(fs::file_type Type) {
  switch (Type) {
  case fs::file_type::directory_file:
    return "a directory";
  case fs::file_type::fifo_file:
    return "a FIFO";
  case fs::file_type::character_file:
    return "a character device";
  case fs::file_type::block_file:
    return "a block device";
  case fs::file_type::socket_file:
    return "a socket";
  default:
    return "of an unknown type";
  }
}

/// "16 GiB", "1 TiB", "12 bytes".
static std::string formatLimit(uint64_t Bytes) {
  static const char *Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  unsigned Unit = 0;
  while (Unit + 1 < std::size(Units) && Bytes >= 1024 && Bytes % 1024 == 0) {
    Bytes /= 1024;
    ++Unit;
  }
  return formatv("{0} {1}", Bytes, Units[Unit]).str();
}

/// The check of checkInputFile on a status.
static Error checkStatus(const fs::file_status &Status, StringRef Path,
                         StringRef Role, uint64_t MaxBytes) {
  if (Status.type() != fs::file_type::regular_file)
    return createStringError("cannot read %s '%s': not a regular file (%s)",
                             Role.str().c_str(), Path.str().c_str(),
                             describe(Status.type()).data());
  if (Status.getSize() > MaxBytes)
    return createStringError(
        "cannot read %s '%s': %llu bytes, above the limit of %s",
        Role.str().c_str(), Path.str().c_str(),
        static_cast<unsigned long long>(Status.getSize()),
        formatLimit(MaxBytes).c_str());
  return Error::success();
}

static Error statFailed(std::error_code EC, StringRef Path, StringRef Role) {
  return createStringError(EC, "cannot read %s '%s': %s", Role.str().c_str(),
                           Path.str().c_str(), EC.message().c_str());
}

Error lwp::checkInputFile(StringRef Path, StringRef Role, uint64_t MaxBytes) {
  fs::file_status Status;
  if (std::error_code EC = fs::status(Path, Status, /*Follow=*/true))
    return statFailed(EC, Path, Role);
  return checkStatus(Status, Path, Role, MaxBytes);
}

Expected<InputFile> lwp::openInputFile(StringRef Path, StringRef Role,
                                       uint64_t MaxBytes) {
  fs::file_status Before;
  if (std::error_code EC = fs::status(Path, Before, /*Follow=*/true))
    return statFailed(EC, Path, Role);
  if (Error E = checkStatus(Before, Path, Role, MaxBytes))
    return std::move(E);
  Expected<fs::file_t> File = fs::openNativeFileForRead(Path);
  if (!File)
    return statFailed(errorToErrorCode(File.takeError()), Path, Role);
  fs::file_status After;
  if (std::error_code EC = fs::status(*File, After)) {
    fs::closeFile(*File);
    return statFailed(EC, Path, Role);
  }
  InputFile In(*File, After.getSize(), After.getUniqueID());
  if (Error E = checkStatus(After, Path, Role, MaxBytes))
    return std::move(E);
  if (After.getUniqueID() != Before.getUniqueID())
    return createStringError("cannot read %s '%s': it changed while it was "
                             "opened",
                             Role.str().c_str(), Path.str().c_str());
  return std::move(In);
}

Expected<std::unique_ptr<MemoryBuffer>>
lwp::readInputFile(StringRef Path, StringRef Role, uint64_t MaxBytes) {
  Expected<InputFile> In = openInputFile(Path, Role, MaxBytes);
  if (!In)
    return In.takeError();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getOpenFile(In->native(), Path, In->size(),
                                /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return statFailed(Buffer.getError(), Path, Role);
  return std::move(*Buffer);
}
