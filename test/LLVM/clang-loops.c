// C through clang-22 with -fpass-plugin at -O0 and -O2: -mllvm flags reach
// the plugin, source locations come from debug info, probes are balanced
// and counted right at run time. The loop nest is kept from vectorization
// and unrolling, so that -O2 has the same loops as -O0: the plugin runs at
// the end of the optimizer and sees the final loops (a vectorized loop would
// be two regions, the vector loop and its scalar remainder; an unrolled outer
// loop would hold several copies of the inner loop). -lwp-no-lower keeps the
// target-independent probes for the checker and the C counting handler.
// RUN: clang -O0 -g -fno-discard-value-names -fpass-plugin=%lwp_llvm_plugin -mllvm -lwp-no-lower -mllvm -stats-level=70 \
// RUN:   -mllvm -max-loop-depth=1 -mllvm -lwp-map-file=%t.O0.json \
// RUN:   -S -emit-llvm %s -o %t.O0.ll
// RUN: clang -O2 -g -fno-discard-value-names -fpass-plugin=%lwp_llvm_plugin -mllvm -lwp-no-lower -mllvm -stats-level=70 \
// RUN:   -mllvm -max-loop-depth=1 -mllvm -lwp-map-file=%t.O2.json \
// RUN:   -S -emit-llvm %s -o %t.O2.ll
// RUN: opt -passes=verify -disable-output %t.O0.ll
// RUN: opt -passes=verify -disable-output %t.O2.ll
// RUN: %check_probes --ids-from-map %t.O0.ll | FileCheck %s --check-prefix=BAL
// RUN: %check_probes --ids-from-map %t.O2.ll | FileCheck %s --check-prefix=BAL
// RUN: FileCheck %s --check-prefix=MAP --input-file=%t.O0.json -DFILE=%s
// RUN: FileCheck %s --check-prefix=MAP --input-file=%t.O2.json -DFILE=%s
// RUN: grep -v "#dbg_" %t.O0.ll | FileCheck %s --check-prefix=IR0
// RUN: grep -v "#dbg_" %t.O2.ll | FileCheck %s --check-prefix=IR2
// RUN: clang -O0 %t.O0.ll %S/Inputs/probe-counter.c -o %t.O0.exe
// RUN: clang -O0 %t.O2.ll %S/Inputs/probe-counter.c -o %t.O2.exe
// RUN: %t.O0.exe | FileCheck %s --check-prefix=COUNT
// RUN: %t.O2.exe | FileCheck %s --check-prefix=COUNT

// BAL:      sum2d: balanced ids=[0, 1, 2]
// BAL-NEXT: find: balanced ids=[3, 4]
// BAL-NEXT: main: balanced ids=[5, 6]
// BAL-NEXT: map: 7 regions, all probed

volatile int Sink;

// MAP:      "id": 0,
// MAP-NEXT: "kind": "function",
// MAP-NEXT: "function": "sum2d",
// MAP:      "file": "[[FILE]]",
// MAP-NEXT: "line": [[@LINE+1]],
__attribute__((noinline)) int sum2d(const int *A, int N, int M) {
  int S = 0;
  // MAP:      "id": 1,
  // MAP-NEXT: "kind": "loop",
  // MAP-NEXT: "function": "sum2d",
  // MAP-NEXT: "depth": 0,
  // MAP-NEXT: "height": 1,
  // MAP-NEXT: "parent": 0,
  // MAP-NEXT: "file": "[[FILE]]",
  // MAP-NEXT: "line": [[@LINE+2]],
#pragma clang loop unroll(disable)
  for (int I = 0; I < N; ++I)
    // MAP:      "id": 2,
    // MAP-NEXT: "kind": "loop",
    // MAP-NEXT: "function": "sum2d",
    // MAP-NEXT: "depth": 1,
    // MAP-NEXT: "height": 0,
    // MAP-NEXT: "parent": 1,
    // MAP-NEXT: "file": "[[FILE]]",
    // MAP-NEXT: "line": [[@LINE+2]],
#pragma clang loop vectorize(disable) unroll(disable)
    for (int J = 0; J < M; ++J)
      S += A[I * M + J] + Sink;
  return S;
}

