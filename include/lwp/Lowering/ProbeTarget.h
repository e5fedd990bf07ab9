//===- ProbeTarget.h - Targets of the probe lowering ------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The targets a probe can be lowered for, and the handler ABI they share with
// the runtimes (docs/probe-form.md):
//   hexagon  one packet { r0 = ##<slot>; call <handler> } (hexagonProbeAsm),
//            <handler> = __lwp_probe_start or __lwp_probe_end, with the
//            register contract of llvm.hexagon.instrprof.custom
//   x86_64   notail call preserve_allcc void @__lwp_probe_start(ptr <slot>)
//   aarch64  the same as x86_64
// where <slot> is the address of the region's slot (lwp/Runtime/MapFormat.h).
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

/// The Hexagon probe: one packet that keeps the caller's return address in
/// r28, loads the address of the region's slot into r14 (a constant-extended
/// immediate, relocated by the linker) and calls the handler:
///   { r28 = r31; r14 = ##slot; call handler }
/// (four words: the most a packet holds). Its registers are a subset of the
/// contract of LLVM's llvm.hexagon.instrprof.custom (HexagonPseudo.td,
/// PS_call_instrprof_custom: the handler keeps every register but r0, r14,
/// r15, r28; the call writes r31): the handler returns with
/// { r31 = r28; jumpr r31 }, so r31 comes back unchanged and a function whose
/// only calls are its probes and tail calls needs no frame (issue 30: the
/// tree interpreter's eval, 1.429x -> 1.326x), and r0 is kept too, unlike the
/// intrinsic's ID register: the arguments and results in r0 at a function's
/// entry and exit, where its probes are, stay where they are. The intrinsic
/// itself takes only an immediate ID (ImmArg), which cannot name a slot that
/// the linker places. $0 is the slot address.
std::string hexagonProbeAsm(bool IsEnd);
/// Constraints of hexagonProbeAsm: the slot address as a symbolic immediate
/// and the registers the packet and the handler clobber (r14, r15, r28).
/// Not r31, which the handler restores, and no callee-saved register: a
/// probe outside the frame that Hexagon's shrink-wrapping sets up
/// (HexagonFrameLowering::findShrunkPrologEpilog, which does not count
/// inline assembly as a call) finds and leaves r31 as it was.
constexpr llvm::StringLiteral HexagonProbeConstraints =
    "i,~{r14},~{r15},~{r28}";

/// The Hexagon resume probe (ProbeResumeHandler): the packet of
/// hexagonProbeAsm calling __lwp_probe_resume with the slot of the
/// enclosing region ($0, constraints HexagonProbeConstraints), or, when
/// \p HasSlot is false, with r14 = #0 and no operand (constraints
/// HexagonProbeConstraints without the leading "i,").
std::string hexagonResumeProbeAsm(bool HasSlot);

/// The function each lowered module runs at start-up to register its map
/// blob with the runtime: `internal void @__lwp_module_ctor()` calling
/// `void @__lwp_register_module(ptr <blob>)` (lwp/Runtime/MapFormat.h), listed
/// in @llvm.global_ctors with priority ModuleCtorPriority.
constexpr llvm::StringLiteral ModuleCtorName = "__lwp_module_ctor";
/// The runtime entry the module constructor calls.
constexpr llvm::StringLiteral RegisterModuleName = "__lwp_register_module";
/// Constructor priority of ModuleCtorName: before every constructor of
/// ordinary code (priorities up to 100 are the implementation's; sanitizers
/// register at 1 too), so that no probe runs in an unregistered module.
constexpr unsigned ModuleCtorPriority = 1;

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

/// The name of the internal global that carries one module's map blob
/// \p Blob and its slots: `__lwp_map.<16 hex digits of xxh3_64 of the module
/// name and the blob>` (internal linkage keeps modules apart in any case; the
/// hash keeps names apart in disassembly and LTO).
std::string mapGlobalName(llvm::StringRef ModuleName, llvm::StringRef Blob);

/// "hexagon", "x86_64" or "aarch64".
llvm::StringRef stringifyProbeTarget(ProbeTarget Target);

} // namespace lwp

#endif // LWP_LOWERING_PROBETARGET_H
