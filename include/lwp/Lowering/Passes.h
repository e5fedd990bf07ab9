//===- Passes.h - LWP MLIR lowering passes ----------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// convert-lwp-to-llvm (Passes.td): lwp probes to handler calls, the map to
// the lwp_map section; lwp-legalize-mask-select: selects of masks in a form
// every backend selects.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LOWERING_PASSES_H
#define LWP_LOWERING_PASSES_H

#include "lwp/Dialect/LWPDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace lwp {

#define GEN_PASS_DECL
#include "lwp/Lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lwp/Lowering/Passes.h.inc"

} // namespace lwp

#endif // LWP_LOWERING_PASSES_H
