// lwp-instruction-threshold=N: a function whose body holds fewer than N ops
// (every nested op, terminators included) and no selected loop gets no
// function region; a larger one keeps it, and so does a small function that
// holds a selected loop. The module records the threshold and the count, and
// the lowering puts them into the map blob (version 4).
// RUN: lwp-opt %s --lwp-instrument="lwp-instruction-threshold=10 map-file=%t.json" \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: lwp-opt %s --lwp-instrument="lwp-instruction-threshold=10" --lwp-print-map \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=MAP
// The lwp-opt flag of the same name (lwp-instrument goes last).
// RUN: lwp-opt %s -lwp-instruction-threshold=10 | FileCheck %s --check-prefix=IR
// At 13, @large (12 ops) is small too.
// RUN: lwp-opt %s --lwp-instrument="lwp-instruction-threshold=13" --lwp-print-map \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=MAP13
// The default, 0, keeps every function and adds no attribute.
// RUN: lwp-opt %s --lwp-instrument --lwp-print-map | FileCheck %s --check-prefix=MAP0
// Lowered: version 4 blob, the summary after the 3 entries (word 28 = 176):
// 1 small function, threshold 10 (0x0a).
// RUN: lwp-opt %s -lwp-instruction-threshold=10 --convert-lwp-to-llvm=target=x86_64 \
// RUN:   | FileCheck %s --check-prefix=LOWER
// A bad value is one error line.
// RUN: not lwp-opt %s -lwp-instruction-threshold=-3 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// IR: module attributes {lwp.instruction_threshold = 10 : i32, lwp.instrumentation_map = [{{.*}}], lwp.small_functions = 1 : i32}
// IR-LABEL: func.func @tiny(
// IR-NOT:     lwp.probe_start
// IR:         return
// IR-LABEL: func.func @large(
// IR-NEXT:    lwp.probe_start function 0
// IR-LABEL: func.func @small_loop(
// IR-NEXT:    lwp.probe_start function 1
// IR:         lwp.probe_start loop 2
// IR:         scf.for
// IR:         lwp.probe_end loop 2
// IR:         lwp.probe_end function 1

// JSON:      "instruction_threshold": 10,
// JSON-NEXT: "small_functions": 1
// JSON-NEXT: }

// MAP:      0  function  large       -  -  -
// MAP-NEXT: 1  function  small_loop  -  -  -
// MAP-NEXT: 2  loop      small_loop  0  0  1
// MAP-NEXT: 1 small function not instrumented (below -lwp-instruction-threshold=10)

// MAP13:      0  function  small_loop  -  -  -
// MAP13-NEXT: 1  loop      small_loop  0  0  0
// MAP13-NEXT: 2 small functions not instrumented (below -lwp-instruction-threshold=13)

// MAP0-NOT:  lwp.small_functions
// MAP0:      0  function  tiny        -  -  -
// MAP0-NEXT: 1  function  large       -  -  -
// MAP0-NOT:  small function

// LOWER-NOT: lwp.small_functions
// LOWER: llvm.mlir.global internal @__lwp_map{{.*}}("LWPMAP\00\00\04\00\00\00{{.*}}\03\00\00\00{{.*}}\B0\00\00\00{{.*}}\01\00\00\00\0A\00\00\00large\00

// BAD: for the --lwp-instruction-threshold option: '-3' value invalid for uint argument!

func.func @tiny(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %a, %c1 : i32
  return %r : i32
}

func.func @large(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %a : i32
  %2 = arith.subi %1, %b : i32
  %3 = arith.xori %2, %0 : i32
  %4 = arith.ori %3, %1 : i32
  %5 = arith.andi %4, %2 : i32
  %6 = arith.addi %5, %3 : i32
  %7 = arith.muli %6, %6 : i32
  %8 = arith.subi %7, %4 : i32
  %9 = arith.xori %8, %5 : i32
  %10 = arith.addi %9, %6 : i32
  return %10 : i32
}

func.func @small_loop(%m: memref<4xi32>, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %m[%i] : memref<4xi32>
  }
  return
}
