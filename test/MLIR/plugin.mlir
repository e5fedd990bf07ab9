// Stock mlir-opt loads the lwp dialect and passes from the plugin. Passes of
// a plugin are known once the plugin is loaded, after mlir-opt has made its
// --<pass> flags, so they are named in --pass-pipeline.
// RUN: mlir-opt %s --load-dialect-plugin=%lwp_mlir_plugin --load-pass-plugin=%lwp_mlir_plugin --pass-pipeline="builtin.module(lwp-instrument{stats-level=70 max-loop-depth=1})" | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%lwp_mlir_plugin --load-pass-plugin=%lwp_mlir_plugin --pass-pipeline="builtin.module(lwp-instrument,lwp-print-map)" -o /dev/null | FileCheck %s --check-prefix=MAP
// The plugin's pass has no lwp-id-base option (IDs are module-local).
// RUN: not mlir-opt %s --load-dialect-plugin=%lwp_mlir_plugin --load-pass-plugin=%lwp_mlir_plugin --pass-pipeline="builtin.module(lwp-instrument{lwp-id-base=5})" 2>&1 | FileCheck %s --check-prefix=NOBASE
// Without the plugin, mlir-opt knows no lwp pass.
// RUN: not mlir-opt %s --lwp-instrument 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK: module attributes {lwp.instrumentation_map = [#lwp.region<id = 0, kind = function, function = "f"
// CHECK-LABEL: func.func @f
// CHECK-NEXT:    lwp.probe_start function 0
// CHECK:         lwp.probe_start loop 1
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      lwp.probe_start loop 2
// CHECK-NEXT:      scf.for
// CHECK:           lwp.probe_end loop 2
// CHECK:         lwp.probe_end loop 1
// CHECK-NEXT:    lwp.probe_end function 0

// Default options (stats-level 70, max-loop-depth 0): IDs from 0.
// MAP:      0  function  f  -  -  -
// MAP-NEXT: 1  loop      f  0  1  0
// MAP-NOT:  {{^ *2 }}

// NOBASE: error: <Pass-Options-Parser>: no such option lwp-id-base
// NOBASE: failed to add `lwp-instrument` with options `lwp-id-base=5`

// NOPLUGIN: Unknown command line argument '--lwp-instrument'
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
    }
  }
  return
}
