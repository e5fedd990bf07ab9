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
/// Resume probe in LLVM IR (`void __lwp_probe_resume(i32 <id>)`) and handler
/// entry point of resume probes (`void __lwp_probe_resume(struct lwp_slot *)`,
/// the slot may be null): it marks a point where control resumes after a
/// non-local exit (setjmp's second return, a landing pad) with the innermost
/// region of its function that encloses it. The handler closes, as unwound,
/// every instance opened deeper than the resuming function, and the
/// instances of that function above the enclosing region
/// (docs/probe-form.md, "Resume probes").
constexpr llvm::StringLiteral ProbeResumeHandler = "__lwp_probe_resume";
/// Prefix of the map globals the lowerings emit (see mapGlobalName in
/// lwp/Lowering/ProbeTarget.h).
constexpr llvm::StringLiteral MapGlobalPrefix = "__lwp_map.";

} // namespace lwp

#endif // LWP_INSTRUMENT_PROBENAMES_H
