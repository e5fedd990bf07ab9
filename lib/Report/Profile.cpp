//===- Profile.cpp - Per-region statistics from a dump --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Profile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <thread>

using namespace lwp;
using llvm::createStringError;

const RegionProfile *Profile::lookup(uint32_t Id) const {
  auto It = llvm::partition_point(
      Regions, [Id](const RegionProfile &R) { return R.Id < Id; });
  return It != Regions.end() && It->Id == Id ? &*It : nullptr;
}

uint64_t RegionProfile::instanceFigure(uint64_t Cycles, bool *Marked) const {
  if (Marked)
    *Marked = false;
  if (CyclesUnknown)
    return Cycles;
  uint64_t Total = uint64_t(std::llround(TotalCycles));
  if (Cycles <= Total)
    return Cycles;
  // A region executed once whose figures are exact (its one instance is
  // the total: useExactSingleInstances) is not marked; otherwise the
  // instance is among those that made the region's figures inexact.
  if (Marked)
    *Marked = InstancesClamped && double(Cycles) >= TotalCycles + 1.0;
  return Total;
}

namespace {
/// An open instance on a thread's stack.
struct Frame {
  uint32_t Id;
  uint32_t Row; ///< index of the region in the map
  uint64_t StartCycles;
  uint64_t StartSite;
  /// Its position on the runtime's stack (0 unknown).
  uint32_t Depth = 0;
  /// Instances recorded inside this one, at any depth.
  uint64_t Descendants = 0;
  /// Inclusive cycles of the instances directly inside this one.
  uint64_t ChildInclusive = 0;
};

/// Per-instance cycles kept for the median and p90: every instance up to
/// ReservoirSize, then a uniform sample of that size (Vitter's algorithm R
/// with a fixed-seed xorshift generator, so reports are reproducible, and
/// Lemire's multiply-shift for the draw in [0, samples): no division).
/// Memory stays bounded per region whatever the number of records.
constexpr size_t ReservoirSize = 4096;

/// Instances this long or longer cannot be real (15 years at 10 GHz).
constexpr uint64_t MaxInstanceTicks = uint64_t(1) << 62;
/// Counts this large cannot be real (29 years at one execution a cycle at
/// 10 GHz).
constexpr uint64_t MaxCount = uint64_t(1) << 63;

/// Per-region accumulation while the threads are walked.
struct Accumulator {
  std::vector<uint64_t> Reservoir;
  uint64_t Samples = 0, Sum = 0, Min = UINT64_MAX, Max = 0;
  uint64_t Repaired = 0;
  /// Instances that went backwards or lasted 2^62 ticks or more; records
  /// with counter 0 (version 2).
  uint64_t Backwards = 0, ZeroCounters = 0;
  /// Longest instance closed by its own end record (not by repair).
  uint64_t MaxMatched = 0;
  uint64_t StartSite = 0, EndSite = 0;
  uint64_t Rng = 0x9e3779b97f4a7c15ull;
  /// Recorded instances per dynamic parent region, keyed by parent row + 1
  /// (0: no parent); usually one or two entries.
  llvm::SmallVector<std::pair<uint32_t, uint64_t>, 2> Parents;

  LLVM_ATTRIBUTE_ALWAYS_INLINE void add(uint64_t Cycles) {
    ++Samples;
    if (__builtin_add_overflow(Sum, Cycles, &Sum)) {
      Sum = UINT64_MAX; // only with instances near 2^62 ticks, flagged
      ++Backwards;
    }
    Min = std::min(Min, Cycles);
    Max = std::max(Max, Cycles);
    if (Samples <= ReservoirSize) {
      Reservoir.push_back(Cycles);
      return;
    }
    uint64_t J = uint64_t((unsigned __int128)next() * Samples >> 64);
    if (J < ReservoirSize)
      Reservoir[J] = Cycles;
  }

  void addParent(uint32_t Key) {
    if (LLVM_LIKELY(!Parents.empty() && Parents[0].first == Key)) {
      ++Parents[0].second;
      return;
    }
    for (auto &[K, N] : Parents)
      if (K == Key) {
        ++N;
        return;
      }
    Parents.push_back({Key, 1});
  }

  /// The next draw of the xorshift generator.
  uint64_t next() {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return Rng;
  }

