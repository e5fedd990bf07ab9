//===- lwp-opt.cpp - mlir-opt with the lwp dialect and passes -------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt driver with every upstream dialect, extension and pass
// registered (so that linalg on tensors can be bufferized, lowered to loops
// and to the LLVM dialect in one run) plus the lwp dialect and passes.
//
// The profiler is switched on with compiler flags, as with the LLVM plugin:
// -stats-level=N, -max-loop-depth=N and the -lwp-* selection flags put
// lwp-instrument into the pass list, after the last pass that lowers linalg
// to loops, else before the first lowering to the LLVM dialect, else last;
// when the pipeline lowers linalg, lwp-mark-operators goes first, so that
// every loop's operator is known.
//
//===----------------------------------------------------------------------===//

#include "lwp/Dialect/LWPDialect.h"
#include "lwp/Frontend/Passes.h"
#include "lwp/Instrument/Passes.h"
#include "lwp/Lowering/Passes.h"
#include "lwp/Lowering/Pipelines.h"
#include "lwp/Support/InputFile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {
/// Largest input file: MLIR text or bytecode, read whole.
constexpr uint64_t MaxInputBytes = uint64_t(4) << 30;

/// The top-level flags and the lwp-instrument option each sets (the names of
/// the LLVM plugin's flags; Passes.td for the pass options).
struct ProfilerFlag {
  StringRef Flag;   ///< without the leading '-'
  StringRef Option; ///< lwp-instrument option
  bool IsBool;
};
constexpr ProfilerFlag ProfilerFlags[] = {
    {"stats-level", "stats-level", false},
    {"max-loop-depth", "max-loop-depth", false},
    {"lwp-min-loop-height", "lwp-min-loop-height", false},
    {"lwp-instrument-siblings", "lwp-instrument-siblings", true},
    {"lwp-no-function-regions", "lwp-no-function-regions", true},
    {"lwp-function-filter", "lwp-function-filter", false},
    {"lwp-instruction-threshold", "lwp-instruction-threshold", false},
    {"lwp-map-file", "map-file", false},
};

cl::OptionCategory ProfilerCategory("LWP profiler flags (put lwp-instrument "
                                    "into the pass list)");
// Registered for -help only: main takes them out of argv before MLIR's
// option parsing.
cl::opt<int> StatsLevelHelp("stats-level",
                            cl::desc("40 function regions, 70 loops by "
                                     "depth, 100 every loop"),
                            cl::cat(ProfilerCategory));
cl::opt<unsigned> MaxLoopDepthHelp("max-loop-depth",
                                   cl::desc("deepest loop depth instrumented "
                                            "(default 0)"),
                                   cl::cat(ProfilerCategory));
cl::opt<unsigned> MinLoopHeightHelp("lwp-min-loop-height",
                                    cl::desc("skip loops lower than this"),
                                    cl::cat(ProfilerCategory));
cl::opt<bool> SiblingsHelp("lwp-instrument-siblings",
                           cl::desc("also deeper loops that have siblings"),
                           cl::cat(ProfilerCategory));
cl::opt<bool> NoFunctionsHelp("lwp-no-function-regions", cl::desc("loops only"),
                              cl::cat(ProfilerCategory));
cl::opt<std::string> FilterHelp("lwp-function-filter",
                                cl::desc("instrument only functions whose "
                                         "name matches this regex"),
                                cl::cat(ProfilerCategory));
cl::opt<unsigned> InstructionThresholdHelp(
    "lwp-instruction-threshold",
    cl::desc("no function region for functions with fewer ops than this "
             "that hold no selected loop (default 0)"),
    cl::cat(ProfilerCategory));
cl::opt<std::string> MapFileHelp("lwp-map-file",
                                 cl::desc("write the instrumentation map as "
                                          "JSON here"),
                                 cl::cat(ProfilerCategory));

/// The pass flag of \p Arg ("--lwp-to-llvm=..." -> "lwp-to-llvm").
StringRef passName(StringRef Arg) {
  if (!Arg.consume_front("--") && !Arg.consume_front("-"))
    return {};
  return Arg.split('=').first;
}

bool lowersToLoops(StringRef Pass) {
  return Pass == "lwp-linalg-to-loops" || Pass == "convert-linalg-to-loops" ||
         Pass == "convert-linalg-to-affine-loops" ||
         Pass == "convert-linalg-to-parallel-loops";
}

bool lowersToLLVM(StringRef Pass) {
  return Pass.contains("to-llvm") || Pass == "lwp-to-llvm";
}

/// Checks \p Value of lwp-instrument option \p Option as the option's parser
/// will (llvm::cl's int, unsigned and bool parsers), so that a bad value
/// gives one error line in that parser's words: MLIR's pass option parser
/// prints its line and then an empty "<unknown>:0: error: " for it. True
/// when the value is good or the option takes any text.
bool checkOptionValue(StringRef Option, StringRef Value) {
  // The words of llvm::cl's parsers, which MLIR's pass options use.
  auto bad = [&](StringRef What) {
    WithColor::error(errs(), "lwp-opt")
        << "for the --" << Option << " option: '" << Value << "' " << What
        << "\n";
    return false;
  };
  if (Option == "stats-level") {
    int V;
    return !Value.getAsInteger(0, V) ||
           bad("value invalid for integer argument!");
  }
  if (Option == "max-loop-depth" || Option == "lwp-min-loop-height" ||
      Option == "lwp-instruction-threshold") {
    unsigned V;
    return !Value.getAsInteger(0, V) ||
           bad("value invalid for uint argument! (0 to 4294967295)");
  }
  if (Option == "lwp-instrument-siblings" ||
      Option == "lwp-no-function-regions")
    return StringRef("|true|TRUE|True|1|false|FALSE|False|0|")
               .contains(("|" + Value + "|").str()) ||
           bad("is invalid value for boolean argument! Try 0 or 1");
  return true;
}

