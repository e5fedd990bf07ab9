// lwp-legalize-mask-select: a select of masks on one i1 condition (what
// lowering a multi-dimensional vector.create_mask makes, and what LLVM 22's
// Hexagon instruction selection crashes on) becomes selects on the
// condition splat to the mask's lanes, element by element for arrays of
// masks; selects of other types stay. Then llc compiles it for Hexagon.
// RUN: lwp-opt %s --pass-pipeline='builtin.module(llvm.func(lwp-legalize-mask-select))' | FileCheck %s
// RUN: lwp-opt %s --pass-pipeline='builtin.module(llvm.func(lwp-legalize-mask-select))' | mlir-translate --mlir-to-llvmir | llc -O2 -mtriple=hexagon-unknown-linux-musl -mcpu=hexagonv67 -o /dev/null

// CHECK-LABEL: llvm.func @mask
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: vector<8xi1>, %[[B:.*]]: vector<8xi1>)
// CHECK: %[[P:.*]] = llvm.mlir.poison : vector<8xi1>
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[I:.*]] = llvm.insertelement %[[C]], %[[P]][%[[Z]] : i64] : vector<8xi1>
// CHECK: %[[S:.*]] = llvm.shufflevector %[[I]], %[[P]] [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi1>
// CHECK: %[[R:.*]] = llvm.select %[[S]], %[[A]], %[[B]] : vector<8xi1>, vector<8xi1>
// CHECK: llvm.return %[[R]]
llvm.func @mask(%c: i1, %a: vector<8xi1>, %b: vector<8xi1>) -> vector<8xi1> {
  %r = llvm.select %c, %a, %b : i1, vector<8xi1>
  llvm.return %r : vector<8xi1>
}

// CHECK-LABEL: llvm.func @masks
// CHECK-COUNT-4: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi1>
// CHECK-NOT: llvm.select
// CHECK: llvm.return
llvm.func @masks(%c: i1, %a: !llvm.array<4 x vector<8xi1>>) -> !llvm.array<4 x vector<8xi1>> {
  %z = llvm.mlir.zero : !llvm.array<4 x vector<8xi1>>
  %r = llvm.select %c, %a, %z : i1, !llvm.array<4 x vector<8xi1>>
  llvm.return %r : !llvm.array<4 x vector<8xi1>>
}

// CHECK-LABEL: llvm.func @others
// CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, vector<8xf32>
// CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi1>
llvm.func @others(%c: i1, %v: vector<8xi1>, %a: vector<8xf32>, %b: vector<8xi1>) -> vector<8xi1> {
  %f = llvm.select %c, %a, %a : i1, vector<8xf32>
  %r = llvm.select %v, %b, %b : vector<8xi1>, vector<8xi1>
  llvm.return %r : vector<8xi1>
}
