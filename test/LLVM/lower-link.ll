; lwp-lower on modules linked with llvm-link: one lwp_map blob per source
; module, in operand order, and the report reads the merged map from the
; object; IDs that two modules share are an error, also against a module that
; was lowered before it was linked. A module without probes or map is left
; unchanged, whatever its triple; an empty map only loses its metadata.
; RUN: rm -rf %t && split-file %s %t
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 %t/a.ll -o %t/a.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 -lwp-id-base=100 %t/b.ll -o %t/b.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 %t/b.ll -o %t/b0.bc
; RUN: llvm-link %t/b.bc %t/a.bc -o %t/ab.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/ab.bc -S -o %t/ab.ll
; RUN: FileCheck %s --check-prefix=LINK --input-file=%t/ab.ll --implicit-check-not=lwp.instrumentation_map
; RUN: llc -O2 -filetype=obj %t/ab.ll -o %t/ab.o
; RUN: llvm-readelf -S %t/ab.o | FileCheck %s --check-prefix=ELF
; RUN: lwp-report --map %t/ab.o | FileCheck %s --check-prefix=REPORT

; LINK:      @__lwp_map.100.0x{{[0-9a-f]+}} = hidden constant [120 x i8] c"LWPMAP{{.*}}fb\00\00\00\00\00\00", section "lwp_map", align 8
; LINK-NEXT: @__lwp_map.0.0x{{[0-9a-f]+}} = hidden constant [120 x i8] c"LWPMAP{{.*}}fa\00\00\00\00\00\00", section "lwp_map", align 8
; LINK-NEXT: @llvm.compiler.used = appending global [2 x ptr] [ptr @__lwp_map.100.{{.*}}, ptr @__lwp_map.0.{{.*}}], section "llvm.metadata"
; LINK:      notail call preserve_allcc void @__lwp_probe_start(i32 100)
; LINK:      notail call preserve_allcc void @__lwp_probe_start(i32 0)
; ELF:    lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 0000f0 00 A 0 0 8
; REPORT:      ID  kind      function  depth  height  parent  location
; REPORT-NEXT:   0  function  fa            -       -       -  -
; REPORT-NEXT:   1  loop      fa            0       0       0  -
; REPORT-NEXT: 100  function  fb            -       -       -  -
; REPORT-NEXT: 101  loop      fb            0       0     100  -

; Shared IDs: two unlowered modules, or a lowered one and an unlowered one.
; RUN: llvm-link %t/a.bc %t/b0.bc -o %t/ab0.bc
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/ab0.bc -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SHARED
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/a.bc -o %t/al.bc
; RUN: llvm-link %t/al.bc %t/b0.bc -o %t/ab1.bc
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/ab1.bc -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LOWERED
; A lowered module linked with an unlowered one whose IDs differ: two blobs.
; RUN: llvm-link %t/al.bc %t/b.bc -o %t/ab2.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/ab2.bc -S | FileCheck %s --check-prefix=MIXED
; SHARED: error: lwp-lower: region ID 0 is in two operands of !lwp.instrumentation_map (0 and 1): link modules instrumented with distinct -lwp-id-base values{{$}}
; LOWERED: error: lwp-lower: region ID 0 is in operand 0 of !lwp.instrumentation_map and in the lowered map '__lwp_map.0.0x{{[0-9a-f]+}}': link modules instrumented with distinct -lwp-id-base values{{$}}
; MIXED: @__lwp_map.0.0x{{[0-9a-f]+}} = hidden constant [120 x i8]
; MIXED: @__lwp_map.100.0x{{[0-9a-f]+}} = hidden constant [120 x i8]
; MIXED: @llvm.compiler.used = appending global [2 x ptr]

; Nothing to lower: the output is opt's own, for any triple.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/a.ll -S -o %t/a.lowered.ll
; RUN: opt %t/a.ll -S -o %t/a.plain.ll
; RUN: diff %t/a.plain.ll %t/a.lowered.ll
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/riscv.ll -S -o %t/riscv.lowered.ll
; RUN: opt %t/riscv.ll -S -o %t/riscv.plain.ll
; RUN: diff %t/riscv.plain.ll %t/riscv.lowered.ll
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -O2 %t/riscv.ll -S -o %t/riscv.O2.lowered.ll
; RUN: opt -O2 %t/riscv.ll -S -o %t/riscv.O2.plain.ll
; RUN: diff %t/riscv.O2.plain.ll %t/riscv.O2.lowered.ll
; An empty map (a filter that matched nothing): the metadata goes, no global.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower -stats-level=70 \
; RUN:   -lwp-function-filter=nomatch %t/a.ll -S | FileCheck %s --check-prefix=EMPTY
; EMPTY-NOT: lwp
; EMPTY: define void @fa(
; EMPTY-NOT: lwp

;--- a.ll
target triple = "x86_64-unknown-linux-gnu"
define void @fa(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

;--- b.ll
target triple = "x86_64-unknown-linux-gnu"
define void @fb(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

;--- riscv.ll
target triple = "riscv64-unknown-linux-gnu"
define i32 @g(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