/// Checks the numeric and boolean options of a `--lwp-instrument=OPTIONS`
/// argument (space-separated key=value pairs) with checkOptionValue.
bool checkInstrumentOptions(StringRef Arg) {
  if (passName(Arg) != "lwp-instrument")
    return true;
  StringRef Options = Arg.split('=').second.trim();
  if (Options.size() >= 2 && Options.front() == '{' && Options.back() == '}')
    Options = Options.drop_front().drop_back();
  SmallVector<StringRef> Pairs;
  Options.split(Pairs, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Pair : Pairs) {
    auto [Key, Value] = Pair.split('=');
    if (Pair.contains('=') &&
        !checkOptionValue(Key, Value.trim("\"'")))
      return false;
  }
  return true;
}

/// Takes the profiler flags out of \p Args and, when there are any, inserts
/// `--lwp-instrument=<options>` into the pass list. Returns false (after one
/// error line) when they cannot be honoured.
bool rewriteProfilerFlags(std::vector<std::string> &Args) {
  std::vector<std::string> Options, Kept;
  for (size_t I = 0; I != Args.size(); ++I) {
    StringRef Arg = Args[I];
    const ProfilerFlag *Match = nullptr;
    std::string Value;
    if (I && Arg.starts_with("-")) {
      StringRef Body = Arg.ltrim('-');
      auto [Name, Val] = Body.split('=');
      for (const ProfilerFlag &F : ProfilerFlags)
        if (Name == F.Flag) {
          Match = &F;
          if (Body.contains('=')) {
            Value = Val.str();
          } else if (F.IsBool) {
            Value = "true";
          } else if (I + 1 < Args.size()) {
            Value = Args[++I];
          } else {
            WithColor::error(errs(), "lwp-opt")
                << "-" << F.Flag << " needs a value\n";
            return false;
          }
        }
    }
    if (!Match) {
      if (I && !checkInstrumentOptions(Args[I]))
        return false;
      Kept.push_back(Args[I]);
      continue;
    }
    if (!checkOptionValue(Match->Option, Value))
      return false;
    if (StringRef(Value).contains(' ')) {
      WithColor::error(errs(), "lwp-opt")
          << "-" << Match->Flag << " value '" << Value
          << "' has a space, which a pass option cannot hold\n";
      return false;
    }
    Options.push_back((Match->Option + "=" + Value).str());
  }
  if (Options.empty()) {
    Args = std::move(Kept);
    return true;
  }
  size_t Insert = Kept.size(), FirstLLVM = Kept.size();
  bool AfterLoops = false;
  for (size_t I = 1; I != Kept.size(); ++I) {
    StringRef Pass = passName(Kept[I]);
    if (Pass == "pass-pipeline") {
      WithColor::error(errs(), "lwp-opt")
          << "the profiler flags do not combine with --pass-pipeline; put "
             "lwp-instrument{...} into the pipeline\n";
      return false;
    }
    if (Pass == "lwp-instrument") {
      WithColor::error(errs(), "lwp-opt")
          << "give the profiler flags or --lwp-instrument, not both\n";
      return false;
    }
    if (lowersToLoops(Pass)) {
      Insert = I + 1;
      AfterLoops = true;
    }
    if (lowersToLLVM(Pass) && FirstLLVM == Kept.size())
      FirstLLVM = I;
  }
  if (!AfterLoops)
    Insert = FirstLLVM;
  Kept.insert(Kept.begin() + Insert, "--lwp-instrument=" + join(Options, " "));
  // Structured ops are known only before the lowering: tag them first, so
  // that lwp-instrument finds the operator of every loop.
  if (AfterLoops)
    Kept.insert(Kept.begin() + 1, "--lwp-mark-operators");
  Args = std::move(Kept);
  return true;
}
} // namespace

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  lwp::registerLWPPasses();
  lwp::registerLWPFrontendPasses();
  lwp::registerLWPLoweringPasses();
  lwp::registerLWPPipelines();

  mlir::DialectRegistry Registry;
  mlir::registerAllDialects(Registry);
  mlir::registerAllExtensions(Registry);
  Registry.insert<lwp::LWPDialect>();

  std::vector<std::string> Args(argv, argv + argc);
  if (!rewriteProfilerFlags(Args))
    return 1;
  std::vector<char *> NewArgv;
  for (std::string &A : Args)
    NewArgv.push_back(A.data());
  NewArgv.push_back(nullptr);

  auto [Input, Output] = mlir::registerAndParseCLIOptions(
      int(Args.size()), NewArgv.data(),
      "LWP optimizer driver: MLIR passes plus lwp-instrument\n", Registry);
  // The input is a regular file of bounded size ('-': standard input), so
  // that /dev/zero or a FIFO ends with one line instead of a read that never
  // ends or an open that blocks.
  if (Input != "-")
    if (Error E = lwp::checkInputFile(Input, "input", MaxInputBytes)) {
      WithColor::error(errs(), "lwp-opt") << toString(std::move(E)) << "\n";
      return 1;
    }
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      int(Args.size()), NewArgv.data(), Input, Output, Registry));
}
