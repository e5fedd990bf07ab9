//===- RunnerEntry.cpp - An mlir-runner entry as the program's main -------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// lwp-runner-entry: gives a module written for mlir-runner (an entry
// function without arguments that returns nothing or a result to print) a C
// main whose exit status is 0, as mlir-runner's own.
//
//===----------------------------------------------------------------------===//

#include "lwp/Frontend/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace lwp {
#define GEN_PASS_DEF_LWPRUNNERENTRY
#include "lwp/Frontend/Passes.h.inc"
} // namespace lwp

using namespace mlir;

namespace {
/// The runner utility that prints a result of type \p Type and the type of
/// its argument (mlir-runner's -entry-point-result=i32|i64|f32); empty for a
/// type the runner does not print.
std::pair<StringRef, Type> printerFor(Type Ty) {
  if (Ty.isInteger(32) || Ty.isInteger(64))
    return {"printI64", IntegerType::get(Ty.getContext(), 64)};
  if (Ty.isF32())
    return {"printF32", Ty};
  return {};
}

class RunnerEntryPass : public lwp::impl::LWPRunnerEntryBase<RunnerEntryPass> {
public:
  using LWPRunnerEntryBase::LWPRunnerEntryBase;

  void runOnOperation() override {
    ModuleOp Module = getOperation();
    auto Entry = Module.lookupSymbol<func::FuncOp>(entry);
    if (!Entry || Entry.isExternal())
      return;
    FunctionType Type = Entry.getFunctionType();
    if (Type.getNumInputs() != 0 || Type.getNumResults() > 1 ||
        (Type.getNumResults() == 1 && !printerFor(Type.getResult(0)).second)) {
      Entry.emitError() << "entry function @" << entry << " has type " << Type
                        << "; an mlir-runner entry takes no arguments and "
                           "returns nothing, i32, i64 or f32";
      return signalPassFailure();
    }
    if (entry == "main") {
      if (std::optional<SymbolTable::UseRange> Uses =
              SymbolTable::getSymbolUses(Entry, Module);
          Uses && !Uses->empty()) {
        Uses->begin()->getUser()->emitError()
            << "@main is the program's entry: the module must not call it";
        return signalPassFailure();
      }
      rewriteMain(Entry);
      return;
    }
    if (Operation *Main = Module.lookupSymbol("main")) {
      Main->emitError() << "@main beside the entry function @" << entry
                        << ": rename one of them";
      return signalPassFailure();
    }
    addMain(Module, Entry);
  }

private:
  /// Declares the runner utility \p Name (external, private) taking
  /// \p Args.
  func::FuncOp declare(ModuleOp Module, StringRef Name, TypeRange Args) {
    if (auto Existing = Module.lookupSymbol<func::FuncOp>(Name))
      return Existing;
    OpBuilder B = OpBuilder::atBlockEnd(Module.getBody());
    auto Decl = func::FuncOp::create(B, Module.getLoc(), Name,
                                     B.getFunctionType(Args, {}));
    Decl.setPrivate();
    return Decl;
  }

  /// At \p B's insertion point: prints \p Result as mlir-runner does (when
  /// there is one) and returns the exit status 0.
  void printAndReturnZero(OpBuilder &B, Location Loc, ModuleOp Module,
                          Value Result) {
    if (Result) {
      auto [Name, ArgType] = printerFor(Result.getType());
      Value Arg = Result;
      if (ArgType != Result.getType())
        Arg = arith::ExtSIOp::create(B, Loc, ArgType, Result);
      func::CallOp::create(B, Loc, declare(Module, Name, ArgType),
                           ValueRange{Arg});
      func::CallOp::create(B, Loc, declare(Module, "printNewline", {}),
                           ValueRange{});
    }
    Value Zero = arith::ConstantIntOp::create(B, Loc, B.getI32Type(), 0);
    func::ReturnOp::create(B, Loc, Zero);
  }

  /// @main returns i32 0 after printing its result, if any.
  void rewriteMain(func::FuncOp Main) {
    ModuleOp Module = getOperation();
    SmallVector<func::ReturnOp, 2> Returns;
    Main.walk([&](func::ReturnOp Return) { Returns.push_back(Return); });
    for (func::ReturnOp Return : Returns) {
      OpBuilder B(Return);
      Value Result = Return.getNumOperands() ? Return.getOperand(0) : Value();
      printAndReturnZero(B, Return.getLoc(), Module, Result);
      Return.erase();
    }
    OpBuilder B(Main);
    Main.setFunctionType(B.getFunctionType({}, B.getI32Type()));
  }

  /// A new @main calls \p Entry, prints its result, if any, and returns 0.
  void addMain(ModuleOp Module, func::FuncOp Entry) {
    OpBuilder B = OpBuilder::atBlockEnd(Module.getBody());
    Location Loc = Entry.getLoc();
    auto Main = func::FuncOp::create(B, Loc, "main",
                                     B.getFunctionType({}, B.getI32Type()));
    B.setInsertionPointToStart(Main.addEntryBlock());
    auto Call = func::CallOp::create(B, Loc, Entry, ValueRange{});
    printAndReturnZero(B, Loc, Module,
                       Call.getNumResults() ? Call.getResult(0) : Value());
  }
};
} // namespace
