//===- lwp-import-onnx.cpp - ONNX model to MLIR ---------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
//   lwp-import-onnx MODEL.onnx -o MODEL.mlir [--input-shape NAME=D0,D1,...]
//                   [--signature SIG.json] [--node-listing LIST.txt]
//   lwp-import-onnx --convert-tensor INPUT.pb -o INPUT.npy
//   lwp-import-onnx --list-operators
//
// docs/onnx.md describes the module, the signature and the listing.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/ONNX/Importer.h"
#include "lwp/Support/InputFile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory Category("lwp-import-onnx options");
static cl::opt<std::string> Input(cl::Positional, cl::desc("<model.onnx>"),
                                  cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Output file (default: -)"),
                                   cl::value_desc("path"), cl::init("-"),
                                   cl::cat(Category));
static cl::list<std::string>
    InputShapes("input-shape",
                cl::desc("Static dimensions of a graph input (repeatable)"),
                cl::value_desc("NAME=D0,D1,..."), cl::cat(Category));
static cl::list<std::string> ConstantInputs(
    "constant-input",
    cl::desc("A graph input whose value is known at import (a .npy or an "
             "onnx.TensorProto .pb): it becomes an initializer, folded into "
             "the shapes it sets, and no argument of the entry point "
             "(repeatable)"),
    cl::value_desc("NAME=FILE"), cl::cat(Category));
static cl::opt<std::string>
    SignatureFile("signature",
                  cl::desc("Write the entry point's inputs and outputs as "
                           "JSON (names, numpy dtypes, shapes)"),
                  cl::value_desc("path"), cl::cat(Category));
static cl::opt<std::string> ListingFile(
    "node-listing",
    cl::desc("Write one line per node (line k+1: node k); the MLIR "
             "locations name this file, so lwp-report's HTML source view "
             "shows the nodes with their cycles"),
    cl::value_desc("path"), cl::cat(Category));
static cl::opt<std::string> Entry("entry",
                                  cl::desc("Entry function's name"),
                                  cl::init("main_graph"), cl::cat(Category));
static cl::opt<bool> ConvertTensor(
    "convert-tensor",
    cl::desc("Convert the input (an onnx.TensorProto .pb or a .npy) to .npy"),
    cl::cat(Category));
static cl::opt<bool> ListOperators("list-operators",
                                   cl::desc("Print the supported operators"),
                                   cl::cat(Category));

static int fail(const Twine &Message) {
  errs() << "lwp-import-onnx: error: " << Message << "\n";
  return 1;
}

/// Writes \p Text to \p Path through a temporary file and a rename (stdout
/// for "-"); in place, through it, when \p Path is a symbolic link or not a
/// regular file (/dev/stdout, a pipe), which the rename would replace.
static Error writeFile(StringRef Path, StringRef Text) {
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return Error::success();
  }
  sys::fs::file_status Status;
  if (!sys::fs::status(Path, Status, /*Follow=*/false) &&
      sys::fs::exists(Status) && !sys::fs::is_regular_file(Status)) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (EC)
      return errorCodeToError(EC);
    OS << Text;
    OS.close();
    return errorCodeToError(OS.error());
  }
  return writeToOutput(Path, [&](raw_ostream &OS) {
    OS << Text;
    return Error::success();
  });
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "lwp-import-onnx: an ONNX model (opsets 7 to 17) to MLIR on tensors "
      "for LWP's pipelines\n");
  if (ListOperators) {
    for (const std::string &Name : lwp::onnx::supportedOperators())
      outs() << Name << "\n";
    return 0;
  }
  if (Input.empty())
    return fail("no input file (lwp-import-onnx MODEL.onnx -o OUT.mlir)");
  // Models up to 2 GiB, protobuf's limit for one message.
  auto Buffer = lwp::readInputFile(Input, ConvertTensor ? "tensor" : "model",
                                   uint64_t(2) << 30);
  if (!Buffer)
    return fail(toString(Buffer.takeError()));
  std::string Bytes = (*Buffer)->getBuffer().str();
  if (ConvertTensor) {
    Expected<std::string> Npy = lwp::onnx::convertTensorToNpy(Bytes, Input);
    if (!Npy)
      return fail(toString(Npy.takeError()));
    if (Error E = writeFile(Output, *Npy))
      return fail(Output + ": " + toString(std::move(E)));
    return 0;
  }
  lwp::onnx::ImportOptions Options;
  Options.EntryName = Entry;
  for (const std::string &Shape : InputShapes)
    if (Error E = lwp::onnx::parseInputShape(Shape, Options))
      return fail(toString(std::move(E)));
  for (const std::string &Spec : ConstantInputs) {
    auto [Name, File] = StringRef(Spec).split('=');
    if (Name.empty() || File.empty())
      return fail("--constant-input " + Spec + ": expected NAME=FILE");
    auto Tensor = lwp::readInputFile(File, "--constant-input",
                                     uint64_t(2) << 30);
    if (!Tensor)
      return fail(toString(Tensor.takeError()));
    Options.ConstantInputs[Name.str()] = {(*Tensor)->getBuffer().str(),
                                          File.str()};
  }
  Options.ListingName = ListingFile.empty()
                            ? sys::path::filename(Input).str()
                            : sys::path::filename(ListingFile).str();
  mlir::MLIRContext Context;
  Context.printOpOnDiagnostic(false);
  Expected<lwp::onnx::ImportResult> Result =
      lwp::onnx::importModel(Context, Bytes, Input, Options);
  if (!Result)
    return fail(toString(Result.takeError()));
  std::string Text;
  raw_string_ostream OS(Text);
  Result->Module->print(OS, mlir::OpPrintingFlags().enableDebugInfo());
  if (Error E = writeFile(Output, Text))
    return fail(Output + ": " + toString(std::move(E)));
  if (!SignatureFile.empty()) {
    auto Tensors = [](const std::vector<lwp::onnx::TensorSignature> &List) {
      json::Array A;
      for (const auto &T : List)
        A.push_back(json::Object{{"name", T.Name},
                                 {"dtype", T.DType},
                                 {"shape", json::Array(T.Shape)}});
      return A;
    };
    json::Object Sig{{"entry", Result->EntryName},
                     {"opset", Result->Opset},
                     {"model_opset", Result->OriginalOpset},
                     {"inputs", Tensors(Result->Inputs)},
                     {"outputs", Tensors(Result->Outputs)}};
    std::string J;
    raw_string_ostream JS(J);
    JS << formatv("{0:2}", json::Value(std::move(Sig))) << "\n";
    if (Error E = writeFile(SignatureFile, J))
      return fail(SignatureFile + ": " + toString(std::move(E)));
  }
  if (!ListingFile.empty()) {
    std::string L;
    for (const std::string &Line : Result->Listing)
      L += Line + "\n";
    if (Error E = writeFile(ListingFile, L))
      return fail(ListingFile + ": " + toString(std::move(E)));
  }
  return 0;
}
