// lwp-transform-schedule's diagnostics point at the user's file and line:
// a transform that fails, and a schedule without the entry point (erased
// unapplied, with a warning).
// RUN: lwp-opt %s -split-input-file -verify-diagnostics --lwp-transform-schedule \
// RUN:   | FileCheck %s --check-prefix=ERASED

func.func @f(%A: memref<16x16xf32>, %B: memref<16x16xf32>,
             %C: memref<16x16xf32>) {
  // expected-note @below {{payload operation}}
  linalg.matmul ins(%A, %B : memref<16x16xf32>, memref<16x16xf32>)
                outs(%C : memref<16x16xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{incompatible payload operation name}}
    %g = transform.cast %mm : !transform.any_op to !transform.op<"linalg.generic">
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
func.func @g() {
  return
}

// A schedule the user calls through another entry point is not run.
// expected-warning @below {{transform schedule without an entry point @__transform_main: erased without running}}
transform.named_sequence @other(%root: !transform.any_op {transform.readonly}) {
  transform.yield
}
}
// ERASED-NOT: transform.
// ERASED: func.func @g()
// ERASED-NOT: transform.
