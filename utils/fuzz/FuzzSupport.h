//===- FuzzSupport.h - Shared pieces of the libFuzzer targets ---*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// What several fuzz targets share: a fixed small map, a writer of small
// dumps, a small ELF image built from YAML, and the whole report path
// (analyze, then every output format) so that a target that gets as far as a
// dump and a map runs everything lwp-report would.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_UTILS_FUZZ_FUZZSUPPORT_H
#define LWP_UTILS_FUZZ_FUZZSUPPORT_H

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Report/Binary.h"
#include "lwp/Report/Dump.h"
#include "lwp/Report/Profile.h"
#include "lwp/Report/Program.h"
#include "lwp/Report/Writers.h"
#include "lwp/Runtime/DumpFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ObjectYAML/yaml2obj.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace lwp::fuzz {

/// The dump of \p Bytes as they are; and when they are a version 3 dump whose
/// checksum does not match (nearly every mutation of one), the same bytes
/// with their checksum made to match, so that mutations also reach the
/// layout checks behind it.
inline llvm::Expected<Dump> parseFuzzDump(llvm::StringRef Bytes) {
  llvm::Expected<Dump> D =
      Dump::parse(llvm::MemoryBuffer::getMemBufferCopy(Bytes, "fuzz"));
  if (D || Bytes.size() < sizeof(lwp_dump_header) + 8 ||
      llvm::support::endian::read32le(Bytes.data() + 8) != 3)
    return D;
  llvm::consumeError(D.takeError());
  std::string Sealed = Bytes.str();
  llvm::support::endian::write64le(
      &Sealed[Sealed.size() - 8],
      dumpChecksum(llvm::arrayRefFromStringRef(Bytes.drop_back(8))));
  return Dump::parse(llvm::MemoryBuffer::getMemBufferCopy(Sealed, "fuzz"));
}

/// IDs 0..7: function f (0) with a nest 1 > 2 > 3, a sibling loop 4,
/// function g (5) with loop 6, function h (7). Dumps of both versions find
/// their IDs in it (version 2 never uses ID 0).
inline const InstrumentationMap &smallMap() {
  static const InstrumentationMap Map = [] {
    InstrumentationMap M;
    struct Row {
      const char *Function;
      int Parent, Depth;
    } Rows[] = {{"f", -1, -1}, {"f", 0, 0},   {"f", 1, 1}, {"f", 2, 2},
                {"f", 0, 0},   {"g", -1, -1}, {"g", 5, 0}, {"h", -1, -1}};
    for (unsigned I = 0; I != 8; ++I) {
      RegionEntry E;
      E.Id = I;
      E.Function = Rows[I].Function;
      E.Kind = Rows[I].Depth < 0 ? RegionKind::Function : RegionKind::Loop;
      if (Rows[I].Parent >= 0)
        E.ParentId = uint32_t(Rows[I].Parent);
      if (Rows[I].Depth >= 0) {
        E.Depth = uint32_t(Rows[I].Depth);
        E.Height = 0;
      }
      E.Loc = {"f.c", I + 1, 1};
      M.add(std::move(E));
    }
    return M;
  }();
  return Map;
}

/// Little-endian bytes of a dump being built.
struct DumpBytes {
  std::string Bytes;
  template <typename T> void put(T V) {
    char B[sizeof(T)];
    llvm::support::endian::write<T, llvm::endianness::little>(B, V);
    Bytes.append(B, sizeof(T));
  }
  /// Header of \p Version (1: 64 bytes, 2: 80 bytes), x86-64, TSC, 24-byte
  /// records, figures flag set in version 2.
  void header(unsigned Version, uint32_t NumIds, uint32_t NumImages,
              uint32_t NumThreads, uint32_t NumModules) {
    Bytes.append(LWP_DUMP_MAGIC, LWP_DUMP_MAGIC_SIZE);
    put<uint32_t>(Version);
    put<uint32_t>(Version == 1 ? 64 : 80);
    put<uint16_t>(LWP_TARGET_X86_64);
    put<uint16_t>(LWP_COUNTER_TSC);
    put<uint32_t>(24);
    put<uint64_t>(2000000000);
    put<uint32_t>(NumIds);
    put<uint32_t>(100); // cap
    put<uint64_t>(0);   // dropped
    put<uint32_t>(NumImages);
    put<uint32_t>(NumThreads);
    put<uint32_t>(10); // probe pair cost
    put<uint32_t>(20); // nested cost
    if (Version >= 2) {
      put<uint32_t>(NumModules);
      put<uint32_t>(LWP_DUMP_FLAG_FIGURES);
      put<uint64_t>(1234);
    }
  }
  void image(uint64_t Bias, llvm::StringRef BuildId, llvm::StringRef Name) {
    put<uint64_t>(Bias);
    put<uint32_t>(uint32_t(BuildId.size()));
    put<uint32_t>(uint32_t(Name.size()));
    Bytes += BuildId;
    Bytes += Name;
    Bytes.append((8 - (BuildId.size() + Name.size()) % 8) % 8, '\0');
  }
};

