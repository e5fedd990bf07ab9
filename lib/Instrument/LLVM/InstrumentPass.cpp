//===- InstrumentPass.cpp - lwp-instrument for LLVM IR --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Selects regions with lwp::SelectionPolicy over each function's natural loop
// forest and wraps them in calls of @__lwp_probe_start / @__lwp_probe_end
// (docs/probe-form.md). The module is planned completely before it is
// changed, so that an error leaves it untouched.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/LLVMLoopTree.h"
#include "lwp/Instrument/LLVMInstrument.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <memory>

using namespace llvm;
using namespace lwp;

//===----------------------------------------------------------------------===//
// Command-line options (the flag names of the design brief)
//===----------------------------------------------------------------------===//

static cl::OptionCategory LWPCategory("LWP instrumentation options");

static cl::opt<int> StatsLevelOpt(
    "stats-level",
    cl::desc("LWP: regions to instrument: < 40 none (default 0), >= 40 "
             "functions, >= 70 loops by -max-loop-depth, >= 100 every loop"),
    cl::init(0), cl::cat(LWPCategory));

static cl::opt<unsigned> MaxLoopDepthOpt(
    "max-loop-depth",
    cl::desc("LWP: deepest loop depth instrumented (0: outermost loops)"),
    cl::init(0), cl::cat(LWPCategory));

static cl::opt<unsigned> MinLoopHeightOpt(
    "lwp-min-loop-height",
    cl::desc("LWP: skip loops lower than this (1: no innermost loops)"),
    cl::init(0), cl::cat(LWPCategory));

static cl::opt<bool> InstrumentSiblingsOpt(
    "lwp-instrument-siblings",
    cl::desc("LWP: also instrument loops deeper than -max-loop-depth that "
             "have siblings"),
    cl::init(false), cl::cat(LWPCategory));

static cl::opt<bool> NoFunctionRegionsOpt(
    "lwp-no-function-regions",
    cl::desc("LWP: instrument loops only, no function regions"),
    cl::init(false), cl::cat(LWPCategory));

static cl::opt<std::string> FunctionFilterOpt(
    "lwp-function-filter",
    cl::desc("LWP: instrument only functions whose name matches this regex"),
    cl::value_desc("regex"), cl::init(""), cl::cat(LWPCategory));

static cl::opt<unsigned> InstructionThresholdOpt(
    "lwp-instruction-threshold",
    cl::desc("LWP: no function region for functions with fewer IR "
             "instructions than this that hold no selected loop (default 0: "
             "every function)"),
    cl::init(0), cl::cat(LWPCategory));

static cl::opt<bool> KeepTailCallsOpt(
    "lwp-keep-tail-calls",
    cl::desc("LWP: end a function's region before a call in tail position, "
             "so that the call stays a tail call (the callee's cycles then "
             "count for the caller's caller); false: after it (default "
             "true)"),
    cl::init(true), cl::cat(LWPCategory));

static cl::opt<std::string> MapFileOpt(
    "lwp-map-file",
    cl::desc("LWP: write the instrumentation map as JSON to this file"),
    cl::value_desc("path"), cl::init(""), cl::cat(LWPCategory));

