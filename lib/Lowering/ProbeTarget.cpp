//===- ProbeTarget.cpp - Targets of the probe lowering --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Lowering/ProbeTarget.h"
#include "lwp/Instrument/ProbeNames.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace lwp;

llvm::StringRef lwp::supportedProbeTargets() {
  return "hexagon, x86_64, aarch64";
}

llvm::Expected<ProbeTarget> lwp::parseProbeTarget(llvm::StringRef Name) {
  std::optional<ProbeTarget> T =
      llvm::StringSwitch<std::optional<ProbeTarget>>(Name)
          .Case("hexagon", ProbeTarget::Hexagon)
          .Cases({"x86_64", "x86-64"}, ProbeTarget::X86_64)
          .Case("aarch64", ProbeTarget::AArch64)
          .Default(std::nullopt);
  if (!T)
    return llvm::createStringError(
        "unsupported LWP target '%s' (supported: %s)", Name.str().c_str(),
        supportedProbeTargets().str().c_str());
  return *T;
}

llvm::Expected<ProbeTarget> lwp::probeTargetFromTriple(const llvm::Triple &T) {
  switch (T.getArch()) {
  case llvm::Triple::hexagon:
    return ProbeTarget::Hexagon;
  case llvm::Triple::x86_64:
    return ProbeTarget::X86_64;
  case llvm::Triple::aarch64:
    return ProbeTarget::AArch64;
  default:
    return llvm::createStringError(
        "unsupported LWP target triple '%s' (supported: %s)", T.str().c_str(),
        supportedProbeTargets().str().c_str());
  }
}

llvm::StringRef lwp::stringifyProbeTarget(ProbeTarget Target) {
  switch (Target) {
  case ProbeTarget::Hexagon:
    return "hexagon";
  case ProbeTarget::X86_64:
    return "x86_64";
  case ProbeTarget::AArch64:
    return "aarch64";
  }
  return "unknown";
}

/// The probe packet: r31 kept in r28, \p Slot loaded into r14, the call of
/// \p Handler (ProbeTarget.h).
static std::string hexagonPacket(llvm::StringRef Slot,
                                 llvm::StringRef Handler) {
  return ("{ r28 = r31; r14 = " + Slot + "; call " + Handler + " }").str();
}

std::string lwp::hexagonProbeAsm(bool IsEnd) {
  return hexagonPacket("##$0", IsEnd ? ProbeEndHandler : ProbeStartHandler);
}

std::string lwp::hexagonResumeProbeAsm(bool HasSlot) {
  return hexagonPacket(HasSlot ? "##$0" : "#0", ProbeResumeHandler);
}

std::string lwp::mapGlobalName(llvm::StringRef ModuleName,
                               llvm::StringRef Blob) {
  std::string Key = (ModuleName + llvm::Twine('\0') + Blob).str();
  return llvm::formatv("{0}{1:x-16}", MapGlobalPrefix, llvm::xxh3_64bits(Key))
      .str();
}
