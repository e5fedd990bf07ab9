//===- lwp-report.cpp - Turn LWP dumps into per-region cycle tables -------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
//   lwp-report BINARY DUMP           per-region cycle table (or --format=csv,
//                                    json, chrome-trace, folded, html)
//   lwp-report --map-json=MAP DUMP   the same with a JSON map (map-file=)
//   lwp-report BINARY D1 D2 ...      several runs: each region's mean and
//                                    spread across the runs
//   lwp-report --diff BINARY A B     two dumps of one binary side by side
//   lwp-report --tvm-json=lwp.json --load-address=ADDR MODEL.so
//                                    TVM's LWP output with its model
//   lwp-report --raw DUMP            the dump as recorded
//   lwp-report --map BINARY          the instrumentation map of a binary
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Binary.h"
#include "lwp/Report/Dump.h"
#include "lwp/Report/HTMLWriter.h"
#include "lwp/Report/Input.h"
#include "lwp/Report/Profile.h"
#include "lwp/Report/Runs.h"
#include "lwp/Report/TVM.h"
#include "lwp/Report/Writers.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <unistd.h>

using namespace llvm;

static cl::OptionCategory Category("lwp-report options");
static cl::list<std::string>
    Inputs(cl::Positional,
           cl::desc("<binary> <dump>... | <dump> (--raw) "
                    "| <binary> (--map); several "
                    "dumps of one binary: each "
                    "region's mean and spread "
                    "across the runs"),
           cl::OneOrMore, cl::cat(Category));
static cl::opt<bool> Raw("raw",
                         cl::desc("Print the dump as recorded: header, images, "
                                  "counts, every record"),
                         cl::cat(Category));
static cl::opt<bool> MapOnly("map",
                             cl::desc("Print the instrumentation map a binary "
                                      "carries (section lwp_map)"),
                             cl::cat(Category));
enum class Format { Table, CSV, JSON, ChromeTrace, Folded, HTML };
static cl::opt<Format> OutputFormat(
    "format", cl::desc("Output format"), cl::init(Format::Table),
    cl::values(clEnumValN(Format::Table, "table", "per-region table (default)"),
               clEnumValN(Format::CSV, "csv", "CSV, one row per region"),
               clEnumValN(Format::JSON, "json", "JSON, one object per region"),
               clEnumValN(Format::ChromeTrace, "chrome-trace",
                          "Chrome Trace Event JSON (Perfetto)"),
               clEnumValN(Format::Folded, "folded",
                          "folded stacks (flamegraph.pl, speedscope)"),
               clEnumValN(Format::HTML, "html",
                          "one self-contained HTML page (offline: table, "
                          "icicle chart, timeline, sources)")),
    cl::cat(Category));
static cl::opt<lwp::SortKey> Sort(
    "sort", cl::desc("Sort rows by"), cl::init(lwp::SortKey::Cycles),
    cl::values(clEnumValN(lwp::SortKey::Cycles, "cycles", "inclusive cycles"),
               clEnumValN(lwp::SortKey::Self, "self", "self cycles"),
               clEnumValN(lwp::SortKey::Count, "count", "executions"),
               clEnumValN(lwp::SortKey::Id, "id", "region ID")),
    cl::cat(Category));
static cl::opt<unsigned> Top("top", cl::desc("Show the first N rows only"),
                             cl::init(0), cl::cat(Category));
static cl::opt<std::string>
    FunctionFilter("function",
                   cl::desc("Only regions of functions matching "
                            "this regex"),
                   cl::cat(Category));
static cl::opt<bool> NoDemangle(
    "no-demangle",
    cl::desc("Print functions by their symbols (_ZN3Sum3addEl) instead of "
             "demangled (Sum::add(long)); JSON has both either way"),
    cl::cat(Category));
static cl::opt<bool> Tree("tree",
                          cl::desc("Table: each loop nest indented under its "
                                   "function"),
                          cl::cat(Category));
static cl::opt<bool>
    NoOverheadCorrection("no-overhead-correction",
                         cl::desc("Raw figures: do not subtract the "
                                  "dump's probe costs (a compensated dump's "
                                  "figures stay compensated)"),
                         cl::cat(Category));
