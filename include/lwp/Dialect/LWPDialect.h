//===- LWPDialect.h - The lwp dialect ---------------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The lwp dialect: probe ops (lwp.probe_start / lwp.probe_end), the region
// kind enum, the #lwp.region map attribute, and the conversions between the
// module's `lwp.instrumentation_map` attribute and lwp::InstrumentationMap.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_DIALECT_LWPDIALECT_H
#define LWP_DIALECT_LWPDIALECT_H

#include "lwp/Instrument/InstrumentationMap.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/raw_ostream.h"

namespace lwp {
/// The side-effect resource of probes: the profile buffers of the runtime.
/// Probes read and write it and nothing else, so that passes neither delete
/// nor reorder them among themselves.
struct ProbeResource : public mlir::SideEffects::Resource::Base<ProbeResource> {
  llvm::StringRef getName() final { return "lwp.probe"; }
};

/// Prints a region kind as its keyword ("function" or "loop").
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, RegionKind Kind) {
  return OS << stringifyRegionKind(Kind);
}
} // namespace lwp

namespace mlir {
/// Parses the keyword `function`, `loop` or `operator` as an lwp::RegionKind
/// parameter.
template <> struct FieldParser<::lwp::RegionKind> {
  static FailureOr<::lwp::RegionKind> parse(AsmParser &Parser) {
    llvm::SMLoc Loc = Parser.getCurrentLocation();
    llvm::StringRef Word;
    if (failed(Parser.parseOptionalKeyword(&Word)))
      return Parser.emitError(
          Loc, "expected region kind 'function', 'loop' or 'operator'");
    if (std::optional<::lwp::RegionKind> Kind = ::lwp::parseRegionKind(Word))
      return *Kind;
    return Parser.emitError(Loc, "expected region kind 'function', 'loop' or "
                                 "'operator', got '")
           << Word << "'";
  }
};
} // namespace mlir

#include "lwp/Dialect/LWPOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "lwp/Dialect/LWPOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "lwp/Dialect/LWPOps.h.inc"

namespace lwp {

/// Converts a map row to its attribute form.
RegionInfoAttr toAttr(mlir::MLIRContext *Ctx, const RegionEntry &Entry);
/// Converts the attribute form back to a map row.
RegionEntry fromAttr(RegionInfoAttr Attr);

/// Returns the map attached to \p Module (empty when none is attached).
/// Fails, with a diagnostic on the module, when the attribute is not an array
/// of #lwp.region in strictly increasing ID order.
mlir::FailureOr<InstrumentationMap>
getInstrumentationMap(mlir::ModuleOp Module);

/// Attaches \p Map to \p Module as `lwp.instrumentation_map`, replacing any
/// map there.
void setInstrumentationMap(mlir::ModuleOp Module,
                           const InstrumentationMap &Map);

} // namespace lwp

#endif // LWP_DIALECT_LWPDIALECT_H
