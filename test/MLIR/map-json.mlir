// The map as JSON (map-file), as the module attribute, and source locations
// taken through NameLoc, CallSiteLoc (the callee: where the code is written)
// and FusedLoc (its first known location).
// RUN: lwp-opt %s --lwp-instrument="max-loop-depth=1 map-file=%t.json" | FileCheck %s --check-prefix=ATTR
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: lwp-opt %s --lwp-instrument="max-loop-depth=1 map-file=-" -o /dev/null | FileCheck %s --check-prefix=JSON
// Below level 40 the map file is written, empty.
// RUN: lwp-opt %s --lwp-instrument="stats-level=10 map-file=%t.empty.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=EMPTY < %t.empty.json
// An unwritable path is one clear error.
// RUN: not lwp-opt %s --lwp-instrument="map-file=%t.missing/dir/map.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPATH

// ATTR: module attributes {lwp.instrumentation_map = [
// ATTR-SAME: #lwp.region<id = 0, kind = function, function = "f", file = "model.py", line = 3, column = 1>
// ATTR-SAME: #lwp.region<id = 1, kind = loop, function = "f", depth = 0, height = 1, parent = 0, file = "model.py", line = 10, column = 2>
// ATTR-SAME: #lwp.region<id = 2, kind = loop, function = "f", depth = 1, height = 0, parent = 1, file = "inlined.c", line = 1, column = 1>
// ATTR-SAME: #lwp.region<id = 3, kind = loop, function = "f", depth = 0, height = 0, parent = 0, file = "fused.cc", line = 30, column = 6>
// ATTR-SAME: #lwp.region<id = 4, kind = loop, function = "f", depth = 0, height = 0, parent = 0>
// ATTR-SAME: ]}

// JSON:      "version": 2
// JSON:      "id": 0
// JSON-NEXT: "kind": "function"
// JSON-NEXT: "function": "f"
// JSON-NEXT: "depth": null
// JSON-NEXT: "height": null
// JSON-NEXT: "parent": null
// JSON-NEXT: "file": "model.py"
// JSON-NEXT: "line": 3
// JSON-NEXT: "column": 1
// JSON:      "id": 1
// JSON-NEXT: "kind": "loop"
// JSON-NEXT: "function": "f"
// JSON-NEXT: "depth": 0
// JSON-NEXT: "height": 1
// JSON-NEXT: "parent": 0
// JSON-NEXT: "file": "model.py"
// JSON-NEXT: "line": 10
// JSON:      "id": 2
// JSON:      "file": "inlined.c"
// JSON:      "id": 3
// JSON:      "file": "fused.cc"
// JSON:      "id": 4
// JSON:      "file": ""
// JSON-NEXT: "line": 0

// EMPTY: "regions": []

// NOPATH: error: lwp-instrument: cannot open instrumentation map file '{{.*}}map.json'

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
    } loc(callsite("inlined.c":1:1 at "kernel.c":20:4))
  } loc("outer"("model.py":10:2))
  scf.for %i = %c0 to %n step %c1 {
  } loc(fused[unknown, "fused.cc":30:6, "other.cc":1:1])
  scf.for %i = %c0 to %n step %c1 {
  } loc(unknown)
  return
} loc("model.py":3:1)
