//===- TextTable.h - Aligned plain-text tables ------------------*- C++ -*-===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The one text-table printer of LWP's human outputs (the instrumentation map
// table, lwp-report's tables): columns two spaces apart, numeric columns
// right-aligned, text columns left-aligned, the last column not padded.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_SUPPORT_TEXTTABLE_H
#define LWP_SUPPORT_TEXTTABLE_H

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace lwp {

/// A table of strings, printed with each column as wide as its widest cell.
class TextTable {
public:
  /// One (header, numeric) pair per column; numeric columns align right.
  explicit TextTable(std::vector<std::pair<std::string, bool>> Columns)
      : Columns(std::move(Columns)) {}

  /// Appends a row; it must have one cell per column.
  void add(std::vector<std::string> Row) { Rows.push_back(std::move(Row)); }

  /// Prints the header line and every row, each ending in a newline.
  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<std::pair<std::string, bool>> Columns;
  std::vector<std::vector<std::string>> Rows;
};

} // namespace lwp

#endif // LWP_SUPPORT_TEXTTABLE_H
