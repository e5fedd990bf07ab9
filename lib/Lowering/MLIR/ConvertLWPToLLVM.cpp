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
  /// Declares the host handler \p Name (void(ptr), hidden, dso_local,
  /// preserve_all, nounwind, willreturn) on first use.
  FlatSymbolRefAttr getHostHandler(ModuleOp Module, StringRef Name);
  /// Replaces \p Probe by its handler call with the address of slot \p Id.
  void lowerProbe(Operation *Probe, uint32_t Id, bool IsEnd, ProbeTarget Target,
                  LLVM::GlobalOp Map, uint32_t SlotsOffset);
  /// Emits the map blob and its slots as an internal global in the lwp_map
  /// section, kept by @llvm.compiler.used. Returns the global.
  LLVM::GlobalOp emitMapGlobal(ModuleOp Module, const InstrumentationMap &Map,
                               uint32_t &SlotsOffset);
  /// Emits @__lwp_module_ctor, which registers \p Map, in llvm.global_ctors.
  void emitModuleCtor(ModuleOp Module, LLVM::GlobalOp Map);

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

FlatSymbolRefAttr ConvertLWPToLLVMPass::getHostHandler(ModuleOp Module,
                                                       StringRef Name) {
  MLIRContext *Ctx = Module.getContext();
  if (!SymbolTable::lookupSymbolIn(Module, Name)) {
    OpBuilder B = OpBuilder::atBlockBegin(Module.getBody());
    auto FnType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(Ctx), {LLVM::LLVMPointerType::get(Ctx)});
    auto Fn = LLVM::LLVMFuncOp::create(B, Module.getLoc(), Name, FnType,
                                       LLVM::Linkage::External);
    Fn.setCConv(LLVM::CConv::PreserveAll);
    Fn.setNoUnwind(true);
    Fn.setWillReturn(true);
    // Hidden: each image with probes links its own runtime copy, so calls
    // bind in the image, never through a lazily bound PLT entry whose
    // resolver would break preserve_all (see the LLVM lowering).
    Fn.setVisibility_(LLVM::Visibility::Hidden);
    Fn.setDsoLocal(true);
    Fn.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
        Ctx, {LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::Ref,
              LLVM::ModRefInfo::ModRef, LLVM::ModRefInfo::NoModRef,
              LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::NoModRef}));
  }
  return FlatSymbolRefAttr::get(Ctx, Name);
}

void ConvertLWPToLLVMPass::lowerProbe(Operation *Probe, uint32_t Id, bool IsEnd,
                                      ProbeTarget Target, LLVM::GlobalOp Map,
                                      uint32_t SlotsOffset) {
  OpBuilder B(Probe);
  Location Loc = Probe->getLoc();
  MLIRContext *Ctx = B.getContext();
  auto PtrType = LLVM::LLVMPointerType::get(Ctx);
  Value Base = LLVM::AddressOfOp::create(B, Loc, PtrType, Map.getSymName());
  Value Slot = LLVM::GEPOp::create(B, Loc, PtrType, B.getI8Type(), Base,
                                   ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(
                                       SlotsOffset + Id * RegionSlotSize)},
                                   LLVM::GEPNoWrapFlags::inbounds);
  if (Target == ProbeTarget::Hexagon) {
    LLVM::InlineAsmOp::create(B, Loc, TypeRange(), ValueRange{Slot},
                              hexagonProbeAsm(IsEnd), HexagonProbeConstraints,
                              /*has_side_effects=*/true,
                              /*is_align_stack=*/false,
                              LLVM::tailcallkind::TailCallKind::None,
                              LLVM::AsmDialectAttr(), ArrayAttr());
  } else {
    FlatSymbolRefAttr &Handler = Handlers[IsEnd];
    if (!Handler)
      Handler = getHostHandler(Probe->getParentOfType<ModuleOp>(),
                               IsEnd ? ProbeEndHandler : ProbeStartHandler);
    auto Call =
        LLVM::CallOp::create(B, Loc, TypeRange(), Handler, ValueRange{Slot});
    Call.setCConv(LLVM::CConv::PreserveAll);
    Call.setTailCallKind(LLVM::TailCallKind::NoTail);
  }
  Probe->erase();
}

LLVM::GlobalOp ConvertLWPToLLVMPass::emitMapGlobal(
    ModuleOp Module, const InstrumentationMap &Map, uint32_t &SlotsOffset) {
  llvm::SmallVector<char> Blob;
  SlotsOffset = Map.writeBlob(Blob);
  StringRef Bytes(Blob.data(), Blob.size());
  MLIRContext *Ctx = Module.getContext();
  OpBuilder B = OpBuilder::atBlockEnd(Module.getBody());
  auto Type = LLVM::LLVMArrayType::get(IntegerType::get(Ctx, 8), Bytes.size());
  StringRef ModuleName = Module.getSymName() ? *Module.getSymName() : "";
  auto Global = LLVM::GlobalOp::create(
      B, Module.getLoc(), Type, /*isConstant=*/false, LLVM::Linkage::Internal,
      mapGlobalName(ModuleName, Bytes), B.getStringAttr(Bytes),
      /*alignment=*/RegionSlotAlign);
  Global.setSection(InstrumentationMapSection);

  // @llvm.compiler.used keeps the map through LTO's internalization and
  // global DCE, as the LLVM lowering does. A module that defines its own list
  // keeps it (the probes and the constructor still reference the map).
  if (SymbolTable::lookupSymbolIn(Module, "llvm.compiler.used"))
    return Global;
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
  return Global;
}

