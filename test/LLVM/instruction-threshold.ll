; -lwp-instruction-threshold=N: a function with fewer than N IR instructions
; and no selected loop gets no function region; a larger one keeps it, and so
; does a small function that holds a selected loop. The map records the
; threshold and how many functions it skipped.
; DEFINE: %{lwp} = opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; DEFINE:   -pass-remarks=lwp -pass-remarks-missed=lwp %s -S

; @tiny has 2 instructions, @large 10, @small_loop 7 (with its loop).
; RUN: %{lwp} -stats-level=70 -lwp-instruction-threshold=10 -o %t.10.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=T10
; RUN: FileCheck %s --check-prefix=IR10 < %t.10.ll
; T10:      function tiny not instrumented: fewer instructions than lwp-instruction-threshold
; T10-NEXT: function large as region 0
; T10-NEXT: loop %loop (depth 0, height 0) as region 2 (parent 1,
; T10-NEXT: function small_loop as region 1
; IR10-LABEL: define i32 @tiny(
; IR10-NOT:   call void @__lwp_probe
; IR10:       ret i32
; IR10-LABEL: define i32 @large(
; IR10:       call void @__lwp_probe_start(i32 0)
; IR10:       call void @__lwp_probe_end(i32 0)
; IR10-LABEL: define void @small_loop(
; IR10:       call void @__lwp_probe_start(i32 1)
; IR10:       call void @__lwp_probe_start(i32 2)
; IR10:       call void @__lwp_probe_end(i32 2)
; IR10:       call void @__lwp_probe_end(i32 1)
; IR10: !lwp.instrumentation_map = !{![[M:[0-9]+]]}
; IR10: ![[M]] = !{i32 2, !"{\22version\22:2,\22regions\22:[{{.*}}],\22instruction_threshold\22:10,\22small_functions\22:1}"}

; At 11, @large (10 instructions) is small too.
; RUN: %{lwp} -stats-level=70 -lwp-instruction-threshold=11 -lwp-map-file=%t.11.json \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=T11
; RUN: FileCheck %s --check-prefix=JSON11 < %t.11.json
; T11:      function tiny not instrumented: fewer instructions than lwp-instruction-threshold
; T11-NEXT: function large not instrumented: fewer instructions than lwp-instruction-threshold
; T11-NEXT: loop %loop (depth 0, height 0) as region 1 (parent 0,
; T11-NEXT: function small_loop as region 0
; JSON11:      "instruction_threshold": 11,
; JSON11-NEXT: "small_functions": 2
; JSON11-NEXT: }

; Stats level 40 selects no loop: @small_loop's loop no longer keeps its
; function region.
; RUN: %{lwp} -stats-level=40 -lwp-instruction-threshold=10 -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=F40
; F40:      function tiny not instrumented: fewer instructions than lwp-instruction-threshold
; F40-NEXT: function large as region 0
; F40:      function small_loop not instrumented: fewer instructions than lwp-instruction-threshold

; The default, 0, instruments every function and writes no threshold.
; RUN: %{lwp} -stats-level=70 -o %t.0.ll 2>&1 | FileCheck %s --check-prefix=T0
; RUN: FileCheck %s --check-prefix=IR0 < %t.0.ll
; T0:      function tiny as region 0
; T0-NEXT: function large as region 1
; IR0-NOT: instruction_threshold

; Lowered: the blob is version 4 with the summary after its entries (word
; 28: 32 + 2 x 48 = 128; small_functions 2, threshold 11), and the probes of
; the kept regions call the handlers.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower \
; RUN:   -mtriple=x86_64-unknown-linux-gnu -stats-level=70 \
; RUN:   -lwp-instruction-threshold=11 %s -S -o - | FileCheck %s --check-prefix=BLOB
; BLOB: @__lwp_map.{{[0-9a-f]+}} = internal global [{{[0-9]+}} x i8] c"LWPMAP\00\00\04\00\00\00{{.*}}\02\00\00\00\0B\00\00\00small_loop\00


; A bad value is one error line.
; RUN: not %{lwp} -lwp-instruction-threshold=many -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD
; BAD: for the --lwp-instruction-threshold option: 'many' value invalid for uint argument!

define i32 @tiny(i32 %a) {
  %r = add i32 %a, 1
  ret i32 %r
}

define i32 @large(i32 %a, i32 %b) {
  %1 = add i32 %a, %b
  %2 = mul i32 %1, %a
  %3 = sub i32 %2, %b
  %4 = xor i32 %3, %1
  %5 = shl i32 %4, 3
  %6 = or i32 %5, %2
  %7 = and i32 %6, %3
  %8 = add i32 %7, %4
  %9 = mul i32 %8, %8
  ret i32 %9
}

define void @small_loop(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  store volatile i32 %i, ptr %p
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
