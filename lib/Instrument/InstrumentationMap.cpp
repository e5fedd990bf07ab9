//===- InstrumentationMap.cpp - Region ID -> region description -----------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Support/JSONDepth.h"
#include "lwp/Support/TextTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <array>

using namespace lwp;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;
namespace json = llvm::json;

StringRef lwp::stringifyRegionKind(RegionKind Kind) {
  switch (Kind) {
  case RegionKind::Function:
    return "function";
  case RegionKind::Loop:
    return "loop";
  case RegionKind::Operator:
    return "operator";
  }
  return "unknown";
}

std::optional<RegionKind> lwp::parseRegionKind(StringRef Name) {
  if (Name == "function")
    return RegionKind::Function;
  if (Name == "loop")
    return RegionKind::Loop;
  if (Name == "operator")
    return RegionKind::Operator;
  return std::nullopt;
}

std::string SourceLocation::str() const {
  if (!isKnown())
    return "-";
  return llvm::formatv("{0}:{1}:{2}", File, Line, Column).str();
}

const RegionEntry *InstrumentationMap::lookup(uint32_t Id) const {
  auto It = llvm::partition_point(
      Entries, [Id](const RegionEntry &E) { return E.Id < Id; });
  if (It == Entries.end() || It->Id != Id)
    return nullptr;
  return &*It;
}

/// The work figures of \p E with their JSON keys, in the map's order.
static std::array<std::pair<StringRef, int64_t>, 3>
workFields(const RegionEntry &E) {
  return {{{"flops", E.Flops},
           {"bytes_read", E.BytesRead},
           {"bytes_written", E.BytesWritten}}};
}

void InstrumentationMap::writeJSON(llvm::raw_ostream &OS,
                                   unsigned Indent) const {
  json::OStream J(OS, Indent);
  auto optional = [&](llvm::StringRef Key, const std::optional<uint32_t> &V) {
    if (V)
      J.attribute(Key, static_cast<int64_t>(*V));
    else
      J.attribute(Key, nullptr);
  };
  J.object([&] {
    J.attribute("version", static_cast<int64_t>(InstrumentationMapVersion));
    J.attributeArray("regions", [&] {
      for (const RegionEntry &E : Entries) {
        J.object([&] {
          J.attribute("id", static_cast<int64_t>(E.Id));
          J.attribute("kind", stringifyRegionKind(E.Kind));
          J.attribute("function", E.Function);
          optional("depth", E.Depth);
          optional("height", E.Height);
          optional("parent", E.ParentId);
          J.attribute("file", E.Loc.File);
          J.attribute("line", static_cast<int64_t>(E.Loc.Line));
          J.attribute("column", static_cast<int64_t>(E.Loc.Column));
          auto nullable = [&](StringRef Key, const std::string &V) {
            if (V.empty())
              J.attribute(Key, nullptr);
            else
              J.attribute(Key, V);
          };
          nullable("operator", E.Operator);
          nullable("operator_name", E.OperatorName);
          J.attributeArray("operators", [&] {
            for (const std::string &Op : E.Operators)
              J.value(Op);
          });
          // The work figures only when known: maps without them stay as
          // they were.
          for (auto [Key, V] : workFields(E))
            if (V >= 0)
              J.attribute(Key, V);
        });
      }
    });
    if (InstructionThreshold) {
      J.attribute("instruction_threshold",
                  static_cast<int64_t>(InstructionThreshold));
      J.attribute("small_functions", static_cast<int64_t>(SmallFunctions));
    }
  });
}

namespace {
/// Reads the fields of one region object, remembering the first error.
class RegionReader {
public:
  RegionReader(const json::Object &Obj, size_t Index)
      : Obj(Obj), Index(Index) {}

  std::optional<uint32_t> u32(StringRef Key, bool Nullable) {
    const json::Value *V = Obj.get(Key);
    if (!V)
      return fail(Key, "is missing");
    if (Nullable && V->getAsNull())
      return std::nullopt;
    std::optional<int64_t> I = V->getAsInteger();
    if (!I || *I < 0 || *I > UINT32_MAX)
      return fail(Key, Nullable ? "is not an unsigned 32-bit integer or null"
                                : "is not an unsigned 32-bit integer");
    return static_cast<uint32_t>(*I);
  }