  /// Adds the instances of \p B, which ran after this one's, as if one
  /// accumulator had seen them all; the reservoir becomes a uniform sample
  /// (without replacement) of both: how many come from each side is drawn
  /// as sequential draws from the two populations, then that many of each
  /// reservoir (partial Fisher-Yates). B is left empty.
  void merge(Accumulator &B) {
    if (!B.Samples)
      return;
    if (!Samples) {
      // Nothing to draw from on this side: B as it is.
      std::swap(*this, B);
      return;
    }
    if (__builtin_add_overflow(Sum, B.Sum, &Sum)) {
      Sum = UINT64_MAX;
      ++Backwards;
    }
    Min = std::min(Min, B.Min);
    Max = std::max(Max, B.Max);
    Repaired += B.Repaired;
    Backwards += B.Backwards;
    ZeroCounters += B.ZeroCounters;
    MaxMatched = std::max(MaxMatched, B.MaxMatched);
    if (!StartSite)
      StartSite = B.StartSite;
    if (!EndSite)
      EndSite = B.EndSite;
    for (const auto &Entry : B.Parents) {
      auto It = llvm::find_if(
          Parents, [&](const auto &E) { return E.first == Entry.first; });
      if (It != Parents.end())
        It->second += Entry.second;
      else
        Parents.push_back(Entry);
    }
    uint64_t Left = Samples, Right = B.Samples;
    Samples += B.Samples;
    if (Samples <= ReservoirSize) {
      llvm::append_range(Reservoir, B.Reservoir);
      return;
    }
    size_t FromLeft = 0;
    for (size_t I = 0; I != ReservoirSize; ++I) {
      if (uint64_t((unsigned __int128)next() * (Left + Right) >> 64) < Left) {
        ++FromLeft;
        --Left;
      } else {
        --Right;
      }
    }
    std::vector<uint64_t> Out;
    Out.reserve(ReservoirSize);
    auto take = [&](std::vector<uint64_t> &V, size_t K) {
      for (size_t I = 0; I != K; ++I) {
        size_t J =
            I + uint64_t((unsigned __int128)next() * (V.size() - I) >> 64);
        std::swap(V[I], V[J]);
        Out.push_back(V[I]);
      }
    };
    take(Reservoir, FromLeft);
    take(B.Reservoir, ReservoirSize - FromLeft);
    Reservoir = std::move(Out);
  }
};

/// Region ID -> row of the map: a table indexed by ID when the IDs are dense
/// enough, else a hash map.
class RowIndex {
public:
  static constexpr uint32_t None = UINT32_MAX;
  explicit RowIndex(const InstrumentationMap &Map) {
    const std::vector<RegionEntry> &E = Map.entries();
    uint64_t MaxId = E.empty() ? 0 : E.back().Id;
    Dense = MaxId < (uint64_t(1) << 22) || MaxId < 16 * E.size();
    if (Dense) {
      Table.assign(MaxId + 1, None);
      for (uint32_t R = 0; R != E.size(); ++R)
        Table[E[R].Id] = R;
    } else {
      for (uint32_t R = 0; R != E.size(); ++R)
        Sparse[E[R].Id] = R;
    }
  }
  /// The table by ID when the IDs are dense (lookup() is then
  /// Id < size ? Table[Id] : None), else empty.
  llvm::ArrayRef<uint32_t> table() const {
    return Dense ? llvm::ArrayRef(Table) : llvm::ArrayRef<uint32_t>();
  }
  uint32_t lookup(uint32_t Id) const {
    if (LLVM_LIKELY(Dense))
      return Id < Table.size() ? Table[Id] : None;
    auto It = Sparse.find(Id);
    return It == Sparse.end() ? None : It->second;
  }

private:
  bool Dense;
  std::vector<uint32_t> Table;
  llvm::DenseMap<uint32_t, uint32_t> Sparse;
};

/// Matches one thread's records into instances with a stack of open ones,
/// and adds each closed instance to its region's accumulator. The walk keeps
/// the stack's top in a local (the compiler keeps it in a register): the
/// common records (a start, the end of the top instance) take an inlined
/// path; repairs and unmatched ends take loops beside it.
class ThreadWalk {
public:
  ThreadWalk(Profile &P, std::vector<Accumulator> &Acc, const RowIndex &Rows,
             const ProfileOptions &Options, bool V2, size_t ThreadIndex,
             uint64_t ThreadId)
      : P(P), Acc(Acc), Rows(Rows), Options(Options), V2(V2),
        ThreadIndex(ThreadIndex), ThreadId(ThreadId),
        PairTicks(uint64_t(P.PairCost)), NestedTicks(uint64_t(P.NestedCost)),
        Frames(64) {
    // The sentinel below the stack: no depth, so that no start or end closes
    // it, and row None, so that no end matches it and an instance directly
    // on it gets parent key None + 1 = 0 (no parent).
    Frames[0] = {0, RowIndex::None, 0, 0, 0};
  }