LLVMInstrumentOptions lwp::getLLVMInstrumentOptionsFromCommandLine() {
  LLVMInstrumentOptions Options;
  Options.Selection.StatsLevel = StatsLevelOpt;
  Options.Selection.MaxLoopDepth = MaxLoopDepthOpt;
  Options.Selection.MinLoopHeight = MinLoopHeightOpt;
  Options.Selection.InstrumentSiblings = InstrumentSiblingsOpt;
  Options.Selection.NoFunctionRegions = NoFunctionRegionsOpt;
  Options.Selection.FunctionFilter = FunctionFilterOpt;
  Options.Selection.InstructionThreshold = InstructionThresholdOpt;
  Options.MapFile = MapFileOpt;
  Options.KeepTailCalls = KeepTailCallsOpt;
  return Options;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Pass name of every LWP remark (-pass-remarks=lwp).
static constexpr const char *RemarkPass = "lwp";

namespace {
/// The plan of one function, made before the module is changed.
struct PlannedFunction {
  Function *F;
  LLVMLoopForest Forest;
  FunctionPlan Plan;
};
} // namespace

/// Why \p F cannot carry probes at all, or an empty string. Such functions
/// are not planned and get no IDs.
static StringRef whyNotInstrumentable(const Function &F) {
  if (F.getName().starts_with("__lwp_"))
    return "LWP's own function (__lwp_*)";
  if (F.hasAvailableExternallyLinkage())
    return "available_externally: its body is emitted elsewhere";
  if (F.hasFnAttribute(Attribute::Naked))
    return "naked function";
  if (F.isPresplitCoroutine())
    return "coroutine not yet split";
  for (const BasicBlock &BB : F)
    if (BB.isEHPad() && !BB.isLandingPad())
      return "funclet-based exception handling (catchswitch/cleanuppad) is "
             "not supported";
  return "";
}

/// Declares (or finds) the probe function \p Name: void(i32) with the
/// attributes of docs/probe-form.md.
static FunctionCallee getProbeFunction(Module &M, StringRef Name) {
  LLVMContext &Ctx = M.getContext();
  FunctionType *Ty =
      FunctionType::get(Type::getVoidTy(Ctx), {Type::getInt32Ty(Ctx)}, false);
  FunctionCallee Callee = M.getOrInsertFunction(Name, Ty);
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->setDoesNotThrow();
    F->setWillReturn();
    F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    F->addFnAttr(Attribute::NoCallback);
    F->addFnAttr(Attribute::NoMerge);
  }
  return Callee;
}

/// Emits a probe call `call void @Probe(i32 Id)` before \p Pos, marked
/// notail, with debug location \p DL.
static void emitProbe(FunctionCallee Probe, uint32_t Id,
                      BasicBlock::iterator Pos, DebugLoc DL) {
  IRBuilder<> B(Pos->getParent(), Pos);
  CallInst *Call = B.CreateCall(Probe, {B.getInt32(Id)});
  Call->setTailCallKind(CallInst::TCK_NoTail);
  Call->setDoesNotThrow();
  Call->setDebugLoc(DL);
}

