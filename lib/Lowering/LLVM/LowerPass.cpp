//===- LowerPass.cpp - lwp-lower for LLVM IR ------------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Rewrites the probe calls of lwp-instrument into the target's handler calls
// and the !lwp.instrumentation_map metadata into lwp_map section globals, the
// same IR that convert-lwp-to-llvm produces from the lwp dialect. The module
// is checked completely before it is changed, so that an error leaves it
// untouched.
//
//===----------------------------------------------------------------------===//

#include "lwp/Lowering/LLVMLower.h"

#include "lwp/Instrument/InstrumentationMap.h"
#include "lwp/Instrument/LLVMInstrument.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace lwp;

static cl::opt<std::string> TargetOpt(
    "lwp-target",
    cl::desc("LWP: target of lwp-lower: hexagon, x86_64 or aarch64 (default: "
             "from the module's target triple)"),
    cl::value_desc("target"), cl::init(""));

static cl::opt<bool> NoLowerOpt(
    "lwp-no-lower",
    cl::desc("LWP: the default pipelines leave the probes target-independent "
             "(no lwp-lower after lwp-instrument)"),
    cl::init(false));

Expected<LLVMLowerOptions> lwp::getLLVMLowerOptionsFromCommandLine() {
  LLVMLowerOptions Options;
  if (TargetOpt.empty())
    return Options;
  Expected<ProbeTarget> Target = parseProbeTarget(TargetOpt);
  if (!Target)
    return Target.takeError();
  Options.Target = *Target;
  return Options;
}

namespace {
/// One probe call to rewrite.
struct Probe {
  CallInst *Call;
  /// The region ID; for a resume probe possibly ResumeOutsideRegions.
  uint32_t Id;
  bool IsEnd;
  bool IsResume;
};
} // namespace

/// True for the handler declaration a lowering already wrote: void(ptr).
static bool isLoweredProbeType(FunctionType *Ty) {
  return Ty->getReturnType()->isVoidTy() && Ty->getNumParams() == 1 &&
         Ty->getParamType(0)->isPointerTy() && !Ty->isVarArg();
}

/// True for the unlowered probe form void(i32).
static bool isProbeType(FunctionType *Ty) {
  return Ty->getReturnType()->isVoidTy() && Ty->getNumParams() == 1 &&
         Ty->getParamType(0)->isIntegerTy(32) && !Ty->isVarArg();
}

/// True when \p F (a probe function) still has unlowered probes: it is
/// declared void(i32), or some call of it has that type (a module lowered
/// earlier and linked with one that was not, whichever declaration won).
static bool hasUnloweredProbes(const Function &F) {
  if (!isLoweredProbeType(F.getFunctionType()))
    return true;
  return any_of(F.users(), [](const User *U) {
    const auto *Call = dyn_cast<CallInst>(U);
    return !Call || !isLoweredProbeType(Call->getFunctionType());
  });
}

/// The probe functions of \p M that are still to be lowered (declared
/// void(i32) or of a wrong type, or called as void(i32); a lowered void(ptr)
/// handler called only as such is not one).
static SmallVector<Function *, 3> getProbeFunctions(Module &M) {
  SmallVector<Function *, 3> Result;
  for (StringRef Name : {ProbeStartName, ProbeEndName, ProbeResumeName})
    if (Function *F = M.getFunction(Name))
      if (hasUnloweredProbes(*F))
        Result.push_back(F);
  return Result;
}

