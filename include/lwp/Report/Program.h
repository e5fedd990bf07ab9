//===- Program.h - Every image of a profiled process ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Joins a dump with the binaries of the process that wrote it: the
// executable, and every shared object whose modules registered regions. A
// version 2 dump lists its modules (lwp_dump_module): each names its image
// (path, load bias, GNU build ID) and the virtual address of its map blob;
// the program map gives the region of blob entry I the ID FirstId + I. A
// version 1 dump has global IDs and one binary's map.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_REPORT_PROGRAM_H
#define LWP_REPORT_PROGRAM_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Report/Binary.h"
#include "lwp/Report/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace lwp {

/// Where the report looks for the images of a dump.
struct ImageSearch {
  /// Binaries the user named: the executable first, then others (--image).
  /// An image of the dump is matched to one of them by GNU build ID (by
  /// file name when the dump has no build ID).
  std::vector<std::string> Binaries;
  /// Folders where an image that no named binary matches is looked for by
  /// file name (--search-dir), after the path the dump recorded.
  std::vector<std::string> SearchDirs;
};

/// The binaries of one profiled process and its program-wide map.
class Program {
public:
  /// Loads the images of \p D. Version 2: every image that registered a
  /// module is found (see ImageSearch) and each module's blob is read from
  /// its image at the blob's address. Version 1: the first binary's map and
  /// symbols, with the load bias of the dump's image of the same build ID.
  /// Errors (one line): a binary that cannot be read; an image of the dump
  /// that cannot be found (naming it, its build ID and the options to find
  /// it); the executable matches no image of a dump that has build IDs (the
  /// dump was written by another binary); no blob at a module's address, or
  /// one of another size (the binary changed since the run); a blob whose
  /// hash is not the one a version 3 dump's module recorded (the binary was
  /// rebuilt with the same build ID).
  /// Errors name the dump as \p DumpName.
  static llvm::Expected<Program> load(const Dump &D, const ImageSearch &Search,
                                      llvm::StringRef DumpName);

  /// A program of one binary with a given map (a map JSON file, or TVM's
  /// inferred map): sites are symbolized in \p Binary (may be null) after
  /// subtracting \p LoadBias.
  static Program fromMap(InstrumentationMap Map,
                         std::shared_ptr<const ProfiledBinary> Binary,
                         uint64_t LoadBias);

  /// A program of one module's map file \p Map (lwp-instrument map-file=,
  /// module-local IDs) read with dump \p D: a version 2 dump's single module
  /// gives the IDs (first_id + local ID); a version 1 dump the map's own.
  /// Errors (naming \p MapName and \p DumpName): the dump has several
  /// modules, or its module has another number of regions than the map.
  static llvm::Expected<Program> fromMapFile(const Dump &D,
                                             InstrumentationMap Map,
                                             llvm::StringRef MapName,
                                             llvm::StringRef DumpName);

  /// The program-wide map: IDs as in the dump; RegionEntry::Image set when
  /// regions come from more than one image.
  /// Its smallFunctions() adds up the blobs of every image.
  const InstrumentationMap &map() const { return Map; }
  /// Demangles the map's function names for display
  /// (InstrumentationMap::demangleFunctions); before any analysis.
  void demangleFunctions() { Map.demangleFunctions(); }
  /// The executable (first binary), or null.
  const ProfiledBinary *executable() const {
    return Images.empty() ? nullptr : Images.front().Binary.get();
  }
  /// Resolves \p Site, a process address of a probe of region \p Id, in the
  /// image of that region.
  SymbolizedSite symbolize(uint32_t Id, uint64_t Site) const;
  /// Number of images with regions.
  size_t numImages() const { return Images.size(); }
  /// The paths of the binaries loaded, the executable first.
  std::vector<std::string> binaryPaths() const;

private:
  struct Image {
    std::shared_ptr<const ProfiledBinary> Binary;
    uint64_t LoadBias = 0;
  };
  InstrumentationMap Map;
  std::vector<Image> Images;
  /// Image index of each ID range: (first ID, image), sorted.
  std::vector<std::pair<uint32_t, unsigned>> Ranges;
};

} // namespace lwp

#endif // LWP_REPORT_PROGRAM_H