void ConvertLWPToLLVMPass::emitModuleCtor(ModuleOp Module, LLVM::GlobalOp Map) {
  MLIRContext *Ctx = Module.getContext();
  Location Loc = Module.getLoc();
  auto Void = LLVM::LLVMVoidType::get(Ctx);
  auto PtrType = LLVM::LLVMPointerType::get(Ctx);
  OpBuilder B = OpBuilder::atBlockEnd(Module.getBody());
  if (!SymbolTable::lookupSymbolIn(Module, RegisterModuleName))
    LLVM::LLVMFuncOp::create(B, Loc, RegisterModuleName,
                             LLVM::LLVMFunctionType::get(Void, {PtrType}),
                             LLVM::Linkage::External);
  auto Ctor = LLVM::LLVMFuncOp::create(B, Loc, ModuleCtorName,
                                       LLVM::LLVMFunctionType::get(Void, {}),
                                       LLVM::Linkage::Internal);
  Ctor.setNoUnwind(true);
  Block *Body = Ctor.addEntryBlock(B);
  B.setInsertionPointToStart(Body);
  Value Address = LLVM::AddressOfOp::create(B, Loc, PtrType, Map.getSymName());
  LLVM::CallOp::create(B, Loc, TypeRange(),
                       FlatSymbolRefAttr::get(Ctx, RegisterModuleName),
                       ValueRange{Address});
  LLVM::ReturnOp::create(B, Loc, ValueRange());

  // Append to the module's llvm.mlir.global_ctors, or create it.
  SmallVector<Attribute> Ctors, Priorities, Data;
  LLVM::GlobalCtorsOp Existing;
  for (auto Op : Module.getOps<LLVM::GlobalCtorsOp>())
    Existing = Op;
  if (Existing) {
    llvm::append_range(Ctors, Existing.getCtors());
    llvm::append_range(Priorities, Existing.getPriorities());
    llvm::append_range(Data, Existing.getData());
    Existing.erase();
  }
  Ctors.push_back(FlatSymbolRefAttr::get(Ctor));
  Priorities.push_back(B.getI32IntegerAttr(ModuleCtorPriority));
  Data.push_back(LLVM::ZeroAttr::get(Ctx));
  B.setInsertionPointToEnd(Module.getBody());
  LLVM::GlobalCtorsOp::create(B, Loc, B.getArrayAttr(Ctors),
                              B.getArrayAttr(Priorities), B.getArrayAttr(Data));
}

void ConvertLWPToLLVMPass::runOnOperation() {
  ModuleOp Module = getOperation();
  Handlers[0] = Handlers[1] = nullptr;

  SmallVector<std::tuple<Operation *, uint32_t, bool>> Probes;
  Module.walk([&](Operation *Op) {
    if (auto Start = dyn_cast<ProbeStartOp>(Op))
      Probes.push_back({Op, Start.getId(), false});
    else if (auto End = dyn_cast<ProbeEndOp>(Op))
      Probes.push_back({Op, End.getId(), true});
  });
  bool HasMap = Module->hasAttr(LWPDialect::getInstrumentationMapAttrName());
  if (Probes.empty() && !HasMap)
    return;
  FailureOr<ProbeTarget> Target = resolveTarget(Module);
  if (failed(Target))
    return signalPassFailure();
  FailureOr<InstrumentationMap> Map = getInstrumentationMap(Module);
  if (failed(Map))
    return signalPassFailure();
  for (auto [Index, Entry] : llvm::enumerate(Map->entries()))
    if (Entry.Id != Index) {
      emitError(Module.getLoc())
          << "convert-lwp-to-llvm: the instrumentation map's region " << Index
          << " has ID " << Entry.Id << ": IDs must run 0, 1, ...";
      return signalPassFailure();
    }
  for (auto [Op, Id, IsEnd] : Probes)
    if (Id >= Map->size()) {
      Op->emitError() << "convert-lwp-to-llvm: region ID " << Id
                      << " is not in the module's instrumentation map";
      return signalPassFailure();
    }
  Module->removeAttr(LWPDialect::getInstrumentationMapAttrName());
  Module->removeAttr(LWPDialect::getInstructionThresholdAttrName());
  Module->removeAttr(LWPDialect::getSmallFunctionsAttrName());
  if (Map->empty()) {
    // No region, but small functions that lwp-instruction-threshold skipped:
    // a blob without slots or constructor tells the report.
    if (Map->smallFunctions()) {
      uint32_t SlotsOffset = 0;
      emitMapGlobal(Module, *Map, SlotsOffset);
    }
    return;
  }
  uint32_t SlotsOffset = 0;
  LLVM::GlobalOp Global = emitMapGlobal(Module, *Map, SlotsOffset);
  for (auto [Op, Id, IsEnd] : Probes)
    lowerProbe(Op, Id, IsEnd, *Target, Global, SlotsOffset);
  emitModuleCtor(Module, Global);
}
