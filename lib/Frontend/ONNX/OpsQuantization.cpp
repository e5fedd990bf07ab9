//===- OpsQuantization.cpp - QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul, ConvInteger and MatMulInteger -===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

using namespace mlir;
using namespace lwp::onnx;

void lwp::onnx::registerQuantizationOps(OpTable &T) {}
