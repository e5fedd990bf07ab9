; A loop entered from an indirectbr cannot get a preheader: it keeps its map
; row (region 1) but gets no probes, a missed remark says why, and the IR
; stays valid. A loop left through an indirectbr to a dedicated exit is fine.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=100 \
; RUN:   -pass-remarks=lwp -pass-remarks-missed=lwp %s -S -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: %check_probes %t.ll | FileCheck %s --check-prefix=BAL
; REMARK:      loop %loop (depth 0, height 0) region 1 has no probes: no preheader or dedicated exits can be formed (indirectbr or callbr edge)
; REMARK-NEXT: instrumented function ib as region 0
; REMARK-NEXT: instrumented loop %loop (depth 0, height 0) as region 3 (parent 2, 1 exit blocks)
; REMARK-NEXT: instrumented function ibexit as region 2
; BAL:      ib: balanced ids=[0]
; BAL-NEXT: ibexit: balanced ids=[2, 3]

define void @ib(ptr %t, i32 %n) {
entry:
  indirectbr ptr %t, [label %loop, label %other]
other:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ 0, %other ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
define void @ibexit(ptr %t, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  indirectbr ptr %t, [label %loop, label %exit]
exit:
  ret void
}
