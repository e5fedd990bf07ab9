//===- NodeImporter.h - What an operator importer works with ----*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Internal to the ONNX importer. Each ONNX operator has one handler
// (Ops*.cpp) that reads its node through a NodeContext: inputs as typed
// tensor values (known constants too, for folding shape arithmetic),
// attributes with defaults, the opset, and a builder whose ops become the
// node's operator region. Element types are ONNX's (TensorProto::DataType
// numbers); MLIR integers are signless, so signedness is read from them.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LIB_FRONTEND_ONNX_NODEIMPORTER_H
#define LWP_LIB_FRONTEND_ONNX_NODEIMPORTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
class TensorProto;
class AttributeProto;
} // namespace onnx

namespace lwp::onnx {

/// ONNX element types (onnx.proto TensorProto.DataType).
enum ElemType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
};

/// Bytes of one element of \p Type; 0 for types the importer does not take.
unsigned elemSize(int32_t Type);
bool isFloatType(int32_t Type);
bool isUnsignedType(int32_t Type); // uint8..uint64 and bool
/// numpy's name (float32, int64 ...); empty for unsupported types.
llvm::StringRef numpyName(int32_t Type);
/// ONNX's name (FLOAT, INT64 ...).
std::string onnxTypeName(int32_t Type);
/// The MLIR element type of \p Type (signless integers, i1 for bool).
mlir::Type mlirElemType(mlir::MLIRContext *Ctx, int32_t Type);

/// A tensor whose value the importer knows: an initializer, a Constant, or
/// the folded result of shape arithmetic. Raw holds the elements in the
/// type's little-endian layout, row-major.
struct ConstData {
  int32_t Type = Float;
  llvm::SmallVector<int64_t, 4> Shape;
  std::vector<char> Raw;

  int64_t numElements() const;
  /// Element \p I as an integer (floats truncated) or as a double.
  int64_t getInt(int64_t I) const;
  double getDouble(int64_t I) const;
  /// Every element as integers / doubles.
  std::vector<int64_t> ints() const;
  std::vector<double> doubles() const;
  /// Writes element \p I from an integer or a double (converted to Type).
  void setInt(int64_t I, int64_t V);
  void setDouble(int64_t I, double V);
  /// A tensor of \p Type and \p Shape filled with zeros.
  static std::shared_ptr<ConstData> zeros(int32_t Type,
                                          llvm::ArrayRef<int64_t> Shape);
};

/// Reads a TensorProto's elements (raw_data or the typed fields; external
/// data is refused). Error text in \p Error.
std::shared_ptr<ConstData> readTensorProto(const ::onnx::TensorProto &T,
                                           std::string &Error);

/// Reads a tensor file: a serialized onnx.TensorProto or a .npy file
/// (versions 1 to 3, little-endian, C order). Errors: those of
/// convertTensorToNpy (Importer.h).
llvm::Expected<std::shared_ptr<ConstData>>
readTensorFile(llvm::StringRef Bytes, llvm::StringRef Path);

/// One ONNX value: its element type and static shape, its MLIR value (made
/// on demand for constants) and its contents when known.
struct TensorValue {
  int32_t Type = Undefined;
  llvm::SmallVector<int64_t, 4> Shape;
  mlir::Value V;
  std::shared_ptr<ConstData> Const;

  int64_t rank() const { return Shape.size(); }
  int64_t numElements() const;
};

class GraphImporter;

/// The node being imported, as its handler sees it.
class NodeContext {
public:
  NodeContext(GraphImporter &G, const ::onnx::NodeProto &Node, int64_t Index,
              int64_t Opset, mlir::OpBuilder &B, mlir::Location Loc);

  const ::onnx::NodeProto &node() const { return Node; }
  llvm::StringRef opType() const;
  int64_t opset() const { return Opset; }
  mlir::OpBuilder &builder() { return B; }
  mlir::Location loc() const { return Loc; }
  mlir::MLIRContext *context() const { return B.getContext(); }

  /// Inputs: an empty name is an omitted optional input.
  unsigned numInputs() const;
  bool hasInput(unsigned I) const;
  const TensorValue &input(unsigned I) const;
  /// The input's MLIR value (a constant is materialized once).
  mlir::Value value(unsigned I);
  /// The input's contents when known, else nullptr.
  const ConstData *constInput(unsigned I) const;
  unsigned numOutputs() const;
  bool hasOutput(unsigned I) const;

  /// Attributes, with defaults.
  bool hasAttr(llvm::StringRef Name) const;
  int64_t attrInt(llvm::StringRef Name, int64_t Default) const;
  float attrFloat(llvm::StringRef Name, float Default) const;
  std::string attrString(llvm::StringRef Name,
                         llvm::StringRef Default = "") const;
  llvm::SmallVector<int64_t, 4> attrInts(llvm::StringRef Name) const;
  llvm::SmallVector<float, 4> attrFloats(llvm::StringRef Name) const;
  /// The attribute's tensor (Constant's value), or nullptr.
  const ::onnx::TensorProto *attrTensor(llvm::StringRef Name) const;

  /// Sets output \p I to \p V, whose ranked tensor type gives the shape;
  /// \p Type is the ONNX element type (signedness).
  void setOutput(unsigned I, mlir::Value V, int32_t Type);
  /// Sets output \p I to a known tensor (no op is made until it is used).
  void setConstOutput(unsigned I, std::shared_ptr<ConstData> C);
  /// Output \p I is input \p J (Identity, Dropout in inference).
  void forwardInput(unsigned I, unsigned J);

