// Verifier errors of the lwp dialect.
// RUN: lwp-opt %s -split-input-file -verify-diagnostics

func.func @negative_id() {
  // expected-error @+1 {{attribute 'id' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  lwp.probe_start loop -1
  lwp.probe_end loop -1
  return
}

// -----

func.func @unknown_kind() {
  // expected-error @+1 {{expected region kind 'function', 'loop' or 'operator', got 'block'}}
  lwp.probe_start block 1
  return
}

// -----

func.func @start_without_end() {
  // expected-error @+1 {{'lwp.probe_start' op has no matching lwp.probe_end loop 4 in the same block}}
  lwp.probe_start loop 4
  return
}

// -----

func.func @end_without_start() {
  // expected-error @+1 {{'lwp.probe_end' op has no matching lwp.probe_start loop 5 in the same block}}
  lwp.probe_end loop 5
  return
}

// -----

func.func @other_block(%c: i1) {
  // expected-error @+1 {{has no matching lwp.probe_end loop 6 in the same block}}
  lwp.probe_start loop 6
  cf.br ^bb1
^bb1:
  lwp.probe_end loop 6
  return
}

// -----

func.func @crossed() {
  // expected-error @+1 {{probes are not properly nested: lwp.probe_end loop 1 pairs with lwp.probe_start loop 2}}
  lwp.probe_start loop 1
  lwp.probe_start loop 2
  lwp.probe_end loop 1
  lwp.probe_end loop 2
  return
}

// -----

func.func @function_probe_inside_loop_pair() {
  lwp.probe_start function 0
  // expected-error @+1 {{probes are not properly nested: lwp.probe_end function 0 stands between this probe and its partner}}
  lwp.probe_start loop 1
  lwp.probe_end function 0
  lwp.probe_end loop 1
  return
}

// -----

func.func @function_start_not_in_entry(%c: i1) {
  cf.br ^bb1
^bb1:
  // expected-error @+1 {{of a function region must stand in the entry block}}
  lwp.probe_start function 0
  lwp.probe_end function 0
  return
}

// -----

func.func @function_end_not_before_return(%c: i1) {
  lwp.probe_start function 0
  // expected-error @+1 {{of a function region must stand in a block that returns}}
  lwp.probe_end function 0
  cf.br ^bb1
^bb1:
  return
}

// -----

func.func @function_probe_nested(%c: i1) {
  scf.if %c {
    // expected-error @+1 {{of a function region must stand directly in a function body}}
    lwp.probe_start function 0
  }
  return
}

// -----

// expected-error @+1 {{'lwp.instrumentation_map' must be an array of #lwp.region}}
module attributes {lwp.instrumentation_map = 3 : i32} {
}

// -----

// expected-error @+1 {{'lwp.instrumentation_map' must list region IDs in increasing order, but 1 follows 2}}
module attributes {lwp.instrumentation_map = [
  #lwp.region<id = 2, kind = function, function = "f">,
  #lwp.region<id = 1, kind = function, function = "g">]} {
}

// -----

// expected-error @+1 {{a loop region must have a depth and a height}}
module attributes {lwp.instrumentation_map = [#lwp.region<id = 1, kind = loop, function = "f">]} {
}

// -----

// expected-error @+1 {{parent region 4 must have an ID below 3}}
module attributes {lwp.instrumentation_map = [#lwp.region<id = 3, kind = function, function = "f", parent = 4>]} {
}

// -----

// expected-error @+1 {{region ID 2147483648 is above the largest region ID 2147483647}}
module attributes {lwp.instrumentation_map = [#lwp.region<id = 2147483648, kind = function, function = "f">]} {
}

// -----

// expected-error @+1 {{'lwp.instrumentation_map' may only be attached to a builtin.module}}
func.func @map_on_function() attributes {lwp.instrumentation_map = []} {
  return
}

// -----

// expected-error @+1 {{unknown lwp attribute 'lwp.other'}}
module attributes {lwp.other = 1} {
}
