//===- JSONDepth.cpp - Bounded nesting of JSON input ----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Support/JSONDepth.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

Error lwp::checkJSONDepth(StringRef Text, unsigned MaxDepth) {
  unsigned Depth = 0;
  bool InString = false;
  // I < E, not I != E: a backslash that is the last byte steps I past E.
  for (size_t I = 0, E = Text.size(); I < E; ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I; // the escaped character cannot end the string
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth <= MaxDepth)
        continue;
      StringRef Before = Text.take_front(I);
      size_t LineStart = Before.rfind('\n');
      size_t Column = LineStart == StringRef::npos ? I + 1 : I - LineStart;
      return createStringError(
          formatv("JSON nested deeper than {0} levels at line {1}, column {2}",
                  MaxDepth, Before.count('\n') + 1, Column)
              .str());
    } else if ((C == ']' || C == '}') && Depth) {
      --Depth;
    }
  }
  return Error::success();
}