  /// Walks the records in \p Bytes, \p RecordSize bytes each; false (and
  /// BadId set) at a record whose ID is not in the map.
  template <unsigned RecordSize> bool walk(llvm::StringRef Bytes) {
    const uint64_t LoadBias = Options.LoadBias;
    const uint32_t *Table = Rows.table().data();
    const size_t TableSize = Rows.table().size();
    // The stack Fr[1 .. Top] of Cap frames (Fr[0]: the sentinel), in locals.
    Frame *Fr = Frames.data();
    size_t Top = Open, Cap = Frames.size();
    uint64_t Last = LastCycles;
    auto push = [&](const Frame &F) {
      if (LLVM_UNLIKELY(Top + 1 == Cap)) {
        Frames.resize(2 * Cap);
        Fr = Frames.data();
        Cap = Frames.size();
      }
      Fr[++Top] = F;
    };
    bool Done = true;
    for (const char *Ptr = Bytes.begin(); Ptr != Bytes.end();
         Ptr += RecordSize) {
      DumpRecord R = decodeRecord(Ptr, RecordSize);
      // ID 0 is never a region: a probe of a module that did not register,
      // or a resume record (docs/dump-format.md): the instances above its
      // depth were left by a non-local exit and ended where control resumed.
      if (LLVM_UNLIKELY(R.Id == 0) && V2) {
        if (!R.IsEnd && R.Depth)
          while (Fr[Top].Depth > R.Depth)
            closeTop(Fr, Top, R.Cycles, R.Site - LoadBias,
                     /*Repaired=*/false, /*Unwound=*/true);
        continue;
      }
      uint32_t Row = LLVM_LIKELY(Table)
                         ? R.Id < TableSize ? Table[R.Id] : RowIndex::None
                         : Rows.lookup(R.Id);
      if (LLVM_UNLIKELY(Row == RowIndex::None)) {
        BadId = R.Id;
        Done = false;
        break;
      }
      uint64_t Site = R.Site - LoadBias;
      Last = R.Cycles;
      if (LLVM_UNLIKELY(R.Cycles == 0) && V2)
        ++Acc[Row].ZeroCounters;
      if (R.Depth) {
        // The record says where its instance sat on the runtime's stack.
        // The common cases first: a start above the top instance, the end of
        // the top instance.
        if (!R.IsEnd && LLVM_LIKELY(Fr[Top].Depth < R.Depth)) {
          push({R.Id, Row, R.Cycles, Site, R.Depth});
          continue;
        }
        if (R.IsEnd &&
            LLVM_LIKELY(Fr[Top].Depth == R.Depth && Fr[Top].Row == Row)) {
          closeTop(Fr, Top, R.Cycles, Site, /*Repaired=*/false);
          continue;
        }
        // Recorded instances at or above a start's position, or above an
        // end's, were left without their end probe (the runtime closed them
        // there).
        uint32_t Keep = R.IsEnd ? R.Depth : R.Depth - 1;
        while (Fr[Top].Depth > Keep)
          closeTop(Fr, Top, R.Cycles, Site, /*Repaired=*/true);
        if (!R.IsEnd) {
          push({R.Id, Row, R.Cycles, Site, R.Depth});
          continue;
        }
        if (Fr[Top].Depth == R.Depth && Fr[Top].Row == Row)
          closeTop(Fr, Top, R.Cycles, Site, /*Repaired=*/false);
        else
          ++P.UnmatchedEnds; // its start was not recorded (cap)
        continue;
      }
      if (!R.IsEnd) {
        push({R.Id, Row, R.Cycles, Site});
        continue;
      }
      if (LLVM_LIKELY(Fr[Top].Row == Row)) {
        closeTop(Fr, Top, R.Cycles, Site, /*Repaired=*/false);
        continue;
      }
      // An end that does not close the top instance closes the innermost
      // open instance of its region, and the ones above it that lost their
      // end (flagged), or is unmatched.
      size_t Match = Top;
      while (Match && Fr[Match].Row != Row)
        --Match;
      if (!Match) {
        ++P.UnmatchedEnds;
        continue;
      }
      while (Top > Match)
        closeTop(Fr, Top, R.Cycles, Site, /*Repaired=*/true);
      closeTop(Fr, Top, R.Cycles, Site, /*Repaired=*/false);
    }
    Open = Top;
    LastCycles = Last;
    return Done;
  }

  /// Closes the instances still open when the records end, at the last
  /// record.
  void finish() {
    while (Open)
      closeTop(Frames.data(), Open, LastCycles, 0, /*Repaired=*/true);
  }

  /// Closes the instances still open as a start of depth 1 at \p Cycles,
  /// \p Site would (where a split walk starts the next part); false, and
  /// nothing closed, when one of them has no depth (such a start would not
  /// close it).
  bool closeAllAt(uint64_t Cycles, uint64_t Site) {
    for (size_t I = 1; I <= Open; ++I)
      if (!Frames[I].Depth)
        return false;
    while (Open)
      closeTop(Frames.data(), Open, Cycles, Site, /*Repaired=*/true);
    return true;
  }

