//===- Writers.cpp - Report output formats --------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Writers.h"
#include "lwp/Report/Contexts.h"
#include "lwp/Support/TextTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace lwp;
using llvm::formatv;
using llvm::raw_ostream;
using llvm::StringRef;
namespace json = llvm::json;

/// \p Name with " [image]" when \p E names the image of its region (programs
/// of several images).
static std::string withImage(std::string Name, const RegionEntry &E) {
  if (!E.Image.empty())
    Name += " [" + E.Image + "]";
  return Name;
}

/// A loop's operators as " (linalg.matmul)", or "" when it has none.
static std::string loopOperators(const RegionEntry &E) {
  std::string Ops = describeOperators(E);
  return Ops == "-" ? std::string() : " (" + Ops + ")";
}

/// A function's name in a table column: at most 72 characters, longer ones
/// (demangled templates run to hundreds) cut with "..." (the ID column and
/// CSV/JSON, which keep the whole name, tell regions apart).
static std::string tableFunction(const std::string &F) {
  constexpr size_t Max = 72;
  return F.size() <= Max ? F : F.substr(0, Max - 3) + "...";
}

/// The region's name in a table: the function; `loop (operators)`; the
/// operator (`linalg.matmul "dense"`). \p Qualified prefixes loops and
/// operators with their function (`dense:loop`).
static std::string regionName(const RegionEntry &E, bool Qualified) {
  std::string Prefix =
      Qualified ? tableFunction(E.Function) + ":" : std::string();
  switch (E.Kind) {
  case RegionKind::Function:
    return withImage(tableFunction(E.Function), E);
  case RegionKind::Operator:
    return withImage(Prefix + operatorLabel(E), E);
  case RegionKind::Loop:
    break;
  }
  return withImage(Prefix + "loop" + loopOperators(E), E);
}

std::string lwp::regionLabel(const RegionEntry &E) {
  switch (E.Kind) {
  case RegionKind::Function:
    return withImage(E.Function, E);
  case RegionKind::Operator:
    return withImage(
        formatv("{0}:{1}#{2}", E.Function, operatorLabel(E), E.Id).str(), E);
  case RegionKind::Loop:
    break;
  }
  return withImage(
      formatv("{0}:loop#{1}{2}", E.Function, E.Id, loopOperators(E)).str(), E);
}

/// "+0x1c" for a site of region \p Id inside a known function, else "-".
static std::string siteOffset(const ReportInput &In, uint32_t Id,
                              uint64_t Site) {
  if (!In.Prog || !Site)
    return "-";
  SymbolizedSite S = In.Prog->symbolize(Id, Site);
  if (!S.Function)
    return formatv("{0:x}", Site).str();
  return formatv("+{0:x}", S.Offset).str();
}

static json::Value operatorsJSON(const RegionEntry &E);
static json::Value jsonOptional(const std::optional<uint32_t> &V);

/// Adds to the JSON's "dump" object what -lwp-instruction-threshold left
/// out (the map's instruction_threshold and small_functions, summed over the
/// images), only when a threshold was set, as the map JSON does.
static void addSmallFunctions(json::Object &Dump, const ReportInput &In) {
  if (!In.Prog || !In.Prog->map().instructionThreshold())
    return;
  Dump["instruction_threshold"] =
      int64_t(In.Prog->map().instructionThreshold());
  Dump["small_functions"] = int64_t(In.Prog->map().smallFunctions());
}

/// Adds the map's fields of region \p Id (row \p E) to a JSON region: id,
/// kind, function (demangled unless --no-demangle), mangled_function (the
/// symbol, only when it differs), image, depth, height, parent, file, line,
/// column, operator, operator_name (null when absent) and operators.
static void addMapFields(json::Object &Row, uint32_t Id, const RegionEntry &E) {
  Row["id"] = int64_t(Id);
  Row["kind"] = stringifyRegionKind(E.Kind);
  Row["function"] = E.Function;
  if (!E.MangledFunction.empty())
    Row["mangled_function"] = E.MangledFunction;
  Row["image"] = E.Image.empty() ? json::Value(nullptr) : json::Value(E.Image);
  Row["depth"] = jsonOptional(E.Depth);
  Row["height"] = jsonOptional(E.Height);
  Row["parent"] = jsonOptional(E.ParentId);
  Row["file"] = E.Loc.File;
  Row["line"] = int64_t(E.Loc.Line);
  Row["column"] = int64_t(E.Loc.Column);
  Row["operator"] =
      E.Operator.empty() ? json::Value(nullptr) : json::Value(E.Operator);
  Row["operator_name"] = E.OperatorName.empty() ? json::Value(nullptr)
                                                : json::Value(E.OperatorName);
  Row["operators"] = operatorsJSON(E);
}

/// The operators \p E holds, as a JSON array of op names.
static json::Value operatorsJSON(const RegionEntry &E) {
  json::Array Ops;
  for (const std::string &Op : E.Operators)
    Ops.push_back(Op);
  return json::Value(std::move(Ops));
}

static double share(const ReportInput &In, const RegionProfile &R) {
  return In.P.TopLevelCycles > 0 ? 100.0 * R.TotalCycles / In.P.TopLevelCycles
                                 : 0.0;
}

/// True when the region's share means nothing: its figures are implausible
/// or unknown.
static bool noShare(const RegionProfile &R) {
  return R.Implausible || R.CyclesUnknown;
}

static uint64_t rounded(double V) { return uint64_t(std::llround(V)); }

/// True when some region of the profile has work figures (operators whose
/// frontend computed them): only then do the outputs get the work columns
/// and fields, so that profiles without them print as they always did.
static bool hasWork(const ReportInput &In) {
  return llvm::any_of(
      In.P.Regions, [](const RegionProfile &R) { return R.Entry->hasWork(); });
}

