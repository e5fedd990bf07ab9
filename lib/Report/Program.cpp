//===- Program.cpp - Every image of a profiled process --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Program.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace lwp;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace {
using BinaryPtr = std::shared_ptr<const ProfiledBinary>;

/// Opens binaries once each, by path.
class BinaryCache {
public:
  Expected<BinaryPtr> open(StringRef Path) {
    for (const BinaryPtr &B : Opened)
      if (B->path() == Path)
        return B;
    Expected<ProfiledBinary> B = ProfiledBinary::open(Path);
    if (!B)
      return B.takeError();
    Opened.push_back(std::make_shared<ProfiledBinary>(std::move(*B)));
    return Opened.back();
  }

private:
  std::vector<BinaryPtr> Opened;
};
} // namespace

/// The load bias of \p B in dump \p D: that of the dump's image with the
/// binary's build ID (else with its file name; else 0). Error: the dump has
/// build IDs but none is the binary's, so it was not written by it.
static Expected<uint64_t> findLoadBias(const ProfiledBinary &B, const Dump &D,
                                       StringRef DumpName) {
  if (!B.buildId().empty()) {
    for (const DumpImage &I : D.images())
      if (I.BuildId == B.buildId())
        return I.LoadBias;
    if (llvm::any_of(D.images(),
                     [](const DumpImage &I) { return !I.BuildId.empty(); }))
      return createStringError("dump '" + DumpName +
                               "' was not written by binary '" + B.path() +
                               "' (no image of the dump has the binary's "
                               "build ID)");
  }
  for (const DumpImage &I : D.images())
    if (llvm::sys::path::filename(I.Name) ==
        llvm::sys::path::filename(B.path()))
      return I.LoadBias;
  return 0;
}

/// True when binary \p B is image \p I of a dump: same build ID, or (when
/// either has none) the same file name.
static bool isImage(const ProfiledBinary &B, const DumpImage &I) {
  if (!I.BuildId.empty() && !B.buildId().empty())
    return I.BuildId == B.buildId();
  return llvm::sys::path::filename(I.Name) ==
         llvm::sys::path::filename(B.path());
}

static std::string hexBytes(StringRef Bytes) {
  return Bytes.empty() ? "none" : llvm::toHex(Bytes, /*LowerCase=*/true);
}

Program Program::fromMap(InstrumentationMap Map,
                         std::shared_ptr<const ProfiledBinary> Binary,
                         uint64_t LoadBias) {
  Program P;
  P.Map = std::move(Map);
  if (Binary)
    P.Images.push_back({std::move(Binary), LoadBias});
  P.Ranges.push_back({0, 0});
  return P;
}

Expected<Program> Program::fromMapFile(const Dump &D, InstrumentationMap Map,
                                       StringRef MapName, StringRef DumpName) {
  llvm::ArrayRef<DumpModule> Modules = D.modules();
  if (Modules.size() > 1)
    return createStringError("map '" + MapName +
                             "' holds one module's regions, but dump '" +
                             DumpName + "' has " + Twine(Modules.size()) +
                             " modules: give the binary instead of "
                             "--map-json");
  if (Modules.size() == 1) {
    if (Map.size() != Modules[0].NumRegions)
      return createStringError(
          "map '" + MapName + "' has " + Twine(Map.size()) +
          " regions, the dump's module " + Twine(Modules[0].NumRegions) +
          ": the map is not the one of the program that ran");
    InstrumentationMap Rebased;
    Rebased.setSmallFunctions(Map.instructionThreshold(), Map.smallFunctions());
    for (RegionEntry E : Map.entries()) {
      E.rebase(Modules[0].FirstId);
      Rebased.add(std::move(E));
    }
    Map = std::move(Rebased);
  }
  return fromMap(std::move(Map), nullptr, 0);
}

