; lwp-lower and llvm-link. Region IDs are module-local (0..N-1 in each
; module), so each module must be lowered on its own, before it is linked:
; modules lowered separately and then linked keep one map global and one
; constructor each, and every probe points at a slot of its own module's map;
; a second lwp-lower leaves the linked module unchanged; lowering a link of
; unlowered modules (several !lwp.instrumentation_map operands) is an error.
; A module without probes or map is left unchanged, whatever its triple; an
; empty map only loses its metadata.
; RUN: rm -rf %t && split-file %s %t
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 %t/a.ll -o %t/a.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 %t/b.ll -o %t/b.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/a.bc -o %t/al.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/b.bc -o %t/bl.bc
; RUN: llvm-link %t/al.bc %t/bl.bc -S -o %t/ab.ll
; RUN: FileCheck %s --check-prefix=LINK --input-file=%t/ab.ll --implicit-check-not=lwp.instrumentation_map
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/ab.ll -S -o %t/ab.again.ll
; RUN: opt %t/ab.ll -S -o %t/ab.same.ll
; RUN: diff %t/ab.same.ll %t/ab.again.ll
; RUN: llc -O2 -filetype=obj %t/ab.ll -o %t/ab.o
; RUN: llvm-readelf -S %t/ab.o | FileCheck %s --check-prefix=ELF
; RUN: lwp-report --map %t/ab.o | FileCheck %s --check-prefix=REPORT

; Each module's map: version 3, 272 bytes, 2 regions (0: function, 1: loop
; with parent 0; no debug info: file "" at string 3, no operators: "" too),
; 64-byte slots at 144
; (region 0) and 208 (region 1). Both
; are kept and registered, each by its own constructor at priority 1.
; LINK:      @llvm.compiler.used = appending global [2 x ptr] [ptr @[[MA:__lwp_map\.[0-9a-f]{16}]], ptr @[[MB:__lwp_map\.[0-9a-f]{16}]]], section "llvm.metadata"
; LINK-NEXT: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @[[CA:__lwp_module_ctor(\.[0-9]+)?]], ptr null }, { i32, ptr, ptr } { i32 1, ptr @[[CB:__lwp_module_ctor(\.[0-9]+)?]], ptr null }]
; LINK-NEXT: @[[MA]] = internal global [272 x i8] c"LWPMAP\00\00\03\00\00\00\10\01\00\00\02\00\00\00\80\00\00\00\90\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\03\00\00\00\03\00\00\00\01\00\00\00\01\03\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\03\00\00\00\03\00\00\00fa\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section "lwp_map", align 16
; LINK-NEXT: @[[MB]] = internal global [272 x i8] c"LWPMAP\00\00\03\00\00\00\10\01\00\00\02\00\00\00\80\00\00\00\90\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\03\00\00\00\03\00\00\00\01\00\00\00\01\03\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\03\00\00\00\03\00\00\00fb\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section "lwp_map", align 16
; LINK-NOT:  @__lwp_map.
; LINK:      define internal void @[[CA]]()
; LINK-NEXT:   call void @__lwp_register_module(ptr @[[MA]])
; LINK-NEXT:   ret void
; LINK-LABEL: define void @fa(
; LINK-NEXT: entry:
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MA]], i64 144))
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MA]], i64 208))
; LINK:      exit:
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MA]], i64 208))
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MA]], i64 144))
; LINK-NEXT:   ret void
; LINK:      declare hidden preserve_allcc void @__lwp_probe_start(ptr)
; LINK:      declare hidden preserve_allcc void @__lwp_probe_end(ptr)
; LINK:      define internal void @[[CB]]()
; LINK-NEXT:   call void @__lwp_register_module(ptr @[[MB]])
; LINK-NEXT:   ret void
; LINK-LABEL: define void @fb(
; LINK-NEXT: entry:
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MB]], i64 144))
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MB]], i64 208))
; LINK:      exit:
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MB]], i64 208))
; LINK-NEXT:   notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MB]], i64 144))
; LINK-NEXT:   ret void
; LINK-NOT:  (i32 {{[0-9]+}})

