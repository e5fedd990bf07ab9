; Irreducible cycles are no natural loops: they get no probes, and a missed
; remark counts them per function. A natural loop nested in an irreducible
; cycle is still a loop (depth 0 here) and is instrumented.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=100 -pass-remarks=lwp -pass-remarks-missed=lwp \
; RUN:   -S %s -o %t.ll 2>%t.remarks
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: %check_probes --ids-from-map %t.ll | FileCheck %s --check-prefix=BAL

; Functions are planned (irreducible cycles counted) before any is changed.
; REMARK: remark: <unknown>:0:0: 1 irreducible cycle(s) in irreducible not instrumented (not natural loops)
; REMARK-NEXT: remark: <unknown>:0:0: 2 irreducible cycle(s) in two_cycles_one_loop not instrumented (not natural loops)
; REMARK-NEXT: remark: <unknown>:0:0: instrumented function irreducible as region 0 (1 ret/resume)
; REMARK-NEXT: remark: <unknown>:0:0: instrumented loop %inner (depth 0, height 0) as region 2 (parent 1, 1 exit blocks)
; REMARK-NEXT: remark: <unknown>:0:0: instrumented function two_cycles_one_loop as region 1 (1 ret/resume)
; REMARK-NEXT: remark: <unknown>:0:0: instrumented function reducible as region 3 (1 ret/resume)
; REMARK-NOT: remark

; BAL: irreducible: balanced ids=[0]
; BAL: two_cycles_one_loop: balanced ids=[1, 2]
; BAL: reducible: balanced ids=[3]

; Two entries into the cycle {a, b}: no probe inside it.
; CHECK-LABEL: define void @irreducible(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 0)
; CHECK-NEXT:    br i1
; CHECK-NOT:     __lwp_probe
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret void
define void @irreducible(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %b, label %exit
b:
  br i1 %d, label %a, label %exit
exit:
  ret void
}

; Two irreducible cycles (one nested in the other's body), with a natural loop
; %inner inside the outer irreducible cycle.
; CHECK-LABEL: define void @two_cycles_one_loop(
; CHECK:         notail call void @__lwp_probe_start(i32 1)
; CHECK:         notail call void @__lwp_probe_start(i32 2)
; CHECK-NEXT:    br label %inner
; CHECK:       inner:
; CHECK-NOT:     __lwp_probe
; CHECK:         notail call void @__lwp_probe_end(i32 2)
define void @two_cycles_one_loop(i1 %c, i1 %d, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %pre
pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %pre ], [ %i.next, %inner ]
  %i.next = add i32 %i, 1
  %ic = icmp slt i32 %i.next, %n
  br i1 %ic, label %inner, label %after
after:
  br i1 %d, label %x, label %y
x:
  br i1 %d, label %y, label %b
y:
  br i1 %d, label %x, label %b
b:
  br i1 %d, label %a, label %exit
exit:
  ret void
}

define void @reducible() {
entry:
  ret void
}