Expected<Program> Program::load(const Dump &D, const ImageSearch &Search,
                                StringRef DumpName) {
  BinaryCache Cache;
  std::vector<BinaryPtr> Given;
  for (const std::string &Path : Search.Binaries) {
    Expected<BinaryPtr> B = Cache.open(Path);
    if (!B)
      return B.takeError();
    Given.push_back(*B);
  }
  if (Given.empty())
    return createStringError("no binary given");
  const BinaryPtr &Exe = Given.front();

  if (D.version() < 2) {
    Expected<uint64_t> Bias = findLoadBias(*Exe, D, DumpName);
    if (!Bias)
      return Bias.takeError();
    return fromMap(Exe->map(), Exe, *Bias);
  }

  // The executable is one of the dump's images (the runtime lists it first).
  if (llvm::none_of(D.images(),
                    [&](const DumpImage &I) { return isImage(*Exe, I); }))
    return createStringError(
        "dump '" + DumpName + "' was not written by binary '" + Exe->path() +
        "' (no image of the dump has the binary's "
        "build ID" +
        (Exe->buildId().empty() ? " or file name" : "") + ")");

  // The binary of each image that has modules.
  std::vector<int> ImageIndex(D.images().size(), -1);
  Program P;
  // Copies of one library have one build ID: a named binary of the same
  // file name wins, then the recorded path, then any named binary of that
  // build ID, then the search folders.
  auto sameName = [](const ProfiledBinary &B, const DumpImage &I) {
    return llvm::sys::path::filename(I.Name) ==
           llvm::sys::path::filename(B.path());
  };
  auto findImage = [&](const DumpImage &I) -> Expected<BinaryPtr> {
    for (const BinaryPtr &B : Given)
      if (isImage(*B, I) && sameName(*B, I))
        return B;
    if (llvm::sys::fs::exists(I.Name)) {
      if (Expected<BinaryPtr> B = Cache.open(I.Name); !B)
        llvm::consumeError(B.takeError());
      else if (isImage(**B, I))
        return *B;
    }
    for (const BinaryPtr &B : Given)
      if (isImage(*B, I))
        return B;
    std::vector<std::string> Candidates = {I.Name};
    for (const std::string &Dir : Search.SearchDirs) {
      llvm::SmallString<256> Path(Dir);
      llvm::sys::path::append(Path, llvm::sys::path::filename(I.Name));
      Candidates.push_back(std::string(Path));
    }
    std::string Mismatch;
    for (const std::string &Path : Candidates) {
      if (!llvm::sys::fs::exists(Path))
        continue;
      Expected<BinaryPtr> B = Cache.open(Path);
      if (!B) {
        llvm::consumeError(B.takeError());
        continue;
      }
      if (isImage(**B, I))
        return *B;
      if (Mismatch.empty())
        Mismatch = " ('" + Path + "' has build ID " +
                   hexBytes((*B)->buildId()) + ": rebuilt since the run?)";
    }
    return createStringError(
        "dump '%s': cannot find image '%s' (build ID %s)%s; give it as "
        "--image=PATH, or its folder as --search-dir=DIR",
        DumpName.str().c_str(), I.Name.c_str(), hexBytes(I.BuildId).c_str(),
        Mismatch.c_str());
  };

  std::vector<RegionEntry> Entries;
  for (auto [ModuleIndex, M] : llvm::enumerate(D.modules())) {
    if (ImageIndex[M.Image] < 0) {
      Expected<BinaryPtr> B = findImage(D.images()[M.Image]);
      if (!B)
        return B.takeError();
      ImageIndex[M.Image] = P.Images.size();
      P.Images.push_back({*B, D.images()[M.Image].LoadBias});
    }
    unsigned Index = ImageIndex[M.Image];
    const ProfiledBinary &B = *P.Images[Index].Binary;
    const MapBlob *Blob = nullptr;
    for (const MapBlob &Candidate : B.blobs())
      if (B.mapAddress() + Candidate.Offset == M.BlobVaddr)
        Blob = &Candidate;
    if (!Blob || Blob->Version < 2 || Blob->Entries.size() != M.NumRegions)
      return createStringError(
          "dump '%s': binary '%s' has no map blob of %u regions at address "
          "0x%llx, where the dump's module %zu is (the binary changed since "
          "the run, or is not the one that ran)",
          DumpName.str().c_str(), B.path().c_str(), M.NumRegions,
          static_cast<unsigned long long>(M.BlobVaddr), ModuleIndex);
    // A version 3 dump may say which map the module had: a binary rebuilt
    // with the same build ID, a blob of the same size at the same address
    // and another map is told by it.
    if (M.MapHash && M.MapHash != B.mapHashes()[Blob - B.blobs().data()])
      return createStringError(
          "dump '%s': binary '%s' has another map at address 0x%llx than "
          "the dump's module %zu ran with (its hash is %08x, the dump's "
          "%08x): the binary was rebuilt since the run",
          DumpName.str().c_str(), B.path().c_str(),
          static_cast<unsigned long long>(M.BlobVaddr), ModuleIndex,
          B.mapHashes()[Blob - B.blobs().data()], M.MapHash);
    for (RegionEntry E : Blob->Entries) {
      E.rebase(M.FirstId);
      Entries.push_back(std::move(E));
      P.Ranges.push_back({Entries.back().Id, Index});
    }
  }
  if (P.Images.empty()) {
    Expected<uint64_t> Bias = findLoadBias(*Exe, D, DumpName);
    if (!Bias)
      return Bias.takeError();
    P.Images.push_back({Exe, *Bias});
  }
  bool Several = P.Images.size() > 1;
  llvm::sort(P.Ranges);
  llvm::sort(Entries, [](const RegionEntry &A, const RegionEntry &B) {
    return A.Id < B.Id;
  });
  for (RegionEntry &E : Entries) {
    if (Several) {
      auto It = llvm::partition_point(
          P.Ranges, [&](const auto &R) { return R.first < E.Id; });
      assert(It != P.Ranges.end() && It->first == E.Id);
      E.Image =
          llvm::sys::path::filename(P.Images[It->second].Binary->path()).str();
    }
    P.Map.add(std::move(E));
  }
  // What -lwp-instruction-threshold left out, from every blob of every image
  // (a module without regions has a blob that no dump module names).
  for (const Image &I : P.Images)
    for (const MapBlob &Blob : I.Binary->blobs())
      P.Map.addSmallFunctions(Blob.InstructionThreshold, Blob.SmallFunctions);
  return P;
}

std::vector<std::string> Program::binaryPaths() const {
  std::vector<std::string> Paths;
  for (const Image &I : Images)
    Paths.push_back(I.Binary->path());
  return Paths;
}

SymbolizedSite Program::symbolize(uint32_t Id, uint64_t Site) const {
  if (Images.empty())
    return {};
  unsigned Index = 0;
  auto It = llvm::partition_point(Ranges,
                                  [&](const auto &R) { return R.first <= Id; });
  if (It != Ranges.begin())
    Index = std::prev(It)->second;
  const Image &I = Images[Index];
  return I.Binary->symbolize(Site - I.LoadBias);
}
