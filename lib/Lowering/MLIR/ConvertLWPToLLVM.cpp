//===- ConvertLWPToLLVM.cpp - convert-lwp-to-llvm -------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Lowering/Passes.h"
#include "lwp/Lowering/ProbeTarget.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace lwp {
#define GEN_PASS_DEF_CONVERTLWPTOLLVM
#include "lwp/Lowering/Passes.h.inc"
} // namespace lwp

using namespace mlir;
using namespace lwp;

namespace {
class ConvertLWPToLLVMPass
    : public lwp::impl::ConvertLWPToLLVMBase<ConvertLWPToLLVMPass> {
public:
  using ConvertLWPToLLVMBase::ConvertLWPToLLVMBase;
  void runOnOperation() override;

private:
  /// The target from the option, else from the module's triple.
  FailureOr<ProbeTarget> resolveTarget(ModuleOp Module);
  /// Returns the symbol to call for a start (or end) probe, declaring it (and
  /// on Hexagon its name string) on first use.
  FlatSymbolRefAttr getHandler(ModuleOp Module, ProbeTarget Target, bool IsEnd);
  /// Replaces \p Probe by its handler call.
  void lowerProbe(Operation *Probe, uint32_t Id, bool IsEnd, ProbeTarget Target,
                  FlatSymbolRefAttr Handler);
  /// Emits the map as a constant in the lwp_map section; drops the attribute.
  LogicalResult emitMapSection(ModuleOp Module);

  FlatSymbolRefAttr Handlers[2];
};
} // namespace

FailureOr<ProbeTarget> ConvertLWPToLLVMPass::resolveTarget(ModuleOp Module) {
  if (!target.empty()) {
    llvm::Expected<ProbeTarget> T = parseProbeTarget(target);
    if (!T)
      return emitError(Module.getLoc())
             << "convert-lwp-to-llvm: " << llvm::toString(T.takeError());
    return *T;
  }
  auto Triple = Module->getAttrOfType<StringAttr>(
      LLVM::LLVMDialect::getTargetTripleAttrName());
  if (!Triple)
    return emitError(Module.getLoc())
           << "convert-lwp-to-llvm: no target given and the module has no '"
           << LLVM::LLVMDialect::getTargetTripleAttrName()
           << "' (supported targets: " << supportedProbeTargets() << ")";
  llvm::Expected<ProbeTarget> T =
      probeTargetFromTriple(llvm::Triple(Triple.getValue()));
  if (!T)
    return emitError(Module.getLoc())
           << "convert-lwp-to-llvm: " << llvm::toString(T.takeError());
  return *T;
}

FlatSymbolRefAttr ConvertLWPToLLVMPass::getHandler(ModuleOp Module,
                                                   ProbeTarget Target,
                                                   bool IsEnd) {
  if (Handlers[IsEnd])
    return Handlers[IsEnd];
  MLIRContext *Ctx = Module.getContext();
  StringRef Name = IsEnd ? ProbeEndHandler : ProbeStartHandler;
  OpBuilder B = OpBuilder::atBlockBegin(Module.getBody());
  SymbolTable Symbols(Module);
  if (Target == ProbeTarget::Hexagon) {
    // The intrinsic takes the handler's name as a C string constant.
    std::string Str = (Name + Twine('\0')).str();
    auto Type = LLVM::LLVMArrayType::get(IntegerType::get(Ctx, 8), Str.size());
    std::string Sym = handlerNameGlobal(Name);
    if (!Symbols.lookup(Sym))
      LLVM::GlobalOp::create(B, Module.getLoc(), Type, /*isConstant=*/true,
                             LLVM::Linkage::Internal, Sym,
                             B.getStringAttr(Str));
    Handlers[IsEnd] = FlatSymbolRefAttr::get(Ctx, Sym);
    return Handlers[IsEnd];
  }
  if (!Symbols.lookup(Name)) {
    auto FnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(Ctx),
                                              {IntegerType::get(Ctx, 32)});
    auto Fn = LLVM::LLVMFuncOp::create(B, Module.getLoc(), Name, FnType,
                                       LLVM::Linkage::External);
    Fn.setCConv(LLVM::CConv::PreserveAll);
    Fn.setNoUnwind(true);
    Fn.setWillReturn(true);
    Fn.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
        Ctx, {LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::NoModRef,
              LLVM::ModRefInfo::ModRef, LLVM::ModRefInfo::NoModRef,
              LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::NoModRef}));
  }
  Handlers[IsEnd] = FlatSymbolRefAttr::get(Ctx, Name);
  return Handlers[IsEnd];
}

