; -stats-level boundaries on Inputs/forest.ll: < 40 nothing at all; 40..69
; function regions; 70..99 loops up to -max-loop-depth (0); >= 100 every loop.
; Remarks name each region and ID; the balance checker checks the probes.
; DEFINE: %{lwp} = opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-instrument \
; DEFINE:   -pass-remarks=lwp -pass-remarks-missed=lwp %S/Inputs/forest.ll -S

; The default level (0) and 39: the module is unchanged, no remark.
; RUN: %{lwp} -o %t.0.ll 2>&1 | count 0
; RUN: opt -S %S/Inputs/forest.ll -o %t.orig.ll
; RUN: diff %t.orig.ll %t.0.ll
; RUN: %{lwp} -stats-level=39 -o %t.39.ll 2>&1 | count 0
; RUN: diff %t.orig.ll %t.39.ll

; RUN: %{lwp} -stats-level=40 -o %t.40.ll 2>&1 | FileCheck %s --check-prefix=L40
; RUN: %{lwp} -stats-level=69 -o %t.69.ll 2>&1 | FileCheck %s --check-prefix=L40
; RUN: %check_probes --ids-from-map %t.40.ll | FileCheck %s --check-prefix=B40
; RUN: %check_probes --ids-from-map %t.69.ll | FileCheck %s --check-prefix=B40
; L40-COUNT-5: loop %{{.*}} not instrumented: stats-level too low for this region kind
; L40-NEXT:    instrumented function forest as region 0 (1 ret/resume)
; L40-NEXT:    instrumented function flat as region 1 (1 ret/resume)
; L40-NOT:     remark
; B40:      forest: balanced ids=[0]
; B40-NEXT: flat: balanced ids=[1]
; B40-NEXT: map: 2 regions, all probed

; RUN: %{lwp} -stats-level=70 -o %t.70.ll 2>&1 | FileCheck %s --check-prefix=L70
; RUN: %{lwp} -stats-level=99 -o %t.99.ll 2>&1 | FileCheck %s --check-prefix=L70
; RUN: %check_probes --ids-from-map %t.70.ll | FileCheck %s --check-prefix=B70
; RUN: %check_probes --ids-from-map %t.99.ll | FileCheck %s --check-prefix=B70
; L70:      instrumented loop %A (depth 0, height 1) as region 1 (parent 0, 1 exit blocks)
; L70-NEXT: loop %A1 (depth 1, height 0) not instrumented: depth above max-loop-depth
; L70-NEXT: instrumented loop %B (depth 0, height 1) as region 2 (parent 0, 1 exit blocks)
; L70-NEXT: loop %B1 (depth 1, height 0) not instrumented: depth above max-loop-depth
; L70-NEXT: loop %B2 (depth 1, height 0) not instrumented: depth above max-loop-depth
; L70-NEXT: instrumented function forest as region 0
; L70-NEXT: instrumented function flat as region 3
; B70:      forest: balanced ids=[0, 1, 2]
; B70-NEXT: flat: balanced ids=[3]
; B70-NEXT: map: 4 regions, all probed

; RUN: %{lwp} -stats-level=100 -o %t.100.ll 2>&1 | FileCheck %s --check-prefix=L100
; RUN: %check_probes --ids-from-map %t.100.ll | FileCheck %s --check-prefix=B100
; RUN: opt -passes=verify -disable-output %t.40.ll
; RUN: opt -passes=verify -disable-output %t.70.ll
; RUN: opt -passes=verify -disable-output %t.100.ll
; L100:      instrumented loop %A (depth 0, height 1) as region 1 (parent 0,
; L100-NEXT: instrumented loop %A1 (depth 1, height 0) as region 2 (parent 1,
; L100-NEXT: instrumented loop %B (depth 0, height 1) as region 3 (parent 0,
; L100-NEXT: instrumented loop %B1 (depth 1, height 0) as region 4 (parent 3,
; L100-NEXT: instrumented loop %B2 (depth 1, height 0) as region 5 (parent 3,
; L100-NEXT: instrumented function forest as region 0
; L100-NEXT: instrumented function flat as region 6
; B100:      forest: balanced ids=[0, 1, 2, 3, 4, 5]
; B100-NEXT: flat: balanced ids=[6]
; B100-NEXT: map: 7 regions, all probed
