//===- OpsDataMovement.cpp - Slice, Split, Gather, Pad, Resize, Expand and Tile -===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

using namespace mlir;
using namespace lwp::onnx;

void lwp::onnx::registerDataMovementOps(OpTable &T) {}
