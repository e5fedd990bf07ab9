// Operator work (flops, bytes read and written per execution) that a
// frontend computed from the shapes and wrote into the operator tag
// (lwp.flops, lwp.bytes_read, lwp.bytes_written): lwp-mark-operators keeps
// the tag, and the operator region's row carries the figures in the map
// attribute, the map JSON, the printed map and the lowered blob (version 4,
// with a work table). Loops and operators without figures get none.
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument="max-loop-depth=0 map-file=%t.json" --mlir-print-debuginfo=false | FileCheck %s --check-prefix=ATTR
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument="max-loop-depth=0" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP
// RUN: lwp-opt %s --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument --lwp-to-llvm=target=x86_64 | FileCheck %s --check-prefix=LLVM
// The figures survive the tag's round trip through the printed IR.
// RUN: lwp-opt %s --lwp-mark-operators -mlir-print-debuginfo | lwp-opt --convert-linalg-to-loops --lwp-instrument="max-loop-depth=0" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=MAP
// Without figures, the map is as before: no work column, no work keys.
// RUN: lwp-opt %S/operators.mlir --lwp-mark-operators --convert-linalg-to-loops --lwp-instrument="max-loop-depth=0 map-file=%t.plain.json" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=PLAIN
// RUN: FileCheck %s --check-prefix=PLAIN-JSON --input-file=%t.plain.json

// ATTR:      #lwp.region<id = 1, kind = operator, function = "model", parent = 0, file = "x.onnx.txt", line = 3, op = "onnx.Conv", op_name = "conv1", ops = "onnx.Conv \22conv1\22", flops = 1000, bytes_read = 400, bytes_written = 200>
// ATTR-SAME: #lwp.region<id = 2, kind = loop, function = "model", depth = 0, height = 6, parent = 1, file = "x.onnx.txt", line = 3, op = "onnx.Conv", op_name = "conv1", ops = "onnx.Conv \22conv1\22">
// ATTR-SAME: #lwp.region<id = 3, kind = operator, function = "model", parent = 0, file = "x.onnx.txt", line = 4, op = "onnx.Relu", op_name = "relu1", ops = "onnx.Relu \22relu1\22", flops = 16>
// ATTR-SAME: #lwp.region<id = 5, kind = operator, function = "model", parent = 0, {{.*}}op = "linalg.generic", op_name = "plain", ops = "linalg.generic \22plain\22">

// JSON:      "id": 1,
// JSON-NEXT: "kind": "operator",
// JSON:      "operator": "onnx.Conv",
// JSON-NEXT: "operator_name": "conv1",
// JSON-NEXT: "operators": [
// JSON-NEXT:   "onnx.Conv \"conv1\""
// JSON-NEXT: ],
// JSON-NEXT: "flops": 1000,
// JSON-NEXT: "bytes_read": 400,
// JSON-NEXT: "bytes_written": 200
// JSON-NEXT: },
// JSON-NEXT: {
// JSON-NEXT: "id": 2,
// JSON-NEXT: "kind": "loop",
// JSON:      "operators": [
// JSON-NEXT:   "onnx.Conv \"conv1\""
// JSON-NEXT: ]
// JSON-NEXT: },
// JSON:      "id": 3,
// JSON:      "operators": [
// JSON-NEXT:   "onnx.Relu \"relu1\""
// JSON-NEXT: ],
// JSON-NEXT: "flops": 16
// JSON-NEXT: },
// JSON:      "id": 5,
// JSON:      "operators": [
// JSON-NEXT:   "linalg.generic \"plain\""
// JSON-NEXT: ]
// JSON-NEXT: },
// JSON-NOT:  "flops"

// MAP:      ID  kind      function  depth  height  parent  flops  bytes read  bytes written  location              operator
// MAP-NEXT:  0  function  model         -       -       -      -           -              -  {{.*}}operators-work.mlir:{{[0-9]+}}:1 -
// MAP-NEXT:  1  operator  model         -       -       0   1000         400            200  x.onnx.txt:3:0 onnx.Conv "conv1"
// MAP-NEXT:  2  loop      model         0       6       1      -           -              -  x.onnx.txt:3:0 onnx.Conv "conv1"
// MAP-NEXT:  3  operator  model         -       -       0     16           -              -  x.onnx.txt:4:0 onnx.Relu "relu1"
// MAP-NEXT:  4  loop      model         0       1       3      -           -              -  x.onnx.txt:4:0 onnx.Relu "relu1"
// MAP-NEXT:  5  operator  model         -       -       0      -           -              -  {{.*}}operators-work.mlir:{{[0-9]+}}:3 linalg.generic "plain"
// MAP-NEXT:  6  loop      model         0       1       5      -           -              -  {{.*}}operators-work.mlir:{{[0-9]+}}:3 linalg.generic "plain"
// MAP-NOT:  {{^ *7 }}

// The blob is version 4: its summary (0 small functions, threshold 0) and
// the work table (2 records: region 1 with all three figures, region 3 with
// flops only) lie between the 7 entries and the strings.
// LLVM: llvm.mlir.global internal @__lwp_map{{.*}}"LWPMAP\00\00\04\00\00\00{{.*}}\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\01\00\00\00\07\00\00\00\E8\03\00\00\00\00\00\00\90\01\00\00\00\00\00\00\C8\00\00\00\00\00\00\00\03\00\00\00\01\00\00\00\10\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00model\00

// PLAIN:      ID  kind      function  depth  height  parent  location {{.*}}operator
// PLAIN-NOT:  flops
// PLAIN-JSON-NOT: "flops"
// PLAIN-JSON-NOT: "bytes_read"

#id = affine_map<(i, j) -> (i, j)>
func.func @model(%in: memref<1x4x6x6xf32>, %w: memref<8x4x3x3xf32>,
                 %out: memref<1x8x4x4xf32>, %a: memref<4x4xf32>) {
  linalg.conv_2d_nchw_fchw ins(%in, %w : memref<1x4x6x6xf32>, memref<8x4x3x3xf32>)
      outs(%out : memref<1x8x4x4xf32>)
      loc(fused<{lwp.op = "onnx.Conv", lwp.instance = 0 : i64, lwp.name = "conv1", lwp.flops = 1000 : i64, lwp.bytes_read = 400 : i64, lwp.bytes_written = 200 : i64}>["x.onnx.txt":3:0])
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%a : memref<4x4xf32>) {
  ^bb0(%x: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } loc(fused<{lwp.op = "onnx.Relu", lwp.instance = 1 : i64, lwp.name = "relu1", lwp.flops = 16 : i64, lwp.bytes_read = -1 : i64}>["x.onnx.txt":4:0])
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"],
                  lwp.operator = "plain"} outs(%a : memref<4x4xf32>) {
  ^bb0(%x: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %x, %one : f32
    linalg.yield %r : f32
  }
  return
}