/// "%header (depth D, height H" for remarks; the caller closes the bracket.
static std::string describeLoop(const Loop &L, const LoopNode &Node) {
  std::string Text;
  raw_string_ostream OS(Text);
  L.getHeader()->printAsOperand(OS, /*PrintType=*/false);
  OS << formatv(" (depth {0}, height {1}", Node.Depth, Node.Height);
  return Text;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

LWPInstrumentPass::LWPInstrumentPass()
    : Options(getLLVMInstrumentOptionsFromCommandLine()) {}

LWPInstrumentPass::LWPInstrumentPass(LLVMInstrumentOptions Options)
    : Options(std::move(Options)) {}

bool lwp::isInstrumented(const Module &M) {
  if (M.getNamedMetadata(MapMetadataName))
    return true;
  for (StringRef Name : {ProbeStartName, ProbeEndName})
    if (const Function *F = M.getFunction(Name); F && !F->use_empty())
      return true;
  return false;
}

Expected<std::vector<InstrumentationMap>>
lwp::readInstrumentationMapOperands(const Module &M) {
  std::vector<InstrumentationMap> Result;
  const NamedMDNode *NMD = M.getNamedMetadata(MapMetadataName);
  if (!NMD)
    return Result;
  for (const MDNode *Op : NMD->operands()) {
    auto Malformed = [&] {
      return createStringError(
          "malformed !%s operand: expected !{i32 <version>, !\"<json>\"}",
          MapMetadataName.data());
    };
    if (Op->getNumOperands() != 2)
      return Malformed();
    auto *Version = mdconst::dyn_extract<ConstantInt>(Op->getOperand(0));
    auto *Text = dyn_cast<MDString>(Op->getOperand(1));
    if (!Version || !Text)
      return Malformed();
    if (Version->getZExtValue() < 1 ||
        Version->getZExtValue() > InstrumentationMapVersion)
      return createStringError(
          "unsupported !%s version %llu (expected 1 to %u)",
          MapMetadataName.data(),
          static_cast<unsigned long long>(Version->getZExtValue()),
          InstrumentationMapVersion);
    Expected<InstrumentationMap> Part =
        InstrumentationMap::fromJSON(Text->getString());
    if (!Part)
      return Part.takeError();
    Result.push_back(std::move(*Part));
  }
  return Result;
}

Expected<InstrumentationMap> lwp::readInstrumentationMap(const Module &M) {
  Expected<std::vector<InstrumentationMap>> Parts =
      readInstrumentationMapOperands(M);
  if (!Parts)
    return Parts.takeError();
  // Operands of linked modules need not come in ID order: merge and sort, so
  // that InstrumentationMap::lookup (a binary search) works.
  std::vector<std::pair<RegionEntry, unsigned>> Rows;
  for (auto [Index, Part] : enumerate(*Parts))
    for (const RegionEntry &Entry : Part.entries())
      Rows.emplace_back(Entry, Index);
  llvm::sort(Rows, [](const auto &A, const auto &B) {
    return std::make_pair(A.first.Id, A.second) <
           std::make_pair(B.first.Id, B.second);
  });
  InstrumentationMap Result;
  for (size_t I = 0, N = Rows.size(); I != N; ++I) {
    if (I && Rows[I].first.Id == Rows[I - 1].first.Id)
      return createStringError(
          "region ID %u is in two operands of !%s (%u and %u): IDs are "
          "module-local; lower each module before linking",
          Rows[I].first.Id, MapMetadataName.data(), Rows[I - 1].second,
          Rows[I].second);
    Result.add(std::move(Rows[I].first));
  }
  return Result;
}

/// Gives every selected loop of \p P a preheader and dedicated exit blocks,
/// innermost loops first (so that an outer loop's exits, formed later, stay
/// dedicated). Returns, per loop, whether it can carry probes.
static SmallVector<bool, 8>
simplifySelectedLoops(PlannedFunction &P, DominatorTree &DT, LoopInfo &LI) {
  size_t N = P.Forest.Loops.size();
  for (size_t I = N; I-- > 0;) {
    if (!P.Plan.LoopRegion[I])
      continue;
    Loop *L = P.Forest.Loops[I];
    if (!L->getLoopPreheader())
      InsertPreheaderForLoop(L, &DT, &LI, /*MSSAU=*/nullptr,
                             /*PreserveLCSSA=*/false);
    if (!L->hasDedicatedExits())
      formDedicatedExitBlocks(L, &DT, &LI, /*MSSAU=*/nullptr,
                              /*PreserveLCSSA=*/false);
  }
  SmallVector<bool, 8> Ok(N, false);
  for (size_t I = 0; I != N; ++I) {
    Loop *L = P.Forest.Loops[I];
    Ok[I] =
        P.Plan.LoopRegion[I] && L->getLoopPreheader() && L->hasDedicatedExits();
  }
  return Ok;
}

/// The blocks of \p F from which a `ret` or `resume` can be reached. A loop
/// exit outside this set leads only to a noreturn call (longjmp, exit,
/// abort, a throw that this function does not catch) or an endless loop: an
/// end probe there would end the region before a non-local exit that may
/// resume inside the loop (setjmp in the loop), so none goes there; the
/// runtime closes an instance left open that way where control resumes, or
/// at the dump.
static SmallPtrSet<const BasicBlock *, 32> blocksReachingExit(Function &F) {
  SmallPtrSet<const BasicBlock *, 32> Reach;
  SmallVector<const BasicBlock *, 32> Work;
  for (BasicBlock &BB : F)
    if (isa<ReturnInst, ResumeInst>(BB.getTerminator()) &&
        Reach.insert(&BB).second)
      Work.push_back(&BB);
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    for (const BasicBlock *Pred : predecessors(BB))
      if (Reach.insert(Pred).second)
        Work.push_back(Pred);
  }
  return Reach;
}

/// True for a call after which control may resume from a non-local exit: a
/// returns_twice callee (setjmp, sigsetjmp, ...), but not vfork, whose child
/// shares the parent's memory and must not run a probe.
static bool isResumingCall(const CallBase &Call) {
  if (!Call.hasFnAttr(Attribute::ReturnsTwice))
    return false;
  const Function *Callee = Call.getCalledFunction();
  return !Callee || !Callee->getName().contains("vfork");
}

