; lwp-lower's errors: one line each, exit code 1, no crash (no backtrace).
; RUN: split-file %s %t
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=mips %S/Inputs/lower/probes.ll \
; RUN:   -disable-output 2>&1 | FileCheck %s --check-prefix=NAME --implicit-check-not=Stack
; RUN: sed 's/x86_64-unknown-linux-gnu/riscv64-unknown-linux-gnu/' %S/Inputs/lower/probes.ll \
; RUN:   | not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TRIPLE --implicit-check-not=Stack
; RUN: sed '/target triple/d' %S/Inputs/lower/probes.ll \
; RUN:   | not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOTRIPLE --implicit-check-not=Stack
; In the default pipelines the message says how to do without lowering.
; RUN: sed 's/x86_64-unknown-linux-gnu/riscv64-unknown-linux-gnu/' %S/Inputs/lower/probes.ll \
; RUN:   | not opt -load-pass-plugin=%lwp_llvm_plugin -O2 -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE --implicit-check-not=Stack
; RUN: not clang --target=riscv64-linux-gnu -O2 -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=40 \
; RUN:   -c %S/Inputs/lower/kernel.c -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLANG --implicit-check-not=Stack
; RUN: sed 's/x86_64-unknown-linux-gnu/riscv64-unknown-linux-gnu/' %S/Inputs/lower/probes.ll \
; RUN:   | opt -load-pass-plugin=%lwp_llvm_plugin -O2 -lwp-no-lower -S | FileCheck %s --check-prefix=NOLOWER
; An unknown target is an error even if there is nothing to lower.
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=mips %t/plain.ll \
; RUN:   -disable-output 2>&1 | FileCheck %s --check-prefix=NAME
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/nonconst.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NONCONST
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/bigid.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BIGID
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/type.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TYPE
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/address.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ADDRESS
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/badmap.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BADMAP
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/version.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=VERSION
; Region IDs are module-local, 0..N-1: a probe whose ID the map lacks (or a
; probe without any map), and a map whose IDs do not run 0, 1, ... (one from
; an LWP with lwp-id-base), are errors.
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/notinmap.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOTINMAP --implicit-check-not=Stack
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/nomap.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOMAP --implicit-check-not=Stack
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/gap.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=GAP --implicit-check-not=Stack
; RUN: sed -e 's/(i32 0)/(i32 7)/' -e 's/(i32 1)/(i32 8)/' -e 's/\\22id\\22:0,/\\22id\\22:7,/' \
; RUN:   -e 's/\\22id\\22:1,/\\22id\\22:8,/' -e 's/\\22parent\\22:0,/\\22parent\\22:7,/' %S/Inputs/lower/probes.ll > %t/based.ll
; RUN: grep -c 'i32 [78])' %t/based.ll | FileCheck %s --check-prefix=BASED-INPUT
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/based.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BASED --implicit-check-not=Stack

; NAME: error: lwp-lower: unsupported LWP target 'mips' (supported: hexagon, x86_64, aarch64){{$}}
; TRIPLE: error: lwp-lower: unsupported LWP target triple 'riscv64-unknown-linux-gnu' (supported: hexagon, x86_64, aarch64){{$}}
; NOTRIPLE: error: lwp-lower: module '<stdin>' has no target triple; give -lwp-target (supported: hexagon, x86_64, aarch64){{$}}
; PIPE: error: lwp-lower: unsupported LWP target triple 'riscv64-unknown-linux-gnu' (supported: hexagon, x86_64, aarch64); or give -lwp-no-lower to keep the target-independent probes{{$}}
; CLANG: error: lwp-lower: unsupported LWP target triple 'riscv64-unknown-linux-gnu' (supported: hexagon, x86_64, aarch64); or give -lwp-no-lower to keep the target-independent probes{{$}}
; CLANG: 1 error generated.
; NOLOWER: notail call void @__lwp_probe_start(i32 0)
; NOLOWER: !lwp.instrumentation_map = !{
; NONCONST: error: lwp-lower: a call of '__lwp_probe_start' in function 'f' has an ID that is not a constant{{$}}
; BIGID: error: lwp-lower: a call of '__lwp_probe_end' in function 'f' has ID 2147483648, above the largest region ID 2147483647{{$}}
; TYPE: error: lwp-lower: '__lwp_probe_start' is declared with another type than void(i32){{$}}
; ADDRESS: error: lwp-lower: '__lwp_probe_start' is used other than as the callee of a call in function 'f'{{$}}
; BADMAP: error: lwp-lower: malformed !lwp.instrumentation_map operand: expected !{i32 <version>, !"<json>"}{{$}}
; VERSION: error: lwp-lower: unsupported !lwp.instrumentation_map version 3 (expected 1 to 2){{$}}
; NOTINMAP: error: lwp-lower: a probe in function 'f' has ID 1, which the module's instrumentation map does not have{{$}}
; NOMAP: error: lwp-lower: a probe in function 'f' has ID 0, which the module's instrumentation map does not have{{$}}
; GAP: error: lwp-lower: the instrumentation map's region 1 has ID 2: IDs must run 0, 1, ... (a module instrumented by an older LWP with lwp-id-base?){{$}}
; BASED-INPUT: 4
; BASED: error: lwp-lower: the instrumentation map's region 0 has ID 7: IDs must run 0, 1, ... (a module instrumented by an older LWP with lwp-id-base?){{$}}

;--- plain.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  ret void
}

