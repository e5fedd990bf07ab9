//===- JSONDepth.h - Bounded nesting of JSON input --------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// llvm::json::parse recurses once per nested array or object, so a hostile
// file of 50,000 '[' overflows the stack. Every reader of user JSON (map
// files, TVM's lwp.json) bounds the nesting first with this linear,
// non-recursive scan; LWP's JSON is a few levels deep.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_SUPPORT_JSONDEPTH_H
#define LWP_SUPPORT_JSONDEPTH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace lwp {

/// The deepest nesting of arrays and objects that LWP's JSON readers accept:
/// the top-level value is level 1. A map file is 4 levels deep, TVM's
/// lwp.json 3.
inline constexpr unsigned MaxJSONDepth = 64;

/// Checks that no array or object in \p Text lies more than \p MaxDepth
/// levels deep, counting '[' and '{' outside strings (one pass, no
/// recursion). Text that is not JSON otherwise passes: the parser that runs
/// after reports it. Error (one line): "JSON nested deeper than N levels at
/// line L, column C" (1-based; the column counts bytes), at the bracket that
/// opens level N + 1.
llvm::Error checkJSONDepth(llvm::StringRef Text,
                           unsigned MaxDepth = MaxJSONDepth);

} // namespace lwp

#endif // LWP_SUPPORT_JSONDEPTH_H
