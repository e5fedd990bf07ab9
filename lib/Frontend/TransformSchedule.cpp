//===- TransformSchedule.cpp - Apply and erase a transform schedule -------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// lwp-transform-schedule: runs the transform schedule that a payload module
// carries (upstream's -transform-interpreter) and erases it, so that the
// module lowers to LLVM IR without the transform dialect.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/Passes.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"

namespace lwp {
#define GEN_PASS_DEF_LWPTRANSFORMSCHEDULE
#include "lwp/Frontend/Passes.h.inc"
} // namespace lwp

using namespace mlir;

namespace {
/// True for the ops of the transform dialect (and its extensions, which
/// share its namespace).
bool isTransformOp(Operation &Op) {
  return Op.getName().getDialectNamespace() ==
         transform::TransformDialect::getDialectNamespace();
}

/// True for a nested module that holds a schedule: marked
/// `transform.with_named_sequence`, holding transform ops only.
bool isScheduleModule(Operation &Op) {
  auto Nested = dyn_cast<ModuleOp>(Op);
  if (!Nested ||
      !Nested->hasAttr(transform::TransformDialect::kWithNamedSequenceAttrName))
    return false;
  return llvm::all_of(Nested.getBody()->getOperations(), isTransformOp);
}

class TransformSchedulePass
    : public lwp::impl::LWPTransformScheduleBase<TransformSchedulePass> {
public:
  using LWPTransformScheduleBase::LWPTransformScheduleBase;

  void runOnOperation() override {
    ModuleOp Module = getOperation();
    StringRef Marker = transform::TransformDialect::kWithNamedSequenceAttrName;
    SmallVector<Operation *, 4> Schedule;
    for (Operation &Op : Module.getBody()->getOperations())
      if (isTransformOp(Op) || isScheduleModule(Op))
        Schedule.push_back(&Op);
    if (Schedule.empty()) {
      Module->removeAttr(Marker);
      return;
    }
    if (apply) {
      transform::NamedSequenceOp Entry = findEntryPoint(Schedule);
      if (!Entry) {
        Schedule.front()->emitWarning()
            << "transform schedule without an entry point @" << entryPoint
            << ": erased without running";
      } else if (failed(transform::applyTransformNamedSequence(
                     Module, Entry, ModuleOp(),
                     transform::TransformOptions()))) {
        return signalPassFailure();
      }
    }
    for (Operation *Op : Schedule)
      Op->erase();
    Module->removeAttr(Marker);
  }

private:
  /// The named sequence called entryPoint at module level or in a schedule
  /// module; null when there is none.
  transform::NamedSequenceOp findEntryPoint(ArrayRef<Operation *> Schedule) {
    for (Operation *Op : Schedule) {
      transform::NamedSequenceOp Found;
      Op->walk([&](transform::NamedSequenceOp Sequence) {
        if (Sequence.getSymName() != entryPoint)
          return WalkResult::advance();
        Found = Sequence;
        return WalkResult::interrupt();
      });
      if (Found)
        return Found;
    }
    return {};
  }
};
} // namespace
