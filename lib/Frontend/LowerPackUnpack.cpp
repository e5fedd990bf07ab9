//===- LowerPackUnpack.cpp - linalg.pack/unpack before bufferization ------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// lwp-lower-pack-unpack: rewrites linalg.pack and linalg.unpack on tensors
// with upstream's linalg::lowerPack / linalg::lowerUnPack (pad, expand_shape,
// transpose and back), which one-shot bufferization takes. The rewrites
// build their ops at the replaced op's location, which carries its operator
// tag.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace lwp {
#define GEN_PASS_DEF_LWPLOWERPACKUNPACK
#include "lwp/Frontend/Passes.h.inc"
} // namespace lwp

using namespace mlir;

namespace {
class LowerPackUnpackPass
    : public lwp::impl::LWPLowerPackUnpackBase<LowerPackUnpackPass> {
public:
  void runOnOperation() override {
    SmallVector<linalg::PackOp> Packs;
    SmallVector<linalg::UnPackOp> Unpacks;
    // Both ops are defined on ranked tensors only (LinalgRelayoutOps.td).
    getOperation()->walk([&](Operation *Op) {
      if (auto Pack = dyn_cast<linalg::PackOp>(Op))
        Packs.push_back(Pack);
      else if (auto Unpack = dyn_cast<linalg::UnPackOp>(Op))
        Unpacks.push_back(Unpack);
    });
    IRRewriter Rewriter(&getContext());
    // A failure leaves the op as it was: bufferization then reports it at
    // the user's line.
    for (linalg::PackOp Pack : Packs) {
      Rewriter.setInsertionPoint(Pack);
      (void)linalg::lowerPack(Rewriter, Pack);
    }
    for (linalg::UnPackOp Unpack : Unpacks) {
      Rewriter.setInsertionPoint(Unpack);
      (void)linalg::lowerUnPack(Rewriter, Unpack);
    }
  }
};
} // namespace