/// Inserts a resume probe at every point of \p F where control resumes
/// after a non-local exit (ProbeResumeName): after each resuming call, at
/// each landing pad. \p LoopIds gives the region ID of each instrumented
/// loop, \p FunctionId that of the function region, if any; a probe gets the
/// location of the instruction it precedes, else \p FunctionDL. Returns the
/// number of probes inserted.
static unsigned
insertResumeProbes(Function &F, FunctionCallee Resume, const LoopInfo &LI,
                   const DenseMap<const Loop *, uint32_t> &LoopIds,
                   std::optional<uint32_t> FunctionId, DebugLoc FunctionDL) {
  auto enclosingId = [&](const BasicBlock *BB) -> uint32_t {
    for (const Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop())
      if (auto It = LoopIds.find(L); It != LoopIds.end())
        return It->second;
    return FunctionId ? *FunctionId : ResumeOutsideRegions;
  };
  SmallVector<std::pair<BasicBlock::iterator, uint32_t>, 4> Points;
  for (BasicBlock &BB : F) {
    if (BB.isLandingPad()) {
      // After the end probes of the loops this landing pad exits: they end
      // their instances as a loop exit does; the resume probe then closes
      // what the exception left above the enclosing region.
      BasicBlock::iterator Pos = BB.getFirstInsertionPt();
      while (auto *Probe = dyn_cast<CallInst>(&*Pos)) {
        const Function *Callee = Probe->getCalledFunction();
        if (!Callee || Callee->getName() != ProbeEndName)
          break;
        ++Pos;
      }
      Points.push_back({Pos, enclosingId(&BB)});
    }
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      if (Call && isResumingCall(*Call) && !Call->isMustTailCall())
        Points.push_back({std::next(I.getIterator()), enclosingId(&BB)});
    }
  }
  for (auto [Pos, Id] : Points) {
    DebugLoc DL = Pos != Pos->getParent()->end() && Pos->getDebugLoc()
                      ? Pos->getDebugLoc()
                      : FunctionDL;
    emitProbe(Resume, Id, Pos, DL);
  }
  return Points.size();
}

/// True when \p I, the instruction right before a return of \p Returned
/// (null: `ret void`), is a call in tail position: a call marked `tail` (the
/// optimizer found it may reuse the caller's frame) whose result is what
/// the return returns, of a function that is not an intrinsic, inline asm
/// or returns_twice. An end probe after it would make it an ordinary call
/// followed by a return: on Hexagon 3.9 packets more per call of the tree
/// interpreter's eval (issue 30). musttail calls are handled apart.
static bool isTailPositionCall(const Instruction *I, const Value *Returned) {
  const auto *Call = dyn_cast_or_null<CallInst>(I);
  return Call && Call->isTailCall() && !Call->isMustTailCall() &&
         !Call->isInlineAsm() && !isa<IntrinsicInst>(Call) &&
         !Call->hasFnAttr(Attribute::ReturnsTwice) &&
         (!Returned || Returned == Call);
}

/// Gives each predecessor of a shared return block that ends in a call in
/// tail position its own `ret`: a block holding only `ret` (void) or
/// `%v = phi ...; ret %v`, reached by an unconditional branch right after a
/// `tail call` whose result is the phi's value from that predecessor, as
/// SimplifyCFG leaves a switch of tail calls. CodeGenPrepare duplicates such
/// returns to make those calls tail calls, but cannot once the block holds
/// an end probe. A return block left without predecessors is erased.
static void duplicateReturnsForTailCalls(Function &F) {
  SmallVector<ReturnInst *, 4> Shared;
  for (BasicBlock &BB : F) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret || &BB == &F.getEntryBlock())
      continue;
    // The block is `ret void`, or `%v = phi; ret %v` (front() is then in BB).
    Value *Returned = Ret->getReturnValue();
    if (!Returned ? &BB.front() == Ret
                  : &BB.front() == Returned && isa<PHINode>(Returned) &&
                        Ret->getPrevNode() == Returned)
      Shared.push_back(Ret);
  }
  for (ReturnInst *Ret : Shared) {
    BasicBlock *BB = Ret->getParent();
    auto *Phi = dyn_cast_or_null<PHINode>(Ret->getReturnValue());
    // An unconditional branch is its block's only edge to BB: each
    // predecessor comes once.
    SmallVector<std::pair<BranchInst *, Value *>, 8> Tails;
    for (BasicBlock *Pred : predecessors(BB)) {
      auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
      if (!Br || Br->isConditional())
        continue;
      Value *Returned = Phi ? Phi->getIncomingValueForBlock(Pred) : nullptr;
      if (isTailPositionCall(Br->getPrevNode(), Returned))
        Tails.push_back({Br, Returned});
    }
    for (auto [Br, Returned] : Tails) {
      ReturnInst::Create(F.getContext(), Returned, Br->getIterator())
          ->setDebugLoc(Ret->getDebugLoc());
      BB->removePredecessor(Br->getParent(), /*KeepOneInputPHIs=*/true);
      Br->eraseFromParent();
    }
    if (pred_empty(BB))
      BB->eraseFromParent();
  }
}

