//===- fuzz-onnx.cpp - libFuzzer target of the ONNX importer --------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to lwp::onnx::importModel as a serialized
// ModelProto (libonnx's parse, checker, shape inference and version
// converter, then every node's handler), twice when the graph has inputs
// whose dimensions are unknown: as they are, and with those dimensions given
// (2, as --input-shape would). An error must be one line and not one of
// the importer's own checks (a module that does not verify ...); a module
// that imports is printed. The same bytes go to
// lwp::onnx::convertTensorToNpy as a TensorProto or .npy; a .npy it writes
// must convert to itself.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/ONNX/Importer.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

/// Imports \p Bytes with \p Options; a module that imports is printed.
static void importOnce(llvm::StringRef Bytes,
                       const lwp::onnx::ImportOptions &Options) {
  mlir::MLIRContext Context(mlir::MLIRContext::Threading::DISABLED);
  Context.printOpOnDiagnostic(false);
  // Diagnostics (the verifier's, on an importer bug) are reported in the
  // error; nothing is printed.
  Context.getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  llvm::Expected<lwp::onnx::ImportResult> R =
      lwp::onnx::importModel(Context, Bytes, "fuzz.onnx", Options);
  if (!R) {
    std::string Message = llvm::toString(R.takeError());
    // One line, as lwp-import-onnx prints it; not one of the importer's
    // own checks (a module that does not verify, a constant whose data
    // does not match its shape).
    if (Message.empty() || Message.find('\n') != std::string::npos ||
        Message.find("an importer bug") != std::string::npos)
      abort();
    return;
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  R->Module->print(OS, mlir::OpPrintingFlags().enableDebugInfo());
  for (const auto &T : R->Inputs)
    for (int64_t D : T.Shape)
      if (D <= 0)
        abort();
}

/// \p Bytes's graph inputs whose dimensions are not all fixed, with those
/// dimensions made 2; false when there is none (or no model).
static bool fillUnknownDims(llvm::StringRef Bytes,
                            lwp::onnx::ImportOptions &Options) {
  onnx::ModelProto M;
  if (!M.ParseFromArray(Bytes.data(), static_cast<int>(Bytes.size())))
    return false;
  bool Any = false;
  for (const onnx::ValueInfoProto &In : M.graph().input()) {
    if (!In.type().tensor_type().has_shape() || In.name().empty() ||
        In.name().find('=') != std::string::npos)
      continue;
    std::vector<int64_t> Shape;
    bool Unknown = false;
    for (const auto &D : In.type().tensor_type().shape().dim()) {
      bool Fixed = D.has_dim_value() && D.dim_value() > 0;
      Shape.push_back(Fixed ? D.dim_value() : 2);
      Unknown |= !Fixed;
    }
    if (Unknown) {
      Options.InputShapes[In.name()] = Shape;
      Any = true;
    }
  }
  return Any;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  lwp::onnx::ImportOptions Options;
  importOnce(Bytes, Options);
  if (fillUnknownDims(Bytes, Options))
    importOnce(Bytes, Options);

  llvm::Expected<std::string> Npy =
      lwp::onnx::convertTensorToNpy(Bytes, "fuzz.pb");
  if (!Npy) {
    llvm::consumeError(Npy.takeError());
    return 0;
  }
  llvm::Expected<std::string> Again =
      lwp::onnx::convertTensorToNpy(*Npy, "fuzz.npy");
  if (!Again || *Again != *Npy)
    abort();
  return 0;
}