/// Collects the probe calls of \p M (calls of type void(i32); lowered calls
/// of type void(ptr) are left alone). Error: a probe function declared with
/// another type than void(i32) or void(ptr), a call of another type, a use
/// other than a direct call, an ID that is not a constant or is above
/// MaxRegionId.
static Expected<std::vector<Probe>> collectProbes(Module &M) {
  std::vector<Probe> Probes;
  for (Function *F : getProbeFunctions(M)) {
    bool IsEnd = F->getName() == ProbeEndName;
    bool IsResume = F->getName() == ProbeResumeName;
    FunctionType *Ty = F->getFunctionType();
    if (!isProbeType(Ty) && !isLoweredProbeType(Ty))
      return createStringError("'%s' is declared with another type than "
                               "void(i32)",
                               F->getName().str().c_str());
    for (User *U : F->users()) {
      auto *Call = dyn_cast<CallInst>(U);
      if (Call && Call->getCalledOperand() == F &&
          isLoweredProbeType(Call->getFunctionType()))
        continue; // lowered already (a module lowered before it was linked)
      if (Call && Call->getCalledOperand() == F &&
          !isProbeType(Call->getFunctionType()))
        return createStringError(
            "a call of '%s' in function '%s' has another type than void(i32)",
            F->getName().str().c_str(),
            Call->getFunction()->getName().str().c_str());
      if (!Call || Call->getCalledOperand() != F) {
        std::string Where;
        if (auto *I = dyn_cast<Instruction>(U))
          Where = (" in function '" + I->getFunction()->getName() + "'").str();
        return createStringError("'%s' is used other than as the callee of a "
                                 "call%s",
                                 F->getName().str().c_str(), Where.c_str());
      }
      auto *Id = dyn_cast<ConstantInt>(Call->getArgOperand(0));
      StringRef Fn = Call->getFunction()->getName();
      if (!Id)
        return createStringError("a call of '%s' in function '%s' has an ID "
                                 "that is not a constant",
                                 F->getName().str().c_str(), Fn.str().c_str());
      if (Id->getZExtValue() > MaxRegionId &&
          !(IsResume && Id->getZExtValue() == ResumeOutsideRegions))
        return createStringError(
            "a call of '%s' in function '%s' has ID "
            "%llu, above the largest region ID %u",
            F->getName().str().c_str(), Fn.str().c_str(),
            static_cast<unsigned long long>(Id->getZExtValue()), MaxRegionId);
      Probes.push_back(
          {Call, static_cast<uint32_t>(Id->getZExtValue()), IsEnd, IsResume});
    }
  }
  return Probes;
}

/// Emits the module's map blob with its region slots: `@__lwp_map.<hash> =
/// internal global [N x i8]` in section lwp_map, align 16, kept by
/// @llvm.compiler.used. Returns the global and the offset of slot 0.
static std::pair<GlobalVariable *, uint32_t>
emitMapGlobal(Module &M, const InstrumentationMap &Map) {
  SmallVector<char> Blob;
  uint32_t SlotsOffset = Map.writeBlob(Blob);
  StringRef Bytes(Blob.data(), Blob.size());
  Constant *Init = ConstantDataArray::getString(M.getContext(), Bytes,
                                                /*AddNull=*/false);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/false,
                                GlobalValue::InternalLinkage, Init,
                                mapGlobalName(M.getModuleIdentifier(), Bytes));
  GV->setSection(InstrumentationMapSection);
  GV->setAlignment(Align(RegionSlotAlign));
  appendToCompilerUsed(M, {GV});
  return {GV, SlotsOffset};
}

/// Emits `internal void @__lwp_module_ctor()` that registers \p Map with the
/// runtime, run from @llvm.global_ctors at ModuleCtorPriority.
static void emitModuleCtor(Module &M, GlobalVariable *Map) {
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee Register = M.getOrInsertFunction(
      RegisterModuleName,
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
  Function *Ctor =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                       GlobalValue::InternalLinkage, ModuleCtorName, M);
  Ctor->setDoesNotThrow();
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(Register, {Map});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, ModuleCtorPriority);
}

/// The host handler declaration \p Name: `declare hidden preserve_allcc void
/// @<Name>(ptr)` nounwind willreturn nocallback nomerge memory(argmem: read,
/// inaccessiblemem: readwrite). Hidden: every image that has probes links
/// its own copy of the runtime (the copies share one core), so calls bind in
/// the image, direct even in position-independent code, never through a
/// lazily bound PLT entry whose resolver would break preserve_all.
static Function *getHostHandler(Module &M, StringRef Name) {
  LLVMContext &Ctx = M.getContext();
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx),
                               {PointerType::getUnqual(Ctx)}, false);
  Function *F = M.getFunction(Name);
  if (!F)
    F = Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
  F->setCallingConv(CallingConv::PreserveAll);
  F->setDoesNotThrow();
  F->setWillReturn();
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->setDSOLocal(true);
  F->addFnAttr(Attribute::NoCallback);
  F->addFnAttr(Attribute::NoMerge);
  F->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref) |
                      MemoryEffects::inaccessibleMemOnly());
  return F;
}

