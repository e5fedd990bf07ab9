//===- ProbeNames.h - Symbol names of the probe ABI -------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The names that the LLVM probe form, both lowerings and every runtime share
// (docs/probe-form.md): one definition for the passes and the lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_INSTRUMENT_PROBENAMES_H
#define LWP_INSTRUMENT_PROBENAMES_H

#include "llvm/ADT/StringRef.h"

namespace lwp {

/// Start probe in LLVM IR (`void __lwp_probe_start(i32 <module-local id>)`
/// before the lowering) and handler entry point of start probes, which every
/// target's runtime defines: `void __lwp_probe_start(struct lwp_slot *)`.
constexpr llvm::StringLiteral ProbeStartHandler = "__lwp_probe_start";
/// End probe in LLVM IR and handler entry point of end probes.
constexpr llvm::StringLiteral ProbeEndHandler = "__lwp_probe_end";
/// Prefix of the map globals the lowerings emit (see mapGlobalName in
/// lwp/Lowering/ProbeTarget.h).
constexpr llvm::StringLiteral MapGlobalPrefix = "__lwp_map.";

} // namespace lwp

#endif // LWP_INSTRUMENT_PROBENAMES_H
