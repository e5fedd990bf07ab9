; lwp-lower on the probe form of lwp-instrument (Inputs/lower/probes.ll:
; function region 0, loop region 1, triple x86_64): per target the IR of
; convert-lwp-to-llvm: the map as one writable blob with a slot per region in
; section lwp_map, each probe passing the address of its region's slot, a
; priority-1 constructor that registers the blob; the metadata gone.
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
; The result verifies, and a second run finds nothing to do (no probe
; function declared void(i32), no map metadata: an already lowered module).
; RUN: opt -passes=verify -disable-output %t.triple.ll
; RUN: opt -passes=verify -disable-output %t.hex.ll
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t.triple.ll -S -o %t.again.ll
; RUN: opt -passes=verify %t.triple.ll -S -o %t.same.ll
; RUN: diff %t.same.ll %t.again.ll
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %t.hex.ll -S -o %t.hex.again.ll
; RUN: opt -passes=verify %t.hex.ll -S -o %t.hex.same.ll
; RUN: diff %t.hex.same.ll %t.hex.again.ll

; The map: one blob (lwp/Runtime/MapFormat.h, version 3) of 272 bytes:
;   header   magic, version 3, size 0x110 (272), 2 regions, strings at 0x80
;            (128), slots at 0x90 (144), reserved 0;
;   entry 0  ID 0, function, flags 0, depth/height/parent 0, "sum" at 0,
;            "s.c" at 4, line 3, column 0, operator, its name and the
;            operators held all "" (at 8);
;   entry 1  ID 1, loop, flags 3, depth 0, height 0, parent 0, "sum", "s.c",
;            line 5, column 3, no operator ("" at 8);
;   strings  "sum\0s.c\0\0" (128..136), zero padding to 144;
;   slots    two zeroed 64-byte slots (struct lwp_slot): region 0 at 144,
;            region 1 at 208.
; Internal, writable (the runtime writes the slots), align 16, kept by
; @llvm.compiler.used, registered by the module constructor at priority 1.
; MAP:      @[[MAP:__lwp_map\.[0-9a-f]{16}]] = internal global [272 x i8] c"LWPMAP\00\00\03\00\00\00\10\01\00\00\02\00\00\00\80\00\00\00\90\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\03\00\00\00\00\00\00\00\08\00\00\00\08\00\00\00\08\00\00\00\01\00\00\00\01\03\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\05\00\00\00\03\00\00\00\08\00\00\00\08\00\00\00\08\00\00\00sum\00s.c\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section "lwp_map", align 16
; MAP-NEXT: @llvm.compiler.used = appending global [1 x ptr] [ptr @[[MAP]]], section "llvm.metadata"
; MAP-NEXT: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__lwp_module_ctor, ptr null }]
; MAP-NOT:  __lwp_handler_name

; Hexagon: one inline-asm packet per probe, { r28 = r31; r14 = ##<slot>; call <handler> }
; with the slot of region 0 (map+144) or 1 (map+208), the debug location
; kept; no call of the probe functions, no declaration of them, no intrinsic.
; HEX-LABEL: define i32 @sum(
; HEX:       entry:
; HEX-NEXT:    notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 144)) #[[#]], !dbg [[FN:![0-9]+]]
; HEX:       ph:
; HEX-NEXT:    notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 208)) #[[#]], !dbg [[LOOP:![0-9]+]]
; HEX:       exit:
; HEX-NEXT:    notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 208)) #[[#]], !dbg [[LOOP]]
; HEX:       done:
; HEX-NEXT:    phi
; HEX-NEXT:    notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 144)) #[[#]], !dbg [[END:![0-9]+]]
; HEX-NEXT:    ret i32
; HEX-NEXT:  }
; HEX-NOT:   @__lwp_probe_start
; HEX-NOT:   @__lwp_probe_end
; HEX-NOT:   instrprof

; Hosts: notail preserve_allcc calls of the hidden handlers with the slot
; address, the debug location kept; no intrinsic, no unlowered declaration.
; HOST-LABEL:  define i32 @sum(
; HOST:        entry:
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 144)), !dbg [[FN:![0-9]+]]
; HOST:        ph:
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 208)), !dbg [[LOOP:![0-9]+]]
; HOST:        exit:
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 208)), !dbg [[LOOP]]
; HOST:        done:
; HOST-NEXT:     phi
; HOST-NEXT:     notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MAP]], i64 144)), !dbg [[END:![0-9]+]]
; HOST-NEXT:     ret i32
; HOST-NEXT:   }
; HOST-NOT:    instrprof
; HOST-NOT:    (i32)
; HOST:        ; Function Attrs: nocallback nomerge nounwind willreturn memory(argmem: read, inaccessiblemem: readwrite)
; HOST-NEXT:   declare hidden preserve_allcc void @__lwp_probe_start(ptr) [[ATTR:#[0-9]+]]
; HOST-EMPTY:
; HOST-NEXT:   ; Function Attrs: nocallback nomerge nounwind willreturn memory(argmem: read, inaccessiblemem: readwrite)
; HOST-NEXT:   declare hidden preserve_allcc void @__lwp_probe_end(ptr) [[ATTR]]
; HOST-NOT:    (i32)

; Both: the constructor that registers the blob.
; MAP:         declare void @__lwp_register_module(ptr)
; MAP-EMPTY:
; MAP-NEXT:    ; Function Attrs: nounwind
; MAP-NEXT:    define internal void @__lwp_module_ctor() #[[#]] {
; MAP-NEXT:      call void @__lwp_register_module(ptr @[[MAP]])
; MAP-NEXT:      ret void
; MAP-NEXT:    }
; MAP-NOT:     __lwp_probe

; The debug locations of the probes are those of the input.
; MAP-DAG:     [[FN]] = !DILocation(line: 3,
; MAP-DAG:     [[LOOP]] = !DILocation(line: 5, column: 3,
; MAP-DAG:     [[END]] = !DILocation(line: 7, column: 3,