/// A small x86-64 executable: f at 0x1000 (0x100 bytes), g at 0x1100, h at
/// 0x1200, no map section, build ID 0xabcd.
inline const ProfiledBinary &smallBinary() {
  static const ProfiledBinary B = [] {
    static const char Yaml[] = R"(--- !ELF
FileHeader:
  Class: ELFCLASS64
  Data:  ELFDATA2LSB
  Type:  ET_EXEC
  Machine: EM_X86_64
Sections:
  - Name: .text
    Type: SHT_PROGBITS
    Flags: [ SHF_ALLOC, SHF_EXECINSTR ]
    Address: 0x1000
    Size: 0x300
  - Name: .note.gnu.build-id
    Type: SHT_NOTE
    AddressAlign: 4
    Notes:
      - Name: GNU
        Desc: abcd
        Type: NT_GNU_BUILD_ID
Symbols:
  - { Name: f, Type: STT_FUNC, Section: .text, Value: 0x1000, Size: 0x100 }
  - { Name: g, Type: STT_FUNC, Section: .text, Value: 0x1100, Size: 0x100 }
  - { Name: h, Type: STT_FUNC, Section: .text, Value: 0x1200, Size: 0x100 }
...
)";
    std::string Elf;
    llvm::raw_string_ostream OS(Elf);
    llvm::yaml::Input In(Yaml);
    if (!llvm::yaml::convertYAML(In, OS, [](const llvm::Twine &) {}))
      abort();
    llvm::Expected<ProfiledBinary> P = ProfiledBinary::parse(
        llvm::MemoryBufferRef(Elf, "small.elf"), "small.elf");
    if (!P)
      abort();
    return std::move(*P);
  }();
  return B;
}

/// Runs the report on \p D with \p Prog's map: the analysis with and without
/// overhead correction, then every output format (table, tree, CSV, JSON,
/// Chrome trace, folded, diff, operator summary), written to a string that
/// is thrown away.
/// Equal within the rounding of sums taken in another order.
inline bool nearlyEqual(double A, double B) {
  return A == B ||
         std::fabs(A - B) <= 1e-9 * std::max(std::fabs(A), std::fabs(B));
}

/// The analysis on one thread and on several (parts of at least
/// PartRecords records, which the fuzz build makes 2): counts, cycles,
/// self, min, max and the top-level figures must agree (docs/report.md,
/// "Large dumps"); a difference aborts.
inline void checkParallelWalk(const Dump &D, const Program &Prog) {
  ProfileOptions One, Several;
  Several.Threads = 4;
  llvm::Expected<Profile> A = analyze(D, Prog.map(), One);
  llvm::Expected<Profile> B = analyze(D, Prog.map(), Several);
  if (!A || !B) {
    if (bool(A) != bool(B))
      __builtin_trap();
    if (!A)
      llvm::consumeError(A.takeError());
    if (!B)
      llvm::consumeError(B.takeError());
    return;
  }
  if (A->Regions.size() != B->Regions.size() ||
      !nearlyEqual(A->TopLevelCycles, B->TopLevelCycles) ||
      A->RepairedInstances != B->RepairedInstances ||
      A->UnmatchedEnds != B->UnmatchedEnds ||
      A->UnwoundInstances != B->UnwoundInstances)
    __builtin_trap();
  for (size_t I = 0; I != A->Regions.size(); ++I) {
    const RegionProfile &X = A->Regions[I], &Y = B->Regions[I];
    if (X.Id != Y.Id || X.Count != Y.Count || X.Samples != Y.Samples ||
        X.Repaired != Y.Repaired || X.SampledCycles != Y.SampledCycles ||
        !nearlyEqual(X.TotalCycles, Y.TotalCycles) ||
        !nearlyEqual(X.SelfCycles, Y.SelfCycles) || X.Unwound != Y.Unwound ||
        X.Min != Y.Min || X.Max != Y.Max || X.StartSite != Y.StartSite ||
        X.EndSite != Y.EndSite)
      __builtin_trap();
  }
}

inline void reportEverything(const Dump &D, const Program &Prog) {
  checkParallelWalk(D, Prog);
  static const llvm::Regex Filter("^[fg]");
  for (bool Correction : {true, false}) {
    InstanceLog Log;
    ProfileOptions Options;
    Options.OverheadCorrection = Correction;
    auto AddInstance = [&](const InstanceEvent &E) { Log.add(E); };
    Options.OnInstance = AddInstance;
    llvm::Expected<Profile> P = analyze(D, Prog.map(), Options);
    if (!P) {
      llvm::consumeError(P.takeError());
      return;
    }
    ReportInput In{D, *P, &Prog, "fuzz.dump", "fuzz.map"};
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    for (SortKey Sort :
         {SortKey::Cycles, SortKey::Self, SortKey::Count, SortKey::Id}) {
      RowOptions Rows;
      Rows.Sort = Sort;
      writeTable(OS, In, Rows);
      Rows.Tree = true;
      Rows.Top = 3;
      Rows.Function = &Filter;
      writeTable(OS, In, Rows);
    }
    RowOptions Rows;
    writeCSV(OS, In, Rows);
    writeJSON(OS, In, Rows);
    writeDiffTable(OS, In, In, Rows);
    Log.writeChromeTrace(OS, In);
    Log.writeFolded(OS, In);
    for (int Format = 0; Format != 3; ++Format)
      writeOperatorSummary(OS, In, Format == 1, Format == 2);
  }
}

} // namespace lwp::fuzz

#endif // LWP_UTILS_FUZZ_FUZZSUPPORT_H
