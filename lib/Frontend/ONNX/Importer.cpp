//===- Importer.cpp - ONNX models to MLIR on tensors ----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Reads a ModelProto with Debian's libonnx (parse, checker, shape inference
// and the version converter), fixes the graph inputs' dimensions, then walks
// the nodes in order and hands each one to its operator's handler. libonnx
// reports errors by throwing; this file is built with exceptions and turns
// them into llvm::Error, one line each.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/ONNX/Importer.h"

#include "NodeImporter.h"

#include "lwp/Analysis/MLIROperators.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <set>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace lwp;
using namespace lwp::onnx;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// \p Text on one line: libonnx's messages run over several (the node a
/// checker message is about comes after it, as "==> Context: ...").
static std::string oneLine(StringRef Text) {
  SmallVector<StringRef> Lines;
  Text.split(Lines, '\n', -1, false);
  std::string Line;
  for (StringRef L : Lines)
    if (!L.trim().empty())
      Line += (Line.empty() ? "" : " ") + L.trim().str();
  return Line;
}

/// \p Text with its control characters escaped (\n, \xHH): names from a
/// model go into one-line messages.
static std::string escapeControls(StringRef Text) {
  std::string Out;
  for (unsigned char Ch : Text) {
    if (Ch == '\n')
      Out += "\\n";
    else if (Ch < 0x20 || Ch == 0x7f)
      Out += llvm::formatv("\\x{0:x-2}", unsigned(Ch)).str();
    else
      Out += Ch;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Element types and constants
//===----------------------------------------------------------------------===//

unsigned lwp::onnx::elemSize(int32_t Type) {
  switch (Type) {
  case Float:
  case Int32:
  case UInt32:
    return 4;
  case Double:
  case Int64:
  case UInt64:
    return 8;
  case UInt8:
  case Int8:
  case Bool:
    return 1;
  case Int16:
  case UInt16:
    return 2;
  default:
    return 0;
  }
}

bool lwp::onnx::isFloatType(int32_t Type) {
  return Type == Float || Type == Double;
}

bool lwp::onnx::isUnsignedType(int32_t Type) {
  return Type == UInt8 || Type == UInt16 || Type == UInt32 ||
         Type == UInt64 || Type == Bool;
}

StringRef lwp::onnx::numpyName(int32_t Type) {
  switch (Type) {
  case Float:
    return "float32";
  case Double:
    return "float64";
  case Int64:
    return "int64";
  case Int32:
    return "int32";
  case Int16:
    return "int16";
  case Int8:
    return "int8";
  case UInt8:
    return "uint8";
  case UInt16:
    return "uint16";
  case UInt32:
    return "uint32";
  case UInt64:
    return "uint64";
  case Bool:
    return "bool";
  default:
    return "";
  }
}

std::string lwp::onnx::onnxTypeName(int32_t Type) {
  if (::onnx::TensorProto_DataType_IsValid(Type))
    return ::onnx::TensorProto_DataType_Name(
        static_cast<::onnx::TensorProto_DataType>(Type));
  return "type " + std::to_string(Type);
}

Type lwp::onnx::mlirElemType(MLIRContext *Ctx, int32_t Type) {
  Builder B(Ctx);
  switch (Type) {
  case Float:
    return B.getF32Type();
  case Double:
    return B.getF64Type();
  case Bool:
    return B.getI1Type();
  default:
    return B.getIntegerType(elemSize(Type) * 8);
  }
}

/// The most elements a tensor of the importer has (2^31). Handlers compute
/// shapes, offsets and work in int64_t from dimensions below it; a model's
/// shapes can be anything.
static constexpr int64_t MaxElements = int64_t(1) << 31;

int64_t lwp::onnx::product(ArrayRef<int64_t> Shape) {
  // Exact up to MaxElements, MaxElements + 1 beyond: such a tensor is
  // refused, and its handler's arithmetic on the product (bytes, work) stays
  // within int64_t until then.
  int64_t N = 1;
  bool Beyond = false;
  for (int64_t D : Shape) {
    if (!D)
      return 0;
    Beyond |= __builtin_mul_overflow(N, D, &N) || N > MaxElements;
  }
  return Beyond ? MaxElements + 1 : N;
}

/// What is wrong with \p Shape as a tensor's shape (to follow "shape S"), or
/// nothing.
static std::optional<std::string> shapeProblem(ArrayRef<int64_t> Shape) {
  // The dimensions of an empty tensor count too: handlers multiply them.
  int64_t N = 1;
  for (int64_t D : Shape) {
    if (D < 0)
      return std::string("has a negative dimension");
    if (D && (__builtin_mul_overflow(N, D, &N) || N > MaxElements))
      return std::string("is larger than the importer takes (2^31 "
                         "elements)");
  }
  return std::nullopt;
}

/// "2x3x4", "scalar".
static std::string shapeText(ArrayRef<int64_t> Shape) {
  if (Shape.empty())
    return "scalar";
  std::string Text;
  for (int64_t D : Shape)
    Text += (Text.empty() ? "" : "x") + std::to_string(D);
  return Text;
}

std::optional<int64_t> lwp::onnx::normalizeAxis(int64_t Axis, int64_t Rank) {
  if (Axis < -Rank || Axis >= Rank)
    return std::nullopt;
  return Axis < 0 ? Axis + Rank : Axis;
}

int64_t ConstData::numElements() const { return product(Shape); }

int64_t TensorValue::numElements() const { return product(Shape); }

template <typename T> static T loadAs(const char *P) {
  T V;
  memcpy(&V, P, sizeof(T));
  return V;
}

template <typename T> static void storeAs(char *P, T V) {
  memcpy(P, &V, sizeof(T));
}

int64_t ConstData::getInt(int64_t I) const {
  const char *P = Raw.data() + I * elemSize(Type);
  switch (Type) {
  case Float:
    return static_cast<int64_t>(loadAs<float>(P));
  case Double:
    return static_cast<int64_t>(loadAs<double>(P));
  case Int64:
  case UInt64:
    return loadAs<int64_t>(P);
  case Int32:
    return loadAs<int32_t>(P);
  case UInt32:
    return loadAs<uint32_t>(P);
  case Int16:
    return loadAs<int16_t>(P);
  case UInt16:
    return loadAs<uint16_t>(P);
  case Int8:
    return loadAs<int8_t>(P);
  case UInt8:
  case Bool:
    return loadAs<uint8_t>(P);
  default:
    return 0;
  }
}

double ConstData::getDouble(int64_t I) const {
  const char *P = Raw.data() + I * elemSize(Type);
  if (Type == Float)
    return loadAs<float>(P);
  if (Type == Double)
    return loadAs<double>(P);
  if (Type == UInt64)
    return static_cast<double>(loadAs<uint64_t>(P));
  return static_cast<double>(getInt(I));
}

std::vector<int64_t> ConstData::ints() const {
  std::vector<int64_t> Out(numElements());
  for (int64_t I = 0, E = Out.size(); I != E; ++I)
    Out[I] = getInt(I);
  return Out;
}

std::vector<double> ConstData::doubles() const {
  std::vector<double> Out(numElements());
  for (int64_t I = 0, E = Out.size(); I != E; ++I)
    Out[I] = getDouble(I);
  return Out;
}

void ConstData::setInt(int64_t I, int64_t V) {
  char *P = Raw.data() + I * elemSize(Type);
  switch (Type) {
  case Float:
    return storeAs<float>(P, static_cast<float>(V));
  case Double:
    return storeAs<double>(P, static_cast<double>(V));
  case Int64:
  case UInt64:
    return storeAs<int64_t>(P, V);
  case Int32:
  case UInt32:
    return storeAs<int32_t>(P, static_cast<int32_t>(V));
  case Int16:
  case UInt16:
    return storeAs<int16_t>(P, static_cast<int16_t>(V));
  case Bool:
    return storeAs<uint8_t>(P, V != 0);
  default:
    return storeAs<int8_t>(P, static_cast<int8_t>(V));
  }
}

void ConstData::setDouble(int64_t I, double V) {
  char *P = Raw.data() + I * elemSize(Type);
  if (Type == Float)
    return storeAs<float>(P, static_cast<float>(V));
  if (Type == Double)
    return storeAs<double>(P, V);
  if (Type == Bool)
    return storeAs<uint8_t>(P, V != 0);
  setInt(I, static_cast<int64_t>(V));
}

std::shared_ptr<ConstData> ConstData::zeros(int32_t Type,
                                            ArrayRef<int64_t> Shape) {
  auto C = std::make_shared<ConstData>();
  C->Type = Type;
  C->Shape.assign(Shape.begin(), Shape.end());
  C->Raw.assign(product(Shape) * elemSize(Type), 0);
  return C;
}

std::shared_ptr<ConstData>
lwp::onnx::readTensorProto(const ::onnx::TensorProto &T, std::string &Error) {
  auto C = std::make_shared<ConstData>();
  C->Type = T.data_type();
  std::string Name = escapeControls(T.name());
  unsigned Size = elemSize(C->Type);
  if (!Size) {
    Error = "tensor '" + Name + "' has element type " +
            onnxTypeName(C->Type) + ", which the importer does not take";
    return nullptr;
  }
  if (T.data_location() == ::onnx::TensorProto_DataLocation_EXTERNAL) {
    Error = "tensor '" + Name +
            "' keeps its data in an external file, which the importer does "
            "not read";
    return nullptr;
  }
  C->Shape.assign(T.dims().begin(), T.dims().end());
  if (std::optional<std::string> Problem = shapeProblem(C->Shape)) {
    Error = "tensor '" + Name + "' of shape " + shapeText(C->Shape) +
            " " + *Problem;
    return nullptr;
  }
  // The elements must all be there before anything is allocated: a model
  // can declare any shape.
  uint64_t N = product(C->Shape), Have;
  if (T.has_raw_data())
    Have = T.raw_data().size() % Size ? uint64_t(-1)
                                      : T.raw_data().size() / Size;
  else if (C->Type == Float)
    Have = T.float_data_size();
  else if (C->Type == Double)
    Have = T.double_data_size();
  else if (C->Type == Int64)
    Have = T.int64_data_size();
  else if (C->Type == UInt32 || C->Type == UInt64)
    Have = T.uint64_data_size();
  else // int32, int16, int8, uint16, uint8, bool: int32_data
    Have = T.int32_data_size();
  if (Have != N) {
    Error = Have == uint64_t(-1)
                ? llvm::formatv("tensor '{0}' has {1} bytes of data, not a "
                                "whole number of {2}",
                                Name, T.raw_data().size(),
                                onnxTypeName(C->Type))
                      .str()
                : llvm::formatv("tensor '{0}' holds {1} elements where its "
                                "shape needs {2}",
                                Name, Have, N)
                      .str();
    return nullptr;
  }
  C->Raw.assign(N * Size, 0);
  if (T.has_raw_data()) {
    if (N)
      memcpy(C->Raw.data(), T.raw_data().data(), N * Size);
    return C;
  }
  for (uint64_t I = 0; I != N; ++I) {
    if (C->Type == Float)
      C->setDouble(I, T.float_data(I));
    else if (C->Type == Double)
      C->setDouble(I, T.double_data(I));
    else if (C->Type == Int64)
      C->setInt(I, T.int64_data(I));
    else if (C->Type == UInt32 || C->Type == UInt64)
      C->setInt(I, static_cast<int64_t>(T.uint64_data(I)));
    else
      C->setInt(I, T.int32_data(I));
  }
  return C;
}

//===----------------------------------------------------------------------===//
// Checks before libonnx's shape inference
//===----------------------------------------------------------------------===//

/// "node 'NAME' (OpType, opset N)"; unnamed nodes are '#INDEX'.
static std::string nodeWhere(const ::onnx::NodeProto &Node, int64_t Index,
                             int64_t Opset) {
  std::string Label = Node.name().empty() ? "#" + std::to_string(Index)
                                           : Node.name();
  return llvm::formatv("node '{0}' ({1}, opset {2})", Label, Node.op_type(),
                       Opset)
      .str();
}

/// The first node whose operator the importer does not take. Checked on the
/// model as written (its opset in the message), before shape inference, so
/// that libonnx's inference only runs the importer's operators.
static llvm::Error checkOperators(const ::onnx::GraphProto &Graph,
                                  int64_t Opset) {
  const OpTable &Table = opTable();
  for (int64_t Index = 0; Index != Graph.node_size(); ++Index) {
    const ::onnx::NodeProto &Node = Graph.node(Index);
    if (!Node.domain().empty() && Node.domain() != "ai.onnx")
      return makeError(nodeWhere(Node, Index, Opset) + ": operator domain '" +
                       Node.domain() + "' is not supported (ai.onnx only)");
    if (!Table.count(Node.op_type()))
      return makeError(nodeWhere(Node, Index, Opset) +
                       ": unsupported operator " + Node.op_type());
  }
  return llvm::Error::success();
}

/// Window attributes that libonnx's shape inference divides by (a stride of
/// 0 is a SIGFPE there) or adds to sizes: strides, dilations and kernel
/// sizes must be positive, pads and output sizes within the tensor bound.
static llvm::Error checkAttributes(const ::onnx::GraphProto &Graph,
                                   int64_t Opset) {
  for (int64_t Index = 0; Index != Graph.node_size(); ++Index) {
    const ::onnx::NodeProto &Node = Graph.node(Index);
    for (const ::onnx::AttributeProto &A : Node.attribute()) {
      bool Positive = A.name() == "strides" || A.name() == "dilations" ||
                      A.name() == "kernel_shape";
      bool Size = A.name() == "pads" || A.name() == "output_padding" ||
                  A.name() == "output_shape";
      if (!Positive && !Size)
        continue;
      for (int64_t V : A.ints()) {
        if (Positive && V <= 0)
          return makeError(llvm::formatv("{0}: attribute '{1}' holds {2}, "
                                         "where it must be positive",
                                         nodeWhere(Node, Index, Opset),
                                         A.name(), V)
                               .str());
        if (Size && (V > MaxElements || V < -MaxElements))
          return makeError(llvm::formatv("{0}: attribute '{1}' holds {2}, "
                                         "beyond the importer's bound (2^31)",
                                         nodeWhere(Node, Index, Opset),
                                         A.name(), V)
                               .str());
      }
    }
  }
  return llvm::Error::success();
}

namespace {
/// A graph input (not an initializer) and its static shape.
struct GraphInput {
  std::string Name;
  int32_t Type;
  SmallVector<int64_t, 4> Shape;
};
} // namespace

/// The graph's inputs (initializers excluded) with the static shapes that
/// the model and ImportOptions::InputShapes give them.
static llvm::Expected<std::vector<GraphInput>>
resolveInputs(const ::onnx::GraphProto &Graph, const ImportOptions &Options) {
  std::set<std::string> Initialized;
  for (const ::onnx::TensorProto &T : Graph.initializer())
    Initialized.insert(T.name());
  std::vector<GraphInput> Inputs;
  std::set<std::string> Given;
  for (auto &[Name, Dims] : Options.InputShapes)
    Given.insert(Name);
  for (const ::onnx::ValueInfoProto &In : Graph.input()) {
    if (Initialized.count(In.name()))
      continue;
    Given.erase(In.name());
    if (!In.type().has_tensor_type())
      return makeError("input '" + In.name() +
                       "' is not a tensor (sequences and maps are not taken)");
    const auto &TT = In.type().tensor_type();
    int32_t ET = TT.elem_type();
    if (!elemSize(ET))
      return makeError("input '" + In.name() + "' has element type " +
                       onnxTypeName(ET) +
                       ", which the importer does not take");
    if (!TT.has_shape())
      return makeError("input '" + In.name() +
                       "' has no shape: give it with --input-shape " +
                       In.name() + "=D0,D1,...");
    SmallVector<int64_t, 4> Shape;
    auto GivenIt = Options.InputShapes.find(In.name());
    const auto &Dims = TT.shape().dim();
    if (GivenIt != Options.InputShapes.end() &&
        GivenIt->second.size() != size_t(Dims.size()))
      return makeError(llvm::formatv("--input-shape {0}: {1} dimensions "
                                     "given, the input has {2}",
                                     In.name(), GivenIt->second.size(),
                                     Dims.size())
                           .str());
    for (int I = 0; I != Dims.size(); ++I) {
      const auto &D = Dims[I];
      bool Fixed = D.has_dim_value() && D.dim_value() > 0;
      if (GivenIt != Options.InputShapes.end()) {
        int64_t G = GivenIt->second[I];
        if (Fixed && D.dim_value() != G)
          return makeError(llvm::formatv("--input-shape {0}: dimension {1} "
                                         "is {2} in the model, {3} given",
                                         In.name(), I, D.dim_value(), G)
                               .str());
        Shape.push_back(G);
        continue;
      }
      if (!Fixed) {
        std::string What = D.has_dim_param() ? " ('" + D.dim_param() + "')"
                                             : std::string();
        return makeError(llvm::formatv("input '{0}': dimension {1}{2} is "
                                       "unknown: give it with --input-shape "
                                       "{0}=D0,D1,...",
                                       In.name(), I, What)
                             .str());
      }
      Shape.push_back(D.dim_value());
    }
    if (std::optional<std::string> Problem = shapeProblem(Shape))
      return makeError("input '" + In.name() + "' of shape " +
                       shapeText(Shape) + " " + *Problem);
    Inputs.push_back({In.name(), ET, Shape});
  }
  if (!Given.empty())
    return makeError("--input-shape " + *Given.begin() +
                     ": the graph has no input of that name");
  return Inputs;
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

namespace lwp::onnx {
/// Imports one graph into one function.
class GraphImporter {
public:
  GraphImporter(MLIRContext &Ctx, const ImportOptions &Options,
                StringRef Listing, int64_t Opset)
      : Ctx(Ctx), Options(Options), Listing(Listing.str()), Opset(Opset) {}

  llvm::Error run(const ::onnx::GraphProto &Graph,
                  ArrayRef<GraphInput> Inputs, ImportResult &Result);

  TensorValue *lookup(const std::string &Name) {
    auto It = Values.find(Name);
    return It == Values.end() ? nullptr : &It->second;
  }
  Value materialize(TensorValue &T);
  void define(const std::string &Name, TensorValue T) {
    Values[Name] = std::move(T);
  }
  void fail(std::string Message) {
    if (Error.empty())
      Error = std::move(Message);
  }

private:
  MLIRContext &Ctx;
  const ImportOptions &Options;
  std::string Listing;
  int64_t Opset;
  std::map<std::string, TensorValue> Values;
  std::string Error;
  /// Inserts constants at the top of the function.
  std::unique_ptr<OpBuilder> ConstBuilder;
  unsigned BlobCount = 0;

  void tagNodeOps(Block &Body, Operation *Before, const NodeContext &C,
                  const ::onnx::NodeProto &Node, int64_t Index);
};
} // namespace lwp::onnx

Value GraphImporter::materialize(TensorValue &T) {
  if (T.V || !T.Const)
    return T.V;
  const ConstData &C = *T.Const;
  auto Type = RankedTensorType::get(C.Shape, mlirElemType(&Ctx, C.Type));
  Attribute Value;
  if (C.Type == Bool) {
    SmallVector<bool> Bits;
    for (int64_t I = 0, E = C.numElements(); I != E; ++I)
      Bits.push_back(C.getInt(I) != 0);
    Value = DenseElementsAttr::get(Type, Bits);
  } else if (C.numElements() >= 16) {
    // Weights as resource blobs: printed once as hex, not as attribute text.
    AsmResourceBlob Blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(C.Raw.data(), C.Raw.size()), 64);
    Value = DenseResourceElementsAttr::get(
        Type, "onnx_w" + std::to_string(BlobCount++), std::move(Blob));
  } else {
    bool Splat = false;
    if (!DenseElementsAttr::isValidRawBuffer(
            Type, ArrayRef<char>(C.Raw.data(), C.Raw.size()), Splat)) {
      fail("a constant of " + onnxTypeName(C.Type) + " cannot be made");
      return nullptr;
    }
    Value = DenseElementsAttr::getFromRawBuffer(
        Type, ArrayRef<char>(C.Raw.data(), C.Raw.size()));
  }
  T.V = arith::ConstantOp::create(*ConstBuilder, UnknownLoc::get(&Ctx),
                                  cast<TypedAttr>(Value));
  return T.V;
}

void GraphImporter::tagNodeOps(Block &Body, Operation *Before,
                               const NodeContext &C,
                               const ::onnx::NodeProto &Node, int64_t Index) {
  std::string OpName = "onnx." + Node.op_type();
  std::string Name = Node.name().empty() ? "#" + std::to_string(Index)
                                          : Node.name();
  OperatorTag Tag;
  Tag.Op = OpName;
  Tag.Name = Name;
  Tag.Instance = Index;
  Tag.Flops = C.flops();
  Tag.BytesRead = C.bytesRead();
  Tag.BytesWritten = C.bytesWritten();
  Location Line = FileLineColLoc::get(&Ctx, Listing, Index + 1, 1);
  Location Top = tagLocation(Line, Tag);
  OperatorTag BodyTag = Tag;
  BodyTag.Body = true;
  Location Inner = tagLocation(Line, BodyTag);
  auto It = Before ? std::next(Before->getIterator()) : Body.begin();
  for (; It != Body.end(); ++It) {
    It->setLoc(Top);
    for (Region &R : It->getRegions())
      R.walk([&](Operation *Op) { Op->setLoc(Inner); });
  }
}

llvm::Error GraphImporter::run(const ::onnx::GraphProto &Graph,
                               ArrayRef<GraphInput> Inputs,
                               ImportResult &Result) {
  OpBuilder B(&Ctx);
  auto Module = ModuleOp::create(UnknownLoc::get(&Ctx));
  Result.Module = Module;
  B.setInsertionPointToEnd(Module.getBody());

  // Initializers are known constants; graph inputs that an initializer
  // names are defaults (IR < 4), not arguments (resolveInputs).
  for (const ::onnx::TensorProto &T : Graph.initializer()) {
    std::string Err;
    std::shared_ptr<ConstData> C = readTensorProto(T, Err);
    if (!C)
      return makeError("initializer: " + Err);
    TensorValue V;
    V.Type = C->Type;
    V.Shape = C->Shape;
    V.Const = C;
    Values[T.name()] = V;
  }

  SmallVector<Type> ArgTypes;
  std::vector<std::string> ArgNames;
  for (const GraphInput &In : Inputs) {
    TensorValue V;
    V.Type = In.Type;
    V.Shape = In.Shape;
    ArgTypes.push_back(
        RankedTensorType::get(In.Shape, mlirElemType(&Ctx, In.Type)));
    ArgNames.push_back(In.Name);
    Values[In.Name] = V;
    Result.Inputs.push_back(
        {In.Name, numpyName(In.Type).str(),
         std::vector<int64_t>(In.Shape.begin(), In.Shape.end())});
  }

  auto Func = func::FuncOp::create(B, UnknownLoc::get(&Ctx),
                                   Options.EntryName,
                                   B.getFunctionType(ArgTypes, {}));
  Func->setAttr("llvm.emit_c_interface", B.getUnitAttr());
  Block *Body = Func.addEntryBlock();
  for (unsigned I = 0; I != ArgNames.size(); ++I)
    Values[ArgNames[I]].V = Body->getArgument(I);
  ConstBuilder = std::make_unique<OpBuilder>(&Ctx);
  ConstBuilder->setInsertionPointToStart(Body);
  // Constants go before the first node's ops, in creation order.
  auto Anchor = arith::ConstantOp::create(
      *ConstBuilder, UnknownLoc::get(&Ctx), B.getI32IntegerAttr(0));
  ConstBuilder->setInsertionPoint(Anchor);
  B.setInsertionPointToEnd(Body);

  const OpTable &Table = opTable();
  for (int64_t Index = 0; Index != Graph.node_size(); ++Index) {
    const ::onnx::NodeProto &Node = Graph.node(Index);
    std::string Label = Node.name().empty() ? "#" + std::to_string(Index)
                                             : Node.name();
    std::string Where = nodeWhere(Node, Index, Opset);
    if (!Node.domain().empty() && Node.domain() != "ai.onnx")
      return makeError(Where + ": operator domain '" + Node.domain() +
                       "' is not supported (ai.onnx only)");
    auto It = Table.find(Node.op_type());
    if (It == Table.end())
      return makeError(Where + ": unsupported operator " + Node.op_type());
    for (const std::string &In : Node.input())
      if (!In.empty() && !Values.count(In))
        return makeError(Where + ": input '" + In +
                         "' is not defined before the node");
    Operation *Before = Body->empty() ? nullptr : &Body->back();
    NodeContext C(*this, Node, Index, Opset, B,
                  FileLineColLoc::get(&Ctx, Listing, Index + 1, 1));
    if (failed(It->second(C)) || !Error.empty())
      return makeError(Error.empty() ? Where + ": import failed" : Error);
    for (int I = 0; I != Node.output_size(); ++I) {
      const std::string &Name = Node.output(I);
      if (Name.empty())
        continue;
      const TensorValue *V = lookup(Name);
      if (!V)
        return makeError(Where + ": output " + std::to_string(I) +
                         " is not produced by the importer");
      // What the handler made from the model's sizes, before any other
      // node works with it.
      if (std::optional<std::string> Problem = shapeProblem(V->Shape))
        return makeError(Where + ": output '" + Name + "' of shape " +
                         shapeText(V->Shape) + " " + *Problem);
      if (numpyName(V->Type).empty())
        return makeError(Where + ": output '" + Name + "' has element type " +
                         onnxTypeName(V->Type) +
                         ", which the importer does not take");
      if (V->Const && V->Const->Raw.size() !=
                          uint64_t(V->numElements()) * elemSize(V->Type))
        return makeError(Where + ": output '" + Name +
                         "' is a constant whose data does not match its "
                         "shape (an importer bug)");
    }
    tagNodeOps(*Body, Before, C, Node, Index);
    std::string Line = Node.op_type() + " " + Label + ":";
    for (int I = 0; I != Node.input_size(); ++I)
      Line += (I ? ", " : " ") + Node.input(I);
    Line += " ->";
    for (int I = 0; I != Node.output_size(); ++I)
      Line += (I ? ", " : " ") + Node.output(I);
    Result.Listing.push_back(Line);
  }

  SmallVector<Value> Returned;
  SmallVector<Type> ResultTypes;
  for (const ::onnx::ValueInfoProto &Out : Graph.output()) {
    TensorValue *V = lookup(Out.name());
    if (!V)
      return makeError("output '" + Out.name() + "' is not computed");
    Value R = materialize(*V);
    if (!R)
      return makeError(Error);
    Returned.push_back(R);
    ResultTypes.push_back(R.getType());
    Result.Outputs.push_back(
        {Out.name(), numpyName(V->Type).str(),
         std::vector<int64_t>(V->Shape.begin(), V->Shape.end())});
  }
  B.setInsertionPointToEnd(Body);
  func::ReturnOp::create(B, UnknownLoc::get(&Ctx), Returned);
  Func.setType(B.getFunctionType(ArgTypes, ResultTypes));
  Anchor->erase();
  // The verifier's first diagnostic goes in the error line.
  std::string First;
  ScopedDiagnosticHandler Handler(&Ctx, [&](Diagnostic &D) {
    if (First.empty())
      First = oneLine(D.str());
    return success();
  });
  if (failed(verify(Module)))
    return makeError("the imported module does not verify (an importer "
                     "bug): " +
                     First);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(GraphImporter &G, const ::onnx::NodeProto &Node,
                         int64_t Index, int64_t Opset, OpBuilder &B,
                         Location Loc)
    : G(G), Node(Node), Index(Index), Opset(Opset), B(B), Loc(Loc) {}

StringRef NodeContext::opType() const { return Node.op_type(); }

unsigned NodeContext::numInputs() const { return Node.input_size(); }

bool NodeContext::hasInput(unsigned I) const {
  return I < unsigned(Node.input_size()) && !Node.input(I).empty();
}

const TensorValue &NodeContext::input(unsigned I) const {
  return *G.lookup(Node.input(I));
}

Value NodeContext::value(unsigned I) {
  return G.materialize(*G.lookup(Node.input(I)));
}

const ConstData *NodeContext::constInput(unsigned I) const {
  if (!hasInput(I))
    return nullptr;
  return G.lookup(Node.input(I))->Const.get();
}

unsigned NodeContext::numOutputs() const { return Node.output_size(); }

bool NodeContext::hasOutput(unsigned I) const {
  return I < unsigned(Node.output_size()) && !Node.output(I).empty();
}

const ::onnx::AttributeProto *NodeContext::findAttr(StringRef Name) const {
  for (const ::onnx::AttributeProto &A : Node.attribute())
    if (A.name() == Name)
      return &A;
  return nullptr;
}

bool NodeContext::hasAttr(StringRef Name) const {
  return findAttr(Name) != nullptr;
}

int64_t NodeContext::attrInt(StringRef Name, int64_t Default) const {
  const ::onnx::AttributeProto *A = findAttr(Name);
  return A && A->has_i() ? A->i() : Default;
}

float NodeContext::attrFloat(StringRef Name, float Default) const {
  const ::onnx::AttributeProto *A = findAttr(Name);
  return A && A->has_f() ? A->f() : Default;
}

std::string NodeContext::attrString(StringRef Name, StringRef Default) const {
  const ::onnx::AttributeProto *A = findAttr(Name);
  return A && A->has_s() ? A->s() : Default.str();
}

SmallVector<int64_t, 4> NodeContext::attrInts(StringRef Name) const {
  const ::onnx::AttributeProto *A = findAttr(Name);
  if (!A)
    return {};
  return SmallVector<int64_t, 4>(A->ints().begin(), A->ints().end());
}

SmallVector<float, 4> NodeContext::attrFloats(StringRef Name) const {
  const ::onnx::AttributeProto *A = findAttr(Name);
  if (!A)
    return {};
  return SmallVector<float, 4>(A->floats().begin(), A->floats().end());
}

const ::onnx::TensorProto *NodeContext::attrTensor(StringRef Name) const {
  const ::onnx::AttributeProto *A = findAttr(Name);
  return A && A->has_t() ? &A->t() : nullptr;
}

void NodeContext::setOutput(unsigned I, Value V, int32_t Type) {
  if (!hasOutput(I))
    return;
  TensorValue T;
  T.Type = Type;
  auto RT = cast<RankedTensorType>(V.getType());
  T.Shape.assign(RT.getShape().begin(), RT.getShape().end());
  T.V = V;
  G.define(Node.output(I), T);
}

void NodeContext::setConstOutput(unsigned I, std::shared_ptr<ConstData> C) {
  if (!hasOutput(I))
    return;
  TensorValue T;
  T.Type = C->Type;
  T.Shape = C->Shape;
  T.Const = std::move(C);
  G.define(Node.output(I), T);
}

void NodeContext::forwardInput(unsigned I, unsigned J) {
  if (!hasOutput(I))
    return;
  G.define(Node.output(I), *G.lookup(Node.input(J)));
}

void NodeContext::setWork(int64_t F, int64_t R, int64_t W) {
  Flops = F;
  BytesRead = R;
  BytesWritten = W;
}

LogicalResult NodeContext::error(const llvm::Twine &Message) {
  std::string Label =
      Node.name().empty() ? "#" + std::to_string(Index) : Node.name();
  G.fail(llvm::formatv("node '{0}' ({1}, opset {2}): {3}", Label,
                       Node.op_type(), Opset, Message.str())
             .str());
  return failure();
}

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

void lwp::onnx::loadDialects(MLIRContext &Context) {
  Context.loadDialect<func::FuncDialect, arith::ArithDialect,
                      math::MathDialect, tensor::TensorDialect,
                      linalg::LinalgDialect>();
}

std::vector<std::string> lwp::onnx::supportedOperators() {
  std::vector<std::string> Names;
  for (const auto &E : opTable())
    Names.push_back(E.getKey().str());
  llvm::sort(Names);
  return Names;
}

/// The default domain's opset of \p M, 0 when it imports none.
static int64_t defaultOpset(const ::onnx::ModelProto &M) {
  for (const auto &O : M.opset_import())
    if (O.domain().empty() || O.domain() == "ai.onnx")
      return O.version();
  return 0;
}

/// Writes the inputs' static shapes into \p M's graph, so that shape
/// inference and the version converter see them.
static void fixInputShapes(::onnx::ModelProto &M,
                           ArrayRef<GraphInput> Inputs) {
  std::map<std::string, const GraphInput *> ByName;
  for (const GraphInput &In : Inputs)
    ByName[In.Name] = &In;
  for (::onnx::ValueInfoProto &In : *M.mutable_graph()->mutable_input()) {
    auto It = ByName.find(In.name());
    if (It == ByName.end())
      continue;
    auto *Shape = In.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (int I = 0; I != Shape->dim_size(); ++I)
      Shape->mutable_dim(I)->set_dim_value(It->second->Shape[I]);
  }
}

/// Makes each of Options' constant inputs an initializer of \p M's graph
/// (ImportOptions::ConstantInputs).
static llvm::Error addConstantInputs(::onnx::ModelProto &M,
                                     const ImportOptions &Options) {
  auto *Graph = M.mutable_graph();
  for (const auto &[Name, File] : Options.ConstantInputs) {
    const ::onnx::ValueInfoProto *In = nullptr;
    for (const ::onnx::ValueInfoProto &V : Graph->input())
      if (V.name() == Name)
        In = &V;
    if (!In || !In->type().has_tensor_type())
      return makeError("--constant-input " + Name +
                       ": the graph has no tensor input of that name");
    llvm::Expected<std::shared_ptr<ConstData>> C =
        readTensorFile(File.first, File.second);
    if (!C)
      return C.takeError();
    const auto &TT = In->type().tensor_type();
    if ((*C)->Type != TT.elem_type())
      return makeError("--constant-input " + Name + ": " + File.second +
                       " holds " + onnxTypeName((*C)->Type) +
                       ", the input is " + onnxTypeName(TT.elem_type()));
    bool Fits = !TT.has_shape() ||
                TT.shape().dim_size() == int((*C)->Shape.size());
    for (int I = 0; Fits && TT.has_shape() && I != TT.shape().dim_size(); ++I)
      Fits = !TT.shape().dim(I).has_dim_value() ||
             TT.shape().dim(I).dim_value() <= 0 ||
             TT.shape().dim(I).dim_value() == (*C)->Shape[I];
    if (!Fits)
      return makeError("--constant-input " + Name + ": " + File.second +
                       " has shape " + shapeText((*C)->Shape) +
                       ", which the input's shape does not take");
    ::onnx::TensorProto *T = Graph->add_initializer();
    T->set_name(Name);
    T->set_data_type((*C)->Type);
    for (int64_t D : (*C)->Shape)
      T->add_dims(D);
    T->set_raw_data(std::string((*C)->Raw.begin(), (*C)->Raw.end()));
  }
  return llvm::Error::success();
}

/// True when \p Graph holds an Upsample or a Resize: the version converter
/// makes them opset-13 Resize nodes without the coordinate transformation
/// they had (asymmetric), which would change their results, so such models
/// are imported at their own opset.
static bool holdsResize(const ::onnx::GraphProto &Graph) {
  for (const ::onnx::NodeProto &N : Graph.node())
    if (N.op_type() == "Upsample" || N.op_type() == "Resize")
      return true;
  return false;
}

/// The version converter's target: models before opset 13 move to 13,
/// where Squeeze, Unsqueeze, Split, ReduceSum, Clip, Slice and Pad take
/// their parameters as inputs and Softmax works on one axis.
static constexpr int64_t ConvertTo = 13;

//===----------------------------------------------------------------------===//
// libonnx in a child process
//===----------------------------------------------------------------------===//

// libonnx's checker, shape inference and version converter crash on some
// malformed models (null and out-of-bounds reads, divisions by zero:
// onnx/onnx#6180, #6185, #8036; a Conv whose weights have another rank than
// its input), which the importer cannot all foresee. They run in a child
// process, forked on first use and kept for the models that follow (a fork
// per model costs a sanitized build 100 ms): a request (task, model) and its
// reply (status, bytes) go through a socket pair. A child that dies is one
// error line, and the next request forks another.

namespace {
/// What the child does with a serialized model.
enum class LibonnxTask : char {
  /// onnx::checker::check_model.
  Check = 'C',
  /// Shape inference with data propagation.
  Infer = 'I',
  /// Shape inference, then the version converter to ConvertTo: the reply
  /// is the converted model, empty when the converter fails.
  InferConvert = 'V',
};

class LibonnxChild {
public:
  ~LibonnxChild() { llvm::consumeError(stop()); }
  /// The reply to \p Task on \p Model, or the error: libonnx's message,
  /// or the child's death.
  llvm::Expected<std::string> run(LibonnxTask Task, const std::string &Model);

private:
  pid_t Pid = -1;
  int Socket = -1;
  std::mutex Lock;

  llvm::Error start();
  /// Closes the socket and waits for the child; its death as an error.
  llvm::Error stop();
  [[noreturn]] static void serve(int Socket);
};
} // namespace

static bool sendAll(int Fd, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = send(Fd, Data, Size, MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= N;
  }
  return true;
}

static bool recvAll(int Fd, char *Data, size_t Size) {
  while (Size) {
    ssize_t N = recv(Fd, Data, Size, 0);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= N;
  }
  return true;
}

/// Sends \p Kind, the length of \p Bytes and \p Bytes.
static bool sendMessage(int Fd, char Kind, StringRef Bytes) {
  uint64_t Size = Bytes.size();
  return sendAll(Fd, &Kind, 1) &&
         sendAll(Fd, reinterpret_cast<const char *>(&Size), sizeof(Size)) &&
         sendAll(Fd, Bytes.data(), Bytes.size());
}

static bool recvMessage(int Fd, char &Kind, std::string &Bytes) {
  uint64_t Size;
  if (!recvAll(Fd, &Kind, 1) ||
      !recvAll(Fd, reinterpret_cast<char *>(&Size), sizeof(Size)) ||
      Size > (uint64_t(4) << 30))
    return false;
  Bytes.resize(Size);
  return recvAll(Fd, Bytes.data(), Size);
}

void LibonnxChild::serve(int Socket) {
  // Quiet: a crash ends the child without a sanitizer's or fuzzer's report,
  // and nothing libonnx prints reaches the importer's output.
  for (int Signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(Signal, SIG_DFL);
  int Null = open("/dev/null", O_RDWR);
  if (Null >= 0) {
    dup2(Null, STDOUT_FILENO);
    dup2(Null, STDERR_FILENO);
  }
  char Task;
  std::string Model;
  while (recvMessage(Socket, Task, Model)) {
    ::onnx::ModelProto M;
    std::string Out;
    bool Done = false;
    try {
      if (!M.ParseFromString(Model))
        Out = "the model does not parse in libonnx's process";
      else if (Task == char(LibonnxTask::Check)) {
        try {
          ::onnx::checker::check_model(M);
          Done = true;
        } catch (const std::exception &E) {
          Out = "the model fails the ONNX checker: " + oneLine(E.what());
        }
      } else {
        try {
          // Type checks: every input of a type its operator takes, and
          // the same type where the schema says so (the handlers build
          // their ops from the first input's type). Data propagation:
          // shapes computed by Shape, Slice, Concat ... reach the Reshape
          // they feed (the converter needs them, for Softmax).
          ::onnx::shape_inference::InferShapes(
              M, ::onnx::OpSchemaRegistry::Instance(),
              ::onnx::ShapeInferenceOptions(/*check_type=*/true, 0, true));
          Done = true;
        } catch (const std::exception &E) {
          Out = "ONNX shape inference fails: " + oneLine(E.what());
        }
        // The converter asserts on what it cannot convert; the model is
        // then imported at its own opset (the handlers take the old forms
        // too).
        if (Done && Task == char(LibonnxTask::InferConvert)) {
          try {
            Out = ::onnx::version_conversion::ConvertVersion(M, ConvertTo)
                      .SerializeAsString();
          } catch (const std::exception &E) {
            Out.clear();
          }
        }
      }
    } catch (...) {
      Done = false;
      Out = "libonnx throws an exception that is not a std::exception";
    }
    if (!sendMessage(Socket, Done ? 'S' : 'E', Out))
      break;
  }
  _exit(0);
}

llvm::Error LibonnxChild::start() {
  // libonnx registers its operator schemas on first use: here, once, not in
  // every child.
  (void)::onnx::OpSchemaRegistry::Schema("Relu", ConvertTo, "");
  int Fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds))
    return makeError("cannot make a socket pair for libonnx's process: " +
                     llvm::Twine(strerror(errno)));
  Pid = fork();
  if (Pid < 0) {
    close(Fds[0]);
    close(Fds[1]);
    return makeError("cannot fork libonnx's process: " +
                     llvm::Twine(strerror(errno)));
  }
  if (Pid == 0) {
    close(Fds[0]);
    serve(Fds[1]);
  }
  close(Fds[1]);
  Socket = Fds[0];
  return llvm::Error::success();
}

llvm::Error LibonnxChild::stop() {
  if (Pid < 0)
    return llvm::Error::success();
  close(Socket);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  Pid = -1;
  Socket = -1;
  if (WIFSIGNALED(Status))
    return makeError(llvm::Twine("dies on this model (") +
                     strsignal(WTERMSIG(Status)) +
                     "): a libonnx bug on a malformed model");
  return makeError("ends without a reply");
}

llvm::Expected<std::string> LibonnxChild::run(LibonnxTask Task,
                                              const std::string &Model) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Pid < 0)
    if (llvm::Error E = start())
      return std::move(E);
  char Status;
  std::string Reply;
  if (!sendMessage(Socket, char(Task), Model) ||
      !recvMessage(Socket, Status, Reply)) {
    StringRef What = Task == LibonnxTask::Check
                         ? "the ONNX checker"
                         : "libonnx's shape inference or version converter";
    return makeError(What + " " + toString(stop()));
  }
  if (Status != 'S')
    return makeError(Reply);
  return Reply;
}

