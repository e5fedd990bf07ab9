//===- Runs.cpp - One binary's figures across several runs ----------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Runs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace lwp;
using llvm::createStringError;
using llvm::StringRef;
using llvm::Twine;

const RegionRuns *RunsProfile::lookup(uint32_t Id) const {
  auto It = llvm::partition_point(
      Regions, [&](const RegionRuns &R) { return R.Id < Id; });
  return It != Regions.end() && It->Id == Id ? &*It : nullptr;
}

static RunSpread spread(std::vector<double> Values) {
  RunSpread S;
  if (Values.empty())
    return S;
  S.Min = *std::min_element(Values.begin(), Values.end());
  S.Max = *std::max_element(Values.begin(), Values.end());
  double Sum = 0;
  for (double V : Values)
    Sum += V;
  S.Mean = Sum / double(Values.size());
  // Equal values give a mean equal to them and a spread of exactly 0.
  if (S.Min == S.Max) {
    S.Mean = S.Min;
  } else if (Values.size() > 1) {
    double Sq = 0;
    for (double V : Values)
      Sq += (V - S.Mean) * (V - S.Mean);
    S.StdDev = std::sqrt(Sq / double(Values.size() - 1));
    // Rounding must not put the mean outside [min, max].
    S.Mean = std::clamp(S.Mean, S.Min, S.Max);
  }
  S.Values = std::move(Values);
  return S;
}

RunsProfile lwp::combineRuns(llvm::ArrayRef<Profile> Runs) {
  RunsProfile Out;
  // Every region that ran in some run, in ID order.
  std::map<uint32_t, const RegionProfile *> First;
  for (const Profile &P : Runs)
    for (const RegionProfile &R : P.Regions)
      First.try_emplace(R.Id, &R);
  std::vector<double> Top;
  for (const Profile &P : Runs)
    Top.push_back(P.TopLevelCycles);
  Out.TopLevel = spread(std::move(Top));
  const Profile &P0 = Runs.front();
  Out.Mean.Exact = llvm::all_of(Runs, [](const Profile &P) { return P.Exact; });
  Out.Mean.PairCost = P0.PairCost;
  Out.Mean.NestedCost = P0.NestedCost;
  Out.Mean.TopLevelCycles = Out.TopLevel.Mean;
  for (const Profile &P : Runs) {
    Out.Mean.RepairedInstances += P.RepairedInstances;
    Out.Mean.UnmatchedEnds += P.UnmatchedEnds;
    Out.Mean.UnwoundInstances += P.UnwoundInstances;
  }
  for (const auto &[Id, FirstRow] : First) {
    RegionRuns RR;
    RR.Id = Id;
    RR.Entry = FirstRow->Entry;
    RR.CountMin = UINT64_MAX;
    std::vector<double> Cycles, Self, Share;
    RegionProfile Mean = *FirstRow;
    Mean.Samples = Mean.Repaired = Mean.Unwound = 0;
    Mean.Min = UINT64_MAX;
    Mean.Max = 0;
    double CountSum = 0;
    for (const Profile &P : Runs) {
      const RegionProfile *R = P.lookup(Id);
      uint64_t Count = R ? R->Count : 0;
      RR.CountMin = std::min(RR.CountMin, Count);
      RR.CountMax = std::max(RR.CountMax, Count);
      CountSum += double(Count);
      Cycles.push_back(R ? R->TotalCycles : 0.0);
      Self.push_back(R ? R->SelfCycles : 0.0);
      Share.push_back(R && P.TopLevelCycles > 0
                          ? 100.0 * R->TotalCycles / P.TopLevelCycles
                          : 0.0);
      if (!R)
        continue;
      RR.Extrapolated |= R->Extrapolated;
      RR.Unwound |= R->Unwound != 0;
      RR.Implausible |= R->Implausible;
      RR.CyclesUnknown |= R->CyclesUnknown;
      Mean.Samples += R->Samples;
      Mean.Repaired += R->Repaired;
      Mean.Unwound += R->Unwound;
      if (R->Samples) {
        Mean.Min = std::min(Mean.Min, R->Min);
        Mean.Max = std::max(Mean.Max, R->Max);
      }
    }
    if (Mean.Min == UINT64_MAX)
      Mean.Min = 0;
    RR.Cycles = spread(std::move(Cycles));
    RR.Self = spread(std::move(Self));
    RR.Share = spread(std::move(Share));
    Out.CountsDiffer += RR.CountMin != RR.CountMax;
    Mean.Count = RR.CountMin == RR.CountMax
                     ? RR.CountMin
                     : uint64_t(std::llround(CountSum / double(Runs.size())));
    Mean.TotalCycles = RR.Cycles.Mean;
    Mean.SelfCycles = RR.Self.Mean;
    Mean.Extrapolated = RR.Extrapolated;
    Mean.Implausible = RR.Implausible;
    Mean.CyclesUnknown = RR.CyclesUnknown;
    Out.Mean.Regions.push_back(Mean);
    Out.Regions.push_back(std::move(RR));
  }
  return Out;
}