/// Inserts the probes of \p P into its function and fills in the source
/// locations of its rows. With \p KeepTailCalls, a function region ends
/// before a call in tail position (isTailPositionCall) rather than after
/// it, as XRay's tail exit sleds do.
static void instrumentFunction(PlannedFunction &P, FunctionCallee Start,
                               FunctionCallee End, FunctionCallee Resume,
                               bool KeepTailCalls,
                               FunctionAnalysisManager &FAM) {
  Function &F = *P.F;
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  DISubprogram *SP = F.getSubprogram();
  DebugLoc FunctionDL;
  if (SP)
    FunctionDL = DILocation::get(F.getContext(), SP->getLine(), 0, SP);

  ArrayRef<LoopNode> Nodes = P.Forest.Tree.nodes();
  SmallVector<bool, 8> Ok = simplifySelectedLoops(P, DT, LI);
  SmallPtrSet<const BasicBlock *, 32> Returning = blocksReachingExit(F);

  // Loops in pre-order: end probes go to the start of each exit block, so an
  // inner loop's end, inserted later, lands before its parent's.
  DenseMap<const Loop *, uint32_t> LoopIds;
  for (size_t I = 0, N = Nodes.size(); I != N; ++I) {
    Loop *L = P.Forest.Loops[I];
    DebugLoc LoopDL = L->getStartLoc();
    if (!P.Plan.LoopRegion[I]) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "LoopRegion", LoopDL,
                                        L->getHeader())
               << "loop " << describeLoop(*L, Nodes[I])
               << ") not instrumented: "
               << stringifySkipReason(P.Plan.LoopReason[I]);
      });
      continue;
    }
    RegionEntry &Row = P.Plan.Regions[*P.Plan.LoopRegion[I]];
    Row.Loc = getSourceLocation(LoopDL.get());
    if (!Ok[I]) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "LoopRegion", LoopDL,
                                        L->getHeader())
               << "loop " << describeLoop(*L, Nodes[I]) << ") region "
               << ore::NV("RegionId", Row.Id)
               << " has no probes: no preheader or dedicated exits can be "
                  "formed (indirectbr or callbr edge)";
      });
      continue;
    }
    LoopIds[L] = Row.Id;
    DebugLoc DL = LoopDL ? LoopDL : FunctionDL;
    BasicBlock *Preheader = L->getLoopPreheader();
    emitProbe(Start, Row.Id, Preheader->getTerminator()->getIterator(), DL);
    SmallVector<BasicBlock *, 4> Exits;
    L->getUniqueExitBlocks(Exits);
    llvm::erase_if(Exits,
                   [&](BasicBlock *Exit) { return !Returning.contains(Exit); });
    for (BasicBlock *Exit : Exits)
      emitProbe(End, Row.Id, Exit->getFirstInsertionPt(), DL);
    ORE.emit([&] {
      return OptimizationRemark(RemarkPass, "LoopRegion", LoopDL,
                                L->getHeader())
             << "instrumented loop " << describeLoop(*L, Nodes[I])
             << ") as region " << ore::NV("RegionId", Row.Id) << " (parent "
             << (Row.ParentId ? std::to_string(*Row.ParentId) : "-") << ", "
             << ore::NV("Exits", static_cast<unsigned>(Exits.size()))
             << " exit blocks)";
    });
  }

  // Resume points after the loops' probes (a landing pad that exits a loop
  // holds its end probe) and before the function's: a landing pad's resume
  // probe then comes before the end probe that the function region puts
  // before a `resume` in the same block.
  std::optional<uint32_t> FunctionId;
  if (P.Plan.FunctionRegion)
    FunctionId = P.Plan.Regions[*P.Plan.FunctionRegion].Id;
  if (Resume)
    if (unsigned N =
            insertResumeProbes(F, Resume, LI, LoopIds, FunctionId, FunctionDL))
      ORE.emit([&] {
        return OptimizationRemark(RemarkPass, "ResumeProbe", &F)
               << ore::NV("Count", N) << " resume probe(s) in "
               << ore::NV("Function", F.getName())
               << " (after setjmp, at landing pads)";
      });

  if (P.Plan.FunctionRegion) {
    RegionEntry &Row = P.Plan.Regions[*P.Plan.FunctionRegion];
    Row.Loc = getSourceLocation(SP);
    BasicBlock &Entry = F.getEntryBlock();
    emitProbe(Start, Row.Id, Entry.getFirstNonPHIOrDbgOrAlloca(), FunctionDL);
    if (KeepTailCalls)
      duplicateReturnsForTailCalls(F);
    unsigned Ends = 0, TailExits = 0;
    for (BasicBlock &BB : F) {
      Instruction *Term = BB.getTerminator();
      if (!isa<ReturnInst, ResumeInst>(Term))
        continue;
      // A musttail call or a deoptimize call must stay right before its ret.
      Instruction *Pos = Term;
      if (CallInst *MustTail = BB.getTerminatingMustTailCall())
        Pos = MustTail;
      else if (CallInst *Deopt = BB.getTerminatingDeoptimizeCall())
        Pos = Deopt;
      else if (auto *Ret = dyn_cast<ReturnInst>(Term);
               Ret && KeepTailCalls &&
               isTailPositionCall(Ret->getPrevNode(), Ret->getReturnValue())) {
        Pos = Ret->getPrevNode();
        ++TailExits;
      }
      DebugLoc DL = Term->getDebugLoc() ? Term->getDebugLoc() : FunctionDL;
      emitProbe(End, Row.Id, Pos->getIterator(), DL);
      ++Ends;
    }
    ORE.emit([&] {
      OptimizationRemark R(RemarkPass, "FunctionRegion", &F);
      R << "instrumented function " << ore::NV("Function", F.getName())
        << " as region " << ore::NV("RegionId", Row.Id) << " ("
        << ore::NV("Ends", Ends) << " ret/resume";
      if (TailExits)
        R << ", " << ore::NV("TailExits", TailExits)
          << " before a call in tail position";
      return R << ")";
    });
  } else {
    ORE.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "FunctionRegion", &F)
             << "function " << ore::NV("Function", F.getName())
             << " not instrumented: "
             << stringifySkipReason(P.Plan.FunctionReason);
    });
  }
}

