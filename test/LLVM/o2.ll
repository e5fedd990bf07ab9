; Probes survive the optimizer: instrument, then run -O2/-O3 without the
; plugin. Every probe call is still there, still notail, balanced on every
; path; run with a counting handler, every region starts and ends exactly as
; often as without optimization (nothing deleted, merged or hoisted out of
; its loop).
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=100 %S/Inputs/forest.ll -o %t.inst.bc
; RUN: opt -O2 %t.inst.bc -S -o %t.o2.ll
; RUN: opt -O3 %t.inst.bc -S -o %t.o3.ll
; RUN: opt -passes=verify -disable-output %t.o2.ll
; RUN: %check_probes --ids-from-map %t.o2.ll | FileCheck %s --check-prefix=BAL
; RUN: %check_probes --ids-from-map %t.o3.ll | FileCheck %s --check-prefix=BAL
; BAL:      forest: balanced ids=[0, 1, 2, 3, 4, 5]
; BAL-NEXT: flat: balanced ids=[6]
; BAL-NEXT: map: 7 regions, all probed

; The probe declarations keep their attributes; no call became a tail call.
; RUN: FileCheck %s --check-prefix=IR --input-file=%t.o2.ll
; IR-NOT: {{ tail call void @__lwp_probe}}
; IR-NOT: {{ musttail call void @__lwp_probe}}
; IR: declare void @__lwp_probe_start(i32) local_unnamed_addr #[[ATTR:[0-9]+]]
; IR: attributes #[[ATTR]] = { {{(mustprogress )?}}nocallback nomerge nounwind willreturn memory(inaccessiblemem: readwrite) }

; RUN: clang -O0 %t.inst.bc %S/Inputs/forest-main.c %S/Inputs/probe-counter.c -o %t.o0.exe
; RUN: clang -O0 %t.o2.ll %S/Inputs/forest-main.c %S/Inputs/probe-counter.c -o %t.o2.exe
; RUN: clang -O0 %t.o3.ll %S/Inputs/forest-main.c %S/Inputs/probe-counter.c -o %t.o3.exe
; RUN: %t.o0.exe 3 | FileCheck %s --check-prefix=RUN3
; RUN: %t.o2.exe 3 | FileCheck %s --check-prefix=RUN3
; RUN: %t.o3.exe 3 | FileCheck %s --check-prefix=RUN3
; forest(3): A and B once; A1, B1 and B2 once per iteration of their parent.
; RUN3:      lwp-count: id 0 starts 1 ends 1
; RUN3-NEXT: lwp-count: id 1 starts 1 ends 1
; RUN3-NEXT: lwp-count: id 2 starts 3 ends 3
; RUN3-NEXT: lwp-count: id 3 starts 1 ends 1
; RUN3-NEXT: lwp-count: id 4 starts 3 ends 3
; RUN3-NEXT: lwp-count: id 5 starts 3 ends 3
; RUN3-NEXT: lwp-count: id 6 starts 1 ends 1
; RUN3-NEXT: lwp-count: open 0 errors 0
