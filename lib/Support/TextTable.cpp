//===- TextTable.cpp - Aligned plain-text tables --------------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Support/TextTable.h"

#include <algorithm>
#include <cassert>

using namespace lwp;

void TextTable::print(llvm::raw_ostream &OS) const {
  std::vector<size_t> Widths;
  for (const auto &[Name, Numeric] : Columns)
    Widths.push_back(Name.size());
  for (const auto &Row : Rows) {
    assert(Row.size() == Columns.size() && "one cell per column");
    for (size_t C = 0; C != Row.size(); ++C)
      Widths[C] = std::max(Widths[C], Row[C].size());
  }
  auto line = [&](auto Cell) {
    for (size_t C = 0; C != Columns.size(); ++C) {
      const std::string &Text = Cell(C);
      if (C)
        OS << "  ";
      if (C + 1 == Columns.size())
        OS << Text;
      else if (Columns[C].second)
        OS.indent(Widths[C] - Text.size()) << Text;
      else
        OS << Text << std::string(Widths[C] - Text.size(), ' ');
    }
    OS << "\n";
  };
  line([&](size_t C) -> const std::string & { return Columns[C].first; });
  for (const auto &Row : Rows)
    line([&](size_t C) -> const std::string & { return Row[C]; });
}