// Two exits (return inside the loop) and two returns.
__attribute__((noinline)) int find(const int *A, int N, int X) {
  for (int I = 0; I < N; ++I)
    if (A[I] == X)
      return I;
  return -1;
}

int Data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

volatile int Rounds = 3;

int main(void) {
  int S = 0, N = Rounds;
  for (int R = 0; R < N; ++R)
    S += sum2d(Data, 3, 4) + find(Data, 12, 5 + R);
  return S == 3 * 78 + 4 + 5 + 6 ? 0 : 1;
}

// At -O0 every function is optnone, and still instrumented; the loops keep
// clang's shape (for.cond header).
// IR0-LABEL: define {{.*}}i32 @sum2d(
// IR0:         notail call void @__lwp_probe_start(i32 0)
// IR0:         notail call void @__lwp_probe_start(i32 1)
// IR0-NEXT:    br label %for.cond
// IR0:       for.cond:
// IR0-NOT:     __lwp_probe
// IR0:         br i1 %{{.*}}, label %for.body, label %[[EXIT:.*]],
// IR0:       for.body:
// IR0:         notail call void @__lwp_probe_start(i32 2)
// IR0:       [[EXIT]]:
// IR0-NEXT:    notail call void @__lwp_probe_end(i32 1)
// IR0-LABEL: attributes #0 = { {{.*}}optnone

// At -O2 the probes land around the optimized (rotated) loops: the start of
// the inner loop in its preheader, inside the outer loop's body.
// IR2-LABEL: define {{.*}}i32 @sum2d(
// IR2:       entry:
// IR2-NEXT:    notail call void @__lwp_probe_start(i32 0)
// IR2:       for.cond1.preheader.lr.ph:
// IR2-NOT:     {{^[a-z]}}
// IR2:         notail call void @__lwp_probe_start(i32 1)
// IR2-NEXT:    br label %for.cond1.preheader
// IR2:       for.cond1.preheader:
// IR2-NOT:     __lwp_probe
// IR2:       for.body4.lr.ph:
// IR2-NOT:     {{^[a-z]}}
// IR2:         notail call void @__lwp_probe_start(i32 2)
// IR2-NEXT:    br label %for.body4
// IR2:       for.cond.cleanup.loopexit:
// IR2-NEXT:    notail call void @__lwp_probe_end(i32 1)
// IR2:       for.cond.cleanup:
// IR2-NEXT:    phi
// IR2-NEXT:    notail call void @__lwp_probe_end(i32 0)
// IR2-NEXT:    ret i32
// IR2:       for.cond.cleanup3.loopexit:
// IR2-NEXT:    notail call void @__lwp_probe_end(i32 2)
// IR2:       for.cond.cleanup3:
// IR2-NOT:     __lwp_probe
// IR2:         br i1 %{{.*}}, label %for.cond.cleanup.loopexit, label %for.cond1.preheader
// IR2:       for.body4:
// IR2-NOT:     __lwp_probe
// IR2:       {{^}$}}

// main runs sum2d 3 times (each: the outer loop once, the inner loop once per
// row: 3) and find 3 times; find's loop is left through `return` 3 times.
// COUNT:      lwp-count: id 0 starts 3 ends 3
// COUNT-NEXT: lwp-count: id 1 starts 3 ends 3
// COUNT-NEXT: lwp-count: id 2 starts 9 ends 9
// COUNT-NEXT: lwp-count: id 3 starts 3 ends 3
// COUNT-NEXT: lwp-count: id 4 starts 3 ends 3
// COUNT-NEXT: lwp-count: id 5 starts 1 ends 1
// COUNT-NEXT: lwp-count: id 6 starts 1 ends 1
// COUNT-NEXT: lwp-count: open 0 errors 0
