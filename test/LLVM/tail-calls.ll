; A function region ends before a call in tail position (a `tail call`
; right before `ret`, its result returned), so that the call stays a tail
; call (issue 30); a switch of tail calls that SimplifyCFG gave one shared
; `ret` gets a `ret` per case first, as CodeGenPrepare would. A call that is
; not in tail position (its result used, not marked `tail`, a musttail call,
; a shared ret reached by a call whose result the phi does not take) keeps
; the probe after it. -lwp-keep-tail-calls=false puts every end probe before
; the `ret`, as before.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=70 -pass-remarks=lwp -S %s -o %t.ll 2>%t.remarks
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --input-file=%t.remarks --check-prefix=REMARK
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: %check_probes --ids-from-map %t.ll | FileCheck %s --check-prefix=BAL
; RUN: llc -O2 -mtriple=x86_64-linux-gnu %t.ll -o - | FileCheck %s --check-prefix=ASM
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=70 -lwp-keep-tail-calls=false -S %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF

; BAL: dispatch: balanced ids=[0]
; BAL: forward: balanced ids=[1]
; BAL: not_tail: balanced ids=[2]
; BAL: mixed: balanced ids=[3]

; REMARK: instrumented function dispatch as region 0 (3 ret/resume, 2 before a call in tail position)
; REMARK: instrumented function forward as region 1 (1 ret/resume, 1 before a call in tail position)
; REMARK: instrumented function not_tail as region 2 (1 ret/resume)
; REMARK: instrumented function mixed as region 3 (2 ret/resume, 1 before a call in tail position)

; Each case of the switch returns its call's result itself, the end probe
; before the call; the default keeps the shared block, its probe before ret.
; CHECK-LABEL: define i64 @dispatch(
; CHECK:       {{^}}one:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    %a = tail call i64 @leaf1(i64 %x)
; CHECK-NEXT:    ret i64 %a
; CHECK:       {{^}}two:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    %b = tail call i64 @leaf2(i64 %x)
; CHECK-NEXT:    ret i64 %b
; CHECK:       {{^}}done:
; CHECK-NEXT:    %r = phi i64 [ 0, %entry ]
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret i64 %r
; The code generator makes both calls jumps.
; ASM-LABEL: dispatch:
; ASM:         jmp leaf1{{.*}}TAILCALL
; ASM:         jmp leaf2{{.*}}TAILCALL
; OFF-LABEL: define i64 @dispatch(
; OFF:         %a = tail call i64 @leaf1(i64 %x)
; OFF-NEXT:    br label %done
; OFF:         {{^}}done:
; OFF-NEXT:      %r = phi
; OFF-NEXT:      notail call void @__lwp_probe_end(i32 0)
; OFF-NEXT:      ret i64 %r
define i64 @dispatch(i64 %x, i32 %k) {
entry:
  switch i32 %k, label %done [
    i32 1, label %one
    i32 2, label %two
  ]
one:
  %a = tail call i64 @leaf1(i64 %x)
  br label %done
two:
  %b = tail call i64 @leaf2(i64 %x)
  br label %done
done:
  %r = phi i64 [ %a, %one ], [ %b, %two ], [ 0, %entry ]
  ret i64 %r
}

; CHECK-LABEL: define void @forward(
; CHECK:         notail call void @__lwp_probe_end(i32 1)
; CHECK-NEXT:    tail call void @sink(i64 %x)
; CHECK-NEXT:    ret void
; ASM-LABEL: forward:
; ASM:         callq __lwp_probe_end
; ASM-NOT:     call
; ASM:         jmp sink{{.*}}TAILCALL
define void @forward(i64 %x) {
  tail call void @sink(i64 %x)
  ret void
}

; Not marked `tail`: the probe stays after the call.
; CHECK-LABEL: define i64 @not_tail(
; CHECK:         %a = call i64 @leaf1(i64 %x)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 2)
; CHECK-NEXT:    ret i64 %a
define i64 @not_tail(i64 %x) {
  %a = call i64 @leaf1(i64 %x)
  ret i64 %a
}

; The phi takes %a from `one` but a constant from `other`, whose call's
; result is unused: only `one` gets its own ret.
; CHECK-LABEL: define i64 @mixed(
; CHECK:       {{^}}one:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    %a = tail call i64 @leaf1(i64 %x)
; CHECK-NEXT:    ret i64 %a
; CHECK:       {{^}}other:
; CHECK-NEXT:    %b = tail call i64 @leaf2(i64 %x)
; CHECK-NEXT:    br label %done
; CHECK:       {{^}}done:
; CHECK-NEXT:    %r = phi i64 [ 7, %other ]
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    ret i64 %r
define i64 @mixed(i64 %x, i1 %c) {
entry:
  br i1 %c, label %one, label %other
one:
  %a = tail call i64 @leaf1(i64 %x)
  br label %done
other:
  %b = tail call i64 @leaf2(i64 %x)
  br label %done
done:
  %r = phi i64 [ %a, %one ], [ 7, %other ]
  ret i64 %r
}

declare i64 @leaf1(i64)
declare i64 @leaf2(i64)
declare void @sink(i64)
