//===- TensorIO.cpp - ONNX TensorProto and .npy files ---------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// .npy: numpy's format (NEP 1, "A simple file format for NumPy arrays"):
// the magic "\x93NUMPY", a version, a little-endian header length, a Python
// dict literal (descr, fortran_order, shape) padded with spaces to a multiple
// of 64 bytes and ended by '\n', then the data.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/ONNX/Importer.h"

#include "NodeImporter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <onnx/onnx_pb.h>

using namespace lwp::onnx;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// numpy's descr of \p Type ('<f4', '|u1', '|b1' ...).
static std::string npyDescr(int32_t Type) {
  switch (Type) {
  case Float:
    return "<f4";
  case Double:
    return "<f8";
  case Int64:
    return "<i8";
  case Int32:
    return "<i4";
  case Int16:
    return "<i2";
  case Int8:
    return "|i1";
  case UInt8:
    return "|u1";
  case UInt16:
    return "<u2";
  case UInt32:
    return "<u4";
  case UInt64:
    return "<u8";
  case Bool:
    return "|b1";
  default:
    return "";
  }
}

static std::string writeNpy(int32_t Type, llvm::ArrayRef<int64_t> Shape,
                            StringRef Data) {
  std::string Dict = "{'descr': '" + npyDescr(Type) +
                     "', 'fortran_order': False, 'shape': (";
  for (int64_t D : Shape)
    Dict += std::to_string(D) + (Shape.size() == 1 ? "," : ", ");
  if (Shape.size() > 1)
    Dict.resize(Dict.size() - 2);
  Dict += "), }";
  // Version 2.0 (a 32-bit header length) when 16 bits do not hold the
  // header, as numpy does: tensors of thousands of dimensions.
  bool Long = Dict.size() + 64 > 0xffff;
  size_t Total = (Long ? 12 : 10) + Dict.size() + 1;
  Dict.append((64 - Total % 64) % 64, ' ');
  Dict += '\n';
  std::string Out(Long ? "\x93NUMPY\x02\x00" : "\x93NUMPY\x01\x00", 8);
  for (unsigned I = 0; I != (Long ? 4u : 2u); ++I)
    Out += char(Dict.size() >> (8 * I) & 0xff);
  Out += Dict;
  Out += Data.str();
  return Out;
}

llvm::Expected<std::shared_ptr<ConstData>>
lwp::onnx::readTensorFile(StringRef Bytes, StringRef Path) {
  if (Bytes.starts_with("\x93NUMPY")) {
    // Already .npy: checked and kept as it is (version 1.0 rewritten).
    if (Bytes.size() < 10)
      return makeError(Path + ": truncated .npy header");
    unsigned Major = static_cast<unsigned char>(Bytes[6]);
    size_t HeaderLen, Start;
    if (Major == 1) {
      HeaderLen = static_cast<unsigned char>(Bytes[8]) |
                  static_cast<unsigned char>(Bytes[9]) << 8;
      Start = 10;
    } else {
      if (Bytes.size() < 12)
        return makeError(Path + ": truncated .npy header");
      HeaderLen = 0;
      for (int I = 3; I >= 0; --I)
        HeaderLen = HeaderLen << 8 | static_cast<unsigned char>(Bytes[8 + I]);
      Start = 12;
    }
    if (Bytes.size() < Start + HeaderLen)
      return makeError(Path + ": truncated .npy header");
    StringRef Header = Bytes.substr(Start, HeaderLen);
    llvm::SmallVector<StringRef, 4> M;
    if (!llvm::Regex("'descr': *'([<|>]?[a-z][0-9]+)'").match(Header, &M))
      return makeError(Path + ": .npy header without a descr");
    std::string Descr = M[1].str();
    int32_t Type = Undefined;
    for (int32_t T : {Float, Double, Int64, Int32, Int16, Int8, UInt8, UInt16,
                      UInt32, UInt64, Bool})
      if (npyDescr(T) == Descr ||
          (Descr.size() == 2 && npyDescr(T).substr(1) == Descr))
        Type = T;
    if (!Type)
      return makeError(Path + ": .npy element type '" + Descr +
                       "' is not taken (little-endian numbers and bool)");
    if (Header.contains("'fortran_order': True"))
      return makeError(Path + ": .npy in Fortran order is not taken");
    if (!llvm::Regex("'shape': *\\(([0-9, ]*)\\)").match(Header, &M))
      return makeError(Path + ": .npy header without a shape");
    llvm::SmallVector<int64_t, 4> Shape;
    llvm::SmallVector<StringRef, 4> Parts;
    M[1].split(Parts, ',', -1, false);
    for (StringRef P : Parts) {
      int64_t D;
      if (P.trim().empty())
        continue;
      if (P.trim().getAsInteger(10, D) || D < 0)
        return makeError(Path + ": .npy shape is not a list of sizes");
      Shape.push_back(D);
    }
    uint64_t Size = elemSize(Type);
    for (int64_t D : Shape)
      if (__builtin_mul_overflow(Size, uint64_t(D), &Size))
        return makeError(Path + ": .npy shape is too large");
    StringRef Data = Bytes.substr(Start + HeaderLen);
    if (Data.size() != Size)
      return makeError(Path + ": .npy data is " + llvm::Twine(Data.size()) +
                       " bytes where its shape needs " + llvm::Twine(Size));
    auto C = std::make_shared<ConstData>();
    C->Type = Type;
    C->Shape = Shape;
    C->Raw.assign(Data.begin(), Data.end());
    return C;
  }
  ::onnx::TensorProto T;
  if (Bytes.size() > size_t(INT32_MAX) ||
      !T.ParseFromArray(Bytes.data(), static_cast<int>(Bytes.size())))
    return makeError(Path + ": neither a .npy file nor an onnx.TensorProto");
  if (!T.has_data_type())
    return makeError(Path + ": not an onnx.TensorProto (no data type)");
  std::string Error;
  std::shared_ptr<ConstData> C = readTensorProto(T, Error);
  if (!C)
    return makeError(Path + ": " + Error);
  return C;
}

llvm::Expected<std::string> lwp::onnx::convertTensorToNpy(StringRef Bytes,
                                                          StringRef Path) {
  llvm::Expected<std::shared_ptr<ConstData>> C = readTensorFile(Bytes, Path);
  if (!C)
    return C.takeError();
  return writeNpy((*C)->Type, (*C)->Shape,
                  StringRef((*C)->Raw.data(), (*C)->Raw.size()));
}
