//===- InputFile.h - Checked opening of input files -------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The one way LWP's tools open a file the user gave them: it must be a
// regular file of bounded size, checked with stat before it is opened, so
// that /dev/zero, a FIFO, a directory or a device ends with one error line
// at once instead of a read that never ends or an open that blocks.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_SUPPORT_INPUTFILE_H
#define LWP_SUPPORT_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace lwp {

/// An input file open for reading; closes it unless released.
class InputFile {
public:
  InputFile(llvm::sys::fs::file_t File, uint64_t Size,
            llvm::sys::fs::UniqueID Id)
      : File(File), Size(Size), Id(Id) {}
  InputFile(InputFile &&Other)
      : File(Other.release()), Size(Other.Size), Id(Other.Id) {}
  InputFile &operator=(InputFile &&) = delete;
  ~InputFile();
  /// The native file handle (still owned).
  llvm::sys::fs::file_t native() const { return File; }
  /// Bytes of the file when it was opened.
  uint64_t size() const { return Size; }
  /// Device and inode: the same for every path to one file.
  llvm::sys::fs::UniqueID uniqueId() const { return Id; }
  /// Hands the handle over to the caller, who closes it.
  llvm::sys::fs::file_t release() {
    llvm::sys::fs::file_t F = File;
    File = llvm::sys::fs::kInvalidFile;
    return F;
  }

private:
  llvm::sys::fs::file_t File;
  uint64_t Size;
  llvm::sys::fs::UniqueID Id;
};

/// Checks, without opening it, that \p Path names (through symbolic links)
/// a regular file of at most \p MaxBytes bytes. \p Role names the input in
/// the error: "dump", "binary", or the option that gave it ("--image").
/// Error (one line): "cannot read ROLE 'PATH': " and why: the error of
/// stat (no such file), not a regular file (a directory, a FIFO, a
/// character or block device, a socket), or larger than \p MaxBytes.
llvm::Error checkInputFile(llvm::StringRef Path, llvm::StringRef Role,
                           uint64_t MaxBytes);

/// Opens \p Path for reading after checkInputFile (so a FIFO or a device is
/// never opened), then checks the open file again (fstat): a regular file
/// of at most \p MaxBytes bytes, the one that was checked. Errors: those of
/// checkInputFile, the open's, "changed while it was opened".
llvm::Expected<InputFile>
openInputFile(llvm::StringRef Path, llvm::StringRef Role, uint64_t MaxBytes);

/// The bytes of \p Path, through openInputFile: the size found then is read
/// (mapped when large), not a byte more. The buffer is named \p Path.
/// Errors: those of openInputFile, and a failed read.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, llvm::StringRef Role, uint64_t MaxBytes);

} // namespace lwp

#endif // LWP_SUPPORT_INPUTFILE_H