namespace {
/// A region's work over all its executions (docs/report.md, "Work").
struct RegionWork {
  /// Flops per execution x count; none when unknown.
  std::optional<uint64_t> Flops;
  /// (bytes read + bytes written) per execution x count; none unless both
  /// are known.
  std::optional<uint64_t> Bytes;
  /// Flops / inclusive cycles; none when the flops are unknown, the cycles
  /// unknown, implausible (Implausible) or 0.
  std::optional<double> PerCycle;
  /// True when the flops are known but the cycles cannot be real: the
  /// ratio shows as "?".
  bool Implausible = false;
};
} // namespace

/// The work of \p R, saturating at UINT64_MAX.
static RegionWork workOf(const RegionProfile &R) {
  const RegionEntry &E = *R.Entry;
  RegionWork W;
  if (E.Flops >= 0)
    W.Flops = llvm::SaturatingMultiply(uint64_t(E.Flops), R.Count);
  if (E.BytesRead >= 0 && E.BytesWritten >= 0)
    W.Bytes = llvm::SaturatingMultiply(
        uint64_t(E.BytesRead) + uint64_t(E.BytesWritten), R.Count);
  W.Implausible = W.Flops && R.Implausible;
  if (W.Flops && !R.Implausible && !R.CyclesUnknown && R.TotalCycles > 0)
    W.PerCycle = double(*W.Flops) / R.TotalCycles;
  return W;
}

/// A per-execution work figure of the map (-1: unknown).
static std::optional<uint64_t> perExecution(int64_t V) {
  return V >= 0 ? std::optional<uint64_t>(V) : std::nullopt;
}

/// A work figure as a table cell: the number, or "-".
static std::string workCell(const std::optional<uint64_t> &V) {
  return V ? std::to_string(*V) : std::string("-");
}

/// A work figure as a CSV cell: the number, or empty (as unknown cycles).
static std::string csvWork(const std::optional<uint64_t> &V) {
  return V ? std::to_string(*V) : std::string();
}

