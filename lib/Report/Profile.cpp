//===- Profile.cpp - Per-region statistics from a dump --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Profile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace lwp;
using llvm::createStringError;

const RegionProfile *Profile::lookup(uint32_t Id) const {
  auto It = llvm::partition_point(
      Regions, [Id](const RegionProfile &R) { return R.Id < Id; });
  return It != Regions.end() && It->Id == Id ? &*It : nullptr;
}

namespace {
/// An open instance on a thread's stack.
struct Frame {
  uint32_t Id;
  uint64_t StartCycles;
  uint64_t StartSite;
  /// Instances recorded inside this one, at any depth.
  uint64_t Descendants = 0;
  /// Inclusive cycles of the instances directly inside this one.
  uint64_t ChildInclusive = 0;
};

/// Per-region accumulation while the threads are walked.
struct Accumulator {
  std::vector<uint64_t> Instances; // corrected inclusive cycles
  uint64_t Repaired = 0;
  uint64_t StartSite = 0, EndSite = 0;
  /// Recorded instances per dynamic parent region, keyed by parent ID + 1
  /// (0: no parent; DenseMap reserves ~0 and ~0 - 1).
  llvm::DenseMap<uint32_t, uint64_t> Parents;
};

uint64_t percentile(const std::vector<uint64_t> &Sorted, unsigned P) {
  // Nearest rank: the smallest value with at least P% of values <= it.
  size_t Rank = (Sorted.size() * P + 99) / 100;
  return Sorted[Rank ? Rank - 1 : 0];
}
} // namespace

llvm::Expected<Profile> lwp::analyze(const Dump &D,
                                     const InstrumentationMap &Map,
                                     const ProfileOptions &Options) {
  Profile P;
  P.PairCost = Options.OverheadCorrection ? D.probePairCost() : 0;
  llvm::DenseMap<uint32_t, Accumulator> Acc;
  auto known = [&](uint32_t Id) -> llvm::Error {
    if (Map.lookup(Id))
      return llvm::Error::success();
    return createStringError(
        "region ID %u is in the dump but not in the instrumentation map "
        "(IDs missing from the map: the dump belongs to another binary, or a "
        "module's map was not linked in)",
        Id);
  };
  for (size_t Id = 0; Id != D.counts().size(); ++Id)
    if (D.counts()[Id])
      if (llvm::Error E = known(Id))
        return std::move(E);

  std::vector<uint32_t> Path;
  for (size_t TI = 0; TI != D.threads().size(); ++TI) {
    const DumpThread &T = D.threads()[TI];
    std::vector<Frame> Stack;
    uint64_t LastCycles = 0;
    auto close = [&](const Frame &F, uint64_t EndCycles, uint64_t EndSite,
                     bool Repaired) {
      uint64_t Raw = EndCycles >= F.StartCycles ? EndCycles - F.StartCycles : 0;
      uint64_t Overhead = uint64_t(P.PairCost) * (1 + F.Descendants);
      uint64_t Incl = Raw > Overhead ? Raw - Overhead : 0;
      Accumulator &A = Acc[F.Id];
      A.Instances.push_back(Incl);
      A.Repaired += Repaired;
      P.RepairedInstances += Repaired;
      if (!A.StartSite)
        A.StartSite = F.StartSite;
      if (!A.EndSite && !Repaired)
        A.EndSite = EndSite;
      ++A.Parents[Stack.empty() ? 0 : Stack.back().Id + 1];
      if (!Stack.empty()) {
        Stack.back().Descendants += 1 + F.Descendants;
        Stack.back().ChildInclusive += Incl;
      }
      if (Options.OnInstance) {
        Path.clear();
        for (const Frame &Open : Stack)
          Path.push_back(Open.Id);
        uint64_t Self = Incl > F.ChildInclusive ? Incl - F.ChildInclusive : 0;
        Options.OnInstance({TI, T.threadId(), F.Id, F.StartCycles, Incl, Self,
                            Path, Repaired});
      }
    };
    for (uint64_t I = 0, E = T.size(); I != E; ++I) {
      DumpRecord R = T.record(I);
      if (llvm::Error Err = known(R.Id))
        return std::move(Err);
      uint64_t Site = R.Site - Options.LoadBias;
      LastCycles = R.Cycles;
      if (!R.IsEnd) {
        Stack.push_back({R.Id, R.Cycles, Site});
        continue;
      }
      auto Match = std::find_if(Stack.rbegin(), Stack.rend(),
                                [&](const Frame &F) { return F.Id == R.Id; });
      if (Match == Stack.rend()) {
        ++P.UnmatchedEnds;
        continue;
      }
      // Frames above the match lost their end: close them here, flagged.
      size_t Keep = Stack.size() - 1 - (Match - Stack.rbegin());
      while (Stack.size() > Keep + 1) {
        Frame F = Stack.back();
        Stack.pop_back();
        close(F, R.Cycles, Site, /*Repaired=*/true);
      }
      Frame F = Stack.back();
      Stack.pop_back();
      close(F, R.Cycles, Site, /*Repaired=*/false);
    }
    // Regions still open when the records end close at the last record.
    while (!Stack.empty()) {
      Frame F = Stack.back();
      Stack.pop_back();
      close(F, LastCycles, 0, /*Repaired=*/true);
    }
  }

  for (const RegionEntry &Entry : Map.entries()) {
    uint64_t Count = Entry.Id < D.counts().size() ? D.counts()[Entry.Id] : 0;
    auto It = Acc.find(Entry.Id);
    if (!Count && It == Acc.end())
      continue;
    RegionProfile R;
    R.Id = Entry.Id;
    R.Entry = &Entry;
    // Hexagon dumps count per ID too; a dump without the region in its count
    // table (an ID beyond num_ids) falls back to the recorded instances.
    R.Count = Count;
    if (It != Acc.end()) {
      Accumulator &A = It->second;
      std::vector<uint64_t> &V = A.Instances;
      R.Samples = V.size();
      R.Count = std::max(R.Count, R.Samples);
      R.Repaired = A.Repaired;
      for (uint64_t C : V)
        R.SampledCycles += C;
      llvm::sort(V);
      R.Min = V.front();
      R.Max = V.back();
      R.Median = percentile(V, 50);
      R.P90 = percentile(V, 90);
      R.StartSite = A.StartSite;
      R.EndSite = A.EndSite;
    }
    R.Extrapolated = R.Count > R.Samples;
    R.TotalCycles = R.Samples ? double(R.SampledCycles) / double(R.Samples) *
                                    double(R.Count)
                              : 0;
    P.Regions.push_back(R);
  }

  // Self cycles: a region's total minus, for each region seen running inside
  // it, that region's total times the fraction of its recorded instances
  // that ran directly inside this one. Using totals (not the recorded
  // instances of this region) keeps the figure right past the cap.
  llvm::DenseMap<uint32_t, double> ChildCycles;
  for (const RegionProfile &R : P.Regions) {
    auto It = Acc.find(R.Id);
    if (It == Acc.end() || !R.Samples)
      continue;
    for (auto [ParentKey, N] : It->second.Parents) {
      double Share = R.TotalCycles * double(N) / double(R.Samples);
      if (ParentKey == 0)
        P.TopLevelCycles += Share;
      else if (ParentKey - 1 != R.Id)
        ChildCycles[ParentKey - 1] += Share;
    }
  }
  for (RegionProfile &R : P.Regions)
    R.SelfCycles = std::max(0.0, R.TotalCycles - ChildCycles.lookup(R.Id));
  return P;
}
