// A function region starts at entry and ends before every return; empty
// functions, functions without loops and declarations.
// RUN: lwp-opt %s --lwp-instrument | FileCheck %s

// CHECK-LABEL: func.func @several_returns
// CHECK-NEXT:    lwp.probe_start function 0
// CHECK-NEXT:    cf.cond_br
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    lwp.probe_end function 0
// CHECK-NEXT:    return %{{.*}} : i32
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    lwp.probe_end function 0
// CHECK-NEXT:    return %{{.*}} : i32
func.func @several_returns(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %z = arith.constant 0 : i32
  return %z : i32
}

// CHECK-LABEL: func.func @empty()
// CHECK-NEXT:    lwp.probe_start function 1
// CHECK-NEXT:    lwp.probe_end function 1
// CHECK-NEXT:    return
func.func @empty() {
  return
}

// CHECK-LABEL: func.func @no_loops
// CHECK-NEXT:    lwp.probe_start function 2
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    lwp.probe_end function 2
// CHECK-NEXT:    return
func.func @no_loops(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32
}

// A declaration has no body and no region.
// CHECK-LABEL: func.func private @decl(i32) -> i32
// CHECK-NOT:   lwp.probe
func.func private @decl(i32) -> i32

// The returns of nested regions (scf.yield) are not function returns.
// CHECK-LABEL: func.func @yield_is_not_return
// CHECK-NEXT:    lwp.probe_start function 3
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end function 3
// CHECK-NEXT:    return
func.func @yield_is_not_return(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}