  /// Records the node's work per execution (MLIROperators.h OperatorTag).
  void setWork(int64_t Flops, int64_t BytesRead = -1,
               int64_t BytesWritten = -1);
  int64_t flops() const { return Flops; }
  int64_t bytesRead() const { return BytesRead; }
  int64_t bytesWritten() const { return BytesWritten; }

  /// Fails the import with "node 'NAME' (OpType, opset N): MESSAGE".
  mlir::LogicalResult error(const llvm::Twine &Message);

  // Builders shared by the handlers ------------------------------------- //

  /// A ranked tensor type of ONNX element type \p Type.
  mlir::RankedTensorType tensorType(llvm::ArrayRef<int64_t> Shape,
                                    int32_t Type);
  /// A scalar constant of ONNX type \p Type (made at the insertion point).
  mlir::Value scalar(double V, int32_t Type);
  /// tensor.empty of \p Shape and \p Type.
  mlir::Value empty(llvm::ArrayRef<int64_t> Shape, int32_t Type);
  /// \p Init filled with \p V.
  mlir::Value filled(llvm::ArrayRef<int64_t> Shape, int32_t Type, double V);
  /// numpy broadcasting of \p A and \p B; error text in \p Error.
  static std::optional<llvm::SmallVector<int64_t, 4>>
  broadcastShapes(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B);
  /// A linalg.generic over \p OutShape whose inputs broadcast to it (numpy
  /// rules; each input's map drops leading dimensions and size-1 ones) and
  /// whose body \p Body computes the element of type \p OutType from the
  /// inputs' elements.
  mlir::Value
  elementwise(llvm::ArrayRef<mlir::Value> Inputs,
              llvm::ArrayRef<int64_t> OutShape, int32_t OutType,
              llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                             mlir::ValueRange)>
                  Body);
  /// \p V (static shape) reshaped to \p Shape (same element count) through
  /// collapse_shape to one dimension and expand_shape: views, no copy.
  mlir::Value reshape(mlir::Value V, llvm::ArrayRef<int64_t> Shape);
  /// Converts scalar \p V from ONNX type \p From to \p To (arith casts,
  /// signedness from the types; float to int truncates toward zero, as
  /// ONNX Cast does, and saturation is not applied).
  mlir::Value convertScalar(mlir::OpBuilder &B, mlir::Location L,
                            mlir::Value V, int32_t From, int32_t To);
  /// The element type of \p V as an ONNX type is the input's, for values of
  /// this graph; for intermediate values the handler passes it around.

private:
  GraphImporter &G;
  const ::onnx::NodeProto &Node;
  int64_t Index;
  int64_t Opset;
  mlir::OpBuilder &B;
  mlir::Location Loc;
  int64_t Flops = -1, BytesRead = -1, BytesWritten = -1;
  const ::onnx::AttributeProto *findAttr(llvm::StringRef Name) const;
};

/// A handler imports one node; failure after NodeContext::error.
using OpHandler = std::function<mlir::LogicalResult(NodeContext &)>;
using OpTable = llvm::StringMap<OpHandler>;

// One registration a family of operators (Ops*.cpp).
void registerElementwiseOps(OpTable &T);
void registerConvolutionOps(OpTable &T);
void registerLinearAlgebraOps(OpTable &T);
void registerNormalizationOps(OpTable &T);
void registerShapeOps(OpTable &T);
void registerDataMovementOps(OpTable &T);
void registerQuantizationOps(OpTable &T);

/// Every handler, by op type.
const OpTable &opTable();

// Helpers for handlers ------------------------------------------------------ //

/// The most elements a tensor of the importer has (2^31); larger shapes
/// are refused, so that handlers compute in int64_t without overflow.
constexpr int64_t MaxTensorElements = int64_t(1) << 31;

/// Fails through NodeContext::error when \p Shape (a result's shape, named
/// by \p What) has a negative dimension or more than MaxTensorElements
/// elements.
mlir::LogicalResult checkShape(NodeContext &C, llvm::ArrayRef<int64_t> Shape,
                               llvm::StringRef What);

/// Product of \p Shape (1 for a scalar).
int64_t product(llvm::ArrayRef<int64_t> Shape);
/// \p Axis in [-Rank, Rank) made non-negative; std::nullopt when outside.
std::optional<int64_t> normalizeAxis(int64_t Axis, int64_t Rank);
/// Work of an elementwise node: \p OpsPerElement per element of its output
/// (\p OutShape of \p OutType), every input read once, the output written
/// once.
void setElementwiseWork(NodeContext &C, llvm::ArrayRef<int64_t> OutShape,
                        int32_t OutType, int64_t OpsPerElement);

/// numpy matmul of \p A (shape \p AShape) and \p B (\p BShape): 1-D
/// operands promoted and their unit dimension dropped, batch dimensions
/// broadcast. One linalg.generic over (batch..., i, j, k) whose accumulator
/// of ONNX type \p AccType starts at 0 and whose \p Body returns the new
/// accumulator from (a, b, acc). \p Result gets the product, \p OutShape
/// its shape. Fails through NodeContext::error.
mlir::LogicalResult buildMatMul(
    NodeContext &C, mlir::Value A, llvm::ArrayRef<int64_t> AShape,
    mlir::Value B, llvm::ArrayRef<int64_t> BShape, int32_t AccType,
    mlir::Value &Result, llvm::SmallVector<int64_t, 4> &OutShape,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::Value, mlir::Value, mlir::Value)>
        Body);

} // namespace lwp::onnx

#endif // LWP_LIB_FRONTEND_ONNX_NODEIMPORTER_H
