// Every selection option, on @conv { L0 { L1 { L2 } L3 } } and
// @matmul { L4 { L5 } }. Rows: ID kind function depth height parent.
// RUN: lwp-opt %S/Inputs/nest.mlir --lwp-instrument="max-loop-depth=1" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=DEPTH1
// RUN: lwp-opt %S/Inputs/nest.mlir --lwp-instrument="max-loop-depth=1 lwp-min-loop-height=1" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=HEIGHT1
// RUN: lwp-opt %S/Inputs/nest.mlir --lwp-instrument="lwp-instrument-siblings" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=SIBLINGS
// RUN: lwp-opt %S/Inputs/nest.mlir --lwp-instrument="lwp-no-function-regions" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=NOFUNC
// RUN: lwp-opt %S/Inputs/nest.mlir --lwp-instrument="lwp-function-filter=^mat" --lwp-print-map -o /dev/null | FileCheck %s --check-prefix=FILTER
// Same options through the pipeline syntax.
// RUN: lwp-opt %S/Inputs/nest.mlir --pass-pipeline="builtin.module(lwp-instrument{stats-level=100 lwp-min-loop-height=1},lwp-print-map)" -o /dev/null | FileCheck %s --check-prefix=HEIGHT1

// DEPTH1:      0  function  conv    -  -  -
// DEPTH1-NEXT: 1  loop      conv    0  2  0
// DEPTH1-NEXT: 2  loop      conv    1  1  1
// DEPTH1-NEXT: 3  loop      conv    1  0  1
// DEPTH1-NEXT: 4  function  matmul  -  -  -
// DEPTH1-NEXT: 5  loop      matmul  0  1  4
// DEPTH1-NEXT: 6  loop      matmul  1  0  5
// DEPTH1-NOT:  7

// HEIGHT1:      0  function  conv    -  -  -
// HEIGHT1-NEXT: 1  loop      conv    0  2  0
// HEIGHT1-NEXT: 2  loop      conv    1  1  1
// HEIGHT1-NEXT: 3  function  matmul  -  -  -
// HEIGHT1-NEXT: 4  loop      matmul  0  1  3
// HEIGHT1-NOT:  5

// L1 and L3 are siblings deeper than max depth 0; L2 and L5 are only children.
// SIBLINGS:      0  function  conv    -  -  -
// SIBLINGS-NEXT: 1  loop      conv    0  2  0
// SIBLINGS-NEXT: 2  loop      conv    1  1  1
// SIBLINGS-NEXT: 3  loop      conv    1  0  1
// SIBLINGS-NEXT: 4  function  matmul  -  -  -
// SIBLINGS-NEXT: 5  loop      matmul  0  1  4
// SIBLINGS-NOT:  6

// NOFUNC:      0  loop  conv    0  2  -
// NOFUNC-NEXT: 1  loop  matmul  0  1  -
// NOFUNC-NOT:  function

// FILTER:      0  function  matmul  -  -  -
// FILTER-NEXT: 1  loop      matmul  0  1  0
// FILTER-NOT:  conv
