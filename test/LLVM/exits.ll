; Multi-exit loops and loops without a preheader: the pass gives a selected
; loop a preheader and dedicated exit blocks, so that every exit edge runs
; exactly one end probe and every entry exactly one start probe.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=100 -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: %check_probes --ids-from-map %t.ll | FileCheck %s --check-prefix=BAL

; BAL: multi_exit: balanced ids=[0, 1]
; BAL: break_two: balanced ids=[2, 3, 4]
; BAL: no_preheader: balanced ids=[5, 6]
; BAL: map: 7 regions, all probed

; Two exiting edges; `join` is also reached from outside the loop (%skip), so
; it is not a dedicated exit: the pass gives the loop's edges into `join` a
; block of their own, where the loop's one end probe runs.
; CHECK-LABEL: define i32 @multi_exit(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 0)
; CHECK-NEXT:    br i1 %skip, label %join, label %[[PH:.*]]
; CHECK:       [[PH]]:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 1)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     __lwp_probe
; CHECK:         br i1 %found, label %[[EXIT:[^,]*]], label %latch
; CHECK:       latch:
; CHECK-NOT:     __lwp_probe
; CHECK:         br i1 %c, label %loop, label %[[EXIT]]
; CHECK:       [[EXIT]]:
; CHECK-NEXT:    phi
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 1)
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    %r = phi i32 [ -1, %entry ], [ %{{.*}}, %[[EXIT]] ]
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret i32 %r
define i32 @multi_exit(ptr %a, i32 %n, i1 %skip) {
entry:
  br i1 %skip, label %join, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %found = icmp eq i32 %v, 42
  br i1 %found, label %join, label %latch
latch:
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %join
join:
  %r = phi i32 [ -1, %entry ], [ %i, %loop ], [ %n, %latch ]
  ret i32 %r
}

; The inner loop exits both loops at once (a `break` out of two loops): that
; exit runs the inner end, then the outer end.
; CHECK-LABEL: define void @break_two(
; CHECK:       outer:
; CHECK:         notail call void @__lwp_probe_start(i32 4)
; CHECK-NEXT:    br label %inner
; CHECK:       inner:
; CHECK-NOT:     __lwp_probe
; CHECK:         br i1 %stop, label %[[BOTH:[^,]*]], label %inner.latch
; CHECK:       outer.latch:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 4)
; CHECK:         br i1 %oc, label %outer, label %[[NORMAL:.*]]
; CHECK:       [[BOTH]]:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 4)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    br label %exit
; CHECK:       [[NORMAL]]:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    br label %exit
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 2)
; CHECK-NEXT:    ret void
define void @break_two(i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner.latch ]
  %stop = icmp eq i32 %j, %m
  br i1 %stop, label %exit, label %inner.latch
inner.latch:
  %j.next = add i32 %j, 1
  %jc = icmp slt i32 %j.next, %n
  br i1 %jc, label %inner, label %outer.latch
outer.latch:
  %i.next = add i32 %i, 1
  %oc = icmp slt i32 %i.next, %n
  br i1 %oc, label %outer, label %exit
exit:
  ret void
}

; The header has two predecessors outside the loop: the pass inserts a
; preheader, so the start probe runs once per entry, not per iteration.
; CHECK-LABEL: define void @no_preheader(
; CHECK:       left:
; CHECK-NEXT:    br label %[[PH:.*]]
; CHECK:       right:
; CHECK-NEXT:    br label %[[PH]]
; CHECK:       [[PH]]:
; CHECK-NEXT:    phi i32
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 6)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     __lwp_probe
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 6)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 5)
; CHECK-NEXT:    ret void
define void @no_preheader(i1 %c, i32 %n) {
entry:
  br i1 %c, label %left, label %right
left:
  br label %loop
right:
  br label %loop
loop:
  %i = phi i32 [ 0, %left ], [ 1, %right ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %lc = icmp slt i32 %i.next, %n
  br i1 %lc, label %loop, label %exit
exit:
  ret void
}