/// Rewrites every probe into its target form with the address of its slot.
static void lowerProbes(Module &M, ProbeTarget Target, ArrayRef<Probe> Probes,
                        GlobalVariable *Map, uint32_t SlotsOffset) {
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx);
  auto *Ptr = PointerType::getUnqual(Ctx);
  // The unlowered void(i32) declarations give their names to the handlers.
  for (Function *F : getProbeFunctions(M))
    if (!isLoweredProbeType(F->getFunctionType()))
      F->setName(F->getName() + ".unlowered");
  // Start, end, resume.
  Function *Hosts[3] = {nullptr, nullptr, nullptr};
  InlineAsm *Asms[3] = {nullptr, nullptr, nullptr};
  const StringRef HandlerNames[3] = {ProbeStartHandler, ProbeEndHandler,
                                     ProbeResumeHandler};
  for (const Probe &P : Probes) {
    unsigned Kind = P.IsResume ? 2 : P.IsEnd;
    // A resume probe outside every region passes a null slot.
    bool HasSlot = P.Id != ResumeOutsideRegions;
    Constant *Slot =
        HasSlot ? ConstantExpr::getInBoundsGetElementPtr(
                      I8, Map,
                      ConstantInt::get(Type::getInt64Ty(Ctx),
                                       SlotsOffset +
                                           uint64_t(P.Id) * RegionSlotSize))
                : ConstantPointerNull::get(Ptr);
    CallInst *Call;
    if (Target == ProbeTarget::Hexagon && !HasSlot) {
      InlineAsm *Asm =
          InlineAsm::get(FunctionType::get(Type::getVoidTy(Ctx), false),
                         hexagonResumeProbeAsm(false),
                         HexagonProbeConstraints.drop_front(strlen("i,")),
                         /*hasSideEffects=*/true);
      Call = CallInst::Create(Asm, {}, "", P.Call->getIterator());
    } else if (Target == ProbeTarget::Hexagon) {
      InlineAsm *&Asm = Asms[Kind];
      if (!Asm)
        Asm = InlineAsm::get(
            FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
            P.IsResume ? hexagonResumeProbeAsm(true) : hexagonProbeAsm(P.IsEnd),
            HexagonProbeConstraints,
            /*hasSideEffects=*/true);
      Call = CallInst::Create(Asm, {Slot}, "", P.Call->getIterator());
    } else {
      Function *&Handler = Hosts[Kind];
      if (!Handler)
        Handler = getHostHandler(M, HandlerNames[Kind]);
      Call = CallInst::Create(Handler, {Slot}, "", P.Call->getIterator());
      Call->setCallingConv(CallingConv::PreserveAll);
    }
    if (Target == ProbeTarget::Hexagon) {
      Call->setDoesNotThrow();
      // Each probe stays where the pass put it (the host handlers are
      // nomerge functions): the code generator's SimplifyCFG, which Hexagon
      // runs with common-instruction hoisting, would otherwise hoist the end
      // probes of all of a switch's cases above its range check and split
      // the check from its branch (issue 30: the tree interpreter's eval, a
      // packet a call).
      Call->addFnAttr(Attribute::NoMerge);
    }
    Call->setTailCallKind(CallInst::TCK_NoTail);
    Call->setDebugLoc(P.Call->getDebugLoc());
    P.Call->eraseFromParent();
  }
  for (StringRef Name : {ProbeStartName, ProbeEndName, ProbeResumeName})
    if (Function *F = M.getFunction((Name + ".unlowered").str())) {
      // Calls lowered before this module was linked with an unlowered one
      // (whose void(i32) declaration won) call the handler.
      for (User *U : make_early_inc_range(F->users()))
        if (auto *Call = dyn_cast<CallInst>(U);
            Call && Call->getCalledOperand() == F &&
            isLoweredProbeType(Call->getFunctionType()))
          Call->setCalledFunction(getHostHandler(M, Name));
      if (F->use_empty())
        F->eraseFromParent();
    }
}

LWPLowerPass::LWPLowerPass(bool InPipeline) : InPipeline(InPipeline) {}

