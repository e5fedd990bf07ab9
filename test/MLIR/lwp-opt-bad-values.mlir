// A bad value of a profiler flag or of an lwp-instrument option gives one
// error line, in the words of the option parser (MLIR's pass option parser
// adds an empty "<unknown>:0: error: " line after its own): no other line
// says "error" (--implicit-check-not).
// RUN: not lwp-opt %s -max-loop-depth=-1 2>&1 | FileCheck %s --check-prefix=DEPTH --implicit-check-not=error
// DEPTH: lwp-opt: error: for the --max-loop-depth option: '-1' value invalid for uint argument! (0 to 4294967295)
// RUN: not lwp-opt %s -lwp-min-loop-height 4294967296 2>&1 | FileCheck %s --check-prefix=HEIGHT --implicit-check-not=error
// HEIGHT: lwp-opt: error: for the --lwp-min-loop-height option: '4294967296' value invalid for uint argument!
// RUN: not lwp-opt %s -stats-level=high 2>&1 | FileCheck %s --check-prefix=LEVEL --implicit-check-not=error
// LEVEL: lwp-opt: error: for the --stats-level option: 'high' value invalid for integer argument!
// RUN: not lwp-opt %s -lwp-instrument-siblings=yes 2>&1 | FileCheck %s --check-prefix=BOOL --implicit-check-not=error
// BOOL: lwp-opt: error: for the --lwp-instrument-siblings option: 'yes' is invalid value for boolean argument! Try 0 or 1
// RUN: not lwp-opt %s "--lwp-instrument=stats-level=70 max-loop-depth=x" 2>&1 | FileCheck %s --check-prefix=OPTION --implicit-check-not=error
// OPTION: lwp-opt: error: for the --max-loop-depth option: 'x' value invalid for uint argument!

// Good values still work: hex as the option parser reads it, levels below 40.
// RUN: lwp-opt %s -stats-level=40 -max-loop-depth=0x1 | FileCheck %s --check-prefix=GOOD
// RUN: lwp-opt %s -stats-level=30 | FileCheck %s --check-prefix=NONE
// GOOD: lwp.probe_start
// NONE-NOT: lwp.probe_start

func.func @f(%n: index) {
  return
}
