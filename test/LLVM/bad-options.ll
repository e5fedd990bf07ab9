; Bad flag values: one clear error line, non-zero exit, no crash, from an
; explicit -passes=lwp-instrument and from the default pipeline alike.
; DEFINE: %{opt} = opt -load-pass-plugin=%lwp_llvm_plugin -S -o /dev/null %S/Inputs/forest.ll

; RUN: not %{opt} -passes=lwp-instrument -stats-level=-1 2>&1 | FileCheck %s --check-prefix=NEG
; RUN: not %{opt} -O2 -stats-level=-1 2>&1 | FileCheck %s --check-prefix=NEG
; NEG: error: lwp-instrument: invalid stats-level -1: expected a level >= 0 (40 functions, 70 loops, 100 every loop)
; NEG-NOT: {{.}}

; RUN: not %{opt} -passes=lwp-instrument -stats-level=x 2>&1 | FileCheck %s --check-prefix=NOTINT
; NOTINT: for the --stats-level option: 'x' value invalid for integer argument!

; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 -max-loop-depth=abc 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEPTH -DV=abc
; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 -max-loop-depth=-1 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEPTH -DV=-1
; DEPTH: for the --max-loop-depth option: '[[V]]' value invalid for uint argument!
; DEPTH-NOT: {{.}}

; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 -lwp-min-loop-height=-3 2>&1 \
; RUN:   | FileCheck %s --check-prefix=HEIGHT
; HEIGHT: for the --lwp-min-loop-height option: '-3' value invalid for uint argument!

; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 -lwp-instrument-siblings=maybe 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SIB
; SIB: for the --lwp-instrument-siblings option: 'maybe' is invalid value for boolean argument!

; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 '-lwp-function-filter=(' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REGEX
; REGEX: error: lwp-instrument: invalid lwp-function-filter '(': parentheses not balanced
; REGEX-NOT: {{.}}

; -lwp-id-base is gone (region IDs are module-local, 0..N-1; the runtime
; numbers them program-wide): opt and clang refuse it as an unknown option,
; with the plugin loaded (its -stats-level is accepted in the same command).
; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 -lwp-id-base=100 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOBASE -DTOOL=opt
; RUN: not clang -O2 -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -mllvm -lwp-id-base=100 \
; RUN:   -c -x c /dev/null -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBASE "-DTOOL=clang (LLVM option parsing)"
; NOBASE-NOT: stats-level
; NOBASE:     [[TOOL]]: Unknown command line argument '-lwp-id-base=100'.
; NOBASE-NOT: stats-level

; RUN: not %{opt} -passes=lwp-instrument -stats-level=70 -lwp-map-file=%t.nodir/map.json 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MAPFILE
; MAPFILE: error: lwp-instrument: cannot open instrumentation map file '{{.*}}map.json': {{.*}}

; No crash backtrace anywhere.
; RUN: not %{opt} -passes=lwp-instrument -stats-level=-1 2>&1 | FileCheck %s --check-prefix=NOCRASH
; NOCRASH-NOT: Stack dump
; NOCRASH-NOT: PLEASE submit
