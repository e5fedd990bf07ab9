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
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsHexagon.h"
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
  uint32_t Id;
  bool IsEnd;
};
} // namespace

/// The probe functions of \p M that exist: [0] start, [1] end.
static SmallVector<Function *, 2> getProbeFunctions(Module &M) {
  SmallVector<Function *, 2> Result;
  for (StringRef Name : {ProbeStartName, ProbeEndName})
    if (Function *F = M.getFunction(Name))
      Result.push_back(F);
  return Result;
}

/// Collects the probe calls of \p M. Error: a probe function of another type
/// than void(i32), a use other than a direct call, an ID that is not a
/// constant or is above MaxRegionId.
static Expected<std::vector<Probe>> collectProbes(Module &M) {
  std::vector<Probe> Probes;
  for (Function *F : getProbeFunctions(M)) {
    bool IsEnd = F->getName() == ProbeEndName;
    FunctionType *Ty = F->getFunctionType();
    if (!Ty->getReturnType()->isVoidTy() || Ty->getNumParams() != 1 ||
        !Ty->getParamType(0)->isIntegerTy(32) || Ty->isVarArg())
      return createStringError("'%s' is declared with another type than "
                               "void(i32)",
                               F->getName().str().c_str());
    for (User *U : F->users()) {
      auto *Call = dyn_cast<CallInst>(U);
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
      if (Id->getZExtValue() > MaxRegionId)
        return createStringError(
            "a call of '%s' in function '%s' has ID "
            "%llu, above the largest region ID %u",
            F->getName().str().c_str(), Fn.str().c_str(),
            static_cast<unsigned long long>(Id->getZExtValue()), MaxRegionId);
      Probes.push_back(
          {Call, static_cast<uint32_t>(Id->getZExtValue()), IsEnd});
    }
  }
  return Probes;
}

/// The region IDs of the lwp_map globals already in \p M (a module lowered
/// before it was linked with this one), each with its global's name.
static Expected<DenseMap<uint32_t, StringRef>>
collectLoweredIds(const Module &M) {
  DenseMap<uint32_t, StringRef> Ids;
  for (const GlobalVariable &GV : M.globals()) {
    if (GV.getSection() != InstrumentationMapSection || !GV.hasInitializer())
      continue;
    auto *Data = dyn_cast<ConstantDataSequential>(GV.getInitializer());
    if (!Data || !Data->isString())
      continue;
    Expected<InstrumentationMap> Map =
        InstrumentationMap::readSection(Data->getAsString());
    if (!Map)
      return createStringError("global '%s': %s", GV.getName().str().c_str(),
                               toString(Map.takeError()).c_str());
    for (const RegionEntry &Entry : Map->entries())
      Ids.try_emplace(Entry.Id, GV.getName());
  }
  return Ids;
}

/// The Hexagon handler name global of \p Handler, created on first use:
/// `@"__lwp_handler_name.<handler>" = internal constant [N x i8]
/// c"<handler>\00"`.
static GlobalVariable *getHandlerName(Module &M, StringRef Handler) {
  std::string Sym = handlerNameGlobal(Handler);
  if (GlobalVariable *GV = M.getGlobalVariable(Sym, /*AllowInternal=*/true))
    return GV;
  Constant *Str = ConstantDataArray::getString(M.getContext(), Handler,
                                               /*AddNull=*/true);
  return new GlobalVariable(M, Str->getType(), /*isConstant=*/true,
                            GlobalValue::InternalLinkage, Str, Sym);
}

