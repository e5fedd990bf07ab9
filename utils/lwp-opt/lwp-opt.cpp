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
//===----------------------------------------------------------------------===//

#include "lwp/Dialect/LWPDialect.h"
#include "lwp/Instrument/Passes.h"
#include "lwp/Lowering/Passes.h"
#include "lwp/Lowering/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  lwp::registerLWPPasses();
  lwp::registerLWPLoweringPasses();
  lwp::registerLWPPipelines();

  mlir::DialectRegistry Registry;
  mlir::registerAllDialects(Registry);
  mlir::registerAllExtensions(Registry);
  Registry.insert<lwp::LWPDialect>();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "LWP optimizer driver: MLIR passes plus lwp-instrument\n",
      Registry));
}
