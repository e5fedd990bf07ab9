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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif
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

/// A dump built in a string: the bytes from Offset on, owned (no copy).
class StringDumpBuffer : public llvm::MemoryBuffer {
public:
  StringDumpBuffer(std::string Bytes, size_t Offset, llvm::StringRef Name)
      : Bytes(std::move(Bytes)), Name(Name.str()) {
    init(this->Bytes.data() + Offset, this->Bytes.data() + this->Bytes.size(),
         /*RequiresNullTerminator=*/false);
  }
  llvm::StringRef getBufferIdentifier() const override { return Name; }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

private:
  std::string Bytes, Name;
};

/// Drops the pages of a file mapping that the scanner has read, so that
/// memory follows the entries kept, not the file (only for a file mapped
/// read-only: its pages come back from the file if read again, e.g. to
/// count lines for an error).
class PageReleaser {
public:
  PageReleaser(llvm::StringRef Text, bool Enabled)
      : Next(Text.begin()), Enabled(Enabled) {}
  void consumed(const char *P) {
#if defined(__unix__)
    constexpr uintptr_t Step = 16 << 20; // release in 16 MiB steps
    if (!Enabled || uintptr_t(P) - uintptr_t(Next) < Step)
      return;
    uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
    uintptr_t From = llvm::alignTo(uintptr_t(Next), Page);
    uintptr_t To = llvm::alignDown(uintptr_t(P), Page);
    if (To > From)
      madvise(reinterpret_cast<void *>(From), To - From, MADV_DONTNEED);
    Next = P;
#else
    (void)P;
#endif
  }

private:
  const char *Next;
  bool Enabled;
};

/// A streaming reader of one JSON text (RFC 8259) that builds no tree: the
/// importer walks the top-level object key by key and the entries array
/// element by element, keeping only the figures it needs. Strings are
/// checked for escapes and control characters, numbers for the JSON
/// grammar; nesting deeper than MaxDepth is refused (no unbounded
/// recursion on hostile input).
class JSONScanner {
public:
  explicit JSONScanner(llvm::StringRef Text)
      : Begin(Text.begin()), P(Text.begin()), End(Text.end()) {}

  /// The first error, with its line and column, or "" (none yet).
  const std::string &error() const { return Error; }
  bool failed() const { return !Error.empty(); }
  /// The next character to read.
  const char *position() const { return P; }

  /// Records \p What at the current position (the first error wins);
  /// returns false.
  bool fail(const llvm::Twine &What) {
    if (Error.empty()) {
      unsigned Line = 1, Column = 1;
      for (const char *C = Begin; C != P; ++C)
        if (*C == '\n') {
          ++Line;
          Column = 1;
        } else {
          ++Column;
        }
      Error =
          llvm::formatv("{0} at line {1}, column {2}", What.str(), Line, Column)
              .str();
    }
    return false;
  }