LWPLowerPass::LWPLowerPass(LLVMLowerOptions Options)
    : Options(std::move(Options)) {}

PreservedAnalyses LWPLowerPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  auto fail = [&](const Twine &Message) {
    Ctx.emitError("lwp-lower: " + Message);
    return PreservedAnalyses::all();
  };

  // The pipeline instance tells how to do without it.
  std::string Hint =
      InPipeline ? "; or give -lwp-no-lower to keep the target-independent "
                   "probes"
                 : "";
  std::optional<ProbeTarget> Target;
  if (Options) {
    Target = Options->Target;
  } else {
    Expected<LLVMLowerOptions> FromCommandLine =
        getLLVMLowerOptionsFromCommandLine();
    if (!FromCommandLine)
      return fail(toString(FromCommandLine.takeError()));
    Target = FromCommandLine->Target;
  }

  NamedMDNode *MapMD = M.getNamedMetadata(MapMetadataName);
  bool HasProbes =
      any_of(getProbeFunctions(M), [](Function *F) { return !F->use_empty(); });
  if (!MapMD && !HasProbes)
    return PreservedAnalyses::all();

  if (!Target) {
    const Triple &TT = M.getTargetTriple();
    if (TT.str().empty())
      return fail("module '" + M.getModuleIdentifier() +
                  "' has no target triple; give -lwp-target (supported: " +
                  supportedProbeTargets() + ")" + Hint);
    Expected<ProbeTarget> FromTriple = probeTargetFromTriple(TT);
    if (!FromTriple)
      return fail(toString(FromTriple.takeError()) + Hint);
    Target = *FromTriple;
  }

  // Check everything before changing anything.
  Expected<std::vector<Probe>> Probes = collectProbes(M);
  if (!Probes)
    return fail(toString(Probes.takeError()));
  Expected<std::vector<InstrumentationMap>> Maps =
      readInstrumentationMapOperands(M);
  if (!Maps)
    return fail(toString(Maps.takeError()));
  if (Maps->size() > 1)
    return fail(formatv("!{0} has {1} operands: instrumented modules were "
                        "linked before they were lowered; run lwp-lower on "
                        "each module before linking (the default pipelines "
                        "do, at the end of every compile)",
                        MapMetadataName, Maps->size()));
  InstrumentationMap Map = Maps->empty() ? InstrumentationMap() : (*Maps)[0];
  for (auto [Index, Entry] : enumerate(Map.entries()))
    if (Entry.Id != Index)
      return fail(formatv("the instrumentation map's region {0} has ID {1}: "
                          "IDs must run 0, 1, ... (a module instrumented by "
                          "an older LWP with lwp-id-base?)",
                          Index, Entry.Id));
  for (const Probe &P : *Probes)
    if (P.Id >= Map.size() && !(P.IsResume && P.Id == ResumeOutsideRegions))
      return fail(formatv("a probe in function '{0}' has ID {1}, which the "
                          "module's instrumentation map does not have",
                          P.Call->getFunction()->getName(), P.Id));

  if (MapMD)
    MapMD->eraseFromParent();
  if (!Map.empty()) {
    auto [Global, SlotsOffset] = emitMapGlobal(M, Map);
    lowerProbes(M, *Target, *Probes, Global, SlotsOffset);
    emitModuleCtor(M, Global);
  } else if (Map.smallFunctions()) {
    // No region, but small functions that -lwp-instruction-threshold
    // skipped: a blob without slots or constructor tells the report.
    emitMapGlobal(M, Map);
  }
  // A module whose probes were all optimized away needs no declarations.
  for (Function *F : getProbeFunctions(M))
    if (F->isDeclaration() && F->use_empty())
      F->eraseFromParent();
  return PreservedAnalyses::none();
}

void lwp::registerLWPLowerPass(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "lwp-lower")
          return false;
        MPM.addPass(LWPLowerPass());
        return true;
      });
  // Right after lwp-instrument (registered before us, so its OptimizerLast
  // callback runs first): the pipeline's output then calls the handlers and
  // carries the map section. Every phase: a post-link module still holding
  // probes (bitcode instrumented but not lowered) is lowered there.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        if (!NoLowerOpt)
          MPM.addPass(LWPLowerPass(/*InPipeline=*/true));
      });
}
