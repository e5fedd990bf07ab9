; The plugin in opt's default pipelines: -O0 to -O3 instrument at the end of
; the optimizer (OptimizerLast), with the command-line flags. Loading the
; plugin without -stats-level changes nothing. -lwp-no-lower keeps the
; target-independent probes (forest.ll has no triple; lower.ll tests lwp-lower
; in the pipelines).
; DEFINE: %{opt} = opt -load-pass-plugin=%lwp_llvm_plugin %S/Inputs/forest.ll -S -lwp-no-lower

; RUN: %{opt} -O2 -o %t.plain-plugin.ll
; RUN: opt -O2 %S/Inputs/forest.ll -S -o %t.plain.ll
; RUN: diff %t.plain.ll %t.plain-plugin.ll

; RUN: %{opt} -O0 -stats-level=70 -max-loop-depth=1 -o %t.O0.ll
; RUN: %{opt} -O1 -stats-level=70 -max-loop-depth=1 -o %t.O1.ll
; RUN: %{opt} -O2 -stats-level=70 -max-loop-depth=1 -o %t.O2.ll
; RUN: %{opt} -O3 -stats-level=70 -max-loop-depth=1 -o %t.O3.ll
; RUN: %{opt} -passes='default<O2>' -stats-level=70 -max-loop-depth=1 -o %t.dO2.ll
; RUN: %check_probes --ids-from-map %t.O0.ll | FileCheck %s --check-prefix=BAL
; RUN: %check_probes --ids-from-map %t.O1.ll | FileCheck %s --check-prefix=BAL
; RUN: %check_probes --ids-from-map %t.O2.ll | FileCheck %s --check-prefix=BAL
; RUN: %check_probes --ids-from-map %t.O3.ll | FileCheck %s --check-prefix=BAL
; RUN: %check_probes --ids-from-map %t.dO2.ll | FileCheck %s --check-prefix=BAL
; RUN: opt -passes=verify -disable-output %t.O0.ll
; RUN: opt -passes=verify -disable-output %t.O3.ll
; BAL:      forest: balanced ids=[0, 1, 2, 3, 4, 5]
; BAL-NEXT: flat: balanced ids=[6]
; BAL-NEXT: map: 7 regions, all probed

; An explicit pass before default<O2> numbers the source loops; the pipeline's
; instance then leaves the instrumented module alone (instrumented once).
; RUN: %{opt} -passes='lwp-instrument,default<O2>' -stats-level=100 -o %t.first.ll
; RUN: %check_probes --ids-from-map %t.first.ll | FileCheck %s --check-prefix=ONCE
; ONCE:      forest: balanced ids=[0, 1, 2, 3, 4, 5]
; ONCE-NEXT: flat: balanced ids=[6]
; ONCE-NEXT: map: 7 regions, all probed
; RUN: FileCheck %s --check-prefix=ONEMAP --input-file=%t.first.ll
; ONEMAP: !lwp.instrumentation_map = !{![[N:[0-9]+]]}{{$}}
; An explicit second pass still fails.
; RUN: not %{opt} -passes='lwp-instrument,lwp-instrument' -stats-level=70 -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TWICE
; TWICE: error: lwp-instrument: module {{.*}} is already instrumented

; Run them: same counts at every level.
; RUN: clang -O0 %t.O0.ll %S/Inputs/forest-main.c %S/Inputs/probe-counter.c -o %t.O0.exe
; RUN: clang -O0 %t.O3.ll %S/Inputs/forest-main.c %S/Inputs/probe-counter.c -o %t.O3.exe
; RUN: %t.O0.exe 4 | FileCheck %s --check-prefix=RUN4
; RUN: %t.O3.exe 4 | FileCheck %s --check-prefix=RUN4
; RUN4:      lwp-count: id 0 starts 1 ends 1
; RUN4-NEXT: lwp-count: id 1 starts 1 ends 1
; RUN4-NEXT: lwp-count: id 2 starts 4 ends 4
; RUN4-NEXT: lwp-count: id 3 starts 1 ends 1
; RUN4-NEXT: lwp-count: id 4 starts 4 ends 4
; RUN4-NEXT: lwp-count: id 5 starts 4 ends 4
; RUN4-NEXT: lwp-count: id 6 starts 1 ends 1
; RUN4-NEXT: lwp-count: open 0 errors 0
