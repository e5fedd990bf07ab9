//===- PrintMapPass.cpp - lwp-print-map -----------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Instrument/Passes.h"

namespace lwp {
#define GEN_PASS_DEF_LWPPRINTMAP
#include "lwp/Instrument/Passes.h.inc"
} // namespace lwp

using namespace mlir;
using namespace lwp;

namespace {
class PrintMapPass : public lwp::impl::LWPPrintMapBase<PrintMapPass> {
public:
  using LWPPrintMapBase::LWPPrintMapBase;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    FailureOr<InstrumentationMap> Map = getInstrumentationMap(getOperation());
    if (failed(Map))
      return signalPassFailure();
    Map->printTable(llvm::outs());
    llvm::outs().flush();
  }
};
} // namespace
