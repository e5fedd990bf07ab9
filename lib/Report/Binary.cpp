//===- Binary.cpp - The profiled binary: symbols and map ------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Binary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"

using namespace lwp;
using namespace llvm;
using namespace llvm::object;

/// The GNU build ID of \p Obj, from its SHT_NOTE sections.
template <class ELFT>
static std::string readBuildId(const ELFObjectFile<ELFT> &Obj) {
  const ELFFile<ELFT> &File = Obj.getELFFile();
  auto Sections = File.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return {};
  }
  for (const typename ELFT::Shdr &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_NOTE)
      continue;
    Error Err = Error::success();
    for (const typename ELFT::Note &Note : File.notes(Sec, Err))
      if (Note.getType() == ELF::NT_GNU_BUILD_ID && Note.getName() == "GNU") {
        ArrayRef<uint8_t> Desc = Note.getDesc(Sec.sh_addralign);
        consumeError(std::move(Err));
        return std::string(Desc.begin(), Desc.end());
      }
    consumeError(std::move(Err));
  }
  return {};
}

static std::string readBuildId(const ObjectFile &Obj) {
  if (auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return readBuildId(*O);
  if (auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return readBuildId(*O);
  return {};
}

Expected<ProfiledBinary> ProfiledBinary::open(StringRef Path) {
  auto fail = [&](const Twine &What) -> Error {
    return createStringError("binary '" + Path + "': " + What);
  };
  Expected<OwningBinary<Binary>> Owning = createBinary(Path);
  if (!Owning)
    return fail(toString(Owning.takeError()));
  auto *Obj = dyn_cast<ELFObjectFileBase>(Owning->getBinary());
  if (!Obj)
    return fail("not an ELF file");
  ProfiledBinary B;
  B.Path = Path.str();
  B.Machine = Obj->getEMachine();
  B.Is64 = Obj->getBytesInAddress() == 8;
  B.BuildId = readBuildId(*Obj);

  for (const SectionRef &Sec : Obj->sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != InstrumentationMapSection)
      continue;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents)
      return fail("cannot read section " + *Name + ": " +
                  toString(Contents.takeError()));
    Expected<InstrumentationMap> Map =
        InstrumentationMap::readSection(*Contents);
    if (!Map)
      return fail(toString(Map.takeError()));
    Expected<std::vector<MapBlob>> Blobs =
        InstrumentationMap::readBlobs(*Contents);
    if (!Blobs)
      return fail(toString(Blobs.takeError()));
    B.Map = std::move(*Map);
    B.Blobs = std::move(*Blobs);
    B.MapAddress = Sec.getAddress();
    B.HasMap = true;
  }

  auto addSymbols = [&](auto Symbols) {
    for (const ELFSymbolRef &Sym : Symbols) {
      if (Sym.getELFType() != ELF::STT_FUNC || !Sym.getSize())
        continue;
      Expected<StringRef> Name = Sym.getName();
      Expected<uint64_t> Addr = Sym.getAddress();
      if (!Name || !Addr) {
        consumeError(Name.takeError());
        consumeError(Addr.takeError());
        continue;
      }
      B.Functions.push_back({*Addr, Sym.getSize(), Name->str()});
    }
  };
  addSymbols(Obj->symbols());
  if (B.Functions.empty())
    addSymbols(Obj->getDynamicSymbolIterators());
  llvm::sort(B.Functions, [](const FunctionSymbol &A, const FunctionSymbol &C) {
    return std::tie(A.Address, A.Name) < std::tie(C.Address, C.Name);
  });
  B.Functions.erase(
      std::unique(B.Functions.begin(), B.Functions.end(),
                  [](const FunctionSymbol &A, const FunctionSymbol &C) {
                    return A.Address == C.Address;
                  }),
      B.Functions.end());
  return B;
}

SymbolizedSite ProfiledBinary::symbolize(uint64_t Address) const {
  auto It = llvm::upper_bound(
      Functions, Address,
      [](uint64_t A, const FunctionSymbol &F) { return A < F.Address; });
  if (It == Functions.begin())
    return {};
  --It;
  if (Address >= It->Address + It->Size)
    return {};
  return {&*It, Address - It->Address};
}