  std::string str(StringRef Key) {
    std::optional<StringRef> S = Obj.getString(Key);
    if (!S) {
      fail(Key, "is missing or not a string");
      return {};
    }
    return S->str();
  }

  /// A string or null (empty).
  std::string nullableStr(StringRef Key) {
    const json::Value *V = Obj.get(Key);
    if (!V) {
      fail(Key, "is missing");
      return {};
    }
    if (V->getAsNull())
      return {};
    std::optional<StringRef> S = V->getAsString();
    if (!S) {
      fail(Key, "is not a string or null");
      return {};
    }
    return S->str();
  }

  /// A non-negative integer, or -1 when the key is absent.
  int64_t optionalCount(StringRef Key) {
    const json::Value *V = Obj.get(Key);
    if (!V)
      return -1;
    std::optional<int64_t> I = V->getAsInteger();
    if (!I || *I < 0) {
      fail(Key, "is not a non-negative 64-bit integer");
      return -1;
    }
    return *I;
  }

  /// An array of strings.
  std::vector<std::string> strings(StringRef Key) {
    std::vector<std::string> Out;
    const json::Array *A = Obj.getArray(Key);
    if (!A) {
      fail(Key, "is missing or not an array");
      return Out;
    }
    for (const json::Value &V : *A) {
      std::optional<StringRef> S = V.getAsString();
      if (!S) {
        fail(Key, "holds a value that is not a string");
        return {};
      }
      Out.push_back(S->str());
    }
    return Out;
  }

  std::nullopt_t fail(StringRef Key, StringRef What) {
    if (Error.empty())
      Error = llvm::formatv("region {0}: field '{1}' {2}", Index, Key, What);
    return std::nullopt;
  }

  std::string Error;

private:
  const json::Object &Obj;
  size_t Index;
};
} // namespace

