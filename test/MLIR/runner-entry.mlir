// lwp-runner-entry (issue 22): the entry function of a module written for
// mlir-runner becomes the program's C main with exit status 0; a result is
// printed as mlir-runner prints it (printI64 / printF32, printNewline).
// RUN: lwp-opt %s -split-input-file -verify-diagnostics --lwp-runner-entry | FileCheck %s

// A void @main returns i32 0 at every return.
// CHECK-LABEL: func.func @main() -> i32 {
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[Z]] : i32
// CHECK:         %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[Z2]] : i32
func.func @main() {
  %c = arith.constant 1 : i1
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
}

// -----

// An i32 result is printed through printI64; the program exits 0.
// CHECK-LABEL: func.func @main() -> i32 {
// CHECK:         %[[V:.*]] = arith.constant 42 : i32
// CHECK-NEXT:    %[[W:.*]] = arith.extsi %[[V]] : i32 to i64
// CHECK-NEXT:    call @printI64(%[[W]]) : (i64) -> ()
// CHECK-NEXT:    call @printNewline() : () -> ()
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    return %[[Z]] : i32
// CHECK: func.func private @printI64(i64)
// CHECK: func.func private @printNewline()
func.func @main() -> i32 {
  %v = arith.constant 42 : i32
  return %v : i32
}

// -----

// A module without the entry (another module holds it) is left alone.
// CHECK: func.func @helper() {
// CHECK-NOT: func.func @main
func.func @helper() {
  return
}

// -----

// expected-error @below {{entry function @main has type '(i32) -> ()'; an mlir-runner entry takes no arguments and returns nothing, i32, i64 or f32}}
func.func @main(%x: i32) {
  return
}

// -----

func.func @main() {
  return
}
func.func @f() {
  // expected-error @below {{@main is the program's entry: the module must not call it}}
  call @main() : () -> ()
  return
}
