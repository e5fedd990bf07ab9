//===- ProbeTarget.h - Targets of the probe lowering ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The targets a probe can be lowered for, and the handler ABI they share with
// the runtimes (docs/probe-form.md):
//   hexagon  call void @llvm.hexagon.instrprof.custom(ptr @"<handler>", i32 id)
//            with <handler> = __lwp_probe_start or __lwp_probe_end: one packet
//            { r0 = #id; call <handler> }. Two entry points, because IDs with
//            bit 31 set fail instruction selection of that intrinsic in
//            LLVM 22.
//   x86_64   call preserve_allcc void @__lwp_probe_start(i32 id), notail
//   aarch64  the same as x86_64
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LOWERING_PROBETARGET_H
#define LWP_LOWERING_PROBETARGET_H

#include "lwp/Instrument/ProbeNames.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <string>

namespace lwp {

/// The Hexagon intrinsic a probe becomes (llvm/IR/IntrinsicsHexagon.td).
constexpr llvm::StringLiteral HexagonProbeIntrinsic =
    "llvm.hexagon.instrprof.custom";

/// A target of the probe lowering.
enum class ProbeTarget { Hexagon, X86_64, AArch64 };

/// The names accepted by the `target` options, for error messages:
/// "hexagon, x86_64, aarch64".
llvm::StringRef supportedProbeTargets();

/// Parses a target option ("hexagon", "x86_64" or "x86-64", "aarch64").
/// Error: an unknown name, naming the supported targets.
llvm::Expected<ProbeTarget> parseProbeTarget(llvm::StringRef Name);

/// The target of a module triple (hexagon, x86_64, aarch64 architectures).
/// Error: any other architecture, naming the supported targets.
llvm::Expected<ProbeTarget> probeTargetFromTriple(const llvm::Triple &T);

/// The name of the Hexagon global that holds \p Handler's name as a C string
/// (HandlerNamePrefix + Handler).
std::string handlerNameGlobal(llvm::StringRef Handler);

/// The name of the global that carries one module's map blob \p Blob whose
/// first region is \p FirstId: `__lwp_map.<FirstId>.<xxh3_64 of the blob as
/// 0x and 16 hex digits>`, unique per module so that modules link together.
std::string mapGlobalName(uint32_t FirstId, llvm::StringRef Blob);

/// "hexagon", "x86_64" or "aarch64".
llvm::StringRef stringifyProbeTarget(ProbeTarget Target);

} // namespace lwp

#endif // LWP_LOWERING_PROBETARGET_H
