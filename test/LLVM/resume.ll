; Resume probes (issue 20): after every call of a returns_twice function but
; vfork, with the ID of the innermost region that encloses the call (the
; loop 1 here; the function region 0 outside the loop; 0xffffffff, -1, where
; no region encloses it), and their lowering: hosts call the preserve_all
; handler with the slot, or null; Hexagon emits one packet with the slot
; address, or r14 = #0.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 -S %s -o - | FileCheck %s --check-prefix=IR
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 -lwp-no-function-regions -S %s -o - | FileCheck %s --check-prefix=NOFN
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower -stats-level=70 -lwp-no-function-regions -lwp-target=x86_64 -S %s -o - | FileCheck %s --check-prefix=HOST
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower -stats-level=70 -lwp-no-function-regions -lwp-target=hexagon -S %s -o - | FileCheck %s --check-prefix=HEX
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower -stats-level=70 -lwp-no-function-regions -lwp-target=hexagon %s -o - \
; RUN:   | llc -mtriple=hexagon -mcpu=hexagonv67 -O2 -o - | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

declare i32 @_setjmp(ptr) returns_twice
declare i32 @vfork() returns_twice
declare void @work()

define void @f(ptr %jb, i32 %n) {
entry:
  %r0 = call i32 @_setjmp(ptr %jb)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %r1 = call i32 @_setjmp(ptr %jb)
  call void @work()
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %p = call i32 @vfork()
  ret void
}

; IR-LABEL: define void @f(
; IR:         notail call void @__lwp_probe_start(i32 0)
; IR:         call i32 @_setjmp(
; IR-NEXT:    notail call void @__lwp_probe_resume(i32 0)
; IR:       loop:
; IR:         call i32 @_setjmp(
; IR-NEXT:    notail call void @__lwp_probe_resume(i32 1)
; IR:         call i32 @vfork()
; IR-NOT:     __lwp_probe_resume
; IR:         notail call void @__lwp_probe_end(i32 0)
; IR-NEXT:    ret void

; NOFN-LABEL: define void @f(
; NOFN:         call i32 @_setjmp(
; NOFN-NEXT:    notail call void @__lwp_probe_resume(i32 -1)
; NOFN:         call i32 @_setjmp(
; NOFN-NEXT:    notail call void @__lwp_probe_resume(i32 0)

; HOST:         call i32 @_setjmp(
; HOST-NEXT:    notail call preserve_allcc void @__lwp_probe_resume(ptr null)
; HOST:         call i32 @_setjmp(
; HOST-NEXT:    notail call preserve_allcc void @__lwp_probe_resume(ptr getelementptr inbounds (i8, ptr @[[MAP:__lwp_map\.[0-9a-f]+]], i64 [[#SLOT:]]))
; HOST:       declare hidden preserve_allcc void @__lwp_probe_resume(ptr)

; HEX:          call i32 @_setjmp(
; HEX-NEXT:     notail call void asm sideeffect "{ r28 = r31; r14 = #0; call __lwp_probe_resume }", "~{r14},~{r15},~{r28}"()
; HEX:          call i32 @_setjmp(
; HEX-NEXT:     notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_resume }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @{{__lwp_map\.[0-9a-f]+}}, i64 [[#]]))

; ASM-LABEL: f:
; ASM:         call _setjmp
; ASM:         call __lwp_probe_resume
; ASM-NEXT:    r28 = r31
; ASM-NEXT:    r14 = #0
; ASM:         call _setjmp
; ASM:         call __lwp_probe_resume
; ASM-NEXT:    r28 = r31
; ASM-NEXT:    r14 = ##__lwp_map.{{[0-9a-f]+}}+{{[0-9]+}}