  std::optional<uint32_t> BadId;

private:
  /// Pops the top instance Fr[Top] of the stack (Fr is Frames.data()),
  /// ended at \p EndCycles by the record at \p EndSite (or closed by
  /// repair; or, \p Unwound, by a resume record: exact, but not at the
  /// region's end site).
  LLVM_ATTRIBUTE_ALWAYS_INLINE void closeTop(Frame *Fr, size_t &Top,
                                             uint64_t EndCycles,
                                             uint64_t EndSite, bool Repaired,
                                             bool Unwound = false) {
    const Frame &F = Fr[Top--];
    Accumulator &A = Acc[F.Row];
    // A counter does not go backwards, and no instance lasts 2^62 ticks
    // (15 years at 10 GHz): such an instance counts with 0 cycles.
    uint64_t Raw = EndCycles - F.StartCycles;
    if (LLVM_UNLIKELY(EndCycles < F.StartCycles || Raw >= MaxInstanceTicks)) {
      Raw = 0;
      ++A.Backwards;
    }
    uint64_t Overhead = PairTicks + NestedTicks * F.Descendants;
    uint64_t Incl = Raw > Overhead ? Raw - Overhead : 0;
    // The calibrated costs are typical, not exact, figures: a correction
    // never makes an instance shorter than its recorded children.
    Incl = std::max(Incl, std::min(Raw, F.ChildInclusive));
    A.add(Incl);
    if (LLVM_UNLIKELY(Repaired)) {
      ++A.Repaired;
      ++P.RepairedInstances;
    } else {
      A.MaxMatched = std::max(A.MaxMatched, Incl);
      if (LLVM_UNLIKELY(!A.EndSite) && !Unwound)
        A.EndSite = EndSite;
    }
    if (LLVM_UNLIKELY(!A.StartSite))
      A.StartSite = F.StartSite;
    Frame &Parent = Fr[Top]; // the sentinel when there is none
    A.addParent(Parent.Row + 1);
    Parent.Descendants += 1 + F.Descendants;
    Parent.ChildInclusive += Incl;
    if (LLVM_UNLIKELY(Reporting))
      report(F, Top, Incl, Raw, Repaired);
  }

  /// Calls OnInstance for the instance \p F just popped, inside the open
  /// instances Frames[1 .. Top].
  LLVM_ATTRIBUTE_NOINLINE void report(const Frame &F, size_t Top, uint64_t Incl,
                                      uint64_t Raw, bool Repaired) {
    Path.clear();
    for (size_t I = 1; I <= Top; ++I)
      Path.push_back(Frames[I].Id);
    uint64_t Self = Incl > F.ChildInclusive ? Incl - F.ChildInclusive : 0;
    Options.OnInstance({ThreadIndex, ThreadId, F.Id, F.StartCycles, Incl, Raw,
                        Self, Path, Repaired});
  }

  Profile &P;
  std::vector<Accumulator> &Acc;
  const RowIndex &Rows;
  const ProfileOptions &Options;
  /// Options.OnInstance is set.
  bool Reporting = bool(Options.OnInstance);
  bool V2;
  size_t ThreadIndex;
  uint64_t ThreadId;
  /// The calibrated costs, in whole ticks.
  uint64_t PairTicks, NestedTicks;
  uint64_t LastCycles = 0;
  /// The open instances: Frames[1 .. Open] above the sentinel Frames[0],
  /// innermost last (during a walk, its local Top replaces Open).
  std::vector<Frame> Frames;
  size_t Open = 0;
  std::vector<uint32_t> Path;
};

/// Records a part of a thread's walk has at least when the walk is split
/// over several threads (ProfileOptions::Threads).
#ifdef LWP_FUZZ_SMALL_WINDOWS
constexpr uint64_t PartRecords = 2; // the fuzz targets' inputs reach it
#else
constexpr uint64_t PartRecords = uint64_t(1) << 20;
#endif

/// A start record of depth 1: no instance stays open across it (a runtime's
/// version 2 records give every instance its depth), so the walk can start
/// anew there.
struct TopLevelStart {
  uint64_t Index, Cycles, Site;
};

/// The first start of depth 1 among the records [From, End) of \p T
/// (24-byte records), if any.
llvm::Expected<std::optional<TopLevelStart>>
findTopLevelStart(const DumpThread &T, uint64_t From, uint64_t End) {
  std::optional<TopLevelStart> Found;
  uint64_t Index = From;
  llvm::Error Err = T.forEachRecordRun(
      [&](llvm::StringRef Bytes) {
        for (const char *P = Bytes.begin(); P != Bytes.end();
             P += sizeof(lwp_record64), ++Index) {
          DumpRecord R = decodeRecord(P, sizeof(lwp_record64));
          if (!R.IsEnd && R.Depth == 1 && R.Id != 0) {
            Found = TopLevelStart{Index, R.Cycles, R.Site};
            return false;
          }
        }
        return true;
      },
      From, End - From);
  if (Err)
    return std::move(Err);
  return Found;
}

/// The P-th percentile of \p V by nearest rank (the smallest value with at
/// least P% of the values <= it); reorders \p V, and every element from the
/// rank on stays >= it, so that a smaller percentile can follow on the part
/// before it (selection, not a sort: linear time).
uint64_t percentile(std::vector<uint64_t> &V, size_t End, unsigned P) {
  size_t Rank = (V.size() * P + 99) / 100;
  auto Nth = V.begin() + (Rank ? Rank - 1 : 0);
  std::nth_element(V.begin(), Nth, V.begin() + End);
  return *Nth;
}

llvm::Error unknownId(uint32_t Id) {
  return createStringError(
      "region ID %u is in the dump but not in the instrumentation map "
      "(IDs missing from the map: the dump belongs to another binary, or a "
      "module's map was not linked in)",
      Id);
}
} // namespace

