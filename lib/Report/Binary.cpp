//===- Binary.cpp - The profiled binary: symbols and map ------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Binary.h"
#include "lwp/Report/Input.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

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

/// The function symbols (STT_FUNC, non-zero size) of \p Obj's .symtab, else
/// of its .dynsym, read through ELFFile's checked API: a corrupt symbol table
/// is an error, never a fatal one (ELFSymbolRef's accessors abort).
template <class ELFT>
static Error readFunctions(const ELFObjectFile<ELFT> &Obj,
                           std::vector<FunctionSymbol> &Out) {
  const ELFFile<ELFT> &File = Obj.getELFFile();
  auto Sections = File.sections();
  if (!Sections)
    return Sections.takeError();
  for (unsigned Type : {ELF::SHT_SYMTAB, ELF::SHT_DYNSYM}) {
    for (const typename ELFT::Shdr &Sec : *Sections) {
      if (Sec.sh_type != Type)
        continue;
      auto Symbols = File.symbols(&Sec);
      if (!Symbols)
        return Symbols.takeError();
      Expected<StringRef> Strings = File.getStringTableForSymtab(Sec);
      if (!Strings)
        return Strings.takeError();
      for (const typename ELFT::Sym &Sym : *Symbols) {
        if (Sym.getType() != ELF::STT_FUNC || !Sym.st_size)
          continue;
        Expected<StringRef> Name = Sym.getName(*Strings);
        if (!Name) { // one bad name: skip the symbol
          consumeError(Name.takeError());
          continue;
        }
        Out.push_back(
            {uint64_t(Sym.st_value), uint64_t(Sym.st_size), Name->str()});
      }
    }
    if (!Out.empty())
      break;
  }
  return Error::success();
}

static Error readFunctions(const ObjectFile &Obj,
                           std::vector<FunctionSymbol> &Out) {
  if (auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return readFunctions(*O, Out);
  if (auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return readFunctions(*O, Out);
  if (auto *O = dyn_cast<ELF32BEObjectFile>(&Obj))
    return readFunctions(*O, Out);
  if (auto *O = dyn_cast<ELF64BEObjectFile>(&Obj))
    return readFunctions(*O, Out);
  return Error::success();
}

static std::string readBuildId(const ObjectFile &Obj) {
  if (auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return readBuildId(*O);
  if (auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return readBuildId(*O);
  return {};
}

Expected<ProfiledBinary> ProfiledBinary::open(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer =
      readInputFile(Path, "binary", MaxBinaryBytes);
  if (!Buffer)
    return Buffer.takeError();
  return parse(**Buffer, Path);
}

Expected<ProfiledBinary> ProfiledBinary::parse(MemoryBufferRef Bytes,
                                               StringRef Path) {
  auto fail = [&](const Twine &What) -> Error {
    return createStringError("binary '" + Path + "': " + What);
  };
  Expected<std::unique_ptr<Binary>> Owning = createBinary(Bytes);
  if (!Owning)
    return fail(toString(Owning.takeError()));
  auto *Obj = dyn_cast<ELFObjectFileBase>(Owning->get());
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
    B.MapHashes.clear();
    for (const MapBlob &Blob : B.Blobs) {
      // What a runtime hashes: the blob before its slots (readBlobs checked
      // that they lie in the section).
      StringRef Bytes = Contents->substr(Blob.Offset, Blob.SlotsOffset);
      B.MapHashes.push_back(
          Blob.Version >= 2 && Bytes.size() == Blob.SlotsOffset
              ? uint32_t(xxHash64(arrayRefFromStringRef(Bytes)))
              : 0);
    }
    B.MapAddress = Sec.getAddress();
    B.HasMap = true;
  }

  if (Error E = readFunctions(*Obj, B.Functions))
    return fail(toString(std::move(E)));
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
