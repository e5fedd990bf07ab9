// lwp-opt takes the profiler's compiler flags, with the LLVM plugin's names:
// they put lwp-instrument into the pass list after the lowering to loops (or
// before the lowering to LLVM, or last), and instrument exactly as the pass
// options do.
// RUN: lwp-opt %s --lwp-mark-operators --lwp-linalg-to-loops --lwp-instrument="stats-level=70 max-loop-depth=1" > %t.options.mlir
// RUN: lwp-opt %s --lwp-linalg-to-loops -stats-level=70 -max-loop-depth=1 > %t.flags.mlir
// RUN: diff %t.options.mlir %t.flags.mlir
// RUN: lwp-opt %s -stats-level=70 --max-loop-depth 1 --lwp-linalg-to-loops > %t.flags-first.mlir
// RUN: diff %t.options.mlir %t.flags-first.mlir
// RUN: FileCheck %s --input-file=%t.flags.mlir
// Every selection flag, and the map file.
// RUN: lwp-opt %s --lwp-linalg-to-loops -stats-level=100 -lwp-min-loop-height=1 -lwp-no-function-regions -lwp-function-filter=^mm$ -lwp-map-file=%t.map.json | FileCheck %s --check-prefix=SELECT
// RUN: FileCheck %s --check-prefix=MAP --input-file=%t.map.json
// Without a lowering to loops, before the lowering to LLVM: probes lowered.
// RUN: lwp-opt %s --lwp-linalg-to-loops --lwp-to-llvm=target=x86_64 -stats-level=40 | FileCheck %s --check-prefix=LOWERED
// Errors: one line each.
// RUN: not lwp-opt %s --lwp-instrument -stats-level=70 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not lwp-opt %s --pass-pipeline="builtin.module(lwp-linalg-to-loops)" -stats-level=70 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not lwp-opt %s -max-loop-depth 2>&1 | FileCheck %s --check-prefix=NOVALUE

// With a lowering of linalg in the pipeline, the flags also tag the
// structured ops first (lwp-mark-operators): the matmul gets an operator
// region around its loops.
// CHECK: lwp.instrumentation_map
// CHECK-LABEL: func.func @mm
// CHECK: lwp.probe_start function 0
// CHECK: lwp.probe_start operator 1
// CHECK-NEXT: lwp.probe_start loop 2
// CHECK: lwp.probe_start loop 3
// SELECT-LABEL: func.func @mm
// SELECT-NOT: lwp.probe_start function
// SELECT: lwp.probe_start operator 0
// SELECT: lwp.probe_start loop 1
// SELECT: lwp.probe_start loop 2
// SELECT-NOT: lwp.probe_start
// MAP: "regions":
// MAP: "kind": "operator"
// MAP-COUNT-2: "kind": "loop"
// MAP-NOT: "kind"
// LOWERED-NOT: lwp.probe
// LOWERED: llvm.call preserve_allcc notail @__lwp_probe_start
// BOTH: lwp-opt: error: give the profiler flags or --lwp-instrument, not both
// PIPELINE: lwp-opt: error: the profiler flags do not combine with --pass-pipeline; put lwp-instrument{...} into the pipeline
// NOVALUE: lwp-opt: error: -max-loop-depth needs a value

func.func @mm(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
