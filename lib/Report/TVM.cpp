//===- TVM.cpp - Import of TVM's LWP output (lwp.json) --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// One pass over the text feeds the analysis: the top-level object is walked
// by a small JSON scanner, the entries array window by window by simdjson's
// On-Demand parser (a window of at most 256 KiB, cut after an entry's '}',
// parsed as an array of its own). A window that does not parse as plain TVM
// entries (three integer members, nothing else) is read by the scanner instead,
// which gives every error its line and column; so simdjson only ever speeds up
// entries the scanner would read the same way.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/TVM.h"
#include "lwp/Report/Input.h"
#include "lwp/Runtime/DumpFormat.h"
#include "lwp/Support/JSONDepth.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <simdjson.h>

#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace lwp;
using llvm::createStringError;
namespace json = llvm::json;

namespace {
template <typename T> void append(std::string &Out, T V) {
  char Bytes[sizeof(T)];
  llvm::support::endian::write<T, llvm::endianness::little>(Bytes, V);
  Out.append(Bytes, sizeof(T));
}

/// Drops the pages of a file mapping that the pass has read, so that memory
/// follows the regions, not the file (only for a file mapped read-only: its
/// pages come back from the file if read again, e.g. to count lines for an
/// error, or by another pass).
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
/// grammar; nesting deeper than MaxJSONDepth is refused (no unbounded
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
  /// Continues at \p NewP (after text read by other means).
  void seek(const char *NewP) { P = NewP; }
  /// The end of the text.
  const char *end() const { return End; }

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

