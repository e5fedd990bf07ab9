; Function regions end before every `ret` and `resume` (before a musttail call
; that must stay right before its ret); loops left by an exception end in
; their (dedicated) landing pad; `unreachable` after a noreturn call gets no
; end probe (the report closes regions left open).
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=70 -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: %check_probes --ids-from-map %t.ll | FileCheck %s --check-prefix=BAL
; The code generator keeps the musttail call a tail call and never makes a
; probe call one.
; RUN: llc -O2 -mtriple=x86_64-linux-gnu %t.ll -o - | FileCheck %s --check-prefix=ASM

; BAL: several_returns: balanced ids=[0]
; BAL: forward: balanced ids=[1]
; BAL: loop_invoke: balanced ids=[2, 3]
; BAL: dies: balanced ids=[4, 5]

; ASM-LABEL: several_returns:
; ASM-COUNT-3: callq __lwp_probe_end
; ASM-NOT:     jmp __lwp_probe
; ASM-LABEL: forward:
; ASM:         callq __lwp_probe_start
; ASM:         callq __lwp_probe_end
; ASM:         jmp callee{{.*}}TAILCALL

; CHECK-LABEL: define i32 @several_returns(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 0)
; CHECK:       {{^}}neg:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret i32 -1
; CHECK:       {{^}}zero:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret i32 0
; CHECK:       {{^}}pos:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret i32 1
define i32 @several_returns(i32 %x) {
entry:
  %isneg = icmp slt i32 %x, 0
  br i1 %isneg, label %neg, label %nonneg
nonneg:
  %iszero = icmp eq i32 %x, 0
  br i1 %iszero, label %zero, label %pos
neg:
  ret i32 -1
zero:
  ret i32 0
pos:
  ret i32 1
}

declare i32 @callee(i32)

; CHECK-LABEL: define i32 @forward(
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 1)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 1)
; CHECK-NEXT:    %r = musttail call i32 @callee(i32 %x)
; CHECK-NEXT:    ret i32 %r
define i32 @forward(i32 %x) {
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}


declare void @may_throw(i32)
declare i32 @__gxx_personality_v0(...)

; The loop's invoke unwinds to %lpad, which the invoke before the loop
; reaches too: the pass splits the landing pad, so the loop's end probe runs
; only on the loop's unwind edge; %lpad ends the function before `resume`.
; CHECK-LABEL: define void @loop_invoke(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 2)
; CHECK-NEXT:    invoke void @may_throw(i32 -1)
; CHECK-NEXT:            to label %[[PH:.*]] unwind label %[[LPOUT:.*]]
; CHECK:       [[PH]]:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 3)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     __lwp_probe
; CHECK:         invoke void @may_throw(i32 %i)
; CHECK-NEXT:            to label %latch unwind label %[[LPLOOP:.*]]
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 2)
; CHECK-NEXT:    ret void
; Each landing pad resumes in the function region (2): the loop's end
; first, where the landing pad exits the loop, then the resume probe, which
; closes what the exception left above the function's instance.
; CHECK:       [[LPLOOP]]:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    notail call void @__lwp_probe_resume(i32 2)
; CHECK-NEXT:    br label %lpad
; CHECK:       [[LPOUT]]:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    notail call void @__lwp_probe_resume(i32 2)
; CHECK-NEXT:    br label %lpad
; CHECK:       lpad:
; CHECK-NEXT:    phi
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 2)
; CHECK-NEXT:    resume
define void @loop_invoke(i32 %n) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 -1) to label %loop unwind label %lpad
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  invoke void @may_throw(i32 %i) to label %latch unwind label %lpad
latch:
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

declare void @exit(i32) noreturn

; A loop left through a noreturn call: that exit cannot reach a `ret` or
; `resume`, so it gets no end probe (an end there would end the region before
; a non-local exit that may resume inside the loop; the runtime closes an
; instance left open where control resumes, or at the dump); the function
; region stays open too. The loop's other exit, which returns, ends the loop
; and then the function.
; CHECK-LABEL: define void @dies(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 4)
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 5)
; CHECK:       fatal:
; CHECK-NEXT:    call void @exit(i32 1)
; CHECK-NEXT:    unreachable
; CHECK:       done:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 5)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 4)
; CHECK-NEXT:    ret void
define void @dies(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop.cont ]
  %bad = icmp eq i32 %i, 7
  br i1 %bad, label %fatal, label %loop.cont
loop.cont:
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %done
fatal:
  call void @exit(i32 1)
  unreachable
done:
  ret void
}