/// The exact figures of region \p Id in \p D, all 0 for an ID beyond the
/// dump's figure table.
static DumpRegion figuresOf(const Dump &D, uint32_t Id) {
  return Id < D.regions().size() ? D.regions()[Id] : DumpRegion();
}

/// No per-instance figure exceeds its region's cycles as the table shows
/// them: figures above are lowered to them. A difference of rounding (the
/// region's cycles are rounded to the tick; less than one tick above) is
/// lowered silently; a larger one means the figure is not exact (a dump
/// without compensation corrects an instance only for the instances
/// recorded inside it, so a parent of children past the cap reads above its
/// total; a corrupt dump), and the region is marked (InstancesClamped). A
/// region whose cycles are unknown keeps its figures.
static void clampInstances(Profile &P) {
  for (RegionProfile &R : P.Regions) {
    if (R.CyclesUnknown || !R.Samples)
      continue;
    uint64_t Total = uint64_t(std::llround(R.TotalCycles));
    if (R.Max <= Total)
      continue;
    if (double(R.Max) >= R.TotalCycles + 1.0)
      R.InstancesClamped = true;
    R.Min = std::min(R.Min, Total);
    R.Median = std::min(R.Median, Total);
    R.P90 = std::min(R.P90, Total);
    R.Max = Total;
  }
}

/// Gives each region of \p P executed once (its one instance recorded and
/// closed by its end probe, its figures plausible) its exact, corrected
/// cycles as min, median, p90 and max: that instance is the exact total.
/// Each recorded instance is corrected for the instances recorded inside it
/// only; past their cap the others are not, and a single execution would
/// show more than its own total. Call after the figures are applied and
/// checked.
static void useExactSingleInstances(const Dump &D, Profile &P) {
  for (RegionProfile &R : P.Regions) {
    DumpRegion F = figuresOf(D, R.Id);
    if (R.Count == 1 && R.Samples == 1 && F.Outer == 1 && !F.Unwound &&
        !R.Repaired && !R.Implausible)
      R.Min = R.Median = R.P90 = R.Max = uint64_t(std::llround(R.TotalCycles));
  }
}

/// Replaces the extrapolated totals of \p P by the exact figures of \p D
/// (version 2), with the calibrated probe costs subtracted (nested counts
/// probes, two a nested pair):
///   inclusive = total - outer x pair - nested / 2 x nestedCost
///   self      = self - count x pair - children x (nestedCost - pair)
/// (each instance's own pair lies inside it; what a nested pair adds beyond
/// its own pair lies in its parent's self time). A correction never makes a
/// figure negative, a self larger than its inclusive, or a region of the map
/// shorter than a region the map nests in it.
static void
applyExactFigures(const Dump &D, Profile &P,
                  llvm::ArrayRef<std::pair<size_t, size_t>> InsideOnly) {
  P.Exact = true;
  if (D.lostExecutions())
    P.Warnings.push_back(
        "the runtime could not count every execution (no memory for some "
        "thread's profile state; their probes are among the dropped "
        "records): counts and cycles are lower bounds, not exact");
  double Pair = P.PairCost, Nested = P.NestedCost;
  // What a nested pair adds to its parent beyond the part of it that lies
  // inside the child: negative when the probes overlap the loop's own work
  // (out-of-order execution), and then the parent's self gets it back, so
  // that self + the children's cycles = cycles still holds.
  double NestedExtra = Nested - Pair;
  for (RegionProfile &R : P.Regions) {
    DumpRegion F = figuresOf(D, R.Id);
    if (F.Self > F.Total || F.Outer > F.Count || F.Unwound > F.Count ||
        (F.Total && !F.Count))
      R.Implausible |= InconsistentFigures;
    double Total = double(F.Total) - double(F.Outer) * Pair -
                   double(F.Nested) / 2 * Nested;
    double Self = double(F.Self) - double(F.Count) * Pair -
                  double(F.Children) * NestedExtra;
    R.TotalCycles = std::max(0.0, Total);
    R.SelfCycles = std::clamp(Self, 0.0, R.TotalCycles);
    R.Extrapolated = false;
    R.Unwound = F.Unwound;
    P.UnwoundInstances += F.Unwound;
  }
  // A region that ran only inside another (a parent of the map, or the one
  // dynamic parent of all its recorded instances) never comes out longer
  // than it: the calibrated costs are typical, not exact, so a parent is
  // raised to its child where they disagree (until nothing changes).
  std::vector<std::pair<size_t, size_t>> Edges(InsideOnly.begin(),
                                               InsideOnly.end());
  for (size_t I = 0; I != P.Regions.size(); ++I)
    if (const std::optional<uint32_t> &Parent = P.Regions[I].Entry->ParentId)
      if (const RegionProfile *R = P.lookup(*Parent))
        Edges.push_back({I, size_t(R - P.Regions.data())});
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto [Child, Parent] : Edges) {
      double &T = P.Regions[Parent].TotalCycles;
      if (Child != Parent && T < P.Regions[Child].TotalCycles) {
        T = P.Regions[Child].TotalCycles;
        Changed = true;
      }
    }
  }
  P.TopLevelCycles = 0;
  for (const DumpThread &T : D.threads())
    P.TopLevelCycles +=
        std::max(0.0, double(T.TopCycles) - double(T.TopInstances) * Pair -
                          double(T.TopNested) / 2 * Nested);
}