/// Rewrites the probes for Hexagon: each call becomes
/// `call void @llvm.hexagon.instrprof.custom(ptr @<name>, i32 <id>)`.
static void lowerForHexagon(Module &M, ArrayRef<Probe> Probes) {
  Function *Intrinsic = Intrinsic::getOrInsertDeclaration(
      &M, Intrinsic::hexagon_instrprof_custom);
  GlobalVariable *Names[2] = {nullptr, nullptr};
  for (const Probe &P : Probes) {
    GlobalVariable *&Name = Names[P.IsEnd];
    if (!Name)
      Name = getHandlerName(M, P.IsEnd ? ProbeEndHandler : ProbeStartHandler);
    IRBuilder<> B(P.Call);
    CallInst *Call = B.CreateCall(Intrinsic, {Name, B.getInt32(P.Id)});
    Call->setTailCallKind(CallInst::TCK_NoTail);
    Call->setDebugLoc(P.Call->getDebugLoc());
    P.Call->eraseFromParent();
  }
}

/// Rewrites the probes for a host: calls and declarations get the
/// preserve_all convention and the declaration nounwind, willreturn and
/// memory(inaccessiblemem: readwrite) (other attributes that lwp-instrument
/// set, nocallback and nomerge, stay).
static void lowerForHost(Module &M, ArrayRef<Probe> Probes) {
  for (Function *F : getProbeFunctions(M)) {
    F->setCallingConv(CallingConv::PreserveAll);
    F->setDoesNotThrow();
    F->setWillReturn();
    F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  }
  for (const Probe &P : Probes) {
    P.Call->setCallingConv(CallingConv::PreserveAll);
    P.Call->setTailCallKind(CallInst::TCK_NoTail);
  }
}

/// Emits one lwp_map global per map (as convert-lwp-to-llvm's emitMapSection)
/// and keeps them in @llvm.compiler.used.
static void emitMapGlobals(Module &M, ArrayRef<InstrumentationMap> Maps) {
  LLVMContext &Ctx = M.getContext();
  SmallVector<GlobalValue *, 2> Globals;
  for (const InstrumentationMap &Map : Maps) {
    if (Map.empty())
      continue;
    SmallVector<char> Blob;
    Map.writeBlob(Blob);
    StringRef Bytes(Blob.data(), Blob.size());
    // A defined, hidden, external symbol survives global DCE in every module;
    // the first ID and a hash of the blob keep the names of modules apart.
    std::string Sym = mapGlobalName(Map.entries().front().Id, Bytes);
    Constant *Init = ConstantDataArray::getString(Ctx, Bytes,
                                                  /*AddNull=*/false);
    auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                  GlobalValue::ExternalLinkage, Init, Sym);
    GV->setVisibility(GlobalValue::HiddenVisibility);
    GV->setSection(InstrumentationMapSection);
    GV->setAlignment(Align(8));
    Globals.push_back(GV);
  }
  if (!Globals.empty())
    appendToCompilerUsed(M, Globals);
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
  // readInstrumentationMap refuses IDs that two operands share.
  if (Expected<InstrumentationMap> Merged = readInstrumentationMap(M); !Merged)
    return fail(toString(Merged.takeError()));
  Expected<DenseMap<uint32_t, StringRef>> Lowered = collectLoweredIds(M);
  if (!Lowered)
    return fail(toString(Lowered.takeError()));
  for (auto [Index, Map] : enumerate(*Maps))
    for (const RegionEntry &Entry : Map.entries())
      if (auto It = Lowered->find(Entry.Id); It != Lowered->end())
        return fail(formatv("region ID {0} is in operand {1} of !{2} and in "
                            "the lowered map '{3}': link modules instrumented "
                            "with distinct -lwp-id-base values",
                            Entry.Id, Index, MapMetadataName, It->second));

  if (*Target == ProbeTarget::Hexagon)
    lowerForHexagon(M, *Probes);
  else
    lowerForHost(M, *Probes);
  // Hexagon calls the handlers by name; a host module whose probes were all
  // optimized away needs no declarations either.
  for (Function *F : getProbeFunctions(M))
    if (F->isDeclaration() && F->use_empty())
      F->eraseFromParent();
  if (MapMD)
    MapMD->eraseFromParent();
  emitMapGlobals(M, *Maps);
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
