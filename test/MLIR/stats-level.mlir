// Stats level boundaries: < 40 nothing, >= 40 functions, >= 70 loops by
// max-loop-depth, >= 100 every loop.
// Nest: @f { L0 { L1 { L2 } } L3 }.

// At 39 the output IR equals the input IR (no map attribute either).
// RUN: lwp-opt %s > %t.plain
// RUN: lwp-opt %s --lwp-instrument="stats-level=39" > %t.39
// RUN: diff %t.plain %t.39
// RUN: lwp-opt %s --lwp-instrument="stats-level=0" > %t.0
// RUN: diff %t.plain %t.0

// RUN: lwp-opt %s --lwp-instrument="stats-level=40" | FileCheck %s --check-prefix=FUNC
// RUN: lwp-opt %s --lwp-instrument="stats-level=69" | FileCheck %s --check-prefix=FUNC
// RUN: lwp-opt %s --lwp-instrument="stats-level=70" | FileCheck %s --check-prefix=L70
// RUN: lwp-opt %s --lwp-instrument="stats-level=99" | FileCheck %s --check-prefix=L70
// RUN: lwp-opt %s --lwp-instrument="stats-level=100" | FileCheck %s --check-prefix=L100
// The default is 70.
// RUN: lwp-opt %s --lwp-instrument | FileCheck %s --check-prefix=L70

// FUNC-LABEL: func.func @f
// FUNC-NEXT:    lwp.probe_start function 0
// FUNC-NOT:     lwp.probe_start loop
// FUNC-NOT:     lwp.probe_end loop
// FUNC:         lwp.probe_end function 0
// FUNC-NEXT:    return

// L70-LABEL: func.func @f
// L70-NEXT:    lwp.probe_start function 0
// L70:         lwp.probe_start loop 1
// L70-NEXT:    scf.for
// L70-NOT:     lwp.probe
// L70:         lwp.probe_end loop 1
// L70-NEXT:    lwp.probe_start loop 2
// L70-NEXT:    scf.for
// L70-NEXT:    }
// L70-NEXT:    lwp.probe_end loop 2
// L70-NEXT:    lwp.probe_end function 0
// L70-NEXT:    return

// L100-LABEL: func.func @f
// L100-NEXT:    lwp.probe_start function 0
// L100:         lwp.probe_start loop 1
// L100-NEXT:    scf.for
// L100-NEXT:      lwp.probe_start loop 2
// L100-NEXT:      scf.for
// L100-NEXT:        lwp.probe_start loop 3
// L100-NEXT:        scf.for
// L100-NEXT:        }
// L100-NEXT:        lwp.probe_end loop 3
// L100-NEXT:      }
// L100-NEXT:      lwp.probe_end loop 2
// L100-NEXT:    }
// L100-NEXT:    lwp.probe_end loop 1
// L100-NEXT:    lwp.probe_start loop 4
// L100-NEXT:    scf.for
// L100-NEXT:    }
// L100-NEXT:    lwp.probe_end loop 4
// L100-NEXT:    lwp.probe_end function 0

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
      }
    }
  }
  scf.for %l = %c0 to %n step %c1 {
  }
  return
}
