//===- ConvGeometry.h - Windows of Conv, pools and their kin ----*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Internal to the ONNX importer: the attributes that Conv, QLinearConv,
// ConvInteger, MaxPool and AveragePool share (kernel_shape, strides,
// dilations, pads, auto_pad, ceil_mode), as the ONNX operator spec defines
// them, and the padded input they read.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LIB_FRONTEND_ONNX_CONVGEOMETRY_H
#define LWP_LIB_FRONTEND_ONNX_CONVGEOMETRY_H

#include "NodeImporter.h"

namespace lwp::onnx {

/// One window geometry; every vector has one value per spatial dimension
/// (Pads two: all begins, then all ends).
struct ConvGeometry {
  llvm::SmallVector<int64_t, 4> Kernel, Strides, Dilations, Pads;
  /// Output spatial sizes.
  llvm::SmallVector<int64_t, 4> Out;
  /// Padding past the end pads that ceil_mode's last window reads.
  llvm::SmallVector<int64_t, 4> Extra;
};

/// Reads strides, dilations, pads and auto_pad (NOTSET, VALID, SAME_UPPER,
/// SAME_LOWER) of the node for an input of spatial sizes \p InShape and a
/// kernel \p Kernel, and computes the output sizes (floor, or ceil with
/// \p CeilMode). Fails through NodeContext::error.
mlir::LogicalResult readConvGeometry(NodeContext &C,
                                     llvm::ArrayRef<int64_t> InShape,
                                     llvm::ArrayRef<int64_t> Kernel,
                                     ConvGeometry &G, bool CeilMode = false);

/// \p X ([N, C, D...]) padded on its spatial dimensions by G's pads (and
/// ceil-mode extra) with the scalar \p PadValue; \p X itself when no pad.
mlir::Value padSpatial(NodeContext &C, mlir::Value X, const ConvGeometry &G,
                       mlir::Value PadValue);

} // namespace lwp::onnx

#endif // LWP_LIB_FRONTEND_ONNX_CONVGEOMETRY_H
