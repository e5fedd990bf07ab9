//===- LLVMLoopTree.cpp - Loop forest of an LLVM IR function --------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Analysis/LLVMLoopTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/Path.h"

using namespace lwp;
using namespace llvm;

LLVMLoopForest lwp::buildLLVMLoopForest(const LoopInfo &LI) {
  LLVMLoopForest Forest;
  DenseMap<const Loop *, unsigned> Index;
  // Pre-order: a loop's parent is always numbered before the loop.
  for (Loop *L : LI.getLoopsInPreorder()) {
    unsigned Parent = LoopTree::NoParent;
    if (const Loop *P = L->getParentLoop())
      Parent = Index.lookup(P);
    Index[L] = Forest.Tree.addLoop(Parent, /*IsParallel=*/false);
    Forest.Loops.push_back(L);
  }
  Forest.Tree.finalize();
  return Forest;
}

unsigned lwp::countIrreducibleCycles(const CycleInfo &CI) {
  unsigned Count = 0;
  SmallVector<const Cycle *, 8> Worklist(CI.toplevel_cycles());
  while (!Worklist.empty()) {
    const Cycle *C = Worklist.pop_back_val();
    Count += !C->isReducible();
    Worklist.append(C->children().begin(), C->children().end());
  }
  return Count;
}

static std::string joinPath(StringRef Directory, StringRef File) {
  if (File.empty() || Directory.empty() || sys::path::is_absolute(File))
    return File.str();
  SmallString<128> Path(Directory);
  sys::path::append(Path, File);
  return std::string(Path);
}

SourceLocation lwp::getSourceLocation(const DILocation *Loc) {
  SourceLocation Result;
  if (!Loc || Loc->getFilename().empty())
    return Result;
  Result.File = joinPath(Loc->getDirectory(), Loc->getFilename());
  Result.Line = Loc->getLine();
  Result.Column = Loc->getColumn();
  return Result;
}

SourceLocation lwp::getSourceLocation(const DISubprogram *Subprogram) {
  SourceLocation Result;
  if (!Subprogram || Subprogram->getFilename().empty())
    return Result;
  Result.File = joinPath(Subprogram->getDirectory(), Subprogram->getFilename());
  Result.Line = Subprogram->getLine();
  return Result;
}