std::string lwp::stringifyImplausible(unsigned Reasons) {
  static const std::pair<unsigned, const char *> Names[] = {
      {CountTooLarge, "count"},
      {CountBelowSamples, "count<samples"},
      {BackwardsCycles, "backwards"},
      {ZeroCounter, "zero-counter"},
      {InconsistentFigures, "figures"},
      {AboveTopLevel, "above-top-level"},
      {InstanceAboveTotal, "instance>total"}};
  std::string Out;
  for (auto [Bit, Name] : Names)
    if (Reasons & Bit)
      Out += (Out.empty() ? "" : ";") + std::string(Name);
  return Out;
}

/// Flags measured cycles above the top-level cycles, and writes one warning
/// line per kind of implausible value (docs/report.md, "Implausible
/// values").
static void flagImplausible(Profile &P, const std::vector<Accumulator> &Acc,
                            const std::vector<uint32_t> &RowOfRegion) {
  // The top-level cycles hold every region's time when the figures are
  // measured: exact, or every execution recorded. (Extrapolated totals may
  // exceed them: the * marks that.)
  bool Measured = P.Exact || llvm::none_of(P.Regions, [](const auto &R) {
                    return R.Extrapolated || R.CyclesUnknown;
                  });
  if (Measured)
    for (RegionProfile &R : P.Regions)
      if (R.TotalCycles > P.TopLevelCycles * 1.01 + 1)
        R.Implausible |= AboveTopLevel;
  uint64_t Backwards = 0, Zero = 0;
  for (size_t Row = 0; Row != Acc.size(); ++Row)
    if (RowOfRegion[Row] != UINT32_MAX) {
      Backwards += Acc[Row].Backwards;
      Zero += Acc[Row].ZeroCounters;
    }
  auto warn = [&](unsigned Bit, bool Unknown, const llvm::Twine &What,
                  uint64_t Things = 0) {
    std::string Ids;
    unsigned N = 0;
    for (const RegionProfile &R : P.Regions)
      if (Unknown ? R.CyclesUnknown : (R.Implausible & Bit) != 0)
        if (N++ < 5)
          Ids += (Ids.empty() ? "" : ", ") + std::to_string(R.Id);
    if (!N)
      return;
    std::string Count = Things ? std::to_string(Things) + " " : "";
    P.Warnings.push_back((Count + What + " (" + llvm::Twine(N) +
                          " region(s), IDs " + Ids + (N > 5 ? ", ..." : "") +
                          ")")
                             .str());
  };
  warn(CountTooLarge, false,
       "counts of 2^63 or more: not real counts (corrupt dump)");
  warn(CountBelowSamples, false,
       "fewer executions counted than instances recorded: the count table "
       "or the records are corrupt");
  warn(BackwardsCycles, false,
       "instance(s) whose end record precedes its start or that last 2^62 "
       "ticks or more: counted with 0 cycles (corrupt counter values)",
       Backwards);
  warn(ZeroCounter, false,
       "record(s) with counter value 0, which a runtime never writes "
       "(corrupt dump)",
       Zero);
  warn(InconsistentFigures, false,
       "exact figures that contradict each other (self above total, more "
       "outermost or unwound instances than executions, or cycles without "
       "executions)");
  warn(AboveTopLevel, false,
       "measured cycles above the top-level cycles of all threads: no share "
       "shown");
  warn(InstanceAboveTotal, false,
       "a recorded instance longer than the exact total of all executions");
  warn(0, true,
       "ran but no instance was recorded (the buffer was full) and the input "
       "has no exact figures: cycles unknown (-)");
}

