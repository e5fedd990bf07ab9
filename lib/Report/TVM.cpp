//===- TVM.cpp - Import of TVM's LWP output (lwp.json) --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/TVM.h"
#include "lwp/Runtime/DumpFormat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <functional>
#include <map>

using namespace lwp;
using llvm::createStringError;
namespace json = llvm::json;

namespace {
template <typename T> void append(std::string &Out, T V) {
  char Bytes[sizeof(T)];
  llvm::support::endian::write<T, llvm::endianness::little>(Bytes, V);
  Out.append(Bytes, sizeof(T));
}
} // namespace

llvm::Expected<Dump> lwp::importTVMJSON(llvm::StringRef Text,
                                        llvm::StringRef Name) {
  auto fail = [&](const llvm::Twine &What) -> llvm::Error {
    return createStringError("TVM profile '" + Name + "': " + What);
  };
  llvm::Expected<json::Value> Root = json::parse(Text);
  if (!Root)
    return fail("not JSON: " + llvm::toString(Root.takeError()));
  const json::Object *Obj = Root->getAsObject();
  const json::Array *Entries = Obj ? Obj->getArray("entries") : nullptr;
  if (!Entries)
    return fail("no \"entries\" array (not a TVM lwp.json)");
  std::vector<uint64_t> Counts;
  if (const json::Array *LoopCounts = Obj->getArray("loop_counts"))
    for (const json::Value &V : *LoopCounts) {
      std::optional<int64_t> N = V.getAsInteger();
      if (!N || *N < 0)
        return fail("\"loop_counts\" holds a value that is not a count");
      Counts.push_back(uint64_t(*N));
    }

  std::string Records;
  llvm::DenseSet<uint32_t> Open;
  uint32_t MaxId = 0;
  for (size_t I = 0; I != Entries->size(); ++I) {
    const json::Object *E = (*Entries)[I].getAsObject();
    std::optional<int64_t> Ret = E ? E->getInteger("ret") : std::nullopt;
    std::optional<int64_t> Id = E ? E->getInteger("id") : std::nullopt;
    std::optional<int64_t> Cyc = E ? E->getInteger("cyc") : std::nullopt;
    if (!Ret || !Id || !Cyc)
      return fail("entry " + llvm::Twine(I) +
                  " lacks an integer \"ret\", \"id\" or \"cyc\"");
    // TVM numbers its loops from 0 with one counter per model: an ID far
    // beyond the number of entries is not one (and would size the count
    // table).
    int64_t MaxTVMId = int64_t(Entries->size() + Counts.size()) + 1024;
    if (*Id < 0 || *Id > int64_t(LWP_ID_MASK) || *Id > MaxTVMId)
      return fail("entry " + llvm::Twine(I) + " has ID " + llvm::Twine(*Id) +
                  ", outside 0.." + llvm::Twine(MaxTVMId) +
                  " (TVM numbers its loops densely from 0)");
    // The return address is 32-bit in TVM's Hexagon runtime.
    if (*Ret < 0 || *Ret > int64_t(UINT32_MAX))
      return fail("entry " + llvm::Twine(I) + " has return address " +
                  llvm::Twine(*Ret) + ", outside 0..2^32-1");
    uint32_t Word = uint32_t(*Id);
    MaxId = std::max(MaxId, Word);
    // TVM writes no start/end flag: an ID's records alternate.
    if (!Open.insert(Word).second) {
      Open.erase(Word);
      Word |= LWP_ID_END_BIT;
    }
    append<uint32_t>(Records, uint32_t(*Ret));
    append<uint32_t>(Records, Word);
    append<uint64_t>(Records, uint64_t(*Cyc));
  }
  if (Counts.empty() && !Entries->empty())
    Counts.assign(MaxId + 1, 0);

  // A version 1 dump: TVM's IDs are its own, program-wide, with no modules.
  std::string Bytes(LWP_DUMP_MAGIC, LWP_DUMP_MAGIC_SIZE);
  append<uint32_t>(Bytes, 1);
  append<uint32_t>(Bytes, 64);
  append<uint16_t>(Bytes, LWP_TARGET_HEXAGON);
  append<uint16_t>(Bytes, LWP_COUNTER_PCYCLES);
  append<uint32_t>(Bytes, sizeof(lwp_record32));
  append<uint64_t>(Bytes, 0); // counter_hz
  append<uint32_t>(Bytes, uint32_t(Counts.size()));
  append<uint32_t>(Bytes, 0); // cap: unknown
  append<uint64_t>(Bytes, 0); // dropped: unknown
  append<uint32_t>(Bytes, 0); // images
  append<uint32_t>(Bytes, 1); // threads
  append<uint32_t>(Bytes, 0); // probe pair cost: unknown
  append<uint32_t>(Bytes, 0);
  for (uint64_t C : Counts)
    append<uint64_t>(Bytes, C);
  append<uint64_t>(Bytes, 0); // thread id
  append<uint64_t>(Bytes, Records.size() / sizeof(lwp_record32));
  Bytes += Records;
  return Dump::parse(llvm::MemoryBuffer::getMemBufferCopy(Bytes, Name));
}

InstrumentationMap lwp::inferTVMMap(const Dump &D, const ProfiledBinary &Binary,
                                    uint64_t LoadBias) {
  struct Info {
    std::string Function;
    std::optional<uint32_t> Parent; // enclosing ID in the same function
    unsigned Level = 0;             // 0: function region
    unsigned Height = 0;
  };
  std::map<uint32_t, Info> Regions;
  for (const DumpThread &T : D.threads()) {
    std::vector<std::pair<uint32_t, std::string>> Stack;
    // The dump was built in memory by importTVMJSON: reading cannot fail.
    llvm::cantFail(T.forEachRecord([&](const DumpRecord &R) {
      if (R.IsEnd) {
        if (!Stack.empty() && Stack.back().first == R.Id)
          Stack.pop_back();
        return true;
      }
      SymbolizedSite S = Binary.symbolize(R.Site - LoadBias);
      std::string Function =
          S.Function ? S.Function->Name
                     : llvm::formatv("{0:x}", R.Site - LoadBias).str();
      if (!Regions.count(R.Id)) {
        Info In;
        In.Function = Function;
        // The nearest open region of the same function encloses it.
        for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
          if (It->second == Function) {
            In.Parent = It->first;
            In.Level = Regions[It->first].Level + 1;
            break;
          }
        Regions[R.Id] = In;
      }
      Stack.push_back({R.Id, Function});
      return true;
    }));
  }
  // Heights from the inferred nest, deepest regions first.
  std::vector<std::pair<unsigned, uint32_t>> ByLevel;
  for (auto &[Id, In] : Regions)
    ByLevel.push_back({In.Level, Id});
  llvm::sort(ByLevel, std::greater<>());
  for (auto [Level, Id] : ByLevel)
    if (std::optional<uint32_t> Parent = Regions[Id].Parent) {
      Info &P = Regions[*Parent];
      P.Height = std::max(P.Height, Regions[Id].Height + 1);
    }
  InstrumentationMap Map;
  for (auto &[Id, In] : Regions) {
    RegionEntry E;
    E.Id = Id;
    E.Function = In.Function;
    E.ParentId = In.Parent;
    if (In.Level == 0) {
      E.Kind = RegionKind::Function;
    } else {
      E.Kind = RegionKind::Loop;
      E.Depth = In.Level - 1;
      E.Height = In.Height;
    }
    Map.add(std::move(E));
  }
  return Map;
}
