//===- Importer.h - ONNX models to MLIR on tensors --------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The ONNX importer: an ONNX model (ModelProto, parsed, checked, shape
// inferred and converted between opsets by Debian's libonnx) becomes one MLIR
// module on tensors (linalg, tensor, arith, math, func) that LWP's pipelines
// then lower, instrument and run. Every op made for a node carries that
// node's operator tag (lwp/Analysis/MLIROperators.h): `onnx.<OpType>`, the
// node's name (or `#<index>` for unnamed nodes), and the node's work from its
// shapes. Formats: docs/onnx.md.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_FRONTEND_ONNX_IMPORTER_H
#define LWP_FRONTEND_ONNX_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace lwp::onnx {

/// How a model is imported.
struct ImportOptions {
  /// Static dimensions for graph inputs (`--input-shape NAME=D0,D1,...`):
  /// input name -> every dimension of that input, in order. They replace the
  /// model's symbolic or unknown dimensions; a fixed dimension that differs
  /// is an error.
  std::map<std::string, std::vector<int64_t>> InputShapes;
  /// Graph inputs whose values are known at import (`--constant-input
  /// NAME=FILE`): input name -> the bytes of a serialized onnx.TensorProto
  /// or a .npy file, and the file's path for messages. Each becomes an
  /// initializer: its value folds into the shapes it sets (a Reshape's
  /// shape, Slice's starts, Resize's scales, as ONNX's node tests give
  /// them), and it is no argument of the entry point. Its element type must
  /// be the input's, its shape fit the input's fixed dimensions.
  std::map<std::string, std::pair<std::string, std::string>> ConstantInputs;
  /// Name of the function that runs the graph (it carries
  /// llvm.emit_c_interface: `_mlir_ciface_<name>` is its C entry point).
  std::string EntryName = "main_graph";
  /// File name the node locations refer to (the node listing, one line a
  /// node, line k+1 for node k); empty: the model's path.
  std::string ListingName;
};

/// One graph input or output as the C entry point sees it.
struct TensorSignature {
  std::string Name;
  /// numpy's name of the element type: float32, float64, int64, int32,
  /// int16, int8, uint8 or bool.
  std::string DType;
  /// Static dimensions (row-major; empty for a scalar).
  std::vector<int64_t> Shape;
};

/// What the import made: the entry point's arguments and results in order,
/// and one line of text a node (the node listing).
struct ImportResult {
  mlir::OwningOpRef<mlir::ModuleOp> Module;
  std::string EntryName;
  /// The model's default-domain opset after conversion (7 to 17).
  int64_t Opset = 0;
  /// The opset the model was written for.
  int64_t OriginalOpset = 0;
  std::vector<TensorSignature> Inputs, Outputs;
  /// Node k is line k+1: "OpType name: in, in -> out".
  std::vector<std::string> Listing;
};

/// Imports the serialized ModelProto \p Bytes (read from \p Path, which
/// locations and messages name). Errors (one line each, no trailing
/// newline): a file that does not parse as a ModelProto, a model that fails
/// onnx::checker, an opset outside 7..17 or a domain other than ai.onnx, an
/// input dimension that is unknown and not given, an operator the importer
/// does not take (naming the operator, the node and the opset), and shapes
/// the operators reject.
llvm::Expected<ImportResult> importModel(mlir::MLIRContext &Context,
                                         llvm::StringRef Bytes,
                                         llvm::StringRef Path,
                                         const ImportOptions &Options);

/// The ONNX operator types the importer takes, sorted.
std::vector<std::string> supportedOperators();

/// The dialects the imported module uses; load them into \p Context before
/// importModel.
void loadDialects(mlir::MLIRContext &Context);

/// Converts a tensor file to .npy (format version 1.0, little-endian, C
/// order): \p Bytes is a serialized onnx.TensorProto (ONNX's test data
/// input_K.pb) or a .npy file. Errors: not a TensorProto or .npy, an element
/// type numpy cannot hold, data shorter than the shape says.
llvm::Expected<std::string> convertTensorToNpy(llvm::StringRef Bytes,
                                               llvm::StringRef Path);

/// Parses a `NAME=D0,D1,...` shape option into \p Options. Error: a missing
/// `=`, an empty name or a dimension that is not a positive integer.
llvm::Error parseInputShape(llvm::StringRef Text, ImportOptions &Options);

} // namespace lwp::onnx

#endif // LWP_FRONTEND_ONNX_IMPORTER_H
