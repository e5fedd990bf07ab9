//===- Binary.h - The profiled binary: symbols and map ----------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Reads what the report needs from an instrumented ELF file (32-bit Hexagon,
// 64-bit x86-64 / AArch64; executables, PIE and shared objects, stripped or
// not) through LLVM Object: the instrumentation map from the lwp_map section,
// the function symbols (.symtab, else .dynsym) to turn probe sites into
// function + offset, and the GNU build ID to match the binary with its dump.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_BINARY_H
#define LWP_REPORT_BINARY_H

#include "lwp/Instrument/InstrumentationMap.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lwp {

/// A function symbol: [Address, Address + Size) in the file's addresses.
struct FunctionSymbol {
  uint64_t Address = 0;
  uint64_t Size = 0;
  std::string Name;
};

/// A site resolved to its function: "name+0x1c".
struct SymbolizedSite {
  const FunctionSymbol *Function = nullptr; ///< null when no symbol covers it
  uint64_t Offset = 0;                      ///< bytes from the function start
};

/// An instrumented ELF binary.
class ProfiledBinary {
public:
  /// Opens \p Path (a regular file of at most MaxBinaryBytes:
  /// lwp/Report/Input.h). Errors (one line, naming the file): unreadable,
  /// not a regular file, too large, not an ELF object, a corrupt lwp_map
  /// section (InstrumentationMap::readSection).
  /// A binary without the section has an empty map.
  static llvm::Expected<ProfiledBinary> open(llvm::StringRef Path);
  /// The same for the ELF image \p Bytes in memory, named \p Path in errors
  /// and by path(). Nothing refers to \p Bytes after the call.
  static llvm::Expected<ProfiledBinary> parse(llvm::MemoryBufferRef Bytes,
                                              llvm::StringRef Path);

  const std::string &path() const { return Path; }
  /// The instrumentation map of every module linked in, numbered as
  /// InstrumentationMap::readSection does (the IDs a dump gives them come
  /// from the runtime: see lwp/Report/Program.h).
  const InstrumentationMap &map() const { return Map; }
  /// True when the file had an lwp_map section.
  bool hasMap() const { return HasMap; }
  /// The map section's blobs, one per module, in section order.
  const std::vector<MapBlob> &blobs() const { return Blobs; }
  /// For each blob (same order): the low 32 bits of the XXH64 of its bytes
  /// before its slots, as a version 3 dump's module records it
  /// (lwp_dump_module.map_hash); 0 for a version 1 blob.
  const std::vector<uint32_t> &mapHashes() const { return MapHashes; }
  /// Virtual address of the map section (0 without one); blob I starts at
  /// mapAddress() + blobs()[I].Offset.
  uint64_t mapAddress() const { return MapAddress; }
  /// Raw GNU build ID bytes; empty when the binary has none.
  const std::string &buildId() const { return BuildId; }
  /// ELF machine (llvm::ELF::EM_*).
  unsigned machine() const { return Machine; }
  /// True for a 64-bit ELF file.
  bool is64Bit() const { return Is64; }
  /// Function symbols sorted by address (zero-sized ones dropped).
  const std::vector<FunctionSymbol> &functions() const { return Functions; }
  /// The function that contains file address \p Address (binary search).
  SymbolizedSite symbolize(uint64_t Address) const;

private:
  std::string Path;
  InstrumentationMap Map;
  std::vector<MapBlob> Blobs;
  std::vector<uint32_t> MapHashes;
  uint64_t MapAddress = 0;
  bool HasMap = false;
  std::string BuildId;
  unsigned Machine = 0;
  bool Is64 = false;
  std::vector<FunctionSymbol> Functions;
};

} // namespace lwp

#endif // LWP_REPORT_BINARY_H
