// Operator regions (issue 13): lwp-mark-operators, before the lowering to
// loops, tags every structured op (linalg named and generic ops, and any op
// with the lwp.operator attribute); after the lowering, lwp-instrument wraps
// the ops each one became in an operator region, and the loops carry their
// operator. The name comes from a NameLoc or the attribute's string.
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument="max-loop-depth=0 map-file=%t.json" --mlir-print-debuginfo=false | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument="max-loop-depth=0" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP
// Lowered to the LLVM dialect, the map blob (version 3) holds the operator
// strings.
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument --lwp-to-llvm=target=x86_64 | FileCheck %s --check-prefix=LLVM
// Below stats level 70 there are no operator regions (function regions only).
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument="stats-level=40" | FileCheck %s --check-prefix=FUNCS
// Without the tagging pass, no op is known after the lowering: loops only.
// RUN: lwp-opt %s --convert-linalg-to-loops --lwp-instrument --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=UNTAGGED
// Tagging twice tags nothing twice.
// RUN: lwp-opt %s --lwp-mark-operators --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: func.func @model
// CHECK-NEXT:  lwp.probe_start function 0
// CHECK:       lwp.probe_start operator 1
// CHECK-NEXT:  lwp.probe_start loop 2
// CHECK-NEXT:  scf.for
// CHECK:       lwp.probe_end loop 2
// CHECK-NEXT:  lwp.probe_end operator 1
// CHECK-NEXT:  lwp.probe_start operator 3
// CHECK-NEXT:  lwp.probe_start loop 4
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      scf.for
// CHECK:       lwp.probe_end loop 4
// CHECK-NEXT:  lwp.probe_end operator 3
// CHECK-NEXT:  lwp.probe_start operator 5
// CHECK-NEXT:  lwp.probe_start loop 6
// CHECK:       lwp.probe_end loop 6
// CHECK-NEXT:  lwp.probe_end operator 5
// CHECK-NEXT:  lwp.probe_start operator 7
// CHECK-NEXT:  call @kernel
// CHECK-NEXT:  lwp.probe_end operator 7
// CHECK-NEXT:  lwp.probe_end function 0
// CHECK-NEXT:  return

// MAP:      ID  kind      function  depth  height  parent  location {{.*}}operator
// MAP-NEXT:  0  function  model         -       -       -  {{.*}}operators.mlir:{{[0-9]+}}:1 -
// MAP-NEXT:  1  operator  model         -       -       0  {{.*}}operators.mlir:{{[0-9]+}}:3 linalg.fill
// MAP-NEXT:  2  loop      model         0       1       1  {{.*}}operators.mlir:{{[0-9]+}}:3 linalg.fill
// MAP-NEXT:  3  operator  model         -       -       0  model.py:10:3 linalg.matmul "dense"
// MAP-NEXT:  4  loop      model         0       2       3  model.py:10:3 linalg.matmul "dense"
// MAP-NEXT:  5  operator  model         -       -       0  {{.*}}operators.mlir:{{[0-9]+}}:3 linalg.generic "relu"
// MAP-NEXT:  6  loop      model         0       1       5  {{.*}}operators.mlir:{{[0-9]+}}:3 linalg.generic "relu"
// MAP-NEXT:  7  operator  model         -       -       0  {{.*}}operators.mlir:{{[0-9]+}}:3 func.call "custom"
// MAP-NOT:   {{^ *8 }}

// JSON:      "version": 2
// JSON:      "id": 3,
// JSON-NEXT: "kind": "operator",
// JSON:      "operator": "linalg.matmul",
// JSON-NEXT: "operator_name": "dense",
// JSON-NEXT: "operators": [
// JSON-NEXT:   "linalg.matmul \"dense\""
// JSON-NEXT: ]
// JSON:      "id": 4,
// JSON-NEXT: "kind": "loop",
// JSON:      "operator": "linalg.matmul",
// JSON-NEXT: "operator_name": "dense",

// LLVM: llvm.call preserve_allcc notail @__lwp_probe_start
// LLVM: llvm.mlir.global internal @__lwp_map{{.*}}"LWPMAP\00\00\03\00{{.*}}linalg.fill\00model.py\00linalg.matmul\00dense\00linalg.matmul \22dense\22\00
// LLVM-NOT: lwp.probe_start

// FUNCS-NOT:   lwp.probe_start operator
// FUNCS:       lwp.probe_start function 0
// FUNCS-NOT:   lwp.probe_start operator

// UNTAGGED:      ID  kind      function  depth  height  parent  location
// UNTAGGED-NEXT:  0  function  model
// UNTAGGED-NEXT:  1  loop      model         0       1       0
// UNTAGGED-NEXT:  2  loop      model         0       2       0
// UNTAGGED-NEXT:  3  loop      model         0       1       0
// UNTAGGED-NOT:  {{linalg|operator }}

#id = affine_map<(i, j) -> (i, j)>
func.func private @kernel(memref<4x4xf32>)
func.func @model(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>)
      outs(%c : memref<4x4xf32>) loc("dense"("model.py":10:3))
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"],
                  lwp.operator = "relu"} outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  func.call @kernel(%c) {lwp.operator = "custom"} : (memref<4x4xf32>) -> ()
  return
}
