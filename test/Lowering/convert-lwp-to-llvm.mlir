// convert-lwp-to-llvm per target: the map becomes one writable global in the
// lwp_map section holding the blob and one 16-byte slot per region; each
// probe passes the address of its region's slot; a constructor registers the
// global with the runtime.
// RUN: lwp-opt %s --convert-lwp-to-llvm=target=hexagon | FileCheck %s --check-prefixes=COMMON,HEX
// RUN: lwp-opt %s --convert-lwp-to-llvm=target=x86_64 | FileCheck %s --check-prefixes=COMMON,HOST
// RUN: lwp-opt %s --convert-lwp-to-llvm=target=aarch64 | FileCheck %s --check-prefixes=COMMON,HOST
// RUN: not lwp-opt %s --convert-lwp-to-llvm=target=riscv64 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not lwp-opt %s --convert-lwp-to-llvm 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: sed 's/loop 1$/loop 2/' %s | not lwp-opt --convert-lwp-to-llvm=target=x86_64 2>&1 | FileCheck %s --check-prefix=NOTINMAP

// The host handlers take the slot address; they are hidden and dso_local, so
// calls bind in the image (never through a lazily bound PLT entry).
// HOST-DAG: llvm.func hidden preserve_allcc @__lwp_probe_start(!llvm.ptr) attributes {dso_local, memory_effects = #llvm.memory_effects<other = none, argMem = read, inaccessibleMem = readwrite{{.*}}>, no_unwind, will_return}
// HOST-DAG: llvm.func hidden preserve_allcc @__lwp_probe_end(!llvm.ptr)
// COMMON-NOT: lwp.instrumentation_map
// COMMON-NOT: lwp.probe

// Slots start at byte 144 of the blob (32-byte header, 2 x 48-byte entries,
// strings "f\0f.c\0\0", padding to 16): region 0 at 144, region 1 at 208
// (64-byte slots).
// COMMON-LABEL: func.func @f
// COMMON:        %[[M0:.*]] = llvm.mlir.addressof @[[MAP:__lwp_map\.[0-9a-f]+]] : !llvm.ptr
// COMMON-NEXT:   %[[S0:.*]] = llvm.getelementptr inbounds %[[M0]][144] : (!llvm.ptr) -> !llvm.ptr, i8
// HEX-NEXT:      llvm.inline_asm has_side_effects "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", "i,~{r14},~{r15},~{r28}" %[[S0]]
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_start(%[[S0]]) : (!llvm.ptr) -> ()
// COMMON:        %[[M1:.*]] = llvm.mlir.addressof @[[MAP]]
// COMMON-NEXT:   %[[S1:.*]] = llvm.getelementptr inbounds %[[M1]][208]
// HEX-NEXT:      llvm.inline_asm has_side_effects "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", {{.*}} %[[S1]]
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_start(%[[S1]])
// COMMON-NEXT:   scf.for
// COMMON:        %[[M2:.*]] = llvm.mlir.addressof @[[MAP]]
// COMMON-NEXT:   %[[S2:.*]] = llvm.getelementptr inbounds %[[M2]][208]
// HEX-NEXT:      llvm.inline_asm has_side_effects "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", {{.*}} %[[S2]]
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_end(%[[S2]])
// COMMON:        %[[M3:.*]] = llvm.mlir.addressof @[[MAP]]
// COMMON-NEXT:   %[[S3:.*]] = llvm.getelementptr inbounds %[[M3]][144]
// HEX-NEXT:      llvm.inline_asm has_side_effects "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", {{.*}} %[[S3]]
// HOST-NEXT:     llvm.call preserve_allcc notail @__lwp_probe_end(%[[S3]])
// COMMON-NEXT:   return
// The map: magic "LWPMAP", version 3, size 272, 2 regions, strings at 128,
// slots at 144; the string table; 128 zero bytes of slots. Internal,
// writable, 16-byte aligned, in section lwp_map.
// COMMON: llvm.mlir.global internal @[[MAP]]("LWPMAP\00\00\03\00\00\00\10\01\00\00\02\00\00\00\80\00\00\00\90\00\00\00{{.*}}f\00f.c\00{{(\\00)+}}") {addr_space = 0 : i32, alignment = 16 : i64, section = "lwp_map"}
// The map is kept through LTO by @llvm.compiler.used.
// COMMON-NEXT: llvm.mlir.global appending @llvm.compiler.used() {addr_space = 0 : i32, section = "llvm.metadata"} : !llvm.array<1 x ptr> {
// COMMON-NEXT: llvm.mlir.addressof @[[MAP]] : !llvm.ptr
// The constructor registers the map at priority 1.
// COMMON:      llvm.func @__lwp_register_module(!llvm.ptr)
// COMMON-NEXT: llvm.func internal @__lwp_module_ctor() attributes {no_unwind} {
// COMMON-NEXT:   %[[B:.*]] = llvm.mlir.addressof @[[MAP]] : !llvm.ptr
// COMMON-NEXT:   llvm.call @__lwp_register_module(%[[B]]) : (!llvm.ptr) -> ()
// COMMON:      llvm.mlir.global_ctors ctors = [@__lwp_module_ctor], priorities = [1 : i32]

// BADTARGET: error: convert-lwp-to-llvm: unsupported LWP target 'riscv64' (supported: hexagon, x86_64, aarch64)
// NOTARGET: error: convert-lwp-to-llvm: no target given and the module has no 'llvm.target_triple' (supported targets: hexagon, x86_64, aarch64)
// NOTINMAP: error: convert-lwp-to-llvm: region ID 2 is not in the module's instrumentation map

module attributes {lwp.instrumentation_map = [
  #lwp.region<id = 0, kind = function, function = "f", file = "f.c", line = 1, column = 1>,
  #lwp.region<id = 1, kind = loop, function = "f", depth = 0, height = 0, parent = 0, file = "f.c", line = 2, column = 3>]} {
  func.func @f(%n: index) {
    lwp.probe_start function 0
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    lwp.probe_start loop 1
    scf.for %i = %c0 to %n step %c1 {
    }
    lwp.probe_end loop 1
    lwp.probe_end function 0
    return
  }
}
