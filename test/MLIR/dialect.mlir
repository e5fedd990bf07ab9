// The lwp dialect parses, verifies and prints back its probes and its map
// attribute; a second round trip prints the same text.
// RUN: lwp-opt %s | FileCheck %s
// RUN: lwp-opt %s | lwp-opt | FileCheck %s
// RUN: lwp-opt %s -mlir-print-op-generic | lwp-opt | FileCheck %s

// CHECK: module attributes {lwp.instrumentation_map = [#lwp.region<id = 0, kind = function, function = "f", file = "f.c", line = 1, column = 2>, #lwp.region<id = 1, kind = loop, function = "f", depth = 0, height = 0, parent = 0>]}
module attributes {lwp.instrumentation_map = [
  #lwp.region<id = 0, kind = function, function = "f", file = "f.c", line = 1, column = 2>,
  #lwp.region<id = 1, kind = loop, function = "f", depth = 0, height = 0, parent = 0>]} {
  // CHECK-LABEL: func.func @f
  // CHECK-NEXT:    lwp.probe_start function 0
  // CHECK-NEXT:    arith.constant 0
  // CHECK-NEXT:    arith.constant 1
  // CHECK-NEXT:    lwp.probe_start loop 1
  // CHECK-NEXT:    scf.for
  // CHECK:         lwp.probe_end loop 1
  // CHECK-NEXT:    lwp.probe_start loop 2 {note = "extra"}
  // CHECK-NEXT:    lwp.probe_start loop 3
  // CHECK-NEXT:    lwp.probe_end loop 3
  // CHECK-NEXT:    lwp.probe_end loop 2
  // CHECK-NEXT:    lwp.probe_end function 0
  // CHECK-NEXT:    return
  func.func @f(%n: index) {
    lwp.probe_start function 0
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    lwp.probe_start loop 1
    scf.for %i = %c0 to %n step %c1 {
    }
    lwp.probe_end loop 1
    lwp.probe_start loop 2 {note = "extra"}
    lwp.probe_start loop 3
    lwp.probe_end loop 3
    lwp.probe_end loop 2
    lwp.probe_end function 0
    return
  }
}
