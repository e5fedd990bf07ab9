//===- lwp-report.cpp - Turn LWP dumps into per-region cycle tables -------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
//   lwp-report --raw DUMP      the dump as recorded: header, images, counts,
//                              every record of every thread
//   lwp-report --map BINARY    the instrumentation map carried by a binary
// (The per-region tables that join a dump with its binary come with the
// report issue.)
//
//===----------------------------------------------------------------------===//

#include "lwp/Report/Binary.h"
#include "lwp/Report/Dump.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory Category("lwp-report options");
static cl::list<std::string> Inputs(cl::Positional,
                                    cl::desc("<binary> <dump> | <dump> (--raw) "
                                             "| <binary> (--map)"),
                                    cl::OneOrMore, cl::cat(Category));
static cl::opt<bool> Raw("raw",
                         cl::desc("Print the dump as recorded: header, images, "
                                  "counts, every record"),
                         cl::cat(Category));
static cl::opt<bool> MapOnly("map",
                             cl::desc("Print the instrumentation map a binary "
                                      "carries (section lwp_map)"),
                             cl::cat(Category));
static cl::opt<bool> NoRecords("no-records",
                               cl::desc("With --raw, leave the records out"),
                               cl::cat(Category));

static std::string hex(StringRef Bytes) {
  std::string S;
  for (unsigned char C : Bytes)
    S += formatv("{0:x-2}", C).str();
  return S;
}

static void printRaw(const lwp::Dump &D, raw_ostream &OS) {
  OS << formatv("dump: version {0}, target {1}, counter {2}, {3} Hz, record "
                "size {4}, cap {5}, dropped {6}, probe pair cost {7}\n",
                D.version(), lwp::stringifyDumpTarget(D.target()),
                lwp::stringifyDumpCounter(D.counter()), D.counterHz(),
                D.recordSize(), D.cap(), D.dropped(), D.probePairCost());
  for (size_t I = 0; I != D.images().size(); ++I) {
    const lwp::DumpImage &Img = D.images()[I];
    OS << formatv("image {0}: bias {1:x}, build-id {2}, {3}\n", I,
                  Img.LoadBias, Img.BuildId.empty() ? "-" : hex(Img.BuildId),
                  Img.Name);
  }
  for (size_t Id = 0; Id != D.counts().size(); ++Id)
    if (D.counts()[Id])
      OS << formatv("count {0}: {1}\n", Id, D.counts()[Id]);
  for (size_t T = 0; T != D.threads().size(); ++T) {
    const lwp::DumpThread &Th = D.threads()[T];
    OS << formatv("thread {0}: tid {1}, {2} records\n", T, Th.threadId(),
                  Th.size());
    if (NoRecords)
      continue;
    for (uint64_t I = 0; I != Th.size(); ++I) {
      lwp::DumpRecord R = Th.record(I);
      OS << formatv("  {0,-5} {1,6}  site {2:x}  cycles {3}\n",
                    R.IsEnd ? "end" : "start", R.Id, R.Site, R.Cycles);
    }
  }
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
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
    if (MapOnly) {
      Expected<lwp::ProfiledBinary> B = lwp::ProfiledBinary::open(Inputs[0]);
      if (!B)
        return fail(toString(B.takeError()));
      if (!B->hasMap())
        return fail("binary '" + Inputs[0] +
                    "' has no lwp_map section (not instrumented, or built "
                    "without the lwp lowering)");
      B->map().printTable(outs());
      return 0;
    }
    Expected<lwp::Dump> D = lwp::Dump::open(Inputs[0]);
    if (!D)
      return fail(toString(D.takeError()));
    printRaw(*D, outs());
    return 0;
  }
  return fail("only --raw and --map are implemented so far");
}
