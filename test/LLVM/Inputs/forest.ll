; Loop forest used by the stats-level and option tests:
;   @forest: A (depth 0, height 1) { A1 (1, 0) }
;            B (depth 0, height 1) { B1 (1, 0), B2 (1, 0) }
;   A and B are siblings, B1 and B2 are siblings, A1 has none.
;   @flat: no loop. The innermost bodies call @work, so that the optimizer
;   keeps every loop.
declare void @work(i32)

define void @forest(i32 %n) {
entry:
  br label %A
A:
  %a = phi i32 [ 0, %entry ], [ %a.next, %A.latch ]
  br label %A1
A1:
  %a1 = phi i32 [ 0, %A ], [ %a1.next, %A1 ]
  call void @work(i32 %a1)
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
  call void @work(i32 %b1)
  %b1.next = add i32 %b1, 1
  %b1c = icmp slt i32 %b1.next, %n
  br i1 %b1c, label %B1, label %B.mid
B.mid:
  br label %B2
B2:
  %b2 = phi i32 [ 0, %B.mid ], [ %b2.next, %B2 ]
  call void @work(i32 %b2)
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

define void @flat() {
entry:
  ret void
}