llvm::Expected<Profile> lwp::analyze(const Dump &D,
                                     const InstrumentationMap &Map,
                                     const ProfileOptions &Options) {
  Profile P;
  if (Options.OverheadCorrection) {
    P.PairCost = D.probePairCost();
    P.NestedCost = D.probeNestedCost() ? D.probeNestedCost() : P.PairCost;
  }
  const std::vector<RegionEntry> &Entries = Map.entries();
  RowIndex Rows(Map);
  std::vector<Accumulator> Acc(Entries.size());
  for (uint32_t R = 0; R != Acc.size(); ++R)
    Acc[R].Rng += R;
  for (size_t Id = 0; Id != D.counts().size(); ++Id)
    if (D.counts()[Id] && Rows.lookup(Id) == RowIndex::None)
      return unknownId(Id);

  for (size_t TI = 0; TI != D.threads().size(); ++TI) {
    const DumpThread &T = D.threads()[TI];
    bool V2 = D.version() >= 2;
    auto walk = [&](ThreadWalk &W, uint64_t First, uint64_t Count) {
      return T.forEachRecordRun(
          [&](llvm::StringRef Bytes) {
            return T.recordSize() == sizeof(lwp_record32)
                       ? W.walk<sizeof(lwp_record32)>(Bytes)
                       : W.walk<sizeof(lwp_record64)>(Bytes);
          },
          First, Count);
    };
    // Several cores: parts that start at a top-level start each, walked at
    // once into accumulators of their own, merged in order after.
    std::vector<TopLevelStart> Starts;
    if (V2 && !Options.OnInstance && T.recordSize() == sizeof(lwp_record64))
      for (uint64_t Parts = std::min<uint64_t>(Options.Threads,
                                               T.size() / PartRecords),
                    K = 1;
           K < Parts; ++K) {
        // Within the K-th cut's range only: a start past it is the next
        // range's to find (a range without one joins its neighbour).
        llvm::Expected<std::optional<TopLevelStart>> S = findTopLevelStart(
            T, T.size() / Parts * K,
            K + 1 < Parts ? T.size() / Parts * (K + 1) : T.size());
        if (!S)
          return S.takeError();
        if (*S)
          Starts.push_back(**S);
      }
    if (!Starts.empty()) {
      size_t Parts = Starts.size() + 1;
      std::vector<Profile> Scratch(Parts);
      std::vector<std::vector<Accumulator>> PartAcc(Parts);
      std::vector<std::unique_ptr<ThreadWalk>> Walks;
      for (size_t K = 0; K != Parts; ++K) {
        Scratch[K].PairCost = P.PairCost;
        Scratch[K].NestedCost = P.NestedCost;
        PartAcc[K].resize(Acc.size());
        for (uint32_t R = 0; R != Acc.size(); ++R)
          PartAcc[K][R].Rng = Acc[R].Rng ^ (0xd1b54a32d192ed03ull * (K + 1));
        Walks.push_back(std::make_unique<ThreadWalk>(
            Scratch[K], PartAcc[K], Rows, Options, V2, TI, T.threadId()));
      }
      std::vector<std::optional<llvm::Error>> Errs(Parts);
      auto run = [&](size_t K) {
        uint64_t First = K ? Starts[K - 1].Index : 0;
        uint64_t End = K + 1 < Parts ? Starts[K].Index : T.size();
        Errs[K].emplace(walk(*Walks[K], First, End - First));
      };
      std::vector<std::thread> Workers;
      for (size_t K = 1; K != Parts; ++K)
        Workers.emplace_back(run, K);
      run(0);
      for (std::thread &W : Workers)
        W.join();
      // The first error or unknown ID in record order, as a walk in order
      // would find it.
      std::optional<llvm::Error> Failure;
      for (size_t K = 0; K != Parts; ++K) {
        llvm::Error E = std::move(*Errs[K]);
        if (Failure) {
          llvm::consumeError(std::move(E));
        } else if (E) {
          Failure.emplace(std::move(E));
        } else if (Walks[K]->BadId) {
          Failure.emplace(unknownId(*Walks[K]->BadId));
        }
      }
      if (Failure)
        return std::move(*Failure);
      bool Joined = true;
      for (size_t K = 0; K + 1 != Parts && Joined; ++K)
        Joined = Walks[K]->closeAllAt(Starts[K].Cycles,
                                      Starts[K].Site - Options.LoadBias);
      if (Joined) {
        Walks.back()->finish();
        for (size_t K = 0; K != Parts; ++K) {
          for (size_t R = 0; R != Acc.size(); ++R)
            Acc[R].merge(PartAcc[K][R]);
          P.UnmatchedEnds += Scratch[K].UnmatchedEnds;
          P.RepairedInstances += Scratch[K].RepairedInstances;
        }
        continue;
      }
      // An instance without depth is open at a part's start (not a
      // runtime's dump): the parts do not join; walk in order.
    }
    ThreadWalk Walk(P, Acc, Rows, Options, V2, TI, T.threadId());
    if (llvm::Error Err = walk(Walk, 0, UINT64_MAX))
      return std::move(Err);
    if (Walk.BadId)
      return unknownId(*Walk.BadId);
    Walk.finish();
  }

  std::vector<uint32_t> RowOfRegion(Entries.size(), RowIndex::None);
  for (uint32_t Row = 0; Row != Entries.size(); ++Row) {
    const RegionEntry &Entry = Entries[Row];
    uint64_t Count = Entry.Id < D.counts().size() ? D.counts()[Entry.Id] : 0;
    Accumulator &A = Acc[Row];
    if (!Count && !A.Samples)
      continue;
    RegionProfile R;
    R.Id = Entry.Id;
    R.Entry = &Entry;
    // A region beyond the dump's count table falls back to its samples.
    R.Count = std::max(Count, A.Samples);
    R.Samples = A.Samples;
    R.Repaired = A.Repaired;
    R.SampledCycles = A.Sum;
    if (A.Samples) {
      R.Min = A.Min;
      R.Max = A.Max;
      std::vector<uint64_t> &V = A.Reservoir;
      R.P90 = percentile(V, V.size(), 90);
      // The median's rank is at most the p90's, and after the selection
      // every element before that is <= it.
      size_t P90Rank = (V.size() * 90 + 99) / 100;
      R.Median = percentile(V, P90Rank ? P90Rank : 1, 50);
      R.StartSite = A.StartSite;
      R.EndSite = A.EndSite;
    }
    if (Count >= MaxCount)
      R.Implausible |= CountTooLarge;
    if (Entry.Id < D.counts().size() && Count < A.Samples)
      R.Implausible |= CountBelowSamples;
    if (A.Backwards)
      R.Implausible |= BackwardsCycles;
    if (A.ZeroCounters)
      R.Implausible |= ZeroCounter;
    R.Extrapolated = R.Count > R.Samples;
    R.TotalCycles = R.Samples ? double(R.SampledCycles) / double(R.Samples) *
                                    double(R.Count)
                              : 0;
    RowOfRegion[Row] = P.Regions.size();
    P.Regions.push_back(R);
  }

  if (D.hasFigures()) {
    std::vector<std::pair<size_t, size_t>> InsideOnly;
    for (uint32_t Row = 0; Row != Entries.size(); ++Row) {
      const Accumulator &A = Acc[Row];
      if (RowOfRegion[Row] == RowIndex::None || A.Parents.size() != 1 ||
          A.Parents[0].first == 0)
        continue;
      uint32_t Parent = RowOfRegion[A.Parents[0].first - 1];
      if (Parent != RowIndex::None)
        InsideOnly.push_back({RowOfRegion[Row], Parent});
    }
    applyExactFigures(D, P, InsideOnly);
    // Every recorded instance is part of the exact total; the margin covers
    // the two being read at different points of the probes. An instance
    // above it could not be paired exactly (a repaired one ends where the
    // records show it, past where the runtime closed it, e.g. after a
    // longjmp in code without resume probes): its region's per-instance
    // figures are flagged rather than shown as if they held.
    uint64_t Margin =
        64 * (uint64_t(D.probePairCost()) + D.probeNestedCost() + 1);
    for (uint32_t Row = 0; Row != Entries.size(); ++Row)
      if (RowOfRegion[Row] != RowIndex::None) {
        RegionProfile &R = P.Regions[RowOfRegion[Row]];
        uint64_t Total = figuresOf(D, R.Id).Total;
        if (std::max(Acc[Row].MaxMatched, R.Max) > Total + Total / 8 + Margin)
          R.Implausible |= InstanceAboveTotal;
      }
    flagImplausible(P, Acc, RowOfRegion);
    useExactSingleInstances(D, P);
    clampInstances(P);
    return P;
  }

  // Input without exact figures (version 1, TVM): self cycles are a region's
  // total minus, for each region seen running inside it, that region's total
  // times the fraction of its recorded instances that ran directly inside
  // this one.
  std::vector<double> ChildCycles(P.Regions.size(), 0.0);
  for (uint32_t Row = 0; Row != Entries.size(); ++Row) {
    uint32_t Index = RowOfRegion[Row];
    if (Index == RowIndex::None || !Acc[Row].Samples)
      continue;
    const RegionProfile &R = P.Regions[Index];
    for (auto [ParentKey, N] : Acc[Row].Parents) {
      double Share = R.TotalCycles * double(N) / double(R.Samples);
      if (ParentKey == 0)
        P.TopLevelCycles += Share;
      else if (ParentKey - 1 != Row &&
               RowOfRegion[ParentKey - 1] != RowIndex::None)
        ChildCycles[RowOfRegion[ParentKey - 1]] += Share;
    }
  }
  for (size_t I = 0; I != P.Regions.size(); ++I)
    P.Regions[I].SelfCycles =
        std::max(0.0, P.Regions[I].TotalCycles - ChildCycles[I]);
  for (RegionProfile &R : P.Regions)
    R.CyclesUnknown = R.Count && !R.Samples;
  flagImplausible(P, Acc, RowOfRegion);
  clampInstances(P);
  return P;
}
