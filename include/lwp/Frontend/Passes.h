//===- Passes.h - LWP MLIR frontend passes ----------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the passes that take MLIR as frontends
// and upstream tests write it (Passes.td): lwp-transform-schedule,
// lwp-runner-entry and lwp-lower-pack-unpack.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_FRONTEND_PASSES_H
#define LWP_FRONTEND_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace lwp {

#define GEN_PASS_DECL
#include "lwp/Frontend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lwp/Frontend/Passes.h.inc"

} // namespace lwp

#endif // LWP_FRONTEND_PASSES_H