/// A work figure in JSON: the number, or null.
static json::Value jsonWork(const std::optional<uint64_t> &V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

/// FLOP/cycle as a CSV cell: six decimals, or empty.
static std::string csvPerCycle(const std::optional<double> &V) {
  return V ? formatv("{0:f6}", *V).str() : std::string();
}

/// FLOP/cycle as a table cell: three decimals, "?" when the cycles cannot be
/// real, "-" when unknown.
static std::string perCycleCell(const RegionWork &W) {
  if (W.Implausible)
    return "?";
  return W.PerCycle ? formatv("{0:f3}", *W.PerCycle).str() : std::string("-");
}

/// The work columns of the tables.
static void addWorkColumns(std::vector<std::pair<std::string, bool>> &Columns) {
  Columns.insert(Columns.end(),
                 {{"FLOPs", true}, {"bytes", true}, {"FLOP/cycle", true}});
}

/// The legend under a table with work columns.
static void writeWorkLegend(raw_ostream &OS, const ReportInput &In) {
  OS << formatv("\nFLOPs, bytes: the operator's work per execution (from its "
                "frontend; bytes read + written) x count; FLOP/cycle: FLOPs / "
                "cycles ({0})\n",
                stringifyDumpCounter(In.D.counter()));
}

/// A CSV cell of an optional number: the number, or empty.
static std::string csvOptional(const std::optional<uint32_t> &V) {
  return V ? std::to_string(*V) : std::string();
}

/// A quoted CSV cell (RFC 4180: quotes doubled).
static std::string csvQuote(StringRef S) {
  std::string Q = "\"";
  for (char C : S) {
    if (C == '"')
      Q += '"';
    Q += C;
  }
  return Q + "\"";
}

/// A JSON number, or null.
static json::Value jsonOptional(const std::optional<uint32_t> &V) {
  if (V)
    return int64_t(*V);
  return nullptr;
}

/// True when \p E's function passes the --function regex \p Filter (none:
/// every function): its displayed name or, when demangled, its symbol.
static bool functionSelected(const llvm::Regex *Filter, const RegionEntry &E) {
  return !Filter || Filter->match(E.Function) ||
         (!E.MangledFunction.empty() && Filter->match(E.MangledFunction));
}

std::vector<const RegionProfile *> lwp::selectRows(const ReportInput &In,
                                                   const RowOptions &Options) {
  std::vector<const RegionProfile *> Rows;
  for (const RegionProfile &R : In.P.Regions)
    if (functionSelected(Options.Function, *R.Entry))
      Rows.push_back(&R);
  auto key = [&](const RegionProfile *R) -> double {
    switch (Options.Sort) {
    case SortKey::Cycles:
      return R->TotalCycles;
    case SortKey::Self:
      return R->SelfCycles;
    case SortKey::Count:
      return double(R->Count);
    case SortKey::Id:
      return -double(R->Id);
    }
    return 0;
  };
  llvm::sort(Rows, [&](const RegionProfile *A, const RegionProfile *B) {
    double KA = key(A), KB = key(B);
    return KA != KB ? KA > KB : A->Id < B->Id;
  });
  if (Options.Top && Rows.size() > Options.Top)
    Rows.resize(Options.Top);
  return Rows;
}

/// The header's "overhead correction:" line (without its newline): what
/// the runtime took out (a compensated dump) and what the report subtracts
/// (docs/report.md, "Overhead correction").
static std::string overheadLine(const ReportInput &In) {
  const Dump &D = In.D;
  StringRef Unit = stringifyDumpCounter(D.counter());
  std::string Line = "overhead correction: ";
  if (D.compensated()) {
    Line += "compensated by the runtime (each probe's time taken out of "
            "its thread's clock as it ran)";
    if (In.P.PairCost || In.P.NestedCost)
      Line += formatv("; the dump's residual {0} {2} per instance and {1} "
                      "{2} per instance nested in it subtracted",
                      In.P.PairCost, In.P.NestedCost, Unit)
                  .str();
    else if (D.probePairCost() || D.probeNestedCost())
      Line += "; its residual costs not subtracted (--no-overhead-correction)";
    return Line;
  }
  if (In.P.PairCost)
    return Line + formatv("{0} {2} per instance and {1} {2} per instance "
                          "nested in it subtracted "
                          "(--no-overhead-correction for raw figures)",
                          In.P.PairCost, In.P.NestedCost, Unit)
                      .str();
  return Line + "off";
}

static void writeHeader(raw_ostream &OS, const ReportInput &In) {
  const Dump &D = In.D;
  std::string Freq = D.counterHz()
                         ? formatv("{0:f3} GHz", D.counterHz() / 1e9).str()
                         : std::string("frequency unknown");
  OS << formatv("LWP report: {0} with {1}\n", In.DumpName, In.MapSource);
  OS << formatv(
      "target {0}, counter {1} ({2}), {3} thread(s), cap {4} records "
      "per region{5}, {6} records dropped\n",
      stringifyDumpTarget(D.target()), stringifyDumpCounter(D.counter()), Freq,
      D.threads().size(), D.cap(),
      // The Hexagon runtime has one thread and keeps one cap.
      D.recordSize() == 24 && D.target() != LWP_TARGET_HEXAGON ? " and thread"
                                                               : "",
      D.dropped());
  OS << overheadLine(In) << "\n";
  if (In.P.Exact && D.lostExecutions())
    OS << "cycles: exact for every counted execution (counted by the "
          "runtime; some were not counted, see the warning below); "
          "min/median/p90/max from the recorded instances\n";
  else if (In.P.Exact)
    OS << "cycles: exact for every execution (counted by the runtime); "
          "min/median/p90/max from the recorded instances\n";
  else
    OS << "cycles: extrapolated from the recorded instances (the input has "
          "no exact figures)\n";
  if (In.P.Exact && In.P.UnwoundInstances)
    OS << formatv("unwound: {0} instance(s) left without their end probe "
                  "(longjmp, exception, exit), closed where control resumed "
                  "in an enclosing region (! in the table)\n",
                  In.P.UnwoundInstances);
  if (!In.P.Exact && (In.P.RepairedInstances || In.P.UnmatchedEnds))
    OS << formatv("repaired: {0} instance(s) closed without their end probe, "
                  "{1} end probe(s) without a start\n",
                  In.P.RepairedInstances, In.P.UnmatchedEnds);
  for (const std::string &W : In.P.Warnings)
    OS << "warning: " << W << "\n";
  OS << "\n";
}

static std::vector<std::string> tableRow(const ReportInput &In,
                                         const RegionProfile &R,
                                         unsigned Indent, bool Work) {
  const RegionEntry &E = *R.Entry;
  std::string Star = R.Implausible    ? "?"
                     : R.Extrapolated ? "*"
                     : R.Unwound      ? "!"
                                      : "";
  auto cycles = [&](double V) {
    return R.CyclesUnknown ? std::string("-")
                           : std::to_string(rounded(V)) + Star;
  };
  std::string Share = R.CyclesUnknown ? "-"
                      : R.Implausible ? "?"
                                      : formatv("{0:f1}%", share(In, R)).str();
  std::string Name = std::string(Indent * 2, ' ') + regionName(E, false);
  std::string Clamped = R.InstancesClamped ? "~" : "";
  std::vector<std::string> Row = {Name,
                                  std::to_string(R.Id),
                                  E.Depth ? std::to_string(*E.Depth) : "-",
                                  siteOffset(In, R.Id, R.StartSite),
                                  siteOffset(In, R.Id, R.EndSite),
                                  std::to_string(R.Count),
                                  std::to_string(R.Samples),
                                  cycles(R.TotalCycles),
                                  cycles(R.SelfCycles),
                                  std::to_string(R.Min) + Clamped,
                                  std::to_string(R.Median) + Clamped,
                                  std::to_string(R.P90) + Clamped,
                                  std::to_string(R.Max) + Clamped,
                                  Share};
  if (Work) {
    RegionWork W = workOf(R);
    Row.insert(Row.end(),
               {workCell(W.Flops), workCell(W.Bytes), perCycleCell(W)});
  }
  Row.push_back(E.Loc.str());
  return Row;
}

void lwp::writeTable(raw_ostream &OS, const ReportInput &In,
                     const RowOptions &Options) {
  writeHeader(OS, In);
  bool Work = hasWork(In);
  std::vector<std::pair<std::string, bool>> Columns = {
      {"region", false}, {"ID", true},    {"depth", true},   {"start", false},
      {"end", false},    {"count", true}, {"samples", true}, {"cycles", true},
      {"self", true},    {"min", true},   {"median", true},  {"p90", true},
      {"max", true},     {"share", true}};
  if (Work)
    addWorkColumns(Columns);
  Columns.push_back({"source", false});
  TextTable T(std::move(Columns));
  std::vector<const RegionProfile *> Rows = selectRows(In, Options);
  bool AnyExtrapolated = false, AnyClamped = false;
  bool AnyImplausible = llvm::any_of(
      In.P.Regions, [](const RegionProfile &R) { return R.Implausible; });
  if (!Options.Tree) {
    for (const RegionProfile *R : Rows) {
      std::vector<std::string> Row = tableRow(In, *R, 0, Work);
      Row[0] = regionName(*R->Entry, /*Qualified=*/true);
      T.add(std::move(Row));
      AnyExtrapolated |= R->Extrapolated && !R->Implausible;
      AnyClamped |= R->InstancesClamped;
    }
  } else {
    // Functions (and loops without a function region) in the selected
    // order; under each, its regions in ID order (pre-order of the nest),
    // indented by nesting through the map's parent IDs.
    std::vector<std::string> Order;
    for (const RegionProfile *R : Rows)
      if (!llvm::is_contained(Order, R->Entry->Function))
        Order.push_back(R->Entry->Function);
    for (const std::string &F : Order) {
      for (const RegionProfile &R : In.P.Regions) {
        if (R.Entry->Function != F ||
            !functionSelected(Options.Function, *R.Entry))
          continue;
        // The map's parents, at most one step per region: a corrupt map's
        // cycle of parents stops there.
        unsigned Indent = 0;
        for (std::optional<uint32_t> Parent = R.Entry->ParentId;
             Parent && Indent < In.P.Regions.size();) {
          ++Indent;
          const RegionEntry *PE = nullptr;
          if (const RegionProfile *PR = In.P.lookup(*Parent))
            PE = PR->Entry;
          Parent = PE ? PE->ParentId : std::nullopt;
        }
        T.add(tableRow(In, R, Indent, Work));
        AnyExtrapolated |= R.Extrapolated && !R.Implausible;
        AnyClamped |= R.InstancesClamped;
      }
    }
  }
  T.print(OS);
  if (Work)
    writeWorkLegend(OS, In);
  if (AnyExtrapolated)
    OS << "\n* extrapolated: count > samples, total = recorded mean x count\n";
  if (AnyClamped)
    OS << "\n~ not exact: recorded instances read above the region's cycles "
          "and were lowered to them (the probe costs the report subtracts, "
          "of a dump without compensation or a compensated dump's "
          "residuals, come out of an instance only for the instances "
          "recorded inside it; --no-overhead-correction shows them raw)\n";
  if (AnyImplausible)
    OS << "\n? implausible: figures that cannot be real (see the warnings "
          "above); no share shown\n";
  // Functions that -lwp-instruction-threshold left without a region: their
  // cycles count in their callers' regions.
  if (In.Prog) {
    std::string Note = In.Prog->map().smallFunctionsNote();
    if (!Note.empty())
      OS << "\n" << Note << "\n";
  }
}

static const char *const FieldNames[] = {
    "id",         "kind",
    "function",   "depth",
    "height",     "parent",
    "count",      "samples",
    "repaired",   "cycles",
    "self",       "extrapolated",
    "min",        "median",
    "p90",        "max",
    "share",      "start_offset",
    "end_offset", "file",
    "line",       "column",
    "operator",   "operator_name",
    "operators",  "instances_clamped",
};

/// The CSV's and the JSON's work fields, after the others (only when the
/// profile has work figures).
static const char *const WorkFieldNames[] = {
    "flops",       "bytes_read",  "bytes_written",
    "total_flops", "total_bytes", "flops_per_cycle"};

void lwp::writeCSV(raw_ostream &OS, const ReportInput &In,
                   const RowOptions &Options) {
  bool Work = hasWork(In);
  OS << llvm::join(llvm::ArrayRef(FieldNames), ",");
  if (Work)
    OS << "," << llvm::join(llvm::ArrayRef(WorkFieldNames), ",");
  OS << "\n";
  auto opt = csvOptional;
  auto quote = csvQuote;
  for (const RegionProfile *R : selectRows(In, Options)) {
    const RegionEntry &E = *R->Entry;
    // Unknown cycles and meaningless shares are empty fields (the reasons
    // are in the warnings, on stderr, and in the JSON).
    auto cycles = [&](double V) {
      return R->CyclesUnknown ? std::string() : formatv("{0:f1}", V).str();
    };
    std::string Share =
        noShare(*R) ? std::string() : formatv("{0:f3}", share(In, *R)).str();
    OS << formatv(
        "{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{11},"
        "{12},{13},{14},{15},{16},{17},{18},{19},{20},{21},"
        "{22},{23},{24},{25}",
        R->Id, stringifyRegionKind(E.Kind), quote(E.Function), opt(E.Depth),
        opt(E.Height), opt(E.ParentId), R->Count, R->Samples, R->Repaired,
        cycles(R->TotalCycles), cycles(R->SelfCycles), R->Extrapolated ? 1 : 0,
        R->Min, R->Median, R->P90, R->Max, Share,
        siteOffset(In, R->Id, R->StartSite), siteOffset(In, R->Id, R->EndSite),
        quote(E.Loc.File), E.Loc.Line, E.Loc.Column, quote(E.Operator),
        quote(E.OperatorName), quote(llvm::join(E.Operators, "+")),
        R->InstancesClamped ? 1 : 0);
    if (Work) {
      RegionWork W = workOf(*R);
      OS << formatv(",{0},{1},{2},{3},{4},{5}", csvWork(perExecution(E.Flops)),
                    csvWork(perExecution(E.BytesRead)),
                    csvWork(perExecution(E.BytesWritten)), csvWork(W.Flops),
                    csvWork(W.Bytes), csvPerCycle(W.PerCycle));
    }
    OS << "\n";
  }
}

/// Adds the work fields of \p R to a JSON region (null when unknown): per
/// execution flops, bytes_read, bytes_written; over all executions
/// total_flops, total_bytes; flops_per_cycle.
static void addWorkFields(json::Object &Row, const RegionProfile &R) {
  const RegionEntry &E = *R.Entry;
  RegionWork W = workOf(R);
  Row["flops"] = jsonWork(perExecution(E.Flops));
  Row["bytes_read"] = jsonWork(perExecution(E.BytesRead));
  Row["bytes_written"] = jsonWork(perExecution(E.BytesWritten));
  Row["total_flops"] = jsonWork(W.Flops);
  Row["total_bytes"] = jsonWork(W.Bytes);
  Row["flops_per_cycle"] =
      W.PerCycle ? json::Value(*W.PerCycle) : json::Value(nullptr);
}

void lwp::writeJSON(raw_ostream &OS, const ReportInput &In,
                    const RowOptions &Options) {
  const Dump &D = In.D;
  bool Work = hasWork(In);
  json::Array Regions;
  for (const RegionProfile *R : selectRows(In, Options)) {
    const RegionEntry &E = *R->Entry;
    json::Object Row{
        {"count", int64_t(R->Count)},
        {"samples", int64_t(R->Samples)},
        {"repaired", int64_t(R->Repaired)},
        {"cycles",
         R->CyclesUnknown ? json::Value(nullptr) : json::Value(R->TotalCycles)},
        {"self",
         R->CyclesUnknown ? json::Value(nullptr) : json::Value(R->SelfCycles)},
        {"extrapolated", R->Extrapolated},
        {"unwound", int64_t(R->Unwound)},
        {"min", int64_t(R->Min)},
        {"median", int64_t(R->Median)},
        {"p90", int64_t(R->P90)},
        {"max", int64_t(R->Max)},
        {"instances_clamped", R->InstancesClamped},
        {"share",
         noShare(*R) ? json::Value(nullptr) : json::Value(share(In, *R))},
        {"implausible", stringifyImplausible(R->Implausible)},
        {"start_offset", siteOffset(In, R->Id, R->StartSite)},
        {"end_offset", siteOffset(In, R->Id, R->EndSite)},
    };
    addMapFields(Row, R->Id, E);
    if (Work)
      addWorkFields(Row, *R);
    Regions.push_back(std::move(Row));
  }
  json::Object Root{
      {"dump", json::Object{{"path", In.DumpName},
                            {"map", In.MapSource},
                            {"target", stringifyDumpTarget(D.target())},
                            {"counter", stringifyDumpCounter(D.counter())},
                            {"counter_hz", int64_t(D.counterHz())},
                            {"cap", int64_t(D.cap())},
                            {"dropped", int64_t(D.dropped())},
                            {"threads", int64_t(D.threads().size())},
                            {"probe_pair_cost", int64_t(In.P.PairCost)},
                            {"probe_nested_cost", int64_t(In.P.NestedCost)},
                            {"repaired", int64_t(In.P.RepairedInstances)},
                            {"unmatched_ends", int64_t(In.P.UnmatchedEnds)},
                            {"top_level_cycles", In.P.TopLevelCycles},
                            {"warnings", json::Array(In.P.Warnings)}}},
      {"regions", std::move(Regions)}};
  Root.getObject("dump")->try_emplace("compensated", D.compensated());
  std::vector<ContextPath> Paths =
      contextPaths(D, In.P.PairCost, In.P.NestedCost);
  if (!Paths.empty()) {
    json::Array Contexts;
    for (const ContextPath &P : Paths) {
      json::Array Ids, Names;
      for (uint32_t Id : P.Ids) {
        Ids.push_back(int64_t(Id));
        Names.push_back(contextLabel(In, Id));
      }
      Contexts.push_back(
          json::Object{{"ids", std::move(Ids)},
                       {"path", std::move(Names)},
                       {"count", int64_t(P.Count)},
                       {"cycles", int64_t(P.Cycles)},
                       {"self", int64_t(P.Self)},
                       {"folded", P.Folded},
                       {"folded_instances", int64_t(P.FoldedInstances)}});
    }
    Root["contexts"] = std::move(Contexts);
  }
  addSmallFunctions(*Root.getObject("dump"), In);
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

void lwp::writeDiffTable(raw_ostream &OS, const ReportInput &A,
                         const ReportInput &B, const RowOptions &Options) {
  OS << formatv("LWP diff: A = {0}, B = {1}, with {2}\n\n", A.DumpName,
                B.DumpName, A.MapSource);
  TextTable T({{"region", false},
               {"ID", true},
               {"count A", true},
               {"count B", true},
               {"cycles A", true},
               {"cycles B", true},
               {"B/A", true},
               {"source", false}});
  std::vector<uint32_t> Ids;
  for (const ReportInput *In : {&A, &B})
    for (const RegionProfile &R : In->P.Regions)
      Ids.push_back(R.Id);
  llvm::sort(Ids);
  Ids.erase(std::unique(Ids.begin(), Ids.end()), Ids.end());
  for (uint32_t Id : Ids) {
    const RegionProfile *RA = A.P.lookup(Id), *RB = B.P.lookup(Id);
    const RegionEntry &E = *(RA ? RA : RB)->Entry;
    if (!functionSelected(Options.Function, E))
      continue;
    auto count = [](const RegionProfile *R) {
      return R ? std::to_string(R->Count) : std::string("0");
    };
    auto cycles = [](const RegionProfile *R) {
      if (R && R->CyclesUnknown)
        return std::string("-");
      return R ? std::to_string(rounded(R->TotalCycles)) + (R->Implausible ? "?"
                                                            : R->Extrapolated
                                                                ? "*"
                                                                : "")
               : std::string("0");
    };
    bool Unreal = (RA && (RA->Implausible || RA->CyclesUnknown)) ||
                  (RB && (RB->Implausible || RB->CyclesUnknown));
    std::string Ratio =
        Unreal ? "?"
        : RA && RA->TotalCycles > 0
            ? formatv("{0:f3}", (RB ? RB->TotalCycles : 0) / RA->TotalCycles)
                  .str()
            : "-";
    T.add({regionLabel(E), std::to_string(Id), count(RA), count(RB), cycles(RA),
           cycles(RB), Ratio, E.Loc.str()});
  }
  T.print(OS);
}

std::vector<OperatorSummaryRow> lwp::summarizeOperators(const ReportInput &In,
                                                        double &Outside) {
  // The nearest operator region around each region, through the map's
  // parents (regions that did not run have no profile but still a parent).
  auto enclosingOperator = [&](const RegionEntry &E) -> const RegionProfile * {
    std::optional<uint32_t> Parent = E.ParentId;
    // At most one step per region: a corrupt map's cycle of parents stops.
    for (size_t Steps = 0; Parent && Steps <= In.P.Regions.size(); ++Steps) {
      const RegionProfile *P = In.P.lookup(*Parent);
      if (!P)
        return nullptr;
      if (P->Entry->Kind == RegionKind::Operator)
        return P;
      Parent = P->Entry->ParentId;
    }
    return nullptr;
  };
  llvm::DenseMap<uint32_t, double> Nested; // operator region ID -> cycles
  double Outermost = 0;
  for (const RegionProfile &R : In.P.Regions) {
    if (R.Entry->Kind != RegionKind::Operator)
      continue;
    if (const RegionProfile *P = enclosingOperator(*R.Entry))
      Nested[P->Id] += R.TotalCycles;
    else
      Outermost += R.TotalCycles;
  }
  std::vector<OperatorSummaryRow> Rows;
  llvm::StringMap<size_t> Index;
  // Per row: the flops and cycles of its regions with a FLOP/cycle.
  llvm::DenseMap<size_t, double> TimedFlops, TimedCycles;
  for (const RegionProfile &R : In.P.Regions) {
    if (R.Entry->Kind != RegionKind::Operator)
      continue;
    auto [It, New] = Index.try_emplace(R.Entry->Operator, Rows.size());
    if (New) {
      Rows.emplace_back();
      Rows.back().Operator = R.Entry->Operator;
    }
    OperatorSummaryRow &Row = Rows[It->second];
    ++Row.Regions;
    Row.Instances += R.Count;
    Row.Total += R.TotalCycles;
    Row.Self += std::max(0.0, R.TotalCycles - Nested.lookup(R.Id));
    RegionWork W = workOf(R);
    auto add = [](std::optional<uint64_t> &Sum, std::optional<uint64_t> V) {
      if (V)
        Sum = llvm::SaturatingAdd(Sum.value_or(0), *V);
    };
    add(Row.Flops, W.Flops);
    add(Row.Bytes, W.Bytes);
    if (W.PerCycle) {
      TimedFlops[It->second] += double(*W.Flops);
      TimedCycles[It->second] += R.TotalCycles;
    }
  }
  for (auto [I, Row] : llvm::enumerate(Rows)) {
    Row.Share =
        In.P.TopLevelCycles > 0 ? 100.0 * Row.Total / In.P.TopLevelCycles : 0;
    if (TimedCycles.lookup(I) > 0)
      Row.FlopsPerCycle = TimedFlops.lookup(I) / TimedCycles.lookup(I);
  }
  llvm::sort(
      Rows, [](const OperatorSummaryRow &A, const OperatorSummaryRow &B) {
        return A.Total != B.Total ? A.Total > B.Total : A.Operator < B.Operator;
      });
  Outside = std::max(0.0, In.P.TopLevelCycles - Outermost);
  return Rows;
}

void lwp::writeOperatorSummary(raw_ostream &OS, const ReportInput &In, bool CSV,
                               bool JSON) {
  double Outside = 0;
  std::vector<OperatorSummaryRow> Rows = summarizeOperators(In, Outside);
  auto mean = [](const OperatorSummaryRow &R) {
    return R.Instances ? R.Total / double(R.Instances) : 0.0;
  };
  bool Work = hasWork(In);
  if (CSV) {
    OS << "operator,regions,instances,cycles,self,share,mean";
    OS << (Work ? ",flops,bytes,flops_per_cycle\n" : "\n");
    for (const OperatorSummaryRow &R : Rows) {
      OS << formatv("\"{0}\",{1},{2},{3:f1},{4:f1},{5:f3},{6:f1}", R.Operator,
                    R.Regions, R.Instances, R.Total, R.Self, R.Share, mean(R));
      if (Work)
        OS << formatv(",{0},{1},{2}", csvWork(R.Flops), csvWork(R.Bytes),
                      csvPerCycle(R.FlopsPerCycle));
      OS << "\n";
    }
    return;
  }
  if (JSON) {
    json::Array Ops;
    for (const OperatorSummaryRow &R : Rows) {
      json::Object Op{{"operator", R.Operator},
                      {"regions", int64_t(R.Regions)},
                      {"instances", int64_t(R.Instances)},
                      {"cycles", R.Total},
                      {"self", R.Self},
                      {"share", R.Share},
                      {"mean", mean(R)}};
      if (Work) {
        Op["flops"] = jsonWork(R.Flops);
        Op["bytes"] = jsonWork(R.Bytes);
        Op["flops_per_cycle"] = R.FlopsPerCycle ? json::Value(*R.FlopsPerCycle)
                                                : json::Value(nullptr);
      }
      Ops.push_back(std::move(Op));
    }
    json::Object Root{{"operators", std::move(Ops)},
                      {"top_level_cycles", In.P.TopLevelCycles},
                      {"outside_cycles", Outside}};
    OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
    return;
  }
  writeHeader(OS, In);
  if (Rows.empty()) {
    OS << "no operator regions in this profile (operators come from MLIR "
          "models instrumented at stats-level >= 70 after "
          "lwp-mark-operators)\n";
    return;
  }
  // The work columns before the mean: the last column is not padded, so
  // they stay aligned.
  std::vector<std::pair<std::string, bool>> Columns = {
      {"operator", false}, {"regions", true}, {"instances", true},
      {"cycles", true},    {"self", true},    {"share", true}};
  if (Work)
    addWorkColumns(Columns);
  Columns.push_back({"mean", true});
  TextTable T(std::move(Columns));
  for (const OperatorSummaryRow &R : Rows) {
    std::vector<std::string> Row = {R.Operator,
                                    std::to_string(R.Regions),
                                    std::to_string(R.Instances),
                                    std::to_string(rounded(R.Total)),
                                    std::to_string(rounded(R.Self)),
                                    formatv("{0:f1}%", R.Share).str()};
    if (Work)
      Row.insert(Row.end(),
                 {workCell(R.Flops), workCell(R.Bytes),
                  R.FlopsPerCycle ? formatv("{0:f3}", *R.FlopsPerCycle).str()
                                  : std::string("-")});
    Row.push_back(std::to_string(rounded(mean(R))));
    T.add(std::move(Row));
  }
  T.print(OS);
  OS << formatv("\noutside operators: {0} cycles ({1:f1}%)\n", rounded(Outside),
                In.P.TopLevelCycles > 0 ? 100.0 * Outside / In.P.TopLevelCycles
                                        : 0.0);
  if (Work)
    writeWorkLegend(OS, In);
}

static std::string countRange(const RegionRuns &R) {
  return R.CountMin == R.CountMax
             ? std::to_string(R.CountMin)
             : formatv("{0}..{1}#", R.CountMin, R.CountMax).str();
}

/// The standard deviation in percent of the mean ("-" for a zero mean).
static std::string relative(const RunSpread &S) {
  if (S.Mean <= 0)
    return S.StdDev > 0 ? std::string("-") : std::string("0.0%");
  return formatv("{0:f1}%", 100.0 * S.StdDev / S.Mean).str();
}

void lwp::writeRunsTable(raw_ostream &OS, const ReportInput &In,
                         const RunsProfile &Runs,
                         llvm::ArrayRef<std::string> DumpNames,
                         const RowOptions &Options) {
  const Dump &D = In.D;
  std::string Freq = D.counterHz()
                         ? formatv("{0:f3} GHz", D.counterHz() / 1e9).str()
                         : std::string("frequency unknown");
  OS << formatv("LWP report: {0} runs ({1}) with {2}\n", DumpNames.size(),
                llvm::join(DumpNames, ", "), In.MapSource);
  OS << formatv("target {0}, counter {1} ({2}), cap {3} records per region "
                "(first run)\n",
                stringifyDumpTarget(D.target()),
                stringifyDumpCounter(D.counter()), Freq, D.cap());
  if (D.compensated())
    OS << "overhead correction: compensated by the runtime (each probe's "
          "time taken out of its thread's clock as it ran)"
       << (In.P.PairCost || In.P.NestedCost
               ? "; each run's residual costs subtracted\n"
               : "\n");
  else if (In.P.PairCost)
    OS << "overhead correction: each run's calibrated costs subtracted "
          "(--no-overhead-correction for raw figures)\n";
  else
    OS << "overhead correction: off\n";
  OS << (In.P.Exact ? "cycles: exact for every execution in every run\n"
                    : "cycles: extrapolated from the recorded instances (the "
                      "input has no exact figures)\n");
  OS << "runs: cycles, self and share are the mean over the runs; min, max "
        "and sd (sample standard deviation, % of the mean) their spread\n";
  if (Runs.CountsDiffer)
    OS << formatv("counts: differ between runs in {0} region(s) (min..max, "
                  "marked #)\n",
                  Runs.CountsDiffer);
  else
    OS << "counts: equal in every run\n";
  OS << formatv("top-level cycles: mean {0}, min {1}, max {2}, sd {3}\n",
                rounded(Runs.TopLevel.Mean), rounded(Runs.TopLevel.Min),
                rounded(Runs.TopLevel.Max), relative(Runs.TopLevel));
  if (In.P.Exact && In.P.UnwoundInstances)
    OS << formatv("unwound: {0} instance(s) over the runs left without their "
                  "end probe (! in the table)\n",
                  In.P.UnwoundInstances);
  OS << "\n";
  TextTable T({{"region", false},
               {"ID", true},
               {"depth", true},
               {"count", true},
               {"cycles", true},
               {"min", true},
               {"max", true},
               {"sd", true},
               {"self", true},
               {"min", true},
               {"max", true},
               {"sd", true},
               {"share", true},
               {"source", false}});
  bool AnyExtrapolated = false, AnyImplausible = false;
  for (const RegionProfile *R : selectRows(In, Options)) {
    const RegionRuns &RR = *Runs.lookup(R->Id);
    const RegionEntry &E = *R->Entry;
    std::string Mark = RR.Implausible    ? "?"
                       : RR.Extrapolated ? "*"
                       : RR.Unwound      ? "!"
                                         : "";
    AnyExtrapolated |= RR.Extrapolated && !RR.Implausible;
    AnyImplausible |= RR.Implausible != 0;
    // Figures of a run that cannot be real, or that are unknown, make the
    // mean and the spread meaningless: '?' or '-' instead.
    auto figure = [&](double V, bool Marked) {
      return RR.CyclesUnknown ? std::string("-")
             : RR.Implausible
                 ? std::string("?")
                 : std::to_string(rounded(V)) + (Marked ? Mark : std::string());
    };
    auto sd = [&](const RunSpread &S) {
      return RR.CyclesUnknown || RR.Implausible ? std::string("-")
                                                : relative(S);
    };
    T.add({regionName(E, /*Qualified=*/true), std::to_string(R->Id),
           E.Depth ? std::to_string(*E.Depth) : "-", countRange(RR),
           figure(RR.Cycles.Mean, true), figure(RR.Cycles.Min, false),
           figure(RR.Cycles.Max, false), sd(RR.Cycles),
           figure(RR.Self.Mean, true), figure(RR.Self.Min, false),
           figure(RR.Self.Max, false), sd(RR.Self),
           RR.CyclesUnknown ? "-"
           : RR.Implausible ? "?"
                            : formatv("{0:f1}%", RR.Share.Mean).str(),
           E.Loc.str()});
  }
  T.print(OS);
  if (AnyExtrapolated)
    OS << "\n* extrapolated in some run: count > samples, total = recorded "
          "mean x count\n";
  if (AnyImplausible)
    OS << "\n? figures that cannot be real in some run (a corrupt dump; the "
          "warnings on stderr say which)\n";
}

void lwp::writeRunsCSV(raw_ostream &OS, const ReportInput &In,
                       const RunsProfile &Runs, const RowOptions &Options) {
  OS << "id,kind,function,depth,height,parent,runs,count_min,count_max,"
        "cycles_mean,cycles_min,cycles_max,cycles_stddev,self_mean,self_min,"
        "self_max,self_stddev,share_mean,share_min,share_max,extrapolated,"
        "implausible,file,line,column\n";
  auto opt = csvOptional;
  auto quote = csvQuote;
  for (const RegionProfile *R : selectRows(In, Options)) {
    const RegionRuns &RR = *Runs.lookup(R->Id);
    const RegionEntry &E = *R->Entry;
    OS << formatv("{0},{1},{2},{3},{4},{5},{6},{7},{8},", R->Id,
                  stringifyRegionKind(E.Kind), quote(E.Function), opt(E.Depth),
                  opt(E.Height), opt(E.ParentId), RR.Cycles.Values.size(),
                  RR.CountMin, RR.CountMax);
    for (const RunSpread *S : {&RR.Cycles, &RR.Self})
      OS << formatv("{0:f1},{1:f1},{2:f1},{3:f1},", S->Mean, S->Min, S->Max,
                    S->StdDev);
    // No share of figures that cannot be real or are unknown (as in the
    // single-run CSV).
    if (RR.Implausible || RR.CyclesUnknown)
      OS << ",,,";
    else
      OS << formatv("{0:f3},{1:f3},{2:f3},", RR.Share.Mean, RR.Share.Min,
                    RR.Share.Max);
    OS << formatv("{0},{1},{2},{3},{4}\n", RR.Extrapolated ? 1 : 0,
                  quote(stringifyImplausible(RR.Implausible)),
                  quote(E.Loc.File), E.Loc.Line, E.Loc.Column);
  }
}

static json::Object spreadJSON(const RunSpread &S) {
  json::Array Values;
  for (double V : S.Values)
    Values.push_back(V);
  return json::Object{{"mean", S.Mean},
                      {"min", S.Min},
                      {"max", S.Max},
                      {"stddev", S.StdDev},
                      {"runs", std::move(Values)}};
}

void lwp::writeRunsJSON(raw_ostream &OS, const ReportInput &In,
                        const RunsProfile &Runs,
                        llvm::ArrayRef<std::string> DumpNames,
                        llvm::ArrayRef<const Dump *> Dumps,
                        const RowOptions &Options) {
  const Dump &D = In.D;
  json::Array RunList;
  for (size_t I = 0; I != DumpNames.size(); ++I)
    RunList.push_back(
        json::Object{{"path", DumpNames[I]},
                     {"dropped", int64_t(Dumps[I]->dropped())},
                     {"top_level_cycles", Runs.TopLevel.Values[I]}});
  json::Array Regions;
  for (const RegionProfile *R : selectRows(In, Options)) {
    const RegionRuns &RR = *Runs.lookup(R->Id);
    const RegionEntry &E = *R->Entry;
    json::Object Row{
        {"count", json::Object{{"min", int64_t(RR.CountMin)},
                               {"max", int64_t(RR.CountMax)},
                               {"equal", RR.CountMin == RR.CountMax}}},
        {"cycles", spreadJSON(RR.Cycles)},
        {"self", spreadJSON(RR.Self)},
        {"share", spreadJSON(RR.Share)},
        {"extrapolated", RR.Extrapolated},
        {"unwound", RR.Unwound},
        {"implausible", stringifyImplausible(RR.Implausible)},
        {"cycles_unknown", RR.CyclesUnknown},
    };
    addMapFields(Row, R->Id, E);
    Regions.push_back(std::move(Row));
  }
  json::Object Root{
      {"runs", std::move(RunList)},
      {"dump", json::Object{{"map", In.MapSource},
                            {"target", stringifyDumpTarget(D.target())},
                            {"counter", stringifyDumpCounter(D.counter())},
                            {"counter_hz", int64_t(D.counterHz())},
                            {"cap", int64_t(D.cap())},
                            {"exact", In.P.Exact},
                            {"counts_differ", int64_t(Runs.CountsDiffer)},
                            {"top_level_cycles", spreadJSON(Runs.TopLevel)}}},
      {"regions", std::move(Regions)}};
  addSmallFunctions(*Root.getObject("dump"), In);
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

void InstanceLog::add(const InstanceEvent &E) {
  Instances.push_back(
      {E.ThreadId, E.Id, E.StartCycles, E.Inclusive, E.Raw, E.Repaired});
  Stacks.add(E);
}

void InstanceLog::writeChromeTrace(raw_ostream &OS,
                                   const ReportInput &In) const {
  const Dump &D = In.D;
  // Microseconds from the counter frequency; ticks when it is unknown.
  double Scale = D.counterHz() ? 1e6 / double(D.counterHz()) : 1.0;
  uint64_t Origin = UINT64_MAX;
  for (const Instance &I : Instances)
    Origin = std::min(Origin, I.Start);
  json::OStream J(OS);
  J.object([&] {
    J.attribute("displayTimeUnit", "ns");
    J.attributeObject("otherData", [&] {
      J.attribute("counter", stringifyDumpCounter(D.counter()));
      J.attribute("time_unit", D.counterHz() ? "us" : "counter ticks");
    });
    J.attributeArray("traceEvents", [&] {
      for (const DumpThread &T : D.threads())
        J.object([&] {
          J.attribute("name", "thread_name");
          J.attribute("ph", "M");
          J.attribute("pid", 1);
          J.attribute("tid", int64_t(T.threadId()));
          J.attributeObject("args", [&] {
            J.attribute("name", formatv("thread {0}", T.threadId()).str());
          });
        });
      for (const Instance &I : Instances) {
        const RegionProfile *R = In.P.lookup(I.Id);
        const RegionEntry *E = R->Entry;
        bool Clamped = false;
        uint64_t Cycles = R->instanceFigure(I.Inclusive, &Clamped);
        J.object([&] {
          J.attribute("name", regionLabel(*E));
          J.attribute("cat", stringifyRegionKind(E->Kind));
          J.attribute("ph", "X");
          J.attribute("pid", 1);
          J.attribute("tid", int64_t(I.ThreadId));
          J.attribute("ts", double(I.Start - Origin) * Scale);
          J.attribute("dur", double(I.Raw) * Scale);
          J.attributeObject("args", [&] {
            J.attribute("id", int64_t(I.Id));
            J.attribute("cycles", int64_t(Cycles));
            J.attribute("raw_cycles", int64_t(I.Raw));
            if (Clamped)
              J.attribute("clamped", true);
            if (I.Repaired)
              J.attribute("repaired", true);
          });
        });
      }
    });
  });
  OS << "\n";
}

std::string lwp::contextLabel(const ReportInput &In, uint32_t Id) {
  const RegionProfile *R = In.P.lookup(Id);
  return R && R->Entry ? regionLabel(*R->Entry) : formatv("#{0}", Id).str();
}

void InstanceLog::writeFolded(raw_ostream &OS, const ReportInput &In) const {
  // The runtime's calling-context trees, when the dump has them: exact for
  // every execution, so the stacks add up to the table. Else the recorded
  // instances, scaled to the table's self cycles.
  for (const ContextPath &P : profilePaths(In.D, In.P, &Stacks)) {
    llvm::ListSeparator Sep(";");
    for (uint32_t Id : P.Ids)
      OS << Sep << contextLabel(In, Id);
    if (P.Folded)
      OS << " [folded]";
    OS << " " << P.Self << "\n";
  }
}