static cl::opt<std::string> MapJSON("map-json",
                                    cl::desc("Take the map from this JSON "
                                             "file (lwp-instrument map-file=) "
                                             "instead of a binary"),
                                    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> OutputPath("o",
                                       cl::desc("Output file (default: "
                                                "stdout)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(Category));
static cl::opt<bool> Diff("diff",
                          cl::desc("Compare two dumps of the same binary: "
                                   "<binary> <dump A> <dump B>"),
                          cl::cat(Category));
static cl::opt<std::string> TVMJSON("tvm-json",
                                    cl::desc("Read Apache TVM's LWP output "
                                             "(lwp.json) with <model.so>"),
                                    cl::value_desc("file"), cl::cat(Category));
static cl::opt<uint64_t> LoadAddress("load-address",
                                     cl::desc("With --tvm-json: the address "
                                              "the model .so was loaded at"),
                                     cl::init(0), cl::cat(Category));
static cl::list<std::string>
    ExtraImages("image",
                cl::desc("A shared object of the profiled process (matched "
                         "to the dump's images by build ID); repeatable"),
                cl::value_desc("path"), cl::cat(Category));
static cl::list<std::string> SearchDirs(
    "search-dir",
    cl::desc("Look here, by file name, for images of the dump that are no "
             "longer at the path the dump recorded; repeatable"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool>
    Summary("summary",
            cl::desc("One row per operator type (MLIR operator regions): "
                     "regions, instances, total and self cycles, share, mean "
                     "cycles per instance; with --format=csv or json"),
            cl::cat(Category));
static cl::opt<unsigned> Jobs(
    "jobs",
    cl::desc("Threads that walk a dump's records (a runtime's dump of over "
             "2 Mi records per thread is cut into parts; 1: one thread; "
             "default: the cores, at most 8)"),
    cl::init(0), cl::value_desc("N"), cl::cat(Category));
static cl::alias JobsShort("j", cl::desc("Alias for --jobs"),
                           cl::aliasopt(Jobs), cl::cat(Category));
static cl::list<std::string> SourceDirs(
    "source-dir",
    cl::desc("--format=html: look here for the regions' source files "
             "(relative paths, then file names) to embed; repeatable"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> NoRecords("no-records",
                               cl::desc("With --raw, leave the records out"),
                               cl::cat(Category));

static std::string hex(StringRef Bytes) {
  std::string S;
  for (unsigned char C : Bytes)
    S += formatv("{0:x-2}", C).str();
  return S;
}

static Error printRaw(const lwp::Dump &D, raw_ostream &OS) {
  OS << formatv("dump: version {0}, target {1}, counter {2}, {3} Hz, record "
                "size {4}, cap {5}, dropped {6}, probe pair cost {7}, "
                "nested cost {8}{9}{10}{11}\n",
                D.version(), lwp::stringifyDumpTarget(D.target()),
                lwp::stringifyDumpCounter(D.counter()), D.counterHz(),
                D.recordSize(), D.cap(), D.dropped(), D.probePairCost(),
                D.probeNestedCost(), D.hasFigures() ? ", figures" : "",
                D.lostExecutions() ? ", lost" : "",
                D.compensated() ? ", compensated" : "");
  for (size_t I = 0; I != D.images().size(); ++I) {
    const lwp::DumpImage &Img = D.images()[I];
    OS << formatv("image {0}: bias {1:x}, build-id {2}, {3}\n", I, Img.LoadBias,
                  Img.BuildId.empty() ? "-" : hex(Img.BuildId), Img.Name);
  }
  for (size_t I = 0; I != D.modules().size(); ++I) {
    const lwp::DumpModule &M = D.modules()[I];
    OS << formatv("module {0}: image {1}, blob {2:x}, IDs {3}-{4}", I, M.Image,
                  M.BlobVaddr, M.FirstId,
                  uint64_t(M.FirstId) + M.NumRegions - 1);
    if (M.MapHash)
      OS << formatv(", map hash {0:x-8}", M.MapHash);
    OS << "\n";
  }
  for (size_t Id = 0; Id != D.counts().size(); ++Id)
    if (D.counts()[Id])
      OS << formatv("count {0}: {1}\n", Id, D.counts()[Id]);
  for (size_t T = 0; T != D.threads().size(); ++T) {
    const lwp::DumpThread &Th = D.threads()[T];
    OS << formatv("thread {0}: tid {1}, {2} records", T, Th.threadId(),
                  Th.size());
    if (D.hasFigures())
      OS << formatv(", top-level cycles {0}, instances {1}, nested {2}",
                    Th.TopCycles, Th.TopInstances, Th.TopNested);
    OS << "\n";
    if (NoRecords)
      continue;
    if (Error E = Th.forEachRecord([&](const lwp::DumpRecord &R) {
          OS << formatv("  {0,-5} {1,6}  site {2:x}  cycles {3}\n",
                        R.IsEnd ? "end" : "start", R.Id, R.Site, R.Cycles);
          return true;
        }))
      return E;
  }
  // The calling-context nodes (version 4), thread by thread.
  for (size_t T = 0; T != D.threads().size(); ++T) {
    const lwp::DumpThread &Th = D.threads()[T];
    for (size_t K = 0; K != Th.Nodes.size(); ++K) {
      const lwp::DumpNode &N = Th.Nodes[K];
      OS << formatv("node {0}.{1}: id {2}, parent {3}, count {4}, cycles {5}",
                    T, K, N.Id, N.Parent, N.Count, N.Cycles);
      if (N.Flags & LWP_NODE_FOLDED)
        OS << formatv(", folded {0}", N.Folded);
      OS << "\n";
    }
  }
  // The exact figures last, so that the records follow their thread line.
  if (D.hasFigures())
    for (size_t Id = 0; Id != D.regions().size(); ++Id)
      if (const lwp::DumpRegion &R = D.regions()[Id]; R.Count || R.Total)
        OS << formatv("figures {0}: total {1}, self {2}, nested {3}, "
                      "children {4}, outer {5}, unwound {6}\n",
                      Id, R.Total, R.Self, R.Nested, R.Children, R.Outer,
                      R.Unwound);
  return Error::success();
}

/// What a file that is not a regular one is, for messages.
static StringRef describeFileType(sys::fs::file_type Type) {
  switch (Type) {
  case sys::fs::file_type::directory_file:
    return "a directory";
  case sys::fs::file_type::symlink_file:
    return "a symbolic link";
  case sys::fs::file_type::fifo_file:
    return "a FIFO";
  case sys::fs::file_type::character_file:
    return "a character device";
  case sys::fs::file_type::block_file:
    return "a block device";
  case sys::fs::file_type::socket_file:
    return "a socket";
  default:
    return "of an unknown type";
  }
}

static Error cannotWrite(StringRef Path, const Twine &Why) {
  return createStringError("cannot write '" + Path + "': " + Why);
}

/// Checks that -o \p Path may be written: it does not exist, or it is a
/// regular file, which the report replaces (the user named it). A symbolic
/// link, directory, FIFO, device or socket is refused, without following a
/// link and without opening anything.
static Error checkOutputPath(StringRef Path) {
  if (Path == "-")
    return Error::success();
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status, /*Follow=*/false)) {
    if (EC == std::errc::no_such_file_or_directory)
      return Error::success();
    return cannotWrite(Path, EC.message());
  }
  if (Status.type() != sys::fs::file_type::regular_file)
    return cannotWrite(Path, "not a regular file (" +
                                 describeFileType(Status.type()) + ")");
  return Error::success();
}

/// The error of \p OS, cleared (a stream destroyed with an error would end
/// the tool with "LLVM ERROR: IO failure on output stream").
static std::error_code takeStreamError(raw_fd_ostream &OS) {
  OS.flush();
  std::error_code EC = OS.error();
  OS.clear_error();
  return EC;
}

/// Writes the output -o \p Path with \p Write, as the runtime writes its
/// dump: into a temporary in the same folder (.lwp-report-XXXXXXXX.tmp,
/// removed on a fatal signal too), synced, then renamed over \p Path. On any
/// failure, the temporary is removed and a file that was at \p Path stays as
/// it was. "-" is stdout. Errors: \p Write's, or one line "cannot write
/// 'PATH': why" (a full disk, the file size limit, a refused final name).
static Error writeOutput(StringRef Path,
                         function_ref<Error(raw_ostream &)> Write) {
  if (Path == "-") {
    if (Error E = Write(outs()))
      return E;
    if (std::error_code EC = takeStreamError(outs()))
      return createStringError("cannot write to standard output: " +
                               EC.message());
    return Error::success();
  }
  if (Error E = checkOutputPath(Path))
    return E;
  SmallString<128> Model(sys::path::parent_path(Path));
  if (Model.empty())
    Model = ".";
  sys::path::append(Model, ".lwp-report-%%%%%%%%.tmp");
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(Model);
  if (!Temp)
    return cannotWrite(Path, toString(Temp.takeError()));
  auto discard = [&](Error E) {
    consumeError(Temp->discard());
    return E;
  };
  {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    Error E = Write(OS);
    std::error_code EC = takeStreamError(OS);
    if (E)
      return discard(std::move(E));
    if (EC)
      return discard(cannotWrite(Path, EC.message()));
  }
  if (::fsync(Temp->FD) != 0)
    return discard(cannotWrite(
        Path, std::error_code(errno, std::generic_category()).message()));
  // Again: the final name may have become a link or a folder meanwhile.
  if (Error E = checkOutputPath(Path))
    return discard(std::move(E));
  if (std::error_code EC = sys::fs::rename(Temp->TmpName, Path))
    return discard(cannotWrite(Path, EC.message()));
  // Renamed: closes the file and forgets the temporary's name.
  if (Error E = Temp->keep())
    return cannotWrite(Path, toString(std::move(E)));
  return Error::success();
}

/// Threads that read and walk a dump (--jobs).
static unsigned readerThreads() {
  return Jobs ? unsigned(Jobs)
              : std::clamp(llvm::hardware_concurrency().compute_thread_count(),
                           1u, 8u);
}

/// The error when -o names one of \p Inputs (role, path): the same file by
/// any path (sys::fs::equivalent), which the report would overwrite.
static std::optional<std::string>
outputNamesInput(ArrayRef<std::pair<std::string, std::string>> Inputs) {
  if (OutputPath == "-")
    return std::nullopt;
  for (const auto &[Role, Path] : Inputs) {
    bool Same = false;
    if (!sys::fs::equivalent(OutputPath, Path, Same) && Same)
      return "-o '" + OutputPath + "' is the " + Role + " '" + Path +
             "': the report would overwrite its input";
  }
  return std::nullopt;
}

/// Drops the dumps of \p Dumps (paths \p Paths) that repeat an earlier one:
/// the same file, or the same bytes (a copy). Each gives one warning, and
/// the dump counts once. Error: --diff, which compares two different runs,
/// was given one dump twice; or a file could not be read.
static Error dropDuplicateDumps(std::vector<lwp::Dump> &Dumps,
                                std::vector<std::string> &Paths) {
  for (size_t I = 1; I < Dumps.size();) {
    std::optional<size_t> Earlier;
    const char *How = "the same file";
    for (size_t J = 0; J != I && !Earlier; ++J) {
      if (Dumps[I].sameFile(Dumps[J])) {
        Earlier = J;
        break;
      }
      Expected<bool> Same = Dumps[I].sameContents(Dumps[J]);
      if (!Same)
        return Same.takeError();
      if (*Same) {
        Earlier = J;
        How = "identical contents";
      }
    }
    if (!Earlier) {
      ++I;
      continue;
    }
    std::string What = "dump '" + Paths[I] + "' is the same dump as '" +
                       Paths[*Earlier] + "' (" + How + ")";
    if (Diff)
      return createStringError("--diff compares two runs, but " + What);
    WithColor::warning(errs(), "lwp-report")
        << What << ": counted once, not as another run\n";
    Dumps.erase(Dumps.begin() + I);
    Paths.erase(Paths.begin() + I);
  }
  return Error::success();
}

static int runTool(int argc, char **argv);

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // Past the file size limit (ulimit -f) a write fails with EFBIG, which
  // becomes one error line, instead of SIGXFSZ ending the tool with LLVM's
  // crash banner (after InitLLVM, whose handlers take SIGXFSZ).
  signal(SIGXFSZ, SIG_IGN);
  int Status = runTool(argc, argv);
  // Nothing left for the streams' destructors to report as "LLVM ERROR: IO
  // failure on output stream": stdout was checked where it was written, and
  // an error line that could not be written has nowhere else to go.
  if (std::error_code EC = takeStreamError(outs())) {
    WithColor::error(errs(), "lwp-report")
        << "cannot write to standard output: " << EC.message() << "\n";
    outs().clear_error();
    Status = 1;
  }
  errs().clear_error();
  return Status;
}

static int runTool(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "LWP report: per-region cycle tables from "
                              "dumps\n");
  auto fail = [](const Twine &Message) {
    WithColor::error(errs(), "lwp-report") << Message << "\n";
    return 1;
  };
  if (Raw || MapOnly) {
    if (Raw && MapOnly)
      return fail("--raw and --map exclude each other");
    if (Inputs.size() != 1)
      return fail(Raw ? "--raw takes one dump" : "--map takes one binary");
    if (std::optional<std::string> Message =
            outputNamesInput({{Raw ? "dump" : "binary", Inputs[0]}}))
      return fail(*Message);
    if (Error E = checkOutputPath(OutputPath))
      return fail(toString(std::move(E)));
    if (MapOnly) {
      Expected<lwp::ProfiledBinary> B = lwp::ProfiledBinary::open(Inputs[0]);
      if (!B)
        return fail(toString(B.takeError()));
      if (!B->hasMap())
        return fail("binary '" + Inputs[0] +
                    "' has no lwp_map section (not instrumented, or built "
                    "without the lwp lowering)");
      lwp::InstrumentationMap Map = B->map();
      if (!NoDemangle)
        Map.demangleFunctions();
      if (Error E = writeOutput(OutputPath, [&](raw_ostream &OS) {
            Map.printTable(OS);
            return Error::success();
          }))
        return fail(toString(std::move(E)));
      return 0;
    }
    Expected<lwp::Dump> D = lwp::Dump::open(Inputs[0], readerThreads());
    if (!D)
      return fail(toString(D.takeError()));
    if (Error E = writeOutput(
            OutputPath, [&](raw_ostream &OS) { return printRaw(*D, OS); }))
      return fail(toString(std::move(E)));
    return 0;
  }
  // The inputs: dumps, and the program (binaries and map) they ran.
  std::vector<std::string> DumpPaths;
  std::vector<lwp::Dump> Dumps;
  std::optional<lwp::Program> Prog;
  std::string MapSource;
  lwp::ProfileOptions Options;
  Options.OverheadCorrection = !NoOverheadCorrection;
  // Sites stay process addresses; the program resolves them per image.
  Options.LoadBias = 0;
  Options.Threads = readerThreads();

  // The files the user named are checked before any is read: each must be a
  // regular file of bounded size (no read of /dev/zero that never ends, no
  // FIFO that blocks), and -o must name none of them. Dumps are checked as
  // they are opened (lwp::Dump::open).
  std::vector<std::pair<std::string, std::string>> Named; // role, path
  if (MapJSON.empty() || !TVMJSON.empty())
    Named.push_back({"binary", Inputs[0]});
  for (const std::string &Path : ExtraImages)
    Named.push_back({"--image", Path});
  if (!MapJSON.empty())
    Named.push_back({"--map-json", MapJSON});
  if (!TVMJSON.empty())
    Named.push_back({"--tvm-json", TVMJSON});
  for (auto &[Role, Path] : Named) {
    uint64_t Max = Role == "--map-json"   ? lwp::MaxMapJSONBytes
                   : Role == "--tvm-json" ? lwp::MaxTVMJSONBytes
                                          : lwp::MaxBinaryBytes;
    if (Error E = lwp::checkInputFile(Path, Role, Max))
      return fail(toString(std::move(E)));
  }
  for (const std::string &Dir : SearchDirs)
    if (!sys::fs::is_directory(Dir))
      return fail("--search-dir '" + Dir + "' is not a directory");
  for (const std::string &Dir : SourceDirs)
    if (!sys::fs::is_directory(Dir))
      return fail("--source-dir '" + Dir + "' is not a directory");
  if (!SourceDirs.empty() && OutputFormat != Format::HTML)
    return fail("--source-dir is for --format=html");
  for (size_t I = (MapJSON.empty() || !TVMJSON.empty()) ? 1 : 0;
       I < Inputs.size(); ++I)
    Named.push_back({"dump", Inputs[I]});
  if (std::optional<std::string> Message = outputNamesInput(Named))
    return fail(*Message);
  // -o is a regular file or nothing yet: checked now, before the work, and
  // again when the report is renamed over it.
  if (Error E = checkOutputPath(OutputPath))
    return fail(toString(std::move(E)));

  lwp::InstanceLog Log;
  auto AddInstance = [&](const lwp::InstanceEvent &E) { Log.add(E); };
  if (OutputFormat == Format::ChromeTrace || OutputFormat == Format::Folded)
    Options.OnInstance = AddInstance;
  // The HTML page's timeline and icicle chart: the first run's instances.
  lwp::HTMLInstances PageInstances;
  auto AddPageInstance = [&](const lwp::InstanceEvent &E) {
    PageInstances.add(E);
  };
  if (OutputFormat == Format::HTML)
    Options.OnInstance = AddPageInstance;
  std::vector<lwp::Profile> Profiles;

  if (!TVMJSON.empty()) {
    if (Diff || !MapJSON.empty() || Inputs.size() != 1)
      return fail("--tvm-json takes the model .so only (no dump, --diff or "
                  "--map-json)");
    Expected<lwp::ProfiledBinary> B = lwp::ProfiledBinary::open(Inputs[0]);
    if (!B)
      return fail(toString(B.takeError()));
    auto Binary = std::make_shared<lwp::ProfiledBinary>(std::move(*B));
    // TVM records no probe costs and names its load address itself. The
    // file is analyzed as it is read (its records are never all in memory).
    Options.OverheadCorrection = false;
    Expected<lwp::TVMReport> R =
        lwp::analyzeTVMFile(TVMJSON, *Binary, LoadAddress, Options);
    if (!R)
      return fail(toString(R.takeError()));
    // Return addresses must fall in the model's functions: none that does
    // means another model or a wrong load address; some that do not, one
    // warning.
    if (R->NumEntries && R->Outside == R->NumEntries)
      return fail(formatv("TVM profile '{0}': no return address falls in a "
                          "function of '{1}' loaded at {2:x} (the first is "
                          "{3:x}): another model, or a wrong --load-address",
                          TVMJSON, Inputs[0], uint64_t(LoadAddress),
                          R->FirstOutside)
                      .str());
    if (R->Outside)
      WithColor::warning(errs(), "lwp-report")
          << formatv("TVM profile '{0}': {1} of {2} entries have a return "
                     "address outside every function of '{3}' (the first is "
                     "{4:x}); their regions are named by address\n",
                     TVMJSON, R->Outside, R->NumEntries, Inputs[0],
                     R->FirstOutside);
    // Regions that ran without a single entry: TVM's buffer was full.
    std::string Unrecorded;
    unsigned NumUnrecorded = 0;
    for (const lwp::RegionEntry &E : R->Map.entries())
      if (E.Function == lwp::UnrecordedTVMFunction && NumUnrecorded++ < 8)
        Unrecorded += (Unrecorded.empty() ? "" : ", ") + std::to_string(E.Id);
    if (NumUnrecorded)
      WithColor::warning(errs(), "lwp-report")
          << "TVM profile '" << TVMJSON << "': " << NumUnrecorded
          << " region(s) ran (loop_counts) without a single entry (IDs "
          << Unrecorded << (NumUnrecorded > 8 ? ", ..." : "")
          << "): TVM's buffer was full (" << R->NumEntries
          << " entries) before they first ran; their cycles are unknown\n";
    Prog = lwp::Program::fromMap(std::move(R->Map), Binary, LoadAddress);
    lwp::rebindTVMProfile(R->P, Prog->map());
    MapSource = Binary->path();
    DumpPaths.push_back(TVMJSON);
    Dumps.push_back(std::move(R->D));
    Profiles.push_back(std::move(R->P));
  } else {
    size_t NumBinaries = MapJSON.empty() ? 1 : 0;
    if (Diff ? Inputs.size() != NumBinaries + 2
             : Inputs.size() < NumBinaries + 1)
      return fail(Twine("expected ") +
                  (MapJSON.empty() ? "a binary" : "no binary (--map-json)") +
                  (Diff ? " and two dumps" : " and one or more dumps"));
    DumpPaths.assign(Inputs.begin() + (MapJSON.empty() ? 1 : 0), Inputs.end());
    for (const std::string &Path : DumpPaths) {
      Expected<lwp::Dump> D = lwp::Dump::open(Path, Options.Threads);
      if (!D) {
        std::string Message = toString(D.takeError());
        // A binary without regions links no runtime and writes no dump:
        // say that rather than "no such file".
        if (MapJSON.empty() && !sys::fs::exists(Path)) {
          if (Expected<lwp::ProfiledBinary> B =
                  lwp::ProfiledBinary::open(Inputs[0]);
              B && !B->hasMap())
            return fail("no dump '" + Path + "': binary '" + Inputs[0] +
                        "' has no instrumented regions (built below "
                        "stats-level 40, or without the LWP plugin or "
                        "lowering), so its run wrote none");
          else if (!B)
            consumeError(B.takeError());
        }
        return fail(Message);
      }
      Dumps.push_back(std::move(*D));
    }
    // The same dump given twice would count as two runs with no spread.
    if (Error E = dropDuplicateDumps(Dumps, DumpPaths))
      return fail(toString(std::move(E)));
    // Several runs (or the two of --diff): one program, so that one map
    // reads every dump.
    for (size_t I = 1; I < Dumps.size(); ++I)
      if (Error E = lwp::checkSameProgram(Dumps[0], DumpPaths[0], Dumps[I],
                                          DumpPaths[I]))
        return fail(toString(std::move(E)));
    if (Dumps.size() > 1 && !Diff &&
        (OutputFormat == Format::ChromeTrace || OutputFormat == Format::Folded))
      return fail("--format=chrome-trace and --format=folded take one dump "
                  "(several dumps give a table, CSV or JSON)");
    if (Dumps.size() > 1 && !Diff && Tree)
      return fail("--tree takes one dump");
    if (MapJSON.empty()) {
      lwp::ImageSearch Search;
      Search.Binaries.push_back(Inputs[0]);
      Search.Binaries.insert(Search.Binaries.end(), ExtraImages.begin(),
                             ExtraImages.end());
      Search.SearchDirs.assign(SearchDirs.begin(), SearchDirs.end());
      Expected<lwp::Program> P =
          lwp::Program::load(Dumps[0], Search, DumpPaths[0]);
      if (!P)
        return fail(toString(P.takeError()));
      if (!P->executable()->hasMap() && P->numImages() == 1 && P->map().empty())
        return fail("binary '" + Inputs[0] +
                    "' has no lwp_map section (not instrumented, or built "
                    "without the lwp lowering)");
      Prog = std::move(*P);
      MapSource = Inputs[0];
      // The images found through the dump are inputs too.
      std::vector<std::pair<std::string, std::string>> Images;
      for (const std::string &Path : Prog->binaryPaths())
        Images.push_back({"image", Path});
      if (std::optional<std::string> Message = outputNamesInput(Images))
        return fail(*Message);
    } else {
      Expected<lwp::InstrumentationMap> M =
          lwp::readMapJSONFile(MapJSON, "--map-json");
      if (!M)
        return fail(toString(M.takeError()));
      Expected<lwp::Program> P = lwp::Program::fromMapFile(
          Dumps[0], std::move(*M), MapJSON, DumpPaths[0]);
      if (!P)
        return fail(toString(P.takeError()));
      Prog = std::move(*P);
      MapSource = MapJSON;
    }
  }
  // C++ (and Rust) names as users write them; before the analysis, which
  // refers to the map's entries.
  if (!NoDemangle)
    Prog->demangleFunctions();
  const std::string &DumpPath = DumpPaths[0];
  lwp::Dump *D = &Dumps[0];
  const lwp::InstrumentationMap &Map = Prog->map();

  // The TVM import analyzed its input as it read it.
  for (size_t I = Profiles.size(); I != Dumps.size(); ++I) {
    if (I && OutputFormat == Format::HTML)
      Options.OnInstance = nullptr;
    Expected<lwp::Profile> P = lwp::analyze(Dumps[I], Map, Options);
    if (!P)
      return fail("dump '" + DumpPaths[I] + "' with '" + MapSource +
                  "': " + toString(P.takeError()));
    Profiles.push_back(std::move(*P));
  }
  lwp::Profile *P = &Profiles[0];
  // The table of one run prints the warnings in its header; other formats,
  // and several runs, get them on stderr (JSON also in "dump.warnings").
  if (OutputFormat != Format::Table || Diff || Profiles.size() > 1)
    for (size_t I = 0; I != Profiles.size(); ++I)
      for (const std::string &W : Profiles[I].Warnings)
        WithColor::warning(errs(), "lwp-report")
            << "dump '" << DumpPaths[I] << "': " << W << "\n";

  std::optional<Regex> Filter;
  if (!FunctionFilter.empty()) {
    Filter.emplace(FunctionFilter);
    std::string Message;
    if (!Filter->isValid(Message))
      return fail("invalid --function regex '" + FunctionFilter +
                  "': " + Message);
  }
  lwp::RowOptions Rows;
  Rows.Sort = Sort;
  Rows.Top = Top;
  Rows.Function = Filter ? &*Filter : nullptr;
  Rows.Tree = Tree;
  lwp::ReportInput In{*D, *P, &*Prog, DumpPath, MapSource};

  if (Summary && (Profiles.size() > 1 || Diff))
    return fail("--summary takes one dump");
  if (Summary && OutputFormat == Format::HTML)
    return fail("--summary prints a table, CSV or JSON (the HTML page shows "
                "the summary)");
  if (Summary &&
      (OutputFormat == Format::ChromeTrace || OutputFormat == Format::Folded))
    return fail("--summary prints a table, CSV or JSON");
  if (Diff && OutputFormat != Format::Table && OutputFormat != Format::HTML)
    return fail("--diff prints a table or an HTML page only");
  lwp::HTMLOptions Page;
  Page.SourceDirs.assign(SourceDirs.begin(), SourceDirs.end());
  Page.Instances = &PageInstances;
  Page.FirstRun = &Profiles[0];
  // The report, written whole into a temporary that replaces -o only when
  // it is complete (writeOutput).
  auto Write = [&](raw_ostream &OS) -> Error {
    if (Profiles.size() > 1 && !Diff) {
      lwp::RunsProfile Runs = lwp::combineRuns(Profiles);
      lwp::ReportInput M{*D, Runs.Mean, &*Prog, DumpPath, MapSource};
      std::vector<const lwp::Dump *> DumpPtrs;
      for (const lwp::Dump &Each : Dumps)
        DumpPtrs.push_back(&Each);
      if (OutputFormat == Format::HTML) {
        Page.Runs = &Runs;
        Page.DumpNames = DumpPaths;
        Page.Dumps = DumpPtrs;
        return lwp::writeHTML(OS, M, Rows, Page);
      }
      if (OutputFormat == Format::Table)
        lwp::writeRunsTable(OS, M, Runs, DumpPaths, Rows);
      else if (OutputFormat == Format::CSV)
        lwp::writeRunsCSV(OS, M, Runs, Rows);
      else
        lwp::writeRunsJSON(OS, M, Runs, DumpPaths, DumpPtrs, Rows);
      return Error::success();
    }
    if (Diff) {
      lwp::ReportInput B{Dumps[1], Profiles[1], In.Prog, DumpPaths[1],
                         MapSource};
      if (OutputFormat == Format::HTML) {
        Page.DiffB = &B;
        return lwp::writeHTML(OS, In, Rows, Page);
      }
      lwp::writeDiffTable(OS, In, B, Rows);
      return Error::success();
    }
    if (Summary) {
      lwp::writeOperatorSummary(OS, In, OutputFormat == Format::CSV,
                                OutputFormat == Format::JSON);
      return Error::success();
    }
    switch (OutputFormat) {
    case Format::Table:
      lwp::writeTable(OS, In, Rows);
      break;
    case Format::CSV:
      lwp::writeCSV(OS, In, Rows);
      break;
    case Format::JSON:
      lwp::writeJSON(OS, In, Rows);
      break;
    case Format::ChromeTrace:
      Log.writeChromeTrace(OS, In);
      break;
    case Format::Folded:
      Log.writeFolded(OS, In);
      break;
    case Format::HTML:
      return lwp::writeHTML(OS, In, Rows, Page);
    }
    return Error::success();
  };
  if (Error E = writeOutput(OutputPath, Write))
    return fail(toString(std::move(E)));
  return 0;
}