Expected<InstrumentationMap> InstrumentationMap::fromJSON(StringRef Text) {
  // json::parse recurses per level: bound the nesting first (a module's
  // metadata or a map file may come from anyone).
  if (llvm::Error Err = checkJSONDepth(Text))
    return std::move(Err);
  Expected<json::Value> Parsed = json::parse(Text);
  if (!Parsed)
    return createStringError("instrumentation map is not JSON: " +
                             llvm::toString(Parsed.takeError()));
  const json::Object *Root = Parsed->getAsObject();
  if (!Root)
    return createStringError("instrumentation map: top level is not an object");
  std::optional<int64_t> Version = Root->getInteger("version");
  if (!Version)
    return createStringError("instrumentation map: no integer 'version'");
  if (*Version != 1 && *Version != InstrumentationMapVersion)
    return createStringError(
        "instrumentation map: version %lld is not supported (expected 1 to "
        "%u)",
        static_cast<long long>(*Version), InstrumentationMapVersion);
  const json::Array *Regions = Root->getArray("regions");
  if (!Regions)
    return createStringError("instrumentation map: no array 'regions'");

  InstrumentationMap Map;
  // -lwp-instruction-threshold's figures: optional (absent: 0).
  uint32_t Summary[2] = {0, 0};
  const StringRef SummaryKeys[] = {"instruction_threshold", "small_functions"};
  for (auto [I, Key] : llvm::enumerate(SummaryKeys)) {
    const json::Value *V = Root->get(Key);
    if (!V)
      continue;
    std::optional<int64_t> N = V->getAsInteger();
    if (!N || *N < 0 || *N > UINT32_MAX)
      return createStringError("instrumentation map: '%s' is not an unsigned "
                               "32-bit integer",
                               Key.str().c_str());
    Summary[I] = static_cast<uint32_t>(*N);
  }
  Map.setSmallFunctions(Summary[0], Summary[1]);
  for (size_t I = 0, E = Regions->size(); I != E; ++I) {
    const json::Object *Obj = (*Regions)[I].getAsObject();
    if (!Obj)
      return createStringError("instrumentation map: region %zu is not an "
                               "object",
                               I);
    RegionReader R(*Obj, I);
    RegionEntry Entry;
    Entry.Id = R.u32("id", false).value_or(0);
    std::string Kind = R.str("kind");
    Entry.Function = R.str("function");
    Entry.Depth = R.u32("depth", true);
    Entry.Height = R.u32("height", true);
    Entry.ParentId = R.u32("parent", true);
    Entry.Loc.File = R.str("file");
    Entry.Loc.Line = R.u32("line", false).value_or(0);
    Entry.Loc.Column = R.u32("column", false).value_or(0);
    if (*Version >= 2) {
      Entry.Operator = R.nullableStr("operator");
      Entry.OperatorName = R.nullableStr("operator_name");
      Entry.Operators = R.strings("operators");
      Entry.Flops = R.optionalCount("flops");
      Entry.BytesRead = R.optionalCount("bytes_read");
      Entry.BytesWritten = R.optionalCount("bytes_written");
    }
    if (R.Error.empty()) {
      std::optional<RegionKind> K = parseRegionKind(Kind);
      if (K && (*Version >= 2 || *K != RegionKind::Operator))
        Entry.Kind = *K;
      else
        R.fail("kind", *Version >= 2 ? "is not 'function', 'loop' or 'operator'"
                                     : "is neither 'function' nor 'loop'");
    }
    if (R.Error.empty() && Entry.Id > MaxRegionId)
      R.fail("id", "is above the largest region ID");
    if (R.Error.empty() && !Map.Entries.empty() &&
        Entry.Id <= Map.Entries.back().Id)
      R.fail("id", "is not above the previous region's ID");
    if (!R.Error.empty())
      return createStringError("instrumentation map: " + R.Error);
    Map.add(std::move(Entry));
  }
  return Map;
}