  /// Skips one value of any kind, at nesting level \p Level (the top-level
  /// value is at level 1, the members of its object at 2).
  bool skipValue(unsigned Level) {
    llvm::StringRef S;
    std::string Storage;
    char C = peek();
    if ((C == '{' || C == '[') && Level > MaxJSONDepth)
      return fail("nested deeper than " + llvm::Twine(MaxJSONDepth) +
                  " levels");
    switch (C) {
    case '"':
      return string(S, Storage);
    case '{':
      ++P;
      if (consume('}'))
        return true;
      do {
        if (!string(S, Storage) || !expect(':') || !skipValue(Level + 1))
          return false;
      } while (consume(','));
      return expect('}');
    case '[':
      ++P;
      if (consume(']'))
        return true;
      do {
        if (!skipValue(Level + 1))
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
  const char *Begin, *P, *End;
  std::string Error;
};

bool isJSONSpace(char C) {
  return C == ' ' || C == '\n' || C == '\t' || C == '\r';
}

/// One entry of the entries array.
struct TVMEntry {
  uint64_t Ret, Id, Cyc;
};

/// Reads runs of plain TVM entries with simdjson's On-Demand parser: a
/// window of the text, cut after an entry's '}', copied between '[' and ']'
/// and parsed as an array of its own. A window that starts where an array
/// element may start and parses this way is a sequence of whole entries (an
/// object cannot end early: its last '}' is its own), so the text goes on
/// right after it.
class EntryWindows {
public:
  /// Bytes of text a window spans at most (the fuzz target's are small
  /// enough for its inputs to span several).
#ifdef LWP_FUZZ_SMALL_WINDOWS
  static constexpr size_t WindowBytes = 64;
#else
  static constexpr size_t WindowBytes = 256 << 10;
#endif

  /// Where a window of [P, End) ends: after its last '}' before P +
  /// WindowBytes, or, when that reaches End (the text's last window), after
  /// the last '}' that a ']' follows (the array's last entry). nullptr: no
  /// such '}'.
  static const char *cutAfter(const char *P, const char *End);

  /// Parses the entries of [P, Cut) (P the start of an array element, Cut
  /// from cutAfter), appends them to \p Out and returns true. False when the
  /// span holds anything but objects of exactly the members "ret" (below
  /// 2^32), "id" (below 2^31) and "cyc", integers from 0 to 2^64-1, with
  /// keys written without escapes, separated by commas: then \p Out is
  /// unchanged.
  bool parse(const char *P, const char *Cut, std::vector<TVMEntry> &Out);

private:
  simdjson::ondemand::parser Parser;
  std::vector<char> Buffer;
};

const char *EntryWindows::cutAfter(const char *P, const char *End) {
  const char *WindowEnd = P + std::min<size_t>(End - P, WindowBytes);
  if (WindowEnd != End) {
    const char *Last =
        static_cast<const char *>(memrchr(P, '}', WindowEnd - P));
    return Last ? Last + 1 : nullptr;
  }
  // The text's last window: the array's last entry ends in '}' then ']'.
  for (const char *Q = WindowEnd;;) {
    Q = static_cast<const char *>(memrchr(P, '}', Q - P));
    if (!Q)
      return nullptr;
    const char *R = Q + 1;
    while (R != End && isJSONSpace(*R))
      ++R;
    if (R != End && *R == ']')
      return Q + 1;
  }
}

bool EntryWindows::parse(const char *P, const char *Cut,
                         std::vector<TVMEntry> &Out) {
  size_t Length = Cut - P;
  Buffer.resize(Length + 2 + simdjson::SIMDJSON_PADDING);
  Buffer[0] = '[';
  memcpy(Buffer.data() + 1, P, Length);
  Buffer[Length + 1] = ']';
  size_t First = Out.size();
  auto reject = [&] {
    Out.resize(First);
    return false;
  };
  simdjson::ondemand::document Doc;
  simdjson::ondemand::array Array;
  if (Parser.iterate(Buffer.data(), Length + 2, Buffer.size()).get(Doc) ||
      Doc.get_array().get(Array))
    return reject();
  for (auto Element : Array) {
    simdjson::ondemand::object Object;
    if (Element.get_object().get(Object))
      return reject();
    uint64_t Value[3];
    unsigned Seen = 0;
    for (auto Member : Object) {
      simdjson::ondemand::field Field;
      if (std::move(Member).get(Field))
        return reject();
      // The raw key, up to its closing quote (the buffer is padded).
      const char *K = Field.key().raw();
      unsigned Slot;
      if (K[0] == 'r' && K[1] == 'e' && K[2] == 't' && K[3] == '"')
        Slot = 0;
      else if (K[0] == 'i' && K[1] == 'd' && K[2] == '"')
        Slot = 1;
      else if (K[0] == 'c' && K[1] == 'y' && K[2] == 'c' && K[3] == '"')
        Slot = 2;
      else
        return reject();
      if ((Seen >> Slot & 1) || Field.value().get_uint64().get(Value[Slot]))
        return reject();
      Seen |= 1u << Slot;
    }
    if (Seen != 7 || Value[0] > UINT32_MAX || Value[1] > LWP_ID_MASK)
      return reject();
    Out.push_back({Value[0], Value[1], Value[2]});
  }
  // Nothing after the array (the window held exactly the entries).
  if (Doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
    return reject();
  return true;
}

/// Windows parsed on two threads: the text from a position on is cut on a
/// fixed grid (window K ends at cutAfter(Start + K x WindowBytes), so any
/// thread finds a window's bounds alone). A helper thread parses the
/// windows ahead of the caller, which takes them in order and, rather than
/// wait for one, parses the next window nobody has started (so the two
/// share the work whatever else the caller does). A window counts only when the
/// one before it parsed (then it starts where an element may start: after that
/// window's last entry and a comma), so the first that does not ends the run
/// and the scanner goes on from there.
class ParallelWindows {
public:
  ParallelWindows(const char *Start, const char *End)
      : Start(Start), End(End), Helper([this] { help(); }) {}
  ~ParallelWindows() {
    {
      std::lock_guard<std::mutex> Lock(M);
      Stopped = true;
    }
    Changed.notify_all();
    Helper.join();
  }

  /// Where window 0 starts.
  const char *start() const { return Start; }
  /// The next window, parsed: its entries are swapped into \p Out and its
  /// end returned, or nullptr when it did not parse (then no later window
  /// may be asked for).
  const char *next(std::vector<TVMEntry> &Out);

private:
  static constexpr size_t Ahead = 8; ///< windows parsed ahead at most
  struct Slot {
    std::vector<TVMEntry> Entries;
    const char *Next = nullptr;
    bool Ready = false;
  };
  /// The end of window \p K on the grid, or nullptr.
  const char *cut(size_t K) const {
    size_t Offset = K * EntryWindows::WindowBytes;
    if (Offset >= size_t(End - Start))
      return nullptr;
    return EntryWindows::cutAfter(Start + Offset, End);
  }
  /// Parses window \p K into \p Out; its end or nullptr.
  const char *parse(size_t K, EntryWindows &W, std::vector<TVMEntry> &Out) {
    const char *P = Start;
    if (K) {
      // After the previous window's last entry: a comma, then an element.
      P = cut(K - 1);
      if (!P)
        return nullptr;
      while (P != End && isJSONSpace(*P))
        ++P;
      if (P == End || *P != ',')
        return nullptr;
      ++P;
      while (P != End && isJSONSpace(*P))
        ++P;
    }
#if defined(__unix__) && defined(MADV_POPULATE_READ)
    // Map the window's pages at once: cheaper than a fault every 16 pages
    // (and nothing to do for text in memory).
    uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
    uintptr_t Cell = uintptr_t(Start) + K * EntryWindows::WindowBytes;
    uintptr_t From = llvm::alignDown(Cell, Page);
    uintptr_t To = llvm::alignTo(
        std::min(uintptr_t(End), Cell + EntryWindows::WindowBytes), Page);
    madvise(reinterpret_cast<void *>(From), To - From, MADV_POPULATE_READ);
#endif
    const char *Cut = cut(K);
    if (!Cut || Cut <= P || !W.parse(P, Cut, Out))
      return nullptr;
    return Cut;
  }
  void help();

  const char *Start, *End;
  std::mutex M;
  std::condition_variable Changed;
  Slot Slots[Ahead];
  size_t Taken = 0;   ///< windows taken by next()
  size_t Claimed = 0; ///< windows started by either thread
  bool Stopped = false;
  EntryWindows Own; ///< the caller's parser
  std::vector<TVMEntry> Spare;
  std::thread Helper;
};

void ParallelWindows::help() {
  EntryWindows Mine;
  std::vector<TVMEntry> Entries;
  while (true) {
    size_t K;
    {
      std::unique_lock<std::mutex> Lock(M);
      Changed.wait(Lock, [&] { return Stopped || Claimed < Taken + Ahead; });
      if (Stopped)
        return;
      K = Claimed++;
    }
    Entries.clear();
    const char *Next = parse(K, Mine, Entries);
    {
      std::lock_guard<std::mutex> Lock(M);
      Slot &S = Slots[K % Ahead];
      std::swap(S.Entries, Entries);
      S.Next = Next;
      S.Ready = true;
    }
    Changed.notify_all();
    if (!Next)
      return; // no window after a failed one counts
  }
}

const char *ParallelWindows::next(std::vector<TVMEntry> &Out) {
  std::unique_lock<std::mutex> Lock(M);
  size_t K = Taken;
  Slot &S = Slots[K % Ahead];
  while (!S.Ready) {
    if (Claimed == Taken + Ahead) {
      Changed.wait(Lock);
      continue;
    }
    // Rather than wait, parse the next window nobody has started (this
    // one, when the helper is behind).
    size_t J = Claimed++;
    Lock.unlock();
    Spare.clear();
    const char *Next = parse(J, Own, Spare);
    Lock.lock();
    Slot &Done = Slots[J % Ahead];
    std::swap(Done.Entries, Spare);
    Done.Next = Next;
    Done.Ready = true;
  }
  std::swap(S.Entries, Out);
  const char *Next = S.Next;
  S.Ready = false;
  Taken = K + 1;
  Lock.unlock();
  Changed.notify_all();
  return Next;
}

/// Infers the map from the records as a pass hands them over, and counts
/// the return addresses outside the binary's functions.
class MapInference {
public:
  MapInference(const ProfiledBinary &Binary, uint64_t LoadBias, size_t NumIds)
      : Binary(Binary), LoadBias(LoadBias), Regions(NumIds) {}
  void record(const DumpRecord &R);
  InstrumentationMap finish(llvm::ArrayRef<uint64_t> Counts);
  uint64_t Outside = 0, FirstOutside = 0;

private:
  /// A site's function: an index into Binary.functions(), or, for a site no
  /// symbol covers, the site minus the load bias with the top bit set (its
  /// own pseudo-function, named by its address).
  static constexpr uint64_t NoSymbol = uint64_t(1) << 63;
  struct Info {
    uint64_t Function = 0;
    std::optional<uint32_t> Parent; // enclosing ID in the same function
    unsigned Level = 0;             // 0: function region
    unsigned Height = 0;
    bool Recorded = false;
    /// The last start and end site of the ID and their functions (an ID's
    /// sites rarely change: no hash lookup for them).
    uint64_t Site[2] = {~uint64_t(0), ~uint64_t(0)}, SiteFunction[2] = {0, 0};
  };
  uint64_t function(uint64_t Site);

  const ProfiledBinary &Binary;
  uint64_t LoadBias;
  std::vector<Info> Regions;                        // by ID
  std::vector<std::pair<uint32_t, uint64_t>> Stack; // ID, function
  llvm::DenseMap<uint64_t, uint64_t> Sites;         // site -> function
};

uint64_t MapInference::function(uint64_t Site) {
  auto [It, New] = Sites.try_emplace(Site, 0);
  if (New) {
    uint64_t Address = Site - LoadBias;
    SymbolizedSite S = Binary.symbolize(Address);
    It->second = S.Function ? uint64_t(S.Function - Binary.functions().data())
                            : (NoSymbol | Address);
  }
  return It->second;
}

void MapInference::record(const DumpRecord &R) {
  Info &In = Regions[R.Id];
  if (In.Site[R.IsEnd] != R.Site) {
    In.Site[R.IsEnd] = R.Site;
    In.SiteFunction[R.IsEnd] = function(R.Site);
  }
  uint64_t Function = In.SiteFunction[R.IsEnd];
  if ((Function & NoSymbol) && !Outside++)
    FirstOutside = R.Site;
  if (R.IsEnd) {
    if (!Stack.empty() && Stack.back().first == R.Id)
      Stack.pop_back();
    return;
  }
  if (!In.Recorded) {
    In.Recorded = true;
    In.Function = Function;
    // The nearest open region of the same function encloses it.
    for (auto Open = Stack.rbegin(); Open != Stack.rend(); ++Open)
      if (Open->second == Function) {
        In.Parent = Open->first;
        In.Level = Regions[Open->first].Level + 1;
        break;
      }
  }
  Stack.push_back({R.Id, Function});
}

InstrumentationMap MapInference::finish(llvm::ArrayRef<uint64_t> Counts) {
  // Heights from the inferred nest, deepest regions first.
  std::vector<std::pair<unsigned, uint32_t>> ByLevel;
  for (uint32_t Id = 0; Id != Regions.size(); ++Id)
    if (Regions[Id].Recorded && Regions[Id].Parent)
      ByLevel.push_back({Regions[Id].Level, Id});
  llvm::sort(ByLevel, std::greater<>());
  for (auto [Level, Id] : ByLevel) {
    Info &P = Regions[*Regions[Id].Parent];
    P.Height = std::max(P.Height, Regions[Id].Height + 1);
  }
  const std::vector<FunctionSymbol> &Functions = Binary.functions();
  InstrumentationMap Map;
  for (uint32_t Id = 0; Id != Regions.size(); ++Id) {
    const Info &In = Regions[Id];
    // Regions that ran (loop_counts) but have no entry: TVM's buffer was
    // full before they first ran. Their function is unknown.
    bool Unrecorded = !In.Recorded && Id < Counts.size() && Counts[Id];
    if (!In.Recorded && !Unrecorded)
      continue;
    RegionEntry E;
    E.Id = Id;
    if (Unrecorded)
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

/// What a pass over the text found.
struct PassResult {
  uint64_t NumEntries = 0;
  /// The largest ID and the first entry that has it.
  uint32_t MaxId = 0;
  uint64_t MaxIdEntry = 0;
  /// The file's loop_counts (the first array of that name).
  bool HaveCounts = false;
  std::vector<uint64_t> Counts;
};

/// One pass over a TVM lwp.json: checks it and hands each entry, as a
/// record (start or end by alternation per ID), to the map inference and,
/// encoded (lwp_record32) in runs of RunRecords, to a consumer of record
/// runs (DumpThread::forEachRecordRun's).
class TVMPass {
public:
  using Runs = llvm::function_ref<bool(llvm::StringRef)>;
  /// Records of IDs from \p IdBound on are not handed over; \p Infer and
  /// \p OnRuns may be null; \p ReleaseRead: \p Text is a read-only file
  /// mapping whose pages may be dropped once read.
  TVMPass(llvm::StringRef Text, llvm::StringRef Name, bool ReleaseRead,
          uint64_t IdBound, MapInference *Infer, Runs OnRuns)
      : Name(Name), S(Text), Releaser(Text, ReleaseRead), IdBound(IdBound),
        Infer(Infer), OnRuns(OnRuns), Feeding(bool(OnRuns)) {
    if (Feeding)
      Run.resize(RunRecords * sizeof(lwp_record32));
  }

  /// Errors, in this order: not JSON, no "entries" array, the first entry
  /// or count with a value TVM does not write.
  llvm::Error run();
  const PassResult &result() const { return Result; }

  /// Entries arrays from this size on are parsed on two threads
  /// (ParallelWindows) while the calling thread takes the entries
  /// (alternation, map inference, the analysis).
#ifdef LWP_FUZZ_SMALL_WINDOWS
  static constexpr size_t ThreadedBytes = 256;
#else
  static constexpr size_t ThreadedBytes = 4 << 20;
#endif

private:
  llvm::Error fail(const llvm::Twine &What) const {
    return createStringError("TVM profile '" + Name + "': " + What);
  }
  /// Walks the text; false on a syntax error (S has it).
  bool parse();
  bool entries();
  bool entry();
  bool count();
  /// Accepts the entries of Batch, then \p E when given.
  void emit(const TVMEntry *E = nullptr);
  void accept(uint64_t Index, uint64_t Ret, uint64_t Id, uint64_t Cyc);
  bool isOpen(uint32_t Id) const {
    return Id < DenseIds ? OpenBits[Id / 64] >> (Id % 64) & 1
                         : OpenSparse.contains(Id);
  }
  void setOpen(uint32_t Id, bool Open) {
    if (Id < DenseIds) {
      if (Open)
        OpenBits[Id / 64] |= uint64_t(1) << (Id % 64);
      else
        OpenBits[Id / 64] &= ~(uint64_t(1) << (Id % 64));
    } else if (Open) {
      OpenSparse.insert(Id);
    } else {
      OpenSparse.erase(Id);
    }
  }

  /// Hands the records of Run over (unless the consumer stopped).
  void flush() {
    if (Feeding && RunSize)
      Feeding = OnRuns(llvm::StringRef(Run.data(), RunSize));
    RunSize = 0;
  }

  static constexpr uint32_t DenseIds = 1 << 20;
  /// Records a run holds (1 MiB).
  static constexpr size_t RunRecords = 1 << 16;
  llvm::StringRef Name;
  JSONScanner S;
  PageReleaser Releaser;
  uint64_t IdBound;
  MapInference *Infer;
  Runs OnRuns;
  bool Feeding;
  std::vector<char> Run;
  size_t RunSize = 0;
  PassResult Result;
  bool HaveEntries = false;
  std::optional<llvm::Error> Bad; // a semantic error, reported after syntax
  // Open instances per ID (TVM writes no start/end flag: an ID's entries
  // alternate).
  std::vector<uint64_t> OpenBits = std::vector<uint64_t>(DenseIds / 64);
  llvm::DenseSet<uint32_t> OpenSparse;
  EntryWindows Windows;
  /// Entries parsed, not yet handed on, and how many were parsed.
  std::vector<TVMEntry> Batch;
  uint64_t Parsed = 0;
};

void TVMPass::emit(const TVMEntry *E) {
  if (E)
    Batch.push_back(*E);
  for (const TVMEntry &Each : Batch)
    accept(Result.NumEntries++, Each.Ret, Each.Id, Each.Cyc);
  Batch.clear();
}

/// Entry \p Index, checked.
void TVMPass::accept(uint64_t Index, uint64_t Ret, uint64_t Id, uint64_t Cyc) {
  uint32_t Word = uint32_t(Id);
  if (Index == 0 || Word > Result.MaxId) {
    Result.MaxId = Word;
    Result.MaxIdEntry = Index;
  }
  bool IsEnd = isOpen(Word);
  setOpen(Word, !IsEnd);
  if (Word >= IdBound)
    return;
  if (Infer)
    Infer->record(DumpRecord{Ret, Word, IsEnd, Cyc});
  if (!Feeding)
    return;
  char *P = Run.data() + RunSize;
  llvm::support::endian::write32le(P, uint32_t(Ret));
  llvm::support::endian::write32le(P + 4, Word | (IsEnd ? LWP_ID_END_BIT : 0));
  llvm::support::endian::write64le(P + 8, Cyc);
  RunSize += sizeof(lwp_record32);
  if (RunSize == Run.size())
    flush();
}

bool TVMPass::entry() {
  uint64_t Index = Parsed++;
  uint64_t Field[3] = {0, 0, 0};
  bool Seen[3] = {false, false, false};
  auto member = [&](llvm::StringRef Key) -> bool {
    int K = Key == "ret" ? 0 : Key == "id" ? 1 : Key == "cyc" ? 2 : -1;
    if (K < 0)
      return S.skipValue(4);
    if (S.peek() != '-' && !llvm::isDigit(S.peek())) {
      Seen[K] = false;
      return S.skipValue(4);
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
    return S.skipValue(3);
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
  TVMEntry E{Field[0], Field[1], Field[2]};
  emit(&E);
  Releaser.consumed(S.position());
  return true;
}

bool TVMPass::entries() {
  if (!S.expect('['))
    return false;
  if (S.consume(']'))
    return true;
  S.skipSpace();
  if (!Bad && size_t(S.end() - S.position()) >= ThreadedBytes &&
      std::thread::hardware_concurrency() > 1) {
    // Windows on two threads, as long as they parse; the rest as below.
    ParallelWindows Parallel(S.position(), S.end());
    while (true) {
      const char *Next = Parallel.next(Batch);
      if (!Next) {
        Batch.clear();
        break;
      }
      Parsed += Batch.size();
      emit();
      Releaser.consumed(Next);
      S.seek(Next);
      if (S.peek() == ']')
        return S.expect(']');
      if (S.peek() != ',')
        break;
      // The scanner resumes after the window (at its ',') when the next
      // one fails.
    }
    if (S.consume(','))
      S.skipSpace();
    else if (S.position() != Parallel.start())
      return S.expect(']');
  }
  // Entries before this position are read by the scanner (a window that
  // simdjson did not take).
  const char *ScannerUntil = S.position();
  while (true) {
    S.skipSpace();
    if (!Bad && S.position() >= ScannerUntil) {
      const char *Cut = EntryWindows::cutAfter(S.position(), S.end());
      if (Cut && Windows.parse(S.position(), Cut, Batch)) {
        Parsed += Batch.size();
        emit();
        Releaser.consumed(Cut);
        S.seek(Cut);
        if (S.consume(','))
          continue;
        return S.expect(']');
      }
      ScannerUntil =
          Cut ? Cut
              : S.position() + std::min<size_t>(S.end() - S.position(),
                                                EntryWindows::WindowBytes);
    }
    if (!entry())
      return false;
    if (!S.consume(','))
      return S.expect(']');
  }
}

bool TVMPass::count() {
  if (S.peek() != '-' && !llvm::isDigit(S.peek())) {
    if (!Bad)
      Bad = fail("\"loop_counts\" holds a value that is not a count");
    return S.skipValue(3);
  }
  uint64_t V;
  bool IsInteger, Negative;
  if (!S.number(V, IsInteger, Negative))
    return false;
  if ((!IsInteger || (Negative && V)) && !Bad)
    Bad = fail("\"loop_counts\" holds a value that is not a count");
  Result.Counts.push_back(V);
  return true;
}

bool TVMPass::parse() {
  bool Ok;
  if (S.peek() != '{') {
    Ok = S.skipValue(1);
  } else {
    Ok = S.object([&](llvm::StringRef Key) -> bool {
      if (Key == "entries" && S.peek() == '[' && !HaveEntries) {
        HaveEntries = true;
        return entries();
      }
      if (Key == "loop_counts" && S.peek() == '[' && !Result.HaveCounts) {
        Result.HaveCounts = true;
        return S.array([&] { return count(); });
      }
      return S.skipValue(2);
    });
  }
  if (Ok && !S.atEnd())
    S.fail("text after the JSON value");
  if (!Bad)
    emit();
  return !S.failed();
}

llvm::Error TVMPass::run() {
  parse();
  if (S.failed()) {
    if (Bad)
      llvm::consumeError(std::move(*Bad));
    return fail("not JSON: " + S.error());
  }
  if (!HaveEntries) {
    if (Bad)
      llvm::consumeError(std::move(*Bad));
    return fail("no \"entries\" array (not a TVM lwp.json)");
  }
  if (Bad)
    return std::move(*Bad);
  flush();
  return llvm::Error::success();
}

/// The count table of a pass: the file's loop_counts, or zeros up to the
/// largest ID when it has none. Errors: IDs TVM cannot have written.
llvm::Expected<std::vector<uint64_t>> countTable(const PassResult &R,
                                                 llvm::StringRef Name) {
  auto fail = [&](const llvm::Twine &What) -> llvm::Error {
    return createStringError("TVM profile '" + Name + "': " + What);
  };
  // TVM numbers its loops from 0 with one counter per model: an ID far
  // beyond the number of entries is not one (and would size the count
  // table).
  uint64_t MaxTVMId = R.NumEntries + R.Counts.size() + 1024;
  if (R.NumEntries && R.MaxId > MaxTVMId)
    return fail("entry " + llvm::Twine(R.MaxIdEntry) + " has ID " +
                llvm::Twine(R.MaxId) + ", outside 0.." + llvm::Twine(MaxTVMId) +
                " (TVM numbers its loops densely from 0)");
  // TVM's runtime counts every ID in its table (loop_counts): an entry of an
  // ID beyond it is not TVM's.
  if (R.HaveCounts && R.NumEntries && R.MaxId >= R.Counts.size())
    return fail("entry " + llvm::Twine(R.MaxIdEntry) + " has ID " +
                llvm::Twine(R.MaxId) + ", beyond the " +
                llvm::Twine(R.Counts.size()) +
                " counts of \"loop_counts\" (TVM counts every ID it records)");
  if (R.Counts.size() > UINT32_MAX)
    return fail("\"loop_counts\" has more than 2^32-1 counts");
  std::vector<uint64_t> Counts = R.Counts;
  if (Counts.empty() && R.NumEntries)
    Counts.assign(R.MaxId + 1, 0);
  return Counts;
}

/// The file's loop_counts when they can be read without the entries: a
/// member before "entries", or (TVM's layout) the last member of the
/// top-level object, found from the end of the text. None when neither
/// (then a pass learns them). A pass checks them: the count table of the
/// analysis is always the pass's.
std::optional<std::vector<uint64_t>> findCounts(llvm::StringRef Text) {
  auto counts = [](JSONScanner &S) -> std::optional<std::vector<uint64_t>> {
    std::vector<uint64_t> Counts;
    bool Ok = S.array([&] {
      uint64_t V;
      bool IsInteger, Negative;
      if (!S.number(V, IsInteger, Negative) || !IsInteger || (Negative && V))
        return false;
      Counts.push_back(V);
      return true;
    });
    if (!Ok)
      return std::nullopt;
    return Counts;
  };
  JSONScanner S(Text);
  if (!S.consume('{'))
    return std::nullopt;
  llvm::StringRef Key;
  std::string Storage;
  do {
    if (!S.string(Key, Storage) || !S.expect(':'))
      return std::nullopt;
    if (Key == "entries" && S.peek() == '[')
      break;
    if (Key == "loop_counts" && S.peek() == '[')
      return counts(S);
    if (!S.skipValue(2))
      return std::nullopt;
  } while (S.consume(','));
  // From the end: '"loop_counts" : [ counts ] }'.
  const char *Begin = S.position(), *P = Text.end();
  auto back = [&](char C) {
    while (P != Begin && isJSONSpace(P[-1]))
      --P;
    if (P == Begin || P[-1] != C)
      return false;
    --P;
    return true;
  };
  if (!back('}') || !back(']'))
    return std::nullopt;
  const char *Close = P;
  while (P != Begin && (llvm::isDigit(P[-1]) || P[-1] == ',' || P[-1] == '-' ||
                        isJSONSpace(P[-1])))
    --P;
  if (!back('['))
    return std::nullopt;
  const char *Open = P;
  constexpr llvm::StringLiteral Quoted = "\"loop_counts\"";
  if (!back(':'))
    return std::nullopt;
  while (P != Begin && isJSONSpace(P[-1]))
    --P;
  if (size_t(P - Begin) < Quoted.size() ||
      llvm::StringRef(P - Quoted.size(), Quoted.size()) != Quoted)
    return std::nullopt;
  P -= Quoted.size();
  if (!back(','))
    return std::nullopt;
  JSONScanner Counts(llvm::StringRef(Open, Close + 1 - Open));
  std::optional<std::vector<uint64_t>> C = counts(Counts);
  if (C && !Counts.atEnd())
    return std::nullopt;
  return C;
}

/// The dump of a TVM file: a version 1 header (TVM's IDs are its own,
/// program-wide, with no modules), the count table and one thread whose
/// records are streamed (Dump::streamThread).
llvm::Expected<Dump> makeDump(llvm::ArrayRef<uint64_t> Counts,
                              llvm::StringRef Name) {
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
  append<uint64_t>(Header, 0); // records: streamed
  return Dump::parse(llvm::MemoryBuffer::getMemBufferCopy(Header, Name));
}

} // namespace

/// The records of a TVM text, parsed again on each read.
static RecordStream recordStream(llvm::StringRef Text, llvm::StringRef Name,
                                 bool ReleaseRead, uint64_t IdBound,
                                 std::shared_ptr<const void> Keep) {
  return [Text, Name = Name.str(), ReleaseRead, IdBound,
          Keep](llvm::function_ref<bool(llvm::StringRef)> F) {
    TVMPass Pass(Text, Name, ReleaseRead, IdBound, nullptr, F);
    return Pass.run();
  };
}

static llvm::Expected<TVMReport>
analyzeTVM(llvm::StringRef Text, llvm::StringRef Name, bool ReleaseRead,
           std::shared_ptr<const void> Keep, const ProfiledBinary &Binary,
           uint64_t LoadBias, const ProfileOptions &Options) {
  std::optional<std::vector<uint64_t>> Counts = findCounts(Text);
  if (!Counts) {
    // A pass to learn the count table, then one that analyzes.
    TVMPass Check(Text, Name, ReleaseRead, 0, nullptr, nullptr);
    if (llvm::Error E = Check.run())
      return std::move(E);
    llvm::Expected<std::vector<uint64_t>> C = countTable(Check.result(), Name);
    if (!C)
      return C.takeError();
    Counts = std::move(*C);
  }
  while (true) {
    llvm::Expected<Dump> D = makeDump(*Counts, Name);
    if (!D)
      return D.takeError();
    // The analysis runs with a map of every ID of the count table (the
    // records' IDs must be below it); the inferred map replaces it after.
    size_t NumIds = Counts->size();
    InstrumentationMap AllIds;
    for (size_t Id = 0; Id != NumIds; ++Id) {
      RegionEntry E;
      E.Id = uint32_t(Id);
      AllIds.add(std::move(E));
    }
    MapInference Infer(Binary, LoadBias, NumIds);
    PassResult Result;
    D->streamThread(0, 0, [&](llvm::function_ref<bool(llvm::StringRef)> F) {
      TVMPass Pass(Text, Name, ReleaseRead, NumIds, &Infer, F);
      llvm::Error E = Pass.run();
      Result = Pass.result();
      return E;
    });
    llvm::Expected<Profile> P = analyze(*D, AllIds, Options);
    if (!P)
      return P.takeError();
    llvm::Expected<std::vector<uint64_t>> Final = countTable(Result, Name);
    if (!Final)
      return Final.takeError();
    if (*Final != *Counts) {
      // The count table found before the pass was not the file's.
      Counts = std::move(*Final);
      continue;
    }
    D->streamThread(0, Result.NumEntries,
                    recordStream(Text, Name, ReleaseRead, NumIds, Keep));
    TVMReport R{std::move(*D),     Infer.finish(*Counts), std::move(*P),
                Result.NumEntries, Infer.Outside,         Infer.FirstOutside};
    rebindTVMProfile(R.P, R.Map);
    return std::move(R);
  }
}

llvm::Expected<TVMReport> lwp::analyzeTVMJSON(llvm::StringRef Text,
                                              llvm::StringRef Name,
                                              const ProfiledBinary &Binary,
                                              uint64_t LoadBias,
                                              const ProfileOptions &Options) {
  return analyzeTVM(Text, Name, /*ReleaseRead=*/false, nullptr, Binary,
                    LoadBias, Options);
}

llvm::Expected<TVMReport> lwp::analyzeTVMFile(llvm::StringRef Path,
                                              const ProfiledBinary &Binary,
                                              uint64_t LoadBias,
                                              const ProfileOptions &Options) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      readInputFile(Path, "TVM profile", MaxTVMJSONBytes);
  if (!Buffer)
    return Buffer.takeError();
  std::shared_ptr<const llvm::MemoryBuffer> Owned = std::move(*Buffer);
  bool Mapped = Owned->getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap;
  return analyzeTVM(Owned->getBuffer(), Owned->getBufferIdentifier(), Mapped,
                    Owned, Binary, LoadBias, Options);
}

void lwp::rebindTVMProfile(Profile &P, const InstrumentationMap &Map) {
  llvm::erase_if(P.Regions, [&](RegionProfile &R) {
    R.Entry = Map.lookup(R.Id);
    return !R.Entry;
  });
}
