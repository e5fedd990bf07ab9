// convert-lwp-to-llvm per target: probes become handler calls, the map
// becomes a constant in the lwp_map section.
// RUN: lwp-opt %s --convert-lwp-to-llvm=target=hexagon | FileCheck %s --check-prefixes=COMMON,HEX
// RUN: lwp-opt %s --convert-lwp-to-llvm=target=x86_64 | FileCheck %s --check-prefixes=COMMON,HOST
// RUN: lwp-opt %s --convert-lwp-to-llvm=target=aarch64 | FileCheck %s --check-prefixes=COMMON,HOST
// RUN: not lwp-opt %s --convert-lwp-to-llvm=target=riscv64 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not lwp-opt %s --convert-lwp-to-llvm 2>&1 | FileCheck %s --check-prefix=NOTARGET

// HEX-DAG: llvm.mlir.global internal constant @__lwp_handler_name.__lwp_probe_start("__lwp_probe_start\00")
// HEX-DAG: llvm.mlir.global internal constant @__lwp_handler_name.__lwp_probe_end("__lwp_probe_end\00")
// HOST-DAG: llvm.func preserve_allcc @__lwp_probe_start(i32) attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = readwrite{{.*}}>, no_unwind, will_return}
// HOST-DAG: llvm.func preserve_allcc @__lwp_probe_end(i32)
// COMMON-NOT: lwp.instrumentation_map
// COMMON-NOT: lwp.probe

// COMMON-LABEL: func.func @f
// COMMON:        %[[ID7:.*]] = llvm.mlir.constant(7 : i32) : i32
// HEX-NEXT:      %[[N7:.*]] = llvm.mlir.addressof @__lwp_handler_name.__lwp_probe_start : !llvm.ptr
// HEX-NEXT:      llvm.call_intrinsic "llvm.hexagon.instrprof.custom"(%[[N7]], %[[ID7]]) : (!llvm.ptr, i32) -> ()
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_start(%[[ID7]]) : (i32) -> ()
// COMMON:        %[[ID8:.*]] = llvm.mlir.constant(8 : i32) : i32
// HEX-NEXT:      %[[N8:.*]] = llvm.mlir.addressof @__lwp_handler_name.__lwp_probe_start : !llvm.ptr
// HEX-NEXT:      llvm.call_intrinsic "llvm.hexagon.instrprof.custom"(%[[N8]], %[[ID8]])
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_start(%[[ID8]])
// COMMON-NEXT:   scf.for
// COMMON:        %[[E8:.*]] = llvm.mlir.constant(8 : i32) : i32
// HEX-NEXT:      %[[EN8:.*]] = llvm.mlir.addressof @__lwp_handler_name.__lwp_probe_end : !llvm.ptr
// HEX-NEXT:      llvm.call_intrinsic "llvm.hexagon.instrprof.custom"(%[[EN8]], %[[E8]])
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_end(%[[E8]])
// COMMON:        %[[E7:.*]] = llvm.mlir.constant(7 : i32) : i32
// HEX-NEXT:      %[[EN7:.*]] = llvm.mlir.addressof @__lwp_handler_name.__lwp_probe_end : !llvm.ptr
// HEX-NEXT:      llvm.call_intrinsic "llvm.hexagon.instrprof.custom"(%[[EN7]], %[[E7]])
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_end(%[[E7]])
// COMMON-NEXT:   return
// The map, at the end of the module: magic "LWPMAP", version 1, 2 regions,
// the string table; hidden, 8-byte aligned, in section lwp_map.
// COMMON: llvm.mlir.global external hidden constant @__lwp_map.7.{{.*}}("LWPMAP\00\00\01\00\00\00{{.*}}\02\00\00\00{{.*}}f\00f.c\00{{.*}}") {addr_space = 0 : i32, alignment = 8 : i64, section = "lwp_map"}
// The map is kept through LTO by @llvm.compiler.used.
// COMMON-NEXT: llvm.mlir.global appending @llvm.compiler.used() {addr_space = 0 : i32, section = "llvm.metadata"} : !llvm.array<1 x ptr> {
// COMMON-NEXT: llvm.mlir.addressof @__lwp_map.7.{{.*}} : !llvm.ptr

// BADTARGET: error: convert-lwp-to-llvm: unsupported LWP target 'riscv64' (supported: hexagon, x86_64, aarch64)
// NOTARGET: error: convert-lwp-to-llvm: no target given and the module has no 'llvm.target_triple' (supported targets: hexagon, x86_64, aarch64)

module attributes {lwp.instrumentation_map = [
  #lwp.region<id = 7, kind = function, function = "f", file = "f.c", line = 1, column = 1>,
  #lwp.region<id = 8, kind = loop, function = "f", depth = 0, height = 0, parent = 7, file = "f.c", line = 2, column = 3>]} {
  func.func @f(%n: index) {
    lwp.probe_start function 7
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    lwp.probe_start loop 8
    scf.for %i = %c0 to %n step %c1 {
    }
    lwp.probe_end loop 8
    lwp.probe_end function 7
    return
  }
}
