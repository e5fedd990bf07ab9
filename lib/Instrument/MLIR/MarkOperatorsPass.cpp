//===- MarkOperatorsPass.cpp - lwp-mark-operators -------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Tags the location of every structured operator, and of the ops of its body,
// with an operator tag (lwp/Analysis/MLIROperators.h), so that lwp-instrument
// can tell after the lowering which loops each operator became.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/MLIROperators.h"
#include "lwp/Instrument/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace lwp {
#define GEN_PASS_DEF_LWPMARKOPERATORS
#include "lwp/Instrument/Passes.h.inc"
} // namespace lwp

using namespace mlir;
using namespace lwp;

namespace {
class MarkOperatorsPass
    : public lwp::impl::LWPMarkOperatorsBase<MarkOperatorsPass> {
public:
  using LWPMarkOperatorsBase::LWPMarkOperatorsBase;

  void runOnOperation() override {
    // Instances continue after those of an earlier run, so that running the
    // pass twice (or on a module with some tagged ops) never reuses one.
    int64_t Next = 0;
    getOperation()->walk([&](Operation *Op) {
      if (std::optional<OperatorTag> Tag = findOperatorTag(Op->getLoc()))
        Next = std::max(Next, Tag->Instance + 1);
    });
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *Op) {
      if (!isStructuredOperator(Op) || findOperatorTag(Op->getLoc()))
        return;
      OperatorTag Tag;
      Tag.Op = Op->getName().getStringRef();
      Attribute Mark = Op->getAttr(OperatorAttrName);
      StringRef Name = findLocationName(Op->getLoc());
      if (auto Given = dyn_cast_or_null<StringAttr>(Mark))
        Name = Given.getValue();
      // The map keeps lists of labels joined with ',' (one line each in the
      // table): names carry neither.
      std::string Clean = Name.str();
      llvm::replace(Clean, ',', ';');
      llvm::replace(Clean, '\n', ' ');
      Tag.Name = StringAttr::get(Op->getContext(), Clean).getValue();
      Tag.Instance = Next++;
      Op->setLoc(tagLocation(Op->getLoc(), Tag));
      Tag.Body = true;
      for (Region &R : Op->getRegions())
        R.walk([&](Operation *Inner) {
          if (!findOperatorTag(Inner->getLoc()))
            Inner->setLoc(tagLocation(Inner->getLoc(), Tag));
        });
    });
  }
};
} // namespace