; One object: both blobs in lwp_map (2 x 272 bytes), both constructors in
; .init_array.1; the report numbers the regions of both maps 1, 2, ... in
; section order, each parent in its own module.
; ELF-DAG: ] .init_array.1 INIT_ARRAY {{[0-9a-f]+}} {{[0-9a-f]+}} 000010 00 WA 0 0 8
; ELF-DAG: ] lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000220 00 WA 0 0 16
; REPORT:      ID  kind      function  depth  height  parent  location
; REPORT-NEXT:  1  function  fa            -       -       -  -
; REPORT-NEXT:  2  loop      fa            0       0       1  -
; REPORT-NEXT:  3  function  fb            -       -       -  -
; REPORT-NEXT:  4  loop      fb            0       0       3  -
; REPORT-NOT:  {{.}}

; Linked before lowered: both modules numbered from 0, the map has two
; operands; lwp-lower refuses it, by name and in the default pipeline.
; RUN: llvm-link %t/a.bc %t/b.bc -o %t/ab0.bc
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/ab0.bc -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=UNLOWERED --implicit-check-not=error
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -O2 %t/ab0.bc -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=UNLOWERED --implicit-check-not=error
; UNLOWERED: error: lwp-lower: !lwp.instrumentation_map has 2 operands: instrumented modules were linked before they were lowered; run lwp-lower on each module before linking (the default pipelines do, at the end of every compile){{$}}

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
; (The ModuleID and source_filename lines hold the checkout's path, which may
; contain 'lwp'.)
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument,lwp-lower -stats-level=70 \
; RUN:   -lwp-function-filter=nomatch %t/a.ll -S \
; RUN:   | grep -v -e '^; ModuleID' -e '^source_filename' | FileCheck %s --check-prefix=EMPTY
; EMPTY-NOT: lwp
; EMPTY: define void @fa(
; EMPTY-NOT: lwp

; A module lowered before it was linked with an unlowered one, in either
; order (whichever probe declaration the link keeps): lwp-lower lowers the
; unlowered probes, keeps the lowered calls on the handler, and the program
; runs with exact counts for both modules.
; RUN: llvm-link %t/al.bc %t/b.bc -o %t/mix1.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/mix1.bc -S -o %t/mix1.ll
; RUN: llvm-link %t/b.bc %t/al.bc -o %t/mix2.bc
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t/mix2.bc -S -o %t/mix2.ll
; RUN: FileCheck %s --check-prefix=MIX --input-file=%t/mix1.ll
; RUN: FileCheck %s --check-prefix=MIX --input-file=%t/mix2.ll
; MIX-NOT: probe_{{start|end}}(i32
; MIX-NOT: .unlowered
; MIX-DAG: call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MA:__lwp_map\.[0-9a-f]+]],
; MIX-DAG: call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MB:__lwp_map\.[0-9a-f]+]],
; MIX-DAG: declare hidden preserve_allcc void @__lwp_probe_start(ptr)
; RUN: llc -O2 -filetype=obj -relocation-model=pic %t/mix1.ll -o %t/mix1.o
; RUN: printf 'void fa(int), fb(int);\nint main(void) { fa(3); fb(3); fa(2); return 0; }\n' > %t/mix-main.c
; RUN: clang %t/mix-main.c %t/mix1.o %lwp_host_lib -lpthread -o %t/mix
; RUN: env LWP_OUTPUT=%t/mix.dump %t/mix
; RUN: lwp-report --raw --no-records %t/mix.dump | FileCheck %s --check-prefix=MIXED
; MIXED: module 0: image 0, blob 0x{{[0-9a-f]+}}, IDs [[A0:[0-9]+]]-{{[0-9]+}}
; MIXED: module 1: image 0, blob 0x{{[0-9a-f]+}}, IDs {{[0-9]+}}-{{[0-9]+}}
; MIXED: count [[A0]]: {{[12]}}

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
