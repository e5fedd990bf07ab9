// Bad option values: one clear error line and a non-zero exit, no crash.
// RUN: not lwp-opt %s --lwp-instrument="stats-level=-1" 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not lwp-opt %s --lwp-instrument="max-loop-depth=abc" 2>&1 | FileCheck %s --check-prefix=ABC
// RUN: not lwp-opt %s --lwp-instrument="lwp-min-loop-height=-2" 2>&1 | FileCheck %s --check-prefix=HEIGHT
// RUN: not lwp-opt %s --lwp-instrument="lwp-function-filter=(" 2>&1 | FileCheck %s --check-prefix=REGEX
// RUN: not lwp-opt %s --lwp-instrument="lwp-id-base=2147483648" 2>&1 | FileCheck %s --check-prefix=BASE
// RUN: not lwp-opt %s --lwp-instrument="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// IDs that would pass the largest region ID.
// RUN: not lwp-opt %s --lwp-instrument="lwp-id-base=2147483647" 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// Instrumenting twice would give two maps: refused.
// RUN: lwp-opt %s --lwp-instrument | not lwp-opt --lwp-instrument 2>&1 | FileCheck %s --check-prefix=TWICE

// NEG: error: lwp-instrument: invalid stats-level -1: expected a level >= 0
// ABC: for the --max-loop-depth option: 'abc' value invalid for uint argument!
// HEIGHT: for the --lwp-min-loop-height option: '-2' value invalid for uint argument!
// REGEX: error: lwp-instrument: invalid lwp-function-filter '(': parentheses not balanced
// BASE: error: lwp-instrument: invalid lwp-id-base 2147483648: the largest region ID is 2147483647
// UNKNOWN: no-such-option
// OVERFLOW: error: lwp-instrument: function 'f' needs region IDs up to 2147483648, above the largest region ID 2147483647
// TWICE: error: lwp-instrument: the module is already instrumented (it carries 'lwp.instrumentation_map'); run the pass once

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