void ConvertLWPToLLVMPass::lowerProbe(Operation *Probe, uint32_t Id, bool IsEnd,
                                      ProbeTarget Target,
                                      FlatSymbolRefAttr Handler) {
  OpBuilder B(Probe);
  Location Loc = Probe->getLoc();
  MLIRContext *Ctx = B.getContext();
  Value IdValue =
      LLVM::ConstantOp::create(B, Loc, B.getI32Type(), B.getI32IntegerAttr(Id));
  if (Target == ProbeTarget::Hexagon) {
    Value Name = LLVM::AddressOfOp::create(
        B, Loc, LLVM::LLVMPointerType::get(Ctx), Handler);
    LLVM::CallIntrinsicOp::create(B, Loc,
                                  B.getStringAttr(HexagonProbeIntrinsic),
                                  ValueRange{Name, IdValue});
  } else {
    auto Call =
        LLVM::CallOp::create(B, Loc, TypeRange(), Handler, ValueRange{IdValue});
    Call.setCConv(LLVM::CConv::PreserveAll);
    Call.setTailCallKind(LLVM::TailCallKind::NoTail);
  }
  Probe->erase();
}

LogicalResult ConvertLWPToLLVMPass::emitMapSection(ModuleOp Module) {
  FailureOr<InstrumentationMap> Map = getInstrumentationMap(Module);
  if (failed(Map))
    return failure();
  Module->removeAttr(LWPDialect::getInstrumentationMapAttrName());
  if (Map->empty())
    return success();
  llvm::SmallVector<char> Blob;
  Map->writeBlob(Blob);
  StringRef Bytes(Blob.data(), Blob.size());
  // A defined, hidden, external symbol survives global DCE in every module;
  // the first ID and a hash of the blob keep the names of modules apart.
  std::string Sym = mapGlobalName(Map->entries().front().Id, Bytes);
  MLIRContext *Ctx = Module.getContext();
  OpBuilder B = OpBuilder::atBlockEnd(Module.getBody());
  auto Type = LLVM::LLVMArrayType::get(IntegerType::get(Ctx, 8), Bytes.size());
  auto Global =
      LLVM::GlobalOp::create(B, Module.getLoc(), Type,
                             /*isConstant=*/true, LLVM::Linkage::External, Sym,
                             B.getStringAttr(Bytes), /*alignment=*/8);
  Global.setSection(InstrumentationMapSection);
  Global.setVisibility_(LLVM::Visibility::Hidden);

  // @llvm.compiler.used keeps the map through LTO's internalization and
  // global DCE, as the LLVM lowering does. A module that defines its own list
  // keeps it (the hidden external symbol still survives non-LTO builds).
  if (SymbolTable::lookupSymbolIn(Module, "llvm.compiler.used"))
    return success();
  auto PtrType = LLVM::LLVMPointerType::get(Ctx);
  auto UsedType = LLVM::LLVMArrayType::get(PtrType, 1);
  auto Used =
      LLVM::GlobalOp::create(B, Module.getLoc(), UsedType,
                             /*isConstant=*/false, LLVM::Linkage::Appending,
                             "llvm.compiler.used", Attribute());
  Used.setSection(StringRef("llvm.metadata"));
  Block *Init = B.createBlock(&Used.getInitializerRegion());
  B.setInsertionPointToStart(Init);
  Value Address = LLVM::AddressOfOp::create(B, Module.getLoc(), PtrType,
                                            Global.getSymName());
  Value Array = LLVM::UndefOp::create(B, Module.getLoc(), UsedType);
  Array = LLVM::InsertValueOp::create(B, Module.getLoc(), Array, Address,
                                      ArrayRef<int64_t>{0});
  LLVM::ReturnOp::create(B, Module.getLoc(), Array);
  return success();
}

void ConvertLWPToLLVMPass::runOnOperation() {
  ModuleOp Module = getOperation();
  FailureOr<ProbeTarget> Target = resolveTarget(Module);
  if (failed(Target))
    return signalPassFailure();
  Handlers[0] = Handlers[1] = nullptr;

  SmallVector<Operation *> Probes;
  Module.walk([&](Operation *Op) {
    if (isa<ProbeStartOp, ProbeEndOp>(Op))
      Probes.push_back(Op);
  });
  for (Operation *Probe : Probes) {
    bool IsEnd = isa<ProbeEndOp>(Probe);
    uint32_t Id = IsEnd ? cast<ProbeEndOp>(Probe).getId()
                        : cast<ProbeStartOp>(Probe).getId();
    lowerProbe(Probe, Id, IsEnd, *Target, getHandler(Module, *Target, IsEnd));
  }
  if (failed(emitMapSection(Module)))
    return signalPassFailure();
}