PreservedAnalyses LWPInstrumentPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  LLVMContext &Ctx = M.getContext();
  auto fail = [&](const Twine &Message) {
    Ctx.emitError("lwp-instrument: " + Message);
    return PreservedAnalyses::all();
  };

  Expected<SelectionPolicy> Policy = SelectionPolicy::create(Options.Selection);
  if (!Policy)
    return fail(toString(Policy.takeError()));
  InstrumentationMap Map;
  auto writeMap = [&]() -> bool {
    if (Options.MapFile.empty())
      return true;
    if (Error Err = Map.writeJSONFile(Options.MapFile)) {
      Ctx.emitError("lwp-instrument: " + toString(std::move(Err)));
      return false;
    }
    return true;
  };
  if (Policy->selectsNothing()) {
    writeMap();
    return PreservedAnalyses::all();
  }

  if (isInstrumented(M) && Options.SkipIfInstrumented)
    return PreservedAnalyses::all();
  if (isInstrumented(M))
    return fail("module '" + M.getModuleIdentifier() +
                "' is already instrumented (it carries !" + MapMetadataName +
                " or calls " + ProbeStartName + "/" + ProbeEndName +
                "); run the pass once");
  for (StringRef Name : {ProbeStartName, ProbeEndName, ProbeResumeName}) {
    Function *F = M.getFunction(Name);
    if (F && (F->getFunctionType()->getNumParams() != 1 ||
              !F->getReturnType()->isVoidTy() ||
              !F->getArg(0)->getType()->isIntegerTy(32)))
      return fail("'" + Name +
                  "' is declared with another type than "
                  "void(i32)");
  }

  // Plan every function first: an error must leave the module unchanged.
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  std::vector<std::unique_ptr<PlannedFunction>> Planned;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    StringRef Why = whyNotInstrumentable(F);
    if (!Why.empty()) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "FunctionRegion", &F)
               << "function " << ore::NV("Function", F.getName())
               << " not instrumented: " << Why;
      });
      continue;
    }
    if (unsigned Irreducible =
            countIrreducibleCycles(FAM.getResult<CycleAnalysis>(F)))
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "IrreducibleCycle", &F)
               << ore::NV("Count", Irreducible) << " irreducible cycle(s) in "
               << ore::NV("Function", F.getName())
               << " not instrumented (not natural loops)";
      });
    auto P = std::make_unique<PlannedFunction>();
    P->F = &F;
    P->Forest = buildLLVMLoopForest(FAM.getResult<LoopAnalysis>(F));
    Expected<FunctionPlan> Plan = Policy->planFunction(
        F.getName(), P->Forest.Tree, F.getInstructionCount());
    if (!Plan)
      return fail(toString(Plan.takeError()));
    P->Plan = std::move(*Plan);
    Planned.push_back(std::move(P));
  }

  Map.setSmallFunctions(Options.Selection.InstructionThreshold,
                        Policy->smallFunctions());

  // Declare the probe functions only when some function has regions: a module
  // where nothing was selected gets the (empty) map and nothing else.
  FunctionCallee Start, End, Resume;
  if (any_of(Planned, [](const std::unique_ptr<PlannedFunction> &P) {
        return !P->Plan.Regions.empty();
      })) {
    Start = getProbeFunction(M, ProbeStartName);
    End = getProbeFunction(M, ProbeEndName);
    Resume = getProbeFunction(M, ProbeResumeName);
  }
  for (std::unique_ptr<PlannedFunction> &P : Planned) {
    instrumentFunction(*P, Start, End, Resume, Options.KeepTailCalls, FAM);
    for (RegionEntry &Row : P->Plan.Regions)
      Map.add(std::move(Row));
  }
  // Memory effects inferred before this pass (it runs at the end of the
  // pipeline) did not know the probes: any defined function may now reach a
  // handler, which touches the runtime's inaccessible memory, so a later
  // pass (an LTO post-link pipeline) must not move or drop calls on the old
  // effects.
  if (Start)
    for (Function &F : M)
      if (!F.isDeclaration())
        F.setMemoryEffects(F.getMemoryEffects() |
                           MemoryEffects::inaccessibleMemOnly());

  // Record the map in the module (docs/probe-form.md): this also marks the
  // module as instrumented.
  std::string JSON;
  raw_string_ostream JSONStream(JSON);
  Map.writeJSON(JSONStream, /*Indent=*/0);
  Type *I32 = Type::getInt32Ty(Ctx);
  Metadata *Ops[] = {
      ConstantAsMetadata::get(ConstantInt::get(I32, InstrumentationMapVersion)),
      MDString::get(Ctx, JSON)};
  M.getOrInsertNamedMetadata(MapMetadataName)
      ->addOperand(MDNode::get(Ctx, Ops));

  // Without debug info the regions get no source location: say so once per
  // module (a warning; the profile is still right).
  if (!Map.empty() && M.debug_compile_units().empty())
    Ctx.diagnose(DiagnosticInfoGeneric(
        Twine("lwp-instrument: module '") + M.getModuleIdentifier() +
            "' has no debug info: its regions get no source location "
            "(compile with -gline-tables-only)",
        DS_Warning));
  writeMap();
  return PreservedAnalyses::none();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void lwp::registerLWPInstrumentPass(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "lwp-instrument")
          return false;
        MPM.addPass(LWPInstrumentPass());
        return true;
      });
  // The end of the optimizer: after inlining, loop transforms, vectorization
  // and unrolling, so the loops we see are the ones the code generator gets.
  // The O0 pipeline runs these callbacks too. LTO post-link pipelines are
  // skipped: the module was instrumented in the pre-link (compile) step.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink ||
            Phase == ThinOrFullLTOPhase::FullLTOPostLink)
          return;
        LLVMInstrumentOptions Options =
            getLLVMInstrumentOptionsFromCommandLine();
        Options.SkipIfInstrumented = true;
        MPM.addPass(LWPInstrumentPass(std::move(Options)));
      });
}
