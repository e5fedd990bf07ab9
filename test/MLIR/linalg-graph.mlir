// The bundled conv2d + matmul graph (examples/model/conv_matmul.mlir),
// bufferized and lowered to loops by the demo's pipeline, instrumented at
// stats-level 70 with max-loop-depth 1: probes match the loop tree.
// conv2d: fill nest (h, w, f) and conv nest (oh, ow, f, kh, kw, c) after the
// unit batch loop is folded away; dense: fill loop (n) and matmul (n, k).
// RUN: lwp-opt %lwp_src_root/examples/model/conv_matmul.mlir --lwp-linalg-to-loops --lwp-instrument="stats-level=70 max-loop-depth=1" > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: lwp-opt %t.mlir --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP
// Same input, same IDs: a second run prints the same IR.
// RUN: lwp-opt %lwp_src_root/examples/model/conv_matmul.mlir --lwp-linalg-to-loops --lwp-instrument="stats-level=70 max-loop-depth=1" | diff - %t.mlir

// CHECK-LABEL: func.func @conv2d
// CHECK-NEXT:    lwp.probe_start function 0
// CHECK:         lwp.probe_start loop 1
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      lwp.probe_start loop 2
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          memref.store
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      lwp.probe_end loop 2
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 1
// CHECK-NEXT:    lwp.probe_start loop 3
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      lwp.probe_start loop 4
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            scf.for
// CHECK-NEXT:              scf.for
// CHECK-NOT:     lwp.probe
// CHECK:           lwp.probe_end loop 4
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 3
// CHECK-NEXT:    lwp.probe_end function 0
// CHECK-NEXT:    return

// CHECK-LABEL: func.func @dense
// CHECK-NEXT:    lwp.probe_start function 5
// CHECK:         lwp.probe_start loop 6
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 6
// CHECK-NEXT:    lwp.probe_start loop 7
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      lwp.probe_start loop 8
// CHECK-NEXT:      scf.for
// CHECK:           lwp.probe_end loop 8
// CHECK-NEXT:    }
// CHECK-NEXT:    lwp.probe_end loop 7
// CHECK-NEXT:    lwp.probe_end function 5

// CHECK-LABEL: func.func @graph
// CHECK-NEXT:    lwp.probe_start function 9
// CHECK-NOT:     lwp.probe_start
// CHECK:         lwp.probe_end function 9
// CHECK-NEXT:    return

// MAP:      ID  kind      function  depth  height  parent  location
// MAP-NEXT:  0  function  conv2d        -       -       -  {{.*}}conv_matmul.mlir:4:1
// MAP-NEXT:  1  loop      conv2d        0       2       0  {{.*}}conv_matmul.mlir:8:11
// MAP-NEXT:  2  loop      conv2d        1       1       1  {{.*}}conv_matmul.mlir:8:11
// MAP-NEXT:  3  loop      conv2d        0       5       0  {{.*}}conv_matmul.mlir:10:10
// MAP-NEXT:  4  loop      conv2d        1       4       3  {{.*}}conv_matmul.mlir:10:10
// MAP-NEXT:  5  function  dense         -       -       -  {{.*}}conv_matmul.mlir:17:1
// MAP-NEXT:  6  loop      dense         0       0       5  {{.*}}conv_matmul.mlir:21:11
// MAP-NEXT:  7  loop      dense         0       1       5  {{.*}}conv_matmul.mlir:23:10
// MAP-NEXT:  8  loop      dense         1       0       7  {{.*}}conv_matmul.mlir:23:10
// MAP-NEXT:  9  function  graph         -       -       -  {{.*}}conv_matmul.mlir:28:1
// MAP-EMPTY:
