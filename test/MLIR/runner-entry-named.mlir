// lwp-runner-entry=entry=NAME (lwp-run -e NAME, mlir-runner's -e): a new
// @main calls the entry and prints its result as mlir-runner does.
// RUN: lwp-opt %s -split-input-file -verify-diagnostics --lwp-runner-entry=entry=entry \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @entry() -> f32
// CHECK-LABEL: func.func @main() -> i32 {
// CHECK-NEXT:    %[[R:.*]] = call @entry() : () -> f32
// CHECK-NEXT:    call @printF32(%[[R]]) : (f32) -> ()
// CHECK-NEXT:    call @printNewline() : () -> ()
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[Z]] : i32
func.func @entry() -> f32 {
  %v = arith.constant 1.5 : f32
  return %v : f32
}

// -----

// A void entry: main calls it and returns 0.
// CHECK-LABEL: func.func @main() -> i32 {
// CHECK-NEXT:    call @entry() : () -> ()
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[Z]] : i32
func.func @entry() {
  return
}

// -----

func.func @entry() {
  return
}
// expected-error @below {{@main beside the entry function @entry: rename one of them}}
func.func @main() {
  return
}

// -----

// expected-error @below {{entry function @entry has type '() -> f64'; an mlir-runner entry takes no arguments and returns nothing, i32, i64 or f32}}
func.func @entry() -> f64 {
  %v = arith.constant 1.5 : f64
  return %v : f64
}