;--- nonconst.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f(i32 %id) {
  call void @__lwp_probe_start(i32 %id)
  ret void
}
declare void @__lwp_probe_start(i32)

;--- bigid.ll
target triple = "hexagon-unknown-linux-musl"
define void @f() {
  call void @__lwp_probe_end(i32 -2147483648)
  ret void
}
declare void @__lwp_probe_end(i32)

;--- type.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  call void @__lwp_probe_start(i64 1)
  ret void
}
declare void @__lwp_probe_start(i64)

;--- address.ll
target triple = "x86_64-unknown-linux-gnu"
@p = global ptr null
define void @f() {
  store ptr @__lwp_probe_start, ptr @p
  ret void
}
declare void @__lwp_probe_start(i32)

;--- badmap.ll
target triple = "x86_64-unknown-linux-gnu"
!lwp.instrumentation_map = !{!0}
!0 = !{!"not a version"}

;--- version.ll
target triple = "aarch64-unknown-linux-gnu"
!lwp.instrumentation_map = !{!0}
!0 = !{i32 3, !"{}"}

;--- notinmap.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  call void @__lwp_probe_start(i32 0)
  call void @__lwp_probe_start(i32 1)
  call void @__lwp_probe_end(i32 1)
  call void @__lwp_probe_end(i32 0)
  ret void
}
declare void @__lwp_probe_start(i32)
declare void @__lwp_probe_end(i32)
!lwp.instrumentation_map = !{!0}
!0 = !{i32 1, !"{\22version\22:1,\22regions\22:[{\22id\22:0,\22kind\22:\22function\22,\22function\22:\22f\22,\22depth\22:null,\22height\22:null,\22parent\22:null,\22file\22:\22f.c\22,\22line\22:1,\22column\22:0}]}"}

;--- nomap.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  call void @__lwp_probe_start(i32 0)
  call void @__lwp_probe_end(i32 0)
  ret void
}
declare void @__lwp_probe_start(i32)
declare void @__lwp_probe_end(i32)

;--- gap.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  call void @__lwp_probe_start(i32 0)
  call void @__lwp_probe_end(i32 0)
  ret void
}
define void @g() {
  call void @__lwp_probe_start(i32 2)
  call void @__lwp_probe_end(i32 2)
  ret void
}
declare void @__lwp_probe_start(i32)
declare void @__lwp_probe_end(i32)
!lwp.instrumentation_map = !{!0}
!0 = !{i32 1, !"{\22version\22:1,\22regions\22:[{\22id\22:0,\22kind\22:\22function\22,\22function\22:\22f\22,\22depth\22:null,\22height\22:null,\22parent\22:null,\22file\22:\22f.c\22,\22line\22:1,\22column\22:0},{\22id\22:2,\22kind\22:\22function\22,\22function\22:\22g\22,\22depth\22:null,\22height\22:null,\22parent\22:null,\22file\22:\22f.c\22,\22line\22:1,\22column\22:0}]}"}