static std::string hexBytes(StringRef Bytes) {
  return Bytes.empty() ? "none" : llvm::toHex(Bytes, /*LowerCase=*/true);
}

/// True when images \p A and \p B are the same file: the same build ID, or
/// (when either has none) the same file name.
static bool sameImage(const DumpImage &A, const DumpImage &B) {
  if (!A.BuildId.empty() && !B.BuildId.empty())
    return A.BuildId == B.BuildId;
  return llvm::sys::path::filename(A.Name) == llvm::sys::path::filename(B.Name);
}

llvm::Error lwp::checkSameProgram(const Dump &First, StringRef FirstName,
                                  const Dump &Other, StringRef OtherName) {
  auto differ = [&](const Twine &What) {
    return createStringError("dumps '" + FirstName + "' and '" + OtherName +
                             "' are not runs of one program: " + What);
  };
  if (First.target() != Other.target() || First.counter() != Other.counter())
    return differ(Twine("target ") + stringifyDumpTarget(First.target()) +
                  " counter " + stringifyDumpCounter(First.counter()) +
                  " vs target " + stringifyDumpTarget(Other.target()) +
                  " counter " + stringifyDumpCounter(Other.counter()));
  // The executable (image 0 of both), then every module's image.
  if (!First.images().empty() && !Other.images().empty() &&
      !sameImage(First.images()[0], Other.images()[0]))
    return differ("executable '" + First.images()[0].Name + "' (build ID " +
                  hexBytes(First.images()[0].BuildId) + ") vs '" +
                  Other.images()[0].Name + "' (build ID " +
                  hexBytes(Other.images()[0].BuildId) + ")");
  if (First.modules().size() != Other.modules().size())
    return differ(Twine(First.modules().size()) + " vs " +
                  Twine(Other.modules().size()) + " instrumented modules");
  for (size_t I = 0; I != First.modules().size(); ++I) {
    const DumpModule &A = First.modules()[I], &B = Other.modules()[I];
    const DumpImage &IA = First.images()[A.Image];
    const DumpImage &IB = Other.images()[B.Image];
    if (!sameImage(IA, IB))
      return differ("module " + Twine(I) + " is in '" + IA.Name +
                    "' (build ID " + hexBytes(IA.BuildId) + ") vs '" + IB.Name +
                    "' (build ID " + hexBytes(IB.BuildId) + ")");
    if (A.BlobVaddr != B.BlobVaddr || A.FirstId != B.FirstId ||
        A.NumRegions != B.NumRegions)
      return differ("module " + Twine(I) + " has IDs " + Twine(A.FirstId) +
                    "-" + Twine(uint64_t(A.FirstId) + A.NumRegions - 1) +
                    " vs " + Twine(B.FirstId) + "-" +
                    Twine(uint64_t(B.FirstId) + B.NumRegions - 1) +
                    " (its modules registered in another order); report "
                    "the runs one by one");
    if (A.MapHash && B.MapHash && A.MapHash != B.MapHash)
      return differ("module " + Twine(I) + " ran with another map (hash " +
                    llvm::utohexstr(A.MapHash, /*LowerCase=*/true) + " vs " +
                    llvm::utohexstr(B.MapHash, /*LowerCase=*/true) +
                    "): the binary was rebuilt between the runs");
  }
  if (First.modules().empty() && First.counts().size() != Other.counts().size())
    return differ(Twine(First.counts().size()) + " vs " +
                  Twine(Other.counts().size()) + " region IDs");
  return llvm::Error::success();
}
