; The instrumentation map: the JSON file of -lwp-map-file, the copy kept in
; the module as !lwp.instrumentation_map = !{!{i32 2, !"<json>"}}, and the
; refusal to instrument a module twice.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 \
; RUN:   -lwp-instrument-siblings -lwp-map-file=%t.json %S/Inputs/forest.ll -S -o %t.ll
; RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
; RUN: FileCheck %s --check-prefix=MD --input-file=%t.ll

; Rows in ID order; no debug info, so no source location.
; JSON:      {
; JSON-NEXT:   "version": 2,
; JSON-NEXT:   "regions": [
; JSON-NEXT:     {
; JSON-NEXT:       "id": 0,
; JSON-NEXT:       "kind": "function",
; JSON-NEXT:       "function": "forest",
; JSON-NEXT:       "depth": null,
; JSON-NEXT:       "height": null,
; JSON-NEXT:       "parent": null,
; JSON-NEXT:       "file": "",
; JSON-NEXT:       "line": 0,
; JSON-NEXT:       "column": 0,
; JSON-NEXT:       "operator": null,
; JSON-NEXT:       "operator_name": null,
; JSON-NEXT:       "operators": []
; JSON-NEXT:     },
; JSON-NEXT:     {
; JSON-NEXT:       "id": 1,
; JSON-NEXT:       "kind": "loop",
; JSON-NEXT:       "function": "forest",
; JSON-NEXT:       "depth": 0,
; JSON-NEXT:       "height": 1,
; JSON-NEXT:       "parent": 0,
; JSON:            "id": 2,
; JSON-NEXT:       "kind": "loop",
; JSON-NEXT:       "function": "forest",
; JSON-NEXT:       "depth": 0,
; JSON-NEXT:       "height": 1,
; JSON-NEXT:       "parent": 0,
; JSON:            "id": 3,
; JSON-NEXT:       "kind": "loop",
; JSON-NEXT:       "function": "forest",
; JSON-NEXT:       "depth": 1,
; JSON-NEXT:       "height": 0,
; JSON-NEXT:       "parent": 2,
; JSON:            "id": 4,
; JSON-NEXT:       "kind": "loop",
; JSON-NEXT:       "function": "forest",
; JSON-NEXT:       "depth": 1,
; JSON-NEXT:       "height": 0,
; JSON-NEXT:       "parent": 2,
; JSON:            "id": 5,
; JSON-NEXT:       "kind": "function",
; JSON-NEXT:       "function": "flat",
; JSON-NEXT:       "depth": null,
; JSON-NEXT:       "height": null,
; JSON-NEXT:       "parent": null,
; JSON-NOT:        "id"

; MD: !lwp.instrumentation_map = !{![[MAP:[0-9]+]]}
; MD: ![[MAP]] = !{i32 2, !"{\22version\22:2,\22regions\22:[{\22id\22:0,\22kind\22:\22function\22,\22function\22:\22forest\22,{{.*}}{\22id\22:5,\22kind\22:\22function\22,\22function\22:\22flat\22,\22depth\22:null,\22height\22:null,\22parent\22:null,\22file\22:\22\22,\22line\22:0,\22column\22:0,\22operator\22:null,\22operator_name\22:null,\22operators\22:[]}]}"}

; A second run is refused with a clear error, from the map metadata...
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 \
; RUN:   %t.ll -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
; TWICE: error: lwp-instrument: module '{{.*}}' is already instrumented (it carries !lwp.instrumentation_map or calls __lwp_probe_start/__lwp_probe_end); run the pass once
; ...or from probe calls alone (the metadata was stripped).
; RUN: grep -v '^!lwp.instrumentation_map' %t.ll > %t.stripped.ll
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 \
; RUN:   %t.stripped.ll -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
; Below level 40 the pass does nothing, so an instrumented module passes.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument %t.ll -S -o /dev/null

; A stats level that selects nothing still writes an (empty) map when asked.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=10 \
; RUN:   -lwp-map-file=%t.empty.json %S/Inputs/forest.ll -S -o %t.none.ll
; RUN: FileCheck %s --check-prefix=EMPTY --input-file=%t.empty.json
; RUN: grep -v -e '^; ModuleID' -e '^source_filename' %t.none.ll \
; RUN:   | FileCheck %s --check-prefix=NONE
; EMPTY: "regions": []
; NONE-NOT: lwp

; A probe function declared with another type is an error, not a crash.
; RUN: echo 'declare i32 @__lwp_probe_start(i64)' > %t.wrong.ll
; RUN: not opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument -stats-level=70 \
; RUN:   %t.wrong.ll -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONG
; WRONG: error: lwp-instrument: '__lwp_probe_start' is declared with another type than void(i32)
