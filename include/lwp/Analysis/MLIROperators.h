//===- MLIROperators.h - Structured ops and the code they lower to -*- C++ -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Operator identity that survives lowering. Before linalg is lowered,
// lwp-mark-operators tags the location of every structured op (and of the ops
// in its body) with an operator tag: a FusedLoc whose metadata names the op,
// its instance in the module and the model's name for it. Lowerings, tiling
// and fusion give the ops they create the location of the op they come from,
// so after the lowering to loops the tags tell which loops and ops are whose.
// The instrument pass reads them back here: an operator's *span* is the run of
// consecutive ops of one block that carry its tag outermost, and the
// operators a loop *holds* are the tags found anywhere inside it.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_ANALYSIS_MLIROPERATORS_H
#define LWP_ANALYSIS_MLIROPERATORS_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lwp {

/// Name of the discardable attribute that makes any op an operator: a
/// StringAttr gives the model's name for it, a UnitAttr none.
constexpr llvm::StringLiteral OperatorAttrName = "lwp.operator";

/// What an operator tag says.
struct OperatorTag {
  /// The op's name, e.g. "linalg.conv_2d_nhwc_hwcf".
  llvm::StringRef Op;
  /// The model's name for it (NameLoc or lwp.operator string); may be empty.
  llvm::StringRef Name;
  /// Instance number, unique in the module (0, 1, ... in walk order).
  int64_t Instance = 0;
  /// True on ops of the operator's body (the payload of a linalg.generic):
  /// they tell which operators a fused nest holds, but make no span.
  bool Body = false;
  /// The operator's work from its shapes, when its frontend knows it (the
  /// ONNX importer does; -1 when unknown): floating-point or integer
  /// operations (a multiply-accumulate counts 2), and bytes of its operands
  /// read and of its results written, each counted once.
  int64_t Flops = -1;
  int64_t BytesRead = -1;
  int64_t BytesWritten = -1;
};

/// True for the ops lwp-mark-operators tags: every linalg structured op
/// (named and generic; LinalgOp), every op carrying OperatorAttrName, the
/// TOSA ops that compute (not tosa.const, variables or control flow), the
/// tensor ops that become loops of their own (tensor.pad, tensor.concat,
/// tensor.splat, tensor.generate) and elementwise arithmetic on ranked
/// tensors. The ops a lowering creates from a tagged op keep its location,
/// and so its operator.
bool isStructuredOperator(mlir::Operation *Op);

/// \p Loc wrapped in a FusedLoc that carries \p Tag (metadata: a dictionary
/// with keys lwp.op, lwp.instance, lwp.name, lwp.body, and the work figures
/// lwp.flops, lwp.bytes_read, lwp.bytes_written as i64, each only when it is
/// known, >= 0). Frontends may write the same dictionary themselves:
/// lwp-mark-operators leaves an op whose location has a tag as it is.
mlir::Location tagLocation(mlir::Location Loc, const OperatorTag &Tag);

/// The first operator tag inside \p Loc (searching fused, name and call-site
/// locations), or std::nullopt. A work figure that is not a non-negative
/// integer of at most 63 bits reads as unknown (-1).
std::optional<OperatorTag> findOperatorTag(mlir::Location Loc);

/// The model's name in \p Loc: the first NameLoc's name; empty when none.
llvm::StringRef findLocationName(mlir::Location Loc);

/// One operator instance's ops in one block: First..Last in block order,
/// every op between them included (ops with no tag of their own, such as the
/// buffers the lowering allocates, belong to the span they stand in).
struct OperatorSpan {
  mlir::Operation *First = nullptr;
  mlir::Operation *Last = nullptr;
  OperatorTag Tag;
};

/// The spans of \p Function's body, in pre-order: an op that does work
/// (has regions, writes memory or has unknown effects) and carries a
/// non-body tag that no enclosing op (up to \p Function) carries starts or
/// extends its instance's span; a span ends at the last such op before a
/// working op that carries another instance's tag, or at the end of the
/// block. Allocations, views and pure ops never start or end a span.
llvm::SmallVector<OperatorSpan, 8>
collectOperatorSpans(mlir::Operation *Function);

/// A set of operator labels in insertion order.
using OperatorLabels = llvm::SetVector<std::string, std::vector<std::string>,
                                       std::set<std::string>>;

/// The label of \p Tag: its op name, then the model's name in quotes when
/// it has one (`linalg.generic "relu"`), as RegionEntry::Operators holds it.
std::string operatorLabel(const OperatorTag &Tag);

/// Adds to \p Out the labels of every tag (body tags too) on \p Op and on
/// the ops nested in it, in pre-order.
void collectHeldOperators(mlir::Operation *Op, OperatorLabels &Out);

} // namespace lwp

#endif // LWP_ANALYSIS_MLIROPERATORS_H