llvm::Error InstrumentationMap::writeJSONFile(StringRef Path) const {
  std::error_code EC;
  llvm::ToolOutputFile Out(Path, EC, llvm::sys::fs::OF_TextWithCRLF);
  if (EC)
    return createStringError(EC,
                             "cannot open instrumentation map file '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  writeJSON(Out.os());
  Out.os() << "\n";
  Out.os().flush();
  if (Out.os().has_error())
    return createStringError(Out.os().error(),
                             "cannot write instrumentation map file '%s'",
                             Path.str().c_str());
  Out.keep();
  return llvm::Error::success();
}

static std::string optionalToString(const std::optional<uint32_t> &V) {
  return V ? std::to_string(*V) : "-";
}

std::string lwp::operatorLabel(const RegionEntry &E) {
  if (E.Operator.empty())
    return {};
  if (E.OperatorName.empty())
    return E.Operator;
  return E.Operator + " \"" + E.OperatorName + "\"";
}

std::string lwp::describeOperators(const RegionEntry &E) {
  std::string Out = operatorLabel(E);
  for (const std::string &Op : E.Operators) {
    if (Op == Out)
      continue;
    Out += Out.empty() ? "" : " + ";
    Out += Op;
  }
  return Out.empty() ? "-" : Out;
}

void InstrumentationMap::printTable(llvm::raw_ostream &OS) const {
  // The operator column only when some region has operators (MLIR maps of
  // structured ops).
  bool Operators = llvm::any_of(Entries, [](const RegionEntry &E) {
    return !E.Operator.empty() || !E.Operators.empty();
  });
  // The work columns only when some region has work figures (operators
  // of a frontend that computes them).
  bool Work =
      llvm::any_of(Entries, [](const RegionEntry &E) { return E.hasWork(); });
  std::vector<std::pair<std::string, bool>> Columns = {
      {"ID", true},    {"kind", false},  {"function", false},
      {"depth", true}, {"height", true}, {"parent", true}};
  if (Work) {
    Columns.push_back({"flops", true});
    Columns.push_back({"bytes read", true});
    Columns.push_back({"bytes written", true});
  }
  Columns.push_back({"location", false});
  if (Operators)
    Columns.push_back({"operator", false});
  TextTable T(std::move(Columns));
  for (const RegionEntry &E : Entries) {
    std::vector<std::string> Row = {std::to_string(E.Id),
                                    stringifyRegionKind(E.Kind).str(),
                                    E.Function,
                                    optionalToString(E.Depth),
                                    optionalToString(E.Height),
                                    optionalToString(E.ParentId)};
    if (Work)
      for (auto [Key, V] : workFields(E))
        Row.push_back(V >= 0 ? std::to_string(V) : "-");
    Row.push_back(E.Loc.str());
    if (Operators)
      Row.push_back(describeOperators(E));
    T.add(std::move(Row));
  }
  T.print(OS);
  std::string Note = smallFunctionsNote();
  if (!Note.empty())
    OS << Note << "\n";
}

std::string InstrumentationMap::smallFunctionsNote() const {
  if (!SmallFunctions)
    return {};
  return llvm::formatv("{0} small function{1} not instrumented (below "
                       "-lwp-instruction-threshold={2})",
                       SmallFunctions, SmallFunctions == 1 ? "" : "s",
                       InstructionThreshold)
      .str();
}

//===----------------------------------------------------------------------===//
// Binary blob (the lwp_map section)
//===----------------------------------------------------------------------===//

namespace {
constexpr size_t BlobHeaderSize = 32;
/// Version 4's module summary, at the offset header word 28 gives (0: none;
/// written right after the entries): u32 small functions, u32 instruction
/// threshold.
constexpr size_t BlobSummarySize = 8;
/// The work table of a version 4 blob: from the end of the summary to the
/// strings (empty: none), a u32 record count and a u32 0, then per record
/// u32 local region ID, u32 flags (WorkFlops, WorkBytesRead,
/// WorkBytesWritten), u64 flops, u64 bytes read, u64 bytes written.
constexpr size_t BlobWorkHeaderSize = 8, BlobWorkSize = 32;
constexpr uint32_t WorkFlops = 1, WorkBytesRead = 2, WorkBytesWritten = 4;
constexpr size_t BlobEntrySize = 48, BlobEntrySizeV2 = 40;
constexpr uint8_t HasDepthHeight = 1, HasParent = 2, HasOperator = 4;

void append32(llvm::SmallVectorImpl<char> &Out, uint32_t V) {
  char Bytes[4];
  llvm::support::endian::write32le(Bytes, V);
  Out.append(Bytes, Bytes + 4);
}

void append64(llvm::SmallVectorImpl<char> &Out, uint64_t V) {
  char Bytes[8];
  llvm::support::endian::write64le(Bytes, V);
  Out.append(Bytes, Bytes + 8);
}
} // namespace

uint32_t InstrumentationMap::writeBlob(llvm::SmallVectorImpl<char> &Out) const {
  // Strings first, to know their offsets.
  std::string Strings;
  llvm::StringMap<uint32_t> Offsets;
  auto intern = [&](llvm::StringRef S) {
    auto [It, Inserted] = Offsets.try_emplace(S, Strings.size());
    if (Inserted) {
      Strings += S;
      Strings += '\0';
    }
    return It->second;
  };
  struct Names {
    uint32_t Function, File, Operator, OperatorName, Operators;
  };
  std::vector<Names> Names;
  for (const RegionEntry &E : Entries)
    Names.push_back({intern(E.Function), intern(E.Loc.File), intern(E.Operator),
                     intern(E.OperatorName),
                     intern(llvm::join(E.Operators, ","))});

  // Version 4 only for a module with a summary (-lwp-instruction-threshold,
  // or operators with work figures, whose table follows the summary): other
  // blobs stay byte for byte the version 3 ones.
  size_t NumWork =
      llvm::count_if(Entries, [](const RegionEntry &E) { return E.hasWork(); });
  bool HasSummary = InstructionThreshold != 0 || NumWork != 0;
  size_t EntriesEnd = BlobHeaderSize + Entries.size() * BlobEntrySize;
  size_t StringsOffset =
      EntriesEnd + (HasSummary ? BlobSummarySize : 0) +
      (NumWork ? BlobWorkHeaderSize + NumWork * BlobWorkSize : 0);
  size_t SlotsOffset =
      llvm::alignTo(StringsOffset + Strings.size(), RegionSlotAlign);
  size_t Size = SlotsOffset + Entries.size() * RegionSlotSize;
  size_t Start = Out.size();
  Out.append(std::begin(InstrumentationMapMagic),
             std::end(InstrumentationMapMagic));
  append32(Out, HasSummary ? 4 : 3);
  append32(Out, static_cast<uint32_t>(Size));
  append32(Out, static_cast<uint32_t>(Entries.size()));
  append32(Out, static_cast<uint32_t>(StringsOffset));
  append32(Out, static_cast<uint32_t>(SlotsOffset));
  append32(Out, HasSummary ? static_cast<uint32_t>(EntriesEnd) : 0);
  for (size_t I = 0; I != Entries.size(); ++I) {
    const RegionEntry &E = Entries[I];
    append32(Out, E.Id);
    uint8_t Flags = (E.Depth ? HasDepthHeight : 0) |
                    (E.ParentId ? HasParent : 0) |
                    (E.Operator.empty() ? 0 : HasOperator);
    Out.push_back(static_cast<char>(E.Kind));
    Out.push_back(static_cast<char>(Flags));
    Out.push_back(0);
    Out.push_back(0);
    append32(Out, E.Depth.value_or(0));
    append32(Out, E.Height.value_or(0));
    append32(Out, E.ParentId.value_or(0));
    append32(Out, Names[I].Function);
    append32(Out, Names[I].File);
    append32(Out, E.Loc.Line);
    append32(Out, E.Loc.Column);
    append32(Out, Names[I].Operator);
    append32(Out, Names[I].OperatorName);
    append32(Out, Names[I].Operators);
  }
  if (HasSummary) {
    append32(Out, SmallFunctions);
    append32(Out, InstructionThreshold);
  }
  if (NumWork) {
    append32(Out, static_cast<uint32_t>(NumWork));
    append32(Out, 0);
    for (const RegionEntry &E : Entries) {
      if (!E.hasWork())
        continue;
      append32(Out, E.Id);
      append32(Out, (E.Flops >= 0 ? WorkFlops : 0) |
                        (E.BytesRead >= 0 ? WorkBytesRead : 0) |
                        (E.BytesWritten >= 0 ? WorkBytesWritten : 0));
      for (int64_t V : {E.Flops, E.BytesRead, E.BytesWritten})
        append64(Out, V >= 0 ? static_cast<uint64_t>(V) : 0);
    }
  }
  Out.append(Strings.begin(), Strings.end());
  Out.resize(Start + Size, '\0');
  return static_cast<uint32_t>(SlotsOffset);
}

Expected<std::vector<MapBlob>> InstrumentationMap::readBlobs(StringRef Bytes) {
  using llvm::support::endian::read32le;
  std::vector<MapBlob> Blobs;
  size_t Pos = 0;
  while (true) {
    // Skip the zero padding the linker may put between blobs.
    while (Pos < Bytes.size() && Bytes[Pos] == '\0')
      ++Pos;
    if (Pos >= Bytes.size())
      break;
    Pos &= ~size_t(7);
    unsigned Blob = Blobs.size();
    StringRef Rest = Bytes.drop_front(Pos);
    if (Rest.size() < BlobHeaderSize ||
        !Rest.starts_with(StringRef(InstrumentationMapMagic,
                                    sizeof(InstrumentationMapMagic))))
      return createStringError("instrumentation map section: no map blob at "
                               "offset %zu (not an LWP map, or corrupt)",
                               Pos);
    const char *H = Rest.data();
    uint32_t Version = read32le(H + 8), Size = read32le(H + 12),
             Count = read32le(H + 16), StringsOffset = read32le(H + 20),
             SlotsOffset = read32le(H + 24), Summary = read32le(H + 28);
    if (Version < 1 || Version > InstrumentationMapBlobVersion)
      return createStringError("instrumentation map section: blob %u has "
                               "version %u (expected 1 to %u)",
                               Blob, Version, InstrumentationMapBlobVersion);
    bool HasSlots = Version >= 2;
    size_t EntrySize = Version >= 3 ? BlobEntrySize : BlobEntrySizeV2;
    if (!HasSlots)
      SlotsOffset = Size;
    // Every bound is checked in 64 bits, so that no subtraction wraps.
    uint64_t EntriesEnd = BlobHeaderSize + uint64_t(Count) * EntrySize;
    if (Version < 4)
      Summary = 0;
    bool BadSummary = Summary && (Summary < EntriesEnd || Summary % 4 != 0 ||
                                  Summary + BlobSummarySize > StringsOffset);
    uint64_t SlotsEnd = uint64_t(SlotsOffset) +
                        (HasSlots ? uint64_t(Count) * RegionSlotSize : 0);
    if (Size > Rest.size() || StringsOffset < EntriesEnd ||
        StringsOffset > SlotsOffset || SlotsEnd > Size ||
        (HasSlots && SlotsOffset % RegionSlotAlign != 0) || BadSummary)
      return createStringError("instrumentation map section: blob %u is "
                               "truncated or corrupt",
                               Blob);
    StringRef Strings = Rest.slice(StringsOffset, SlotsOffset);
    auto string = [&](uint32_t Offset) -> std::optional<StringRef> {
      if (Offset >= Strings.size())
        return std::nullopt;
      StringRef S = Strings.drop_front(Offset);
      size_t End = S.find('\0');
      if (End == StringRef::npos)
        return std::nullopt;
      return S.take_front(End);
    };
    MapBlob B;
    B.Offset = Pos;
    B.Version = Version;
    B.SlotsOffset = HasSlots ? SlotsOffset : 0;
    if (Summary) {
      B.SmallFunctions = read32le(H + Summary);
      B.InstructionThreshold = read32le(H + Summary + 4);
    }
    // The work table: the bytes between the summary and the strings.
    uint64_t WorkStart = Summary ? uint64_t(Summary) + BlobSummarySize : 0;
    uint32_t NumWork = 0;
    if (Summary && StringsOffset > WorkStart) {
      uint64_t Bytes = StringsOffset - WorkStart;
      NumWork = Bytes >= BlobWorkHeaderSize ? read32le(H + WorkStart) : 0;
      if (Bytes < BlobWorkHeaderSize || read32le(H + WorkStart + 4) != 0 ||
          Bytes != BlobWorkHeaderSize + uint64_t(NumWork) * BlobWorkSize ||
          NumWork > Count)
        return createStringError("instrumentation map section: the work "
                                 "table of blob %u is corrupt",
                                 Blob);
    }
    for (uint32_t I = 0; I != Count; ++I) {
      const char *P = H + BlobHeaderSize + I * EntrySize;
      RegionEntry E;
      E.Id = read32le(P);
      uint8_t Kind = P[4], Flags = P[5];
      std::optional<StringRef> Function = string(read32le(P + 20));
      std::optional<StringRef> File = string(read32le(P + 24));
      std::optional<StringRef> Operator, OperatorName, Operators;
      if (Version >= 3) {
        Operator = string(read32le(P + 36));
        OperatorName = string(read32le(P + 40));
        Operators = string(read32le(P + 44));
      }
      bool BadId = HasSlots ? E.Id != I : E.Id > MaxRegionId;
      bool BadParent =
          (Flags & HasParent) && HasSlots && read32le(P + 16) >= Count;
      bool BadOperator =
          Version >= 3 && (!Operator || !OperatorName || !Operators);
      unsigned MaxKind = Version >= 3 ? 2 : 1;
      if (Kind > MaxKind || !Function || !File || BadId || BadParent ||
          BadOperator)
        return createStringError("instrumentation map section: region %u of "
                                 "blob %u is corrupt",
                                 I, Blob);
      E.Kind = static_cast<RegionKind>(Kind);
      if (Flags & HasDepthHeight) {
        E.Depth = read32le(P + 8);
        E.Height = read32le(P + 12);
      }
      if (Flags & HasParent)
        E.ParentId = read32le(P + 16);
      E.Function = Function->str();
      E.Loc.File = File->str();
      E.Loc.Line = read32le(P + 28);
      E.Loc.Column = read32le(P + 32);
      if (Version >= 3) {
        if (Flags & HasOperator) {
          E.Operator = Operator->str();
          E.OperatorName = OperatorName->str();
        }
        llvm::SmallVector<StringRef, 4> Ops;
        Operators->split(Ops, ',', -1, /*KeepEmpty=*/false);
        for (StringRef Op : Ops)
          E.Operators.push_back(Op.str());
      }
      B.Entries.push_back(std::move(E));
    }
    for (uint32_t I = 0; I != NumWork; ++I) {
      const char *P =
          H + WorkStart + BlobWorkHeaderSize + uint64_t(I) * BlobWorkSize;
      uint32_t Id = read32le(P), Flags = read32le(P + 4);
      uint64_t Values[3] = {llvm::support::endian::read64le(P + 8),
                            llvm::support::endian::read64le(P + 16),
                            llvm::support::endian::read64le(P + 24)};
      bool Bad = Id >= Count ||
                 (Flags & ~(WorkFlops | WorkBytesRead | WorkBytesWritten)) ||
                 !Flags || B.Entries[Id].hasWork();
      for (uint64_t V : Values)
        Bad |= V > uint64_t(INT64_MAX);
      if (Bad)
        return createStringError("instrumentation map section: work record "
                                 "%u of blob %u is corrupt",
                                 I, Blob);
      RegionEntry &E = B.Entries[Id];
      int64_t *Fields[3] = {&E.Flops, &E.BytesRead, &E.BytesWritten};
      for (unsigned F = 0; F != 3; ++F)
        if (Flags & (1u << F))
          *Fields[F] = static_cast<int64_t>(Values[F]);
    }
    Blobs.push_back(std::move(B));
    Pos += std::max<size_t>(Size, 8);
  }
  return Blobs;
}

Expected<InstrumentationMap> InstrumentationMap::readSection(StringRef Bytes) {
  Expected<std::vector<MapBlob>> Blobs = readBlobs(Bytes);
  if (!Blobs)
    return Blobs.takeError();
  InstrumentationMap Map;
  llvm::DenseMap<uint32_t, unsigned> BlobOfId;
  uint32_t Next = 1;
  for (auto [Index, B] : llvm::enumerate(*Blobs)) {
    Map.addSmallFunctions(B.InstructionThreshold, B.SmallFunctions);
    uint32_t First = Next;
    for (RegionEntry &E : B.Entries) {
      if (B.Version >= 2) {
        E.rebase(First);
        Next = E.Id + 1;
      }
      auto [It, Inserted] = BlobOfId.try_emplace(E.Id, Index);
      if (!Inserted)
        return createStringError(
            "instrumentation map section: region ID %u is used by two "
            "modules (blobs %u and %zu)",
            E.Id, It->second, Index);
      Map.add(std::move(E));
    }
  }
  llvm::sort(Map.Entries, [](const RegionEntry &A, const RegionEntry &B) {
    return A.Id < B.Id;
  });
  return Map;
}

void InstrumentationMap::demangleFunctions() {
  for (RegionEntry &E : Entries) {
    if (!E.MangledFunction.empty())
      continue;
    std::string Demangled = llvm::demangle(E.Function);
    if (Demangled != E.Function) {
      E.MangledFunction = std::move(E.Function);
      E.Function = std::move(Demangled);
    }
  }
}
