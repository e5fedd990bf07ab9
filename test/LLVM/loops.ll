; Probe placement for single, nested and sibling natural loops: a start probe
; at the end of the preheader, an end probe at the start of every exit block,
; the function region around everything; IDs in pre-order.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; RUN:   -stats-level=100 -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: %check_probes --ids-from-map %t.ll | FileCheck %s --check-prefix=BAL

; BAL: single: balanced ids=[0, 1]
; BAL: nest: balanced ids=[2, 3, 4, 5]
; BAL: siblings: balanced ids=[6, 7, 8, 9, 10, 11]
; BAL: map: 12 regions, all probed

; CHECK-LABEL: define void @single(
; CHECK:       entry:
; CHECK-NEXT:    %slot = alloca i32
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 0)
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 1)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     __lwp_probe
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 1)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 0)
; CHECK-NEXT:    ret void
define void @single(ptr %a, i32 %n) {
entry:
  %slot = alloca i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  store i32 %i, ptr %p
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; Three deep: i (depth 0, height 2) > j (1, 1) > k (2, 0).
; CHECK-LABEL: define void @nest(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 2)
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 3)
; CHECK-NEXT:    br label %i.header
; CHECK:       i.header:
; CHECK-NEXT:    %i = phi
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 4)
; CHECK-NEXT:    br label %j.header
; CHECK:       j.header:
; CHECK-NEXT:    %j = phi
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 5)
; CHECK-NEXT:    br label %k.body
; CHECK:       k.body:
; CHECK-NOT:     __lwp_probe
; CHECK:       j.latch:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 5)
; CHECK-NEXT:    %j.next
; CHECK:       i.latch:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 4)
; CHECK-NEXT:    %i.next
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 3)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 2)
; CHECK-NEXT:    ret void
define void @nest(ptr %a, i32 %n) {
entry:
  br label %i.header
i.header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %i.latch ]
  br label %j.header
j.header:
  %j = phi i32 [ 0, %i.header ], [ %j.next, %j.latch ]
  br label %k.body
k.body:
  %k = phi i32 [ 0, %j.header ], [ %k.next, %k.body ]
  store i32 %k, ptr %a
  %k.next = add i32 %k, 1
  %kc = icmp slt i32 %k.next, %n
  br i1 %kc, label %k.body, label %j.latch
j.latch:
  %j.next = add i32 %j, 1
  %jc = icmp slt i32 %j.next, %n
  br i1 %jc, label %j.header, label %i.latch
i.latch:
  %i.next = add i32 %i, 1
  %ic = icmp slt i32 %i.next, %n
  br i1 %ic, label %i.header, label %exit
exit:
  ret void
}

; Siblings: A { A1 }, then B { B1, B2 }. The exit block of one sibling is the
; preheader of the next: end of the first, then start of the second.
; CHECK-LABEL: define void @siblings(
; CHECK:       entry:
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 6)
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 7)
; CHECK-NEXT:    br label %A
; CHECK:       A:
; CHECK:         notail call void @__lwp_probe_start(i32 8)
; CHECK-NEXT:    br label %A1
; CHECK:       A.latch:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 8)
; CHECK:       mid:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 7)
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 9)
; CHECK-NEXT:    br label %B
; CHECK:       B:
; CHECK:         notail call void @__lwp_probe_start(i32 10)
; CHECK-NEXT:    br label %B1
; CHECK:       B.mid:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 10)
; CHECK-NEXT:    notail call void @__lwp_probe_start(i32 11)
; CHECK-NEXT:    br label %B2
; CHECK:       B.latch:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 11)
; CHECK:       exit:
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 9)
; CHECK-NEXT:    notail call void @__lwp_probe_end(i32 6)
; CHECK-NEXT:    ret void
define void @siblings(i32 %n) {
entry:
  br label %A
A:
  %a = phi i32 [ 0, %entry ], [ %a.next, %A.latch ]
  br label %A1
A1:
  %a1 = phi i32 [ 0, %A ], [ %a1.next, %A1 ]
  %a1.next = add i32 %a1, 1
  %a1c = icmp slt i32 %a1.next, %n
  br i1 %a1c, label %A1, label %A.latch
A.latch:
  %a.next = add i32 %a, 1
  %ac = icmp slt i32 %a.next, %n
  br i1 %ac, label %A, label %mid
mid:
  br label %B
B:
  %b = phi i32 [ 0, %mid ], [ %b.next, %B.latch ]
  br label %B1
B1:
  %b1 = phi i32 [ 0, %B ], [ %b1.next, %B1 ]
  %b1.next = add i32 %b1, 1
  %b1c = icmp slt i32 %b1.next, %n
  br i1 %b1c, label %B1, label %B.mid
B.mid:
  br label %B2
B2:
  %b2 = phi i32 [ 0, %B.mid ], [ %b2.next, %B2 ]
  %b2.next = add i32 %b2, 1
  %b2c = icmp slt i32 %b2.next, %n
  br i1 %b2c, label %B2, label %B.latch
B.latch:
  %b.next = add i32 %b, 1
  %bc = icmp slt i32 %b.next, %n
  br i1 %bc, label %B, label %exit
exit:
  ret void
}

; CHECK: declare void @__lwp_probe_start(i32) #[[ATTR:[0-9]+]]
; CHECK: declare void @__lwp_probe_end(i32) #[[ATTR]]
; CHECK: attributes #[[ATTR]] = { nocallback nomerge nounwind willreturn memory(inaccessiblemem: readwrite) }
