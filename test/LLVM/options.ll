; Every selection flag on Inputs/forest.ll (A { A1 }, B { B1, B2 }; @flat).
; Remarks show each region's ID, header, depth, height and parent; the
; balance checker shows the probed IDs per function.
; DEFINE: %{lwp} = opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; DEFINE:   -pass-remarks=lwp %S/Inputs/forest.ll -S

; -max-loop-depth=1: both levels.
; RUN: %{lwp} -stats-level=70 -max-loop-depth=1 -o %t.d1.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEPTH1
; RUN: %check_probes --ids-from-map %t.d1.ll | FileCheck %s --check-prefix=BDEPTH1
; DEPTH1:      loop %A (depth 0, height 1) as region 1 (parent 0,
; DEPTH1-NEXT: loop %A1 (depth 1, height 0) as region 2 (parent 1,
; DEPTH1-NEXT: loop %B (depth 0, height 1) as region 3 (parent 0,
; DEPTH1-NEXT: loop %B1 (depth 1, height 0) as region 4 (parent 3,
; DEPTH1-NEXT: loop %B2 (depth 1, height 0) as region 5 (parent 3,
; DEPTH1-NEXT: function forest as region 0
; DEPTH1-NEXT: function flat as region 6
; BDEPTH1: forest: balanced ids=[0, 1, 2, 3, 4, 5]

; -lwp-instrument-siblings: B1 and B2 (siblings) below the max depth, not A1.
; RUN: %{lwp} -stats-level=70 -lwp-instrument-siblings -o %t.sib.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SIB
; RUN: %check_probes --ids-from-map %t.sib.ll | FileCheck %s --check-prefix=BSIB
; SIB:      loop %A (depth 0, height 1) as region 1 (parent 0,
; SIB-NEXT: loop %B (depth 0, height 1) as region 2 (parent 0,
; SIB-NEXT: loop %B1 (depth 1, height 0) as region 3 (parent 2,
; SIB-NEXT: loop %B2 (depth 1, height 0) as region 4 (parent 2,
; SIB-NEXT: function forest as region 0
; BSIB: forest: balanced ids=[0, 1, 2, 3, 4]

; -lwp-min-loop-height=1 at level 100: no innermost loop.
; RUN: %{lwp} -stats-level=100 -lwp-min-loop-height=1 -pass-remarks-missed=lwp \
; RUN:   -o %t.h1.ll 2>&1 | FileCheck %s --check-prefix=HEIGHT
; HEIGHT:      loop %A (depth 0, height 1) as region 1 (parent 0,
; HEIGHT-NEXT: loop %A1 (depth 1, height 0) not instrumented: height below lwp-min-loop-height
; HEIGHT-NEXT: loop %B (depth 0, height 1) as region 2 (parent 0,
; HEIGHT-NEXT: loop %B1 (depth 1, height 0) not instrumented: height below lwp-min-loop-height
; HEIGHT-NEXT: loop %B2 (depth 1, height 0) not instrumented: height below lwp-min-loop-height
; HEIGHT-NEXT: function forest as region 0

; -lwp-no-function-regions: loops only, IDs from 0, no parent.
; RUN: %{lwp} -stats-level=70 -lwp-no-function-regions -pass-remarks-missed=lwp \
; RUN:   -o %t.nofn.ll 2>&1 | FileCheck %s --check-prefix=NOFN
; RUN: %check_probes --ids-from-map %t.nofn.ll | FileCheck %s --check-prefix=BNOFN
; NOFN:      loop %A (depth 0, height 1) as region 0 (parent -,
; NOFN:      loop %B (depth 0, height 1) as region 1 (parent -,
; NOFN:      function forest not instrumented: lwp-no-function-regions
; NOFN-NEXT: function flat not instrumented: lwp-no-function-regions
; BNOFN:      forest: balanced ids=[0, 1]
; BNOFN-NEXT: flat: balanced ids=[]
; BNOFN-NEXT: map: 2 regions, all probed

; A filter that matches no function: the empty map and nothing else, not
; even declarations of the probe functions.
; RUN: %{lwp} -stats-level=70 -lwp-function-filter=nomatch | FileCheck %s --check-prefix=NOMATCH
; NOMATCH-NOT: __lwp_probe
; NOMATCH:     !lwp.instrumentation_map = !{![[M:[0-9]+]]}
; NOMATCH-NOT: __lwp_probe
; NOMATCH:     ![[M]] = !{i32 2, !"{\22version\22:2,\22regions\22:[]}"}

; -lwp-function-filter: a searched regex; the other function is untouched.
; RUN: %{lwp} -stats-level=70 '-lwp-function-filter=^fl' -pass-remarks-missed=lwp \
; RUN:   -o %t.filter.ll 2>&1 | FileCheck %s --check-prefix=FILTER
; RUN: %check_probes --ids-from-map %t.filter.ll | FileCheck %s --check-prefix=BFILTER
; FILTER:      loop %A (depth 0, height 1) not instrumented: function does not match lwp-function-filter
; FILTER:      function forest not instrumented: function does not match lwp-function-filter
; FILTER-NEXT: instrumented function flat as region 0
; BFILTER:      forest: balanced ids=[]
; BFILTER-NEXT: flat: balanced ids=[0]
; BFILTER-NEXT: map: 1 regions, all probed

; RUN: opt -passes=verify -disable-output %t.d1.ll
; RUN: opt -passes=verify -disable-output %t.sib.ll
; RUN: opt -passes=verify -disable-output %t.h1.ll
; RUN: opt -passes=verify -disable-output %t.nofn.ll
; RUN: opt -passes=verify -disable-output %t.filter.ll
