//===- Passes.h - LWP MLIR passes -------------------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the MLIR passes of LWP (Passes.td):
// lwp-instrument and lwp-print-map.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_INSTRUMENT_PASSES_H
#define LWP_INSTRUMENT_PASSES_H

#include "lwp/Dialect/LWPDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace lwp {

#define GEN_PASS_DECL
#include "lwp/Instrument/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lwp/Instrument/Passes.h.inc"

} // namespace lwp

#endif // LWP_INSTRUMENT_PASSES_H
