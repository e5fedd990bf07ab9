//===- Pipelines.h - LWP's named MLIR pass pipelines ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The pipelines around lwp-instrument, defined once here and used by lwp-opt,
// the mlir-opt plugin, the demo and the tests:
//
//   lwp-linalg-to-loops   one-shot-bufferize (function boundaries, identity
//                         layouts), convert-linalg-to-loops, canonicalize
//   lwp-to-llvm{target=}  convert-lwp-to-llvm{target}, expand-strided-metadata,
//                         lower-affine, convert-scf-to-cf, convert-to-llvm,
//                         reconcile-unrealized-casts
//
// The upstream passes they name must be registered too (lwp-opt registers
// every upstream pass; so does mlir-opt).
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LOWERING_PIPELINES_H
#define LWP_LOWERING_PIPELINES_H

namespace lwp {

/// Registers lwp-linalg-to-loops and lwp-to-llvm with the MLIR pass registry.
void registerLWPPipelines();

} // namespace lwp

#endif // LWP_LOWERING_PIPELINES_H
