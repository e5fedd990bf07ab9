// Bad option values: one clear error line and a non-zero exit, no crash.
// RUN: not lwp-opt %s --lwp-instrument="stats-level=-1" 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not lwp-opt %s --lwp-instrument="max-loop-depth=abc" 2>&1 | FileCheck %s --check-prefix=ABC
// RUN: not lwp-opt %s --lwp-instrument="lwp-min-loop-height=-2" 2>&1 | FileCheck %s --check-prefix=HEIGHT
// RUN: not lwp-opt %s --lwp-instrument="lwp-function-filter=(" 2>&1 | FileCheck %s --check-prefix=REGEX
// lwp-id-base is gone (region IDs are module-local, 0..N-1): an error that
// names the option, in both spellings.
// RUN: not lwp-opt %s --lwp-instrument="lwp-id-base=100" 2>&1 | FileCheck %s --check-prefix=BASE
// RUN: not lwp-opt %s --pass-pipeline="builtin.module(lwp-instrument{stats-level=70 lwp-id-base=100})" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BASE
// RUN: not lwp-opt %s --lwp-instrument="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// Instrumenting twice would give two maps: refused.
// RUN: lwp-opt %s --lwp-instrument | not lwp-opt --lwp-instrument 2>&1 | FileCheck %s --check-prefix=TWICE

// NEG: error: lwp-instrument: invalid stats-level -1: expected a level >= 0
// ABC: for the --max-loop-depth option: 'abc' value invalid for uint argument!
// HEIGHT: for the --lwp-min-loop-height option: '-2' value invalid for uint argument!
// REGEX: error: lwp-instrument: invalid lwp-function-filter '(': parentheses not balanced
// BASE: error: <Pass-Options-Parser>: no such option lwp-id-base
// BASE-NOT: lwp.probe
// UNKNOWN: no-such-option
// TWICE: error: lwp-instrument: the module is already instrumented (it carries 'lwp.instrumentation_map'); run the pass once

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
