; lwp-lower on the probe form of lwp-instrument (Inputs/lower/probes.ll:
; function region 7, loop region 8, triple x86_64): per target the IR of
; convert-lwp-to-llvm, the map as one lwp_map blob, the metadata gone.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %S/Inputs/lower/probes.ll -S -o %t.triple.ll
; RUN: FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HOST,MAP --input-file=%t.triple.ll
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=x86_64 %S/Inputs/lower/probes.ll -S \
; RUN:   | FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HOST,MAP
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=aarch64 %S/Inputs/lower/probes.ll -S \
; RUN:   | FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HOST,MAP
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=hexagon %S/Inputs/lower/probes.ll -S -o %t.hex.ll
; RUN: FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HEX,MAP --input-file=%t.hex.ll
; The triple decides without -lwp-target; -lwp-target overrides it.
; RUN: sed 's/x86_64-unknown-linux-gnu/hexagon-unknown-linux-musl/' %S/Inputs/lower/probes.ll \
; RUN:   | opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -S | FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HEX,MAP
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %S/Inputs/lower/probes.ll \
; RUN:   | opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -S | FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HOST,MAP
; RUN: sed 's/x86_64-unknown-linux-gnu/hexagon-unknown-linux-musl/' %S/Inputs/lower/probes.ll \
; RUN:   | opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=x86-64 -S \
; RUN:   | FileCheck %s --implicit-check-not=lwp.instrumentation_map --check-prefixes=HOST,MAP
; The result verifies, and a second run finds nothing to do.
; RUN: opt -passes=verify -disable-output %t.triple.ll
; RUN: opt -passes=verify -disable-output %t.hex.ll
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t.triple.ll -S -o %t.again.ll
; RUN: opt -passes=verify %t.triple.ll -S -o %t.same.ll
; RUN: diff %t.same.ll %t.again.ll

; Hexagon: two name strings, the intrinsic with the ID, the debug location
; kept, no call of the probe functions left and their declarations erased.
; HOST-NOT: __lwp_handler_name
; HEX-DAG: @__lwp_handler_name.__lwp_probe_start = internal constant [18 x i8] c"__lwp_probe_start\00"
; HEX-DAG: @__lwp_handler_name.__lwp_probe_end = internal constant [16 x i8] c"__lwp_probe_end\00"

; The map: one blob (docs/instrumentation-map.md) of 120 bytes: header
; (magic, version 1, size 0x78, 2 regions, strings at 0x70), region 7
; (function, no depth/height/parent, "sum" at 0, "s.c" at 4, line 3), region 8
; (loop, flags 3, depth 0, height 0, parent 7, line 5, column 3), strings.
; MAP:      @__lwp_map.7.0x{{[0-9a-f]+}} = hidden constant [120 x i8] c"LWPMAP\00\00\01\00\00\00x\00\00\00\02\00\00\00p\00\00\00\00\00\00\00\00\00\00\00\07\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\03\00\00\00\00\00\00\00\00\00\00\00\08\00\00\00\01\03\00\00\00\00\00\00\00\00\00\00\07\00\00\00\00\00\00\00\04\00\00\00\05\00\00\00\03\00\00\00\00\00\00\00sum\00s.c\00", section "lwp_map", align 8
; MAP-NEXT: @llvm.compiler.used = appending global [1 x ptr] [ptr @__lwp_map.7.0x{{[0-9a-f]+}}], section "llvm.metadata"

; Hexagon calls:
; HEX-LABEL: define i32 @sum(
; HEX:       entry:
; HEX-NEXT:    call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_start, i32 7), !dbg [[FN:![0-9]+]]
; HEX:       ph:
; HEX-NEXT:    call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_start, i32 8), !dbg [[LOOP:![0-9]+]]
; HEX:       exit:
; HEX-NEXT:    call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_end, i32 8), !dbg [[LOOP]]
; HEX:       done:
; HEX-NEXT:    phi
; HEX-NEXT:    call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_end, i32 7), !dbg [[END:![0-9]+]]
; HEX-NEXT:    ret i32
; HEX-NOT:   @__lwp_probe_start
; HEX-NOT:   @__lwp_probe_end
; HEX:       declare void @llvm.hexagon.instrprof.custom(ptr, i32)
; HEX-NOT:   @__lwp_probe_start
; HEX-NOT:   @__lwp_probe_end
; HEX-DAG:   [[FN]] = !DILocation(line: 3,
; HEX-DAG:   [[LOOP]] = !DILocation(line: 5, column: 3,
; HEX-DAG:   [[END]] = !DILocation(line: 7, column: 3,

; Hosts: notail preserve_allcc calls and declarations; no intrinsic.
; HOST-LABEL:  define i32 @sum(
; HOST:        entry:
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_start(i32 7)
; HOST:        ph:
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_start(i32 8)
; HOST:        exit:
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_end(i32 8)
; HOST:        done:
; HOST-NEXT:     phi
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_end(i32 7)
; HOST-NEXT:     ret i32
; HOST-NOT:    instrprof
; HOST:        ; Function Attrs: nocallback nomerge nounwind willreturn memory(inaccessiblemem: readwrite)
; HOST-NEXT:   declare preserve_allcc void @__lwp_probe_start(i32) [[ATTR:#[0-9]+]]
; HOST:        ; Function Attrs: nocallback nomerge nounwind willreturn memory(inaccessiblemem: readwrite)
; HOST-NEXT:   declare preserve_allcc void @__lwp_probe_end(i32) [[ATTR]]