  void skipSpace() {
    while (P != End && (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
      ++P;
  }
  /// Skips blanks; true (and consumes it) when the next character is \p C.
  bool consume(char C) {
    skipSpace();
    if (P != End && *P == C) {
      ++P;
      return true;
    }
    return false;
  }
  bool expect(char C) {
    return consume(C) || fail(llvm::Twine("expected '") + llvm::Twine(C) + "'");
  }
  bool atEnd() {
    skipSpace();
    return P == End;
  }
  char peek() {
    skipSpace();
    return P == End ? '\0' : *P;
  }

  /// A string; \p Out gets its raw text between the quotes when it has no
  /// escapes, else its decoded value in \p Storage.
  bool string(llvm::StringRef &Out, std::string &Storage) {
    if (!expect('"'))
      return false;
    const char *Start = P;
    bool Escapes = false;
    while (true) {
      if (P == End)
        return fail("unterminated string");
      unsigned char C = *P;
      if (C == '"')
        break;
      if (C < 0x20)
        return fail("control character in a string");
      if (C == '\\') {
        Escapes = true;
        if (++P == End)
          return fail("unterminated string");
        if (*P == 'u') {
          for (int I = 0; I != 4; ++I)
            if (++P == End || !llvm::isHexDigit(*P))
              return fail("bad \\u escape");
        } else if (!llvm::StringRef("\"\\/bfnrt").contains(*P)) {
          return fail("bad escape");
        }
      }
      ++P;
    }
    Out = llvm::StringRef(Start, P - Start);
    ++P;
    if (Escapes) {
      // Rare (keys of TVM's file have none): let llvm::json decode it.
      llvm::Expected<json::Value> V =
          json::parse(llvm::StringRef(Start - 1, Out.size() + 2));
      if (!V) {
        llvm::consumeError(V.takeError());
        return fail("bad string");
      }
      Storage = V->getAsString().value_or("").str();
      Out = Storage;
    }
    return true;
  }

  /// A number. \p IsInteger: it has no fraction or exponent and its
  /// magnitude fits 0..2^64-1 (then \p Value holds the magnitude); \p
  /// Negative: it starts with '-'.
  bool number(uint64_t &Value, bool &IsInteger, bool &Negative) {
    skipSpace();
    Value = 0;
    IsInteger = true;
    Negative = P != End && *P == '-';
    if (Negative)
      ++P;
    if (P == End || !llvm::isDigit(*P))
      return fail("expected a value");
    if (*P == '0') {
      ++P;
    } else {
      // Up to 19 digits cannot overflow; past that, check each step.
      const char *First = P;
      while (P != End && llvm::isDigit(*P)) {
        unsigned D = *P++ - '0';
        if (P - First <= 19) {
          Value = Value * 10 + D;
        } else if (__builtin_mul_overflow(Value, 10, &Value) ||
                   __builtin_add_overflow(Value, D, &Value)) {
          IsInteger = false;
        }
      }
    }
    if (P != End && *P == '.') {
      IsInteger = false;
      if (++P == End || !llvm::isDigit(*P))
        return fail("bad number");
      while (P != End && llvm::isDigit(*P))
        ++P;
    }
    if (P != End && (*P == 'e' || *P == 'E')) {
      IsInteger = false;
      if (++P != End && (*P == '+' || *P == '-'))
        ++P;
      if (P == End || !llvm::isDigit(*P))
        return fail("bad number");
      while (P != End && llvm::isDigit(*P))
        ++P;
    }
    return true;
  }

  /// Skips one value of any kind.
  bool skipValue(unsigned Depth = 0) {
    if (Depth > MaxDepth)
      return fail("nested too deeply");
    llvm::StringRef S;
    std::string Storage;
    switch (peek()) {
    case '"':
      return string(S, Storage);
    case '{':
      ++P;
      if (consume('}'))
        return true;
      do {
        if (!string(S, Storage) || !expect(':') || !skipValue(Depth + 1))
          return false;
      } while (consume(','));
      return expect('}');
    case '[':
      ++P;
      if (consume(']'))
        return true;
      do {
        if (!skipValue(Depth + 1))
          return false;
      } while (consume(','));
      return expect(']');
    case 't':
      return literal("true");
    case 'f':
      return literal("false");
    case 'n':
      return literal("null");
    default: {
      uint64_t V;
      bool IsInteger, Negative;
      return number(V, IsInteger, Negative);
    }
    }
  }

  bool literal(llvm::StringRef Word) {
    if (llvm::StringRef(P, End - P).starts_with(Word)) {
      P += Word.size();
      return true;
    }
    return fail("expected a value");
  }

  /// Calls \p F on each element of an array (the next value), which must
  /// consume it; false on an error.
  template <typename Fn> bool array(Fn F) {
    if (!expect('['))
      return false;
    if (consume(']'))
      return true;
    do {
      if (!F())
        return false;
    } while (consume(','));
    return expect(']');
  }

  /// Calls \p F(Key) on each member of an object (the next value), which
  /// must consume the member's value.
  template <typename Fn> bool object(Fn F) {
    if (!expect('{'))
      return false;
    if (consume('}'))
      return true;
    llvm::StringRef Key;
    std::string Storage;
    do {
      if (!string(Key, Storage) || !expect(':') || !F(Key))
        return false;
    } while (consume(','));
    return expect('}');
  }

private:
  static constexpr unsigned MaxDepth = 512;
  const char *Begin, *P, *End;
  std::string Error;
};
} // namespace

/// The import of importTVMJSON; \p ReleaseRead: \p Text is a read-only file
/// mapping whose pages may be dropped once read.
static llvm::Expected<Dump> importTVM(llvm::StringRef Text,
                                      llvm::StringRef Name, bool ReleaseRead) {
  auto fail = [&](const llvm::Twine &What) -> llvm::Error {
    return createStringError("TVM profile '" + Name + "': " + What);
  };
  JSONScanner S(Text);
  // The records of the dump, built as the entries stream by (16 bytes an
  // entry, the only figure that grows with the file), then the counts.
  // The dump's header, count table and thread header go in front of the
  // records, in room kept for them (TVM writes 5000 counts), so that the
  // records are never copied. The reservation is address space: pages are
  // resident once written (TVM writes about 50 bytes of text an entry).
  constexpr size_t Room = 64 + 8 * 8192 + 16;
  std::string Records(Room, '\0');
  Records.reserve(Room + Text.size() / 2);
  PageReleaser Releaser(Text, ReleaseRead);
  std::vector<uint64_t> Counts;
  bool HaveEntries = false, HaveCounts = false;
  uint64_t NumEntries = 0;
  // Open instances per ID (TVM writes no start/end flag: an ID's entries
  // alternate), and the first entry of the largest ID.
  llvm::DenseSet<uint32_t> Open;
  uint32_t MaxId = 0;
  uint64_t MaxIdEntry = 0;
  std::optional<llvm::Error> Bad; // a semantic error, reported over syntax

  auto entry = [&]() -> bool {
    uint64_t Index = NumEntries++;
    uint64_t Field[3] = {0, 0, 0};
    bool Seen[3] = {false, false, false};
    auto member = [&](llvm::StringRef Key) -> bool {
      int K = Key == "ret" ? 0 : Key == "id" ? 1 : Key == "cyc" ? 2 : -1;
      if (K < 0)
        return S.skipValue();
      if (S.peek() != '-' && !llvm::isDigit(S.peek())) {
        Seen[K] = false;
        return S.skipValue();
      }
      bool IsInteger, Negative;
      if (!S.number(Field[K], IsInteger, Negative))
        return false;
      Seen[K] = IsInteger && !(Negative && Field[K]);
      if (IsInteger && Negative && Field[K] && !Bad)
        Bad = fail("entry " + llvm::Twine(Index) + " has a negative \"" + Key +
                   "\"");
      return true;
    };
    if (S.peek() != '{') {
      if (!Bad)
        Bad = fail("entry " + llvm::Twine(Index) +
                   " lacks an integer \"ret\", \"id\" or \"cyc\"");
      return S.skipValue();
    }
    if (!S.object(member))
      return false;
    if (Bad)
      return true;
    if (!Seen[0] || !Seen[1] || !Seen[2]) {
      Bad = fail("entry " + llvm::Twine(Index) +
                 " lacks an integer \"ret\", \"id\" or \"cyc\"");
      return true;
    }
    // The return address is 32-bit in TVM's Hexagon runtime.
    if (Field[0] > UINT32_MAX) {
      Bad = fail("entry " + llvm::Twine(Index) + " has return address " +
                 llvm::Twine(Field[0]) + ", outside 0..2^32-1");
      return true;
    }
    if (Field[1] > LWP_ID_MASK) {
      Bad = fail("entry " + llvm::Twine(Index) + " has ID " +
                 llvm::Twine(Field[1]) +
                 ", outside 0..2^31-1 (TVM numbers its loops densely from 0)");
      return true;
    }
    uint32_t Word = uint32_t(Field[1]);
    if (Index == 0 || Word > MaxId) {
      MaxId = Word;
      MaxIdEntry = Index;
    }
    if (!Open.insert(Word).second) {
      Open.erase(Word);
      Word |= LWP_ID_END_BIT;
    }
    append<uint32_t>(Records, uint32_t(Field[0]));
    append<uint32_t>(Records, Word);
    append<uint64_t>(Records, Field[2]);
    Releaser.consumed(S.position());
    return true;
  };
  auto count = [&]() -> bool {
    if (S.peek() != '-' && !llvm::isDigit(S.peek())) {
      if (!Bad)
        Bad = fail("\"loop_counts\" holds a value that is not a count");
      return S.skipValue();
    }
    uint64_t V;
    bool IsInteger, Negative;
    if (!S.number(V, IsInteger, Negative))
      return false;
    if ((!IsInteger || (Negative && V)) && !Bad)
      Bad = fail("\"loop_counts\" holds a value that is not a count");
    Counts.push_back(V);
    return true;
  };
  bool Ok;
  if (S.peek() != '{') {
    Ok = S.skipValue();
  } else {
    Ok = S.object([&](llvm::StringRef Key) -> bool {
      if (Key == "entries" && S.peek() == '[' && !HaveEntries) {
        HaveEntries = true;
        return S.array(entry);
      }
      if (Key == "loop_counts" && S.peek() == '[' && !HaveCounts) {
        HaveCounts = true;
        return S.array(count);
      }
      return S.skipValue();
    });
  }
  if (Ok && !S.atEnd())
    S.fail("text after the JSON value");
  if (S.failed()) {
    if (Bad)
      llvm::consumeError(std::move(*Bad));
    return fail("not JSON: " + S.error());
  }
  if (!HaveEntries)
    return fail("no \"entries\" array (not a TVM lwp.json)");
  if (Bad)
    return std::move(*Bad);
  // TVM numbers its loops from 0 with one counter per model: an ID far
  // beyond the number of entries is not one (and would size the count
  // table).
  uint64_t MaxTVMId = NumEntries + Counts.size() + 1024;
  if (NumEntries && MaxId > MaxTVMId)
    return fail("entry " + llvm::Twine(MaxIdEntry) + " has ID " +
                llvm::Twine(MaxId) + ", outside 0.." + llvm::Twine(MaxTVMId) +
                " (TVM numbers its loops densely from 0)");
  // TVM's runtime counts every ID in its table (loop_counts): an entry of an
  // ID beyond it is not TVM's.
  if (HaveCounts && NumEntries && MaxId >= Counts.size())
    return fail("entry " + llvm::Twine(MaxIdEntry) + " has ID " +
                llvm::Twine(MaxId) + ", beyond the " +
                llvm::Twine(Counts.size()) +
                " counts of \"loop_counts\" (TVM counts every ID it records)");
  if (Counts.empty() && NumEntries)
    Counts.assign(MaxId + 1, 0);
  if (Counts.size() > UINT32_MAX)
    return fail("\"loop_counts\" has more than 2^32-1 counts");

  // A version 1 dump: TVM's IDs are its own, program-wide, with no modules.
  std::string Header(LWP_DUMP_MAGIC, LWP_DUMP_MAGIC_SIZE);
  append<uint32_t>(Header, 1);
  append<uint32_t>(Header, 64);
  append<uint16_t>(Header, LWP_TARGET_HEXAGON);
  append<uint16_t>(Header, LWP_COUNTER_PCYCLES);
  append<uint32_t>(Header, sizeof(lwp_record32));
  append<uint64_t>(Header, 0); // counter_hz
  append<uint32_t>(Header, uint32_t(Counts.size()));
  append<uint32_t>(Header, 0); // cap: unknown
  append<uint64_t>(Header, 0); // dropped: unknown
  append<uint32_t>(Header, 0); // images
  append<uint32_t>(Header, 1); // threads
  append<uint32_t>(Header, 0); // probe pair cost: unknown
  append<uint32_t>(Header, 0);
  for (uint64_t C : Counts)
    append<uint64_t>(Header, C);
  append<uint64_t>(Header, 0); // thread id
  append<uint64_t>(Header, (Records.size() - Room) / sizeof(lwp_record32));
  if (Header.size() <= Room) {
    size_t Start = Room - Header.size();
    memcpy(Records.data() + Start, Header.data(), Header.size());
    return Dump::parse(
        std::make_unique<StringDumpBuffer>(std::move(Records), Start, Name));
  }
  // More counts than the room kept: one copy.
  Header.append(Records, Room);
  Records = std::string();
  return Dump::parse(
      std::make_unique<StringDumpBuffer>(std::move(Header), 0, Name));
}

llvm::Expected<Dump> lwp::importTVMJSON(llvm::StringRef Text,
                                        llvm::StringRef Name) {
  return importTVM(Text, Name, /*ReleaseRead=*/false);
}

llvm::Expected<Dump> lwp::importTVMJSON(const llvm::MemoryBuffer &Buffer) {
  return importTVM(Buffer.getBuffer(), Buffer.getBufferIdentifier(),
                   Buffer.getBufferKind() ==
                       llvm::MemoryBuffer::MemoryBuffer_MMap);
}

InstrumentationMap lwp::inferTVMMap(const Dump &D, const ProfiledBinary &Binary,
                                    uint64_t LoadBias) {
  // A site's function: an index into Binary.functions(), or, for a site no
  // symbol covers, the site with the top bit set (its own pseudo-function,
  // named by its address).
  constexpr uint64_t NoSymbol = uint64_t(1) << 63;
  struct Info {
    uint64_t Function;
    std::optional<uint32_t> Parent; // enclosing ID in the same function
    unsigned Level = 0;             // 0: function region
    unsigned Height = 0;
    bool Recorded = true; // false: counted, never recorded
  };
  llvm::DenseMap<uint32_t, Info> Regions;
  const std::vector<FunctionSymbol> &Functions = Binary.functions();
  for (const DumpThread &T : D.threads()) {
    std::vector<std::pair<uint32_t, uint64_t>> Stack; // ID, function
    // The dump was built in memory by importTVMJSON: reading cannot fail.
    llvm::cantFail(T.forEachRecord([&](const DumpRecord &R) {
      if (R.IsEnd) {
        if (!Stack.empty() && Stack.back().first == R.Id)
          Stack.pop_back();
        return true;
      }
      uint64_t Address = R.Site - LoadBias;
      SymbolizedSite S = Binary.symbolize(Address);
      uint64_t Function = S.Function ? uint64_t(S.Function - Functions.data())
                                     : (NoSymbol | Address);
      auto [It, New] = Regions.try_emplace(R.Id, Info{Function});
      if (New) {
        // The nearest open region of the same function encloses it.
        for (auto Open = Stack.rbegin(); Open != Stack.rend(); ++Open)
          if (Open->second == Function) {
            It->second.Parent = Open->first;
            It->second.Level = Regions.find(Open->first)->second.Level + 1;
            break;
          }
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
  // Regions that ran (loop_counts) but have no entry: TVM's buffer was full
  // before they first ran. Their function is unknown.
  for (size_t Id = 0; Id != D.counts().size(); ++Id)
    if (D.counts()[Id] && !Regions.count(Id))
      Regions.try_emplace(uint32_t(Id),
                          Info{NoSymbol, std::nullopt, 0, 0, false});
  std::vector<uint32_t> Ids;
  for (auto &[Id, In] : Regions)
    Ids.push_back(Id);
  llvm::sort(Ids);
  InstrumentationMap Map;
  for (uint32_t Id : Ids) {
    const Info &In = Regions[Id];
    RegionEntry E;
    E.Id = Id;
    if (!In.Recorded)
      E.Function = UnrecordedTVMFunction.str();
    else if (!(In.Function & NoSymbol))
      E.Function = Functions[In.Function].Name;
    else
      E.Function = llvm::formatv("{0:x}", In.Function & ~NoSymbol).str();
    E.ParentId = In.Parent;
    if (In.Level == 0 && In.Recorded) {
      E.Kind = RegionKind::Function;
    } else {
      E.Kind = RegionKind::Loop;
      if (In.Recorded) {
        E.Depth = In.Level - 1;
        E.Height = In.Height;
      }
    }
    Map.add(std::move(E));
  }
  return Map;
}