/// The child of this process (its first importModel forks it).
static LibonnxChild &libonnxChild() {
  static LibonnxChild Child;
  return Child;
}

static llvm::Expected<ImportResult>
importModelUnescaped(MLIRContext &Context, StringRef Bytes, StringRef Path,
                     const ImportOptions &Options) {
  loadDialects(Context);
  ::onnx::ModelProto M;
  if (Bytes.size() > size_t(INT32_MAX) ||
      !M.ParseFromArray(Bytes.data(), static_cast<int>(Bytes.size())))
    return makeError(Path + ": not an ONNX model (the file does not parse "
                            "as an onnx.ModelProto)");
  if (!M.has_graph())
    return makeError(Path + ": not an ONNX model (no graph)");
  ImportResult Result;
  Result.EntryName = Options.EntryName;
  int64_t Opset = defaultOpset(M);
  Result.OriginalOpset = Opset;
  if (Opset < 7 || Opset > 17)
    return makeError(
        llvm::formatv("{0}: opset {1} of the default domain: the importer "
                      "takes opsets 7 to 17",
                      Path, Opset)
            .str());
  if (llvm::Error E = addConstantInputs(M, Options))
    return std::move(E);
  llvm::Expected<std::string> Checked =
      libonnxChild().run(LibonnxTask::Check, M.SerializeAsString());
  if (!Checked)
    return makeError(Path + ": " + toString(Checked.takeError()));
  if (llvm::Error E = checkOperators(M.graph(), Opset))
    return std::move(E);
  llvm::Expected<std::vector<GraphInput>> Inputs =
      resolveInputs(M.graph(), Options);
  if (!Inputs)
    return Inputs.takeError();
  if (llvm::Error E = checkAttributes(M.graph(), Opset))
    return std::move(E);
  fixInputShapes(M, *Inputs);
  // Shape inference checks the model (and the shapes given to it); the
  // converter needs its shapes. The converted model comes back, nothing
  // when there is none.
  bool Convert = Opset < ConvertTo && !holdsResize(M.graph());
  llvm::Expected<std::string> Converted = libonnxChild().run(
      Convert ? LibonnxTask::InferConvert : LibonnxTask::Infer,
      M.SerializeAsString());
  if (!Converted)
    return makeError(Path + ": " + toString(Converted.takeError()));
  if (!Converted->empty()) {
    if (!M.ParseFromString(*Converted))
      return makeError(Path + ": the converted model does not parse");
    Opset = ConvertTo;
  }
  Result.Opset = Opset;
  std::string Listing =
      Options.ListingName.empty() ? Path.str() : Options.ListingName;
  GraphImporter G(Context, Options, Listing, Opset);
  if (llvm::Error E = G.run(M.graph(), *Inputs, Result))
    return std::move(E);
  return std::move(Result);
}

llvm::Expected<ImportResult>
lwp::onnx::importModel(MLIRContext &Context, StringRef Bytes, StringRef Path,
                       const ImportOptions &Options) {
  // One line whatever the model's names hold.
  llvm::Expected<ImportResult> Result =
      importModelUnescaped(Context, Bytes, Path, Options);
  if (!Result)
    return makeError(escapeControls(toString(Result.takeError())));
  return Result;
}

llvm::Error lwp::onnx::parseInputShape(StringRef Text,
                                       ImportOptions &Options) {
  auto [Name, Dims] = Text.rsplit('=');
  if (!Text.contains('=') || Name.empty())
    return makeError("--input-shape " + Text +
                     ": expected NAME=D0,D1,... (an empty list for a scalar)");
  std::vector<int64_t> Shape;
  SmallVector<StringRef> Parts;
  if (!Dims.empty())
    Dims.split(Parts, ',');
  for (StringRef P : Parts) {
    int64_t D;
    if (P.trim().getAsInteger(10, D) || D <= 0)
      return makeError("--input-shape " + Text + ": '" + P +
                       "' is not a positive dimension");
    Shape.push_back(D);
  }
  Options.InputShapes[Name.str()] = Shape;
  return llvm::Error::success();
}
