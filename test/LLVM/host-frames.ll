; Host probes are real calls, so the backend sets up the frame a call needs
; (issue 20): a leaf function with locals that x86-64 would keep in the red
; zone below the stack pointer allocates them once it has probes (a call
; would overwrite the red zone), and keeps the stack 16-byte aligned at each
; call; on AArch64 the link register is saved before the first probe and
; restored after the last. Also at -O0, and without a frame pointer.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower -stats-level=40 %s -o %t.bc
; RUN: llc -mtriple=x86_64-linux-gnu -O2 %t.bc -o - | FileCheck %s --check-prefix=X86
; RUN: llc -mtriple=x86_64-linux-gnu -O0 %t.bc -o - | FileCheck %s --check-prefix=X86
; RUN: llc -mtriple=x86_64-linux-gnu -O2 -frame-pointer=none %t.bc -o - | FileCheck %s --check-prefix=X86
; RUN: llc -mtriple=aarch64-linux-gnu -O2 %t.bc -o - | FileCheck %s --check-prefix=A64
; RUN: llc -mtriple=aarch64-linux-gnu -O0 %t.bc -o - | FileCheck %s --check-prefix=A64
; Without probes the same function keeps its locals in the red zone.
; RUN: llc -mtriple=x86_64-linux-gnu -O2 %s -o - | FileCheck %s --check-prefix=PLAIN

target triple = "x86_64-unknown-linux-gnu"

define i32 @leaf(i32 %x) {
  %a = alloca [8 x i32], align 16
  %p = getelementptr [8 x i32], ptr %a, i64 0, i64 3
  store volatile i32 %x, ptr %p
  %q = getelementptr [8 x i32], ptr %a, i64 0, i64 5
  store volatile i32 %x, ptr %q
  %v = load volatile i32, ptr %p
  ret i32 %v
}

; X86-LABEL: leaf:
; X86:         subq ${{[0-9]+}}, %rsp
; X86-NOT:     {{[^0-9]}}-{{[0-9]+}}(%rsp)
; X86:         callq __lwp_probe_start
; X86-NOT:     {{[^0-9]}}-{{[0-9]+}}(%rsp)
; X86:         callq __lwp_probe_end
; X86:         addq ${{[0-9]+}}, %rsp
; X86:         retq

; A64-LABEL: leaf:
; A64:         {{str x30|stp x29, x30|stp x30}}
; A64:         bl __lwp_probe_start
; A64:         bl __lwp_probe_end
; A64:         {{ldr x30|ldp x29, x30}}
; A64:         ret

; PLAIN-LABEL: leaf:
; PLAIN:       -{{[0-9]+}}(%rsp)
; PLAIN:       retq
