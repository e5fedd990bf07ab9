// The bundled model through the whole MLIR pipeline to machine code: one
// packet { r28 = r31; r14 = ##slot; call handler } per probe on Hexagon (PIC and
// non-PIC), a direct call with the slot address on x86-64 (PIC too) and
// AArch64; the map and its slots land in section lwp_map.
// RUN: lwp-opt %lwp_src_root/examples/model/conv_matmul.mlir --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=1" --lwp-to-llvm=target=hexagon | mlir-translate --mlir-to-llvmir -o %t.hex.ll
// RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 %t.hex.ll -o - | FileCheck %s --check-prefix=HEX
// RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 -relocation-model=pic %t.hex.ll -o - | FileCheck %s --check-prefix=HEX
// RUN: lwp-opt %lwp_src_root/examples/model/conv_matmul.mlir --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=1" --lwp-to-llvm=target=x86_64 | mlir-translate --mlir-to-llvmir -o %t.host.ll
// RUN: llc -mtriple=x86_64-linux-gnu -O2 %t.host.ll -o - | FileCheck %s --check-prefix=X86
// RUN: llc -mtriple=x86_64-linux-gnu -O2 -relocation-model=pic %t.host.ll -o - | FileCheck %s --check-prefix=X86
// RUN: llc -mtriple=aarch64-linux-gnu -O2 %t.host.ll -o - | FileCheck %s --check-prefix=A64

// Function region of conv2d (slot 0), then its first loop (slot 1): one
// packet holds the call and the constant-extended slot address, nothing else
// is needed. Slots are 16 bytes apart.
// HEX-LABEL: conv2d:
// HEX:       {
// HEX-DAG:     call __lwp_probe_start
// HEX-DAG:     r14 = ##[[MAP:__lwp_map\.[0-9a-f]+]]+[[S0:[0-9]+]]
// HEX-NEXT:  }
// HEX:       {
// HEX-DAG:     call __lwp_probe_start
// HEX-DAG:     r14 = ##[[MAP]]+{{[0-9]+}}
// HEX-NEXT:  }
// HEX:       call __lwp_probe_end
// The map and its slots: writable, 16-byte aligned, registered by a
// constructor of priority 1.
// HEX:       .section lwp_map,"aw",@progbits
// HEX-NEXT:  .p2align 4
// HEX-NEXT:  [[MAP]]:
// HEX:       {{\.(ascii|string)}} "LWPMAP\000\000\003\000\000
// HEX:       .section .init_array.1,"aw",@init_array
// HEX-NEXT:  .p2align 2
// HEX-NEXT:  .word __lwp_module_ctor

// The host handlers are hidden: a direct call, also in PIC (where the slot
// address is RIP-relative).
// X86-LABEL: conv2d:
// X86:       {{movl \$|leaq }}[[MAP:__lwp_map\.[0-9a-f]+]]+{{[0-9]+}}{{(\(%rip\))?}}, %{{e|r}}di
// X86-NEXT:  callq __lwp_probe_start
// X86:       {{movl \$|leaq }}[[MAP]]+{{[0-9]+}}{{(\(%rip\))?}}, %{{e|r}}di
// X86-NEXT:  callq __lwp_probe_start
// X86:       callq __lwp_probe_end
// X86:       .section lwp_map,"aw",@progbits
// X86:       .section .init_array.1,"aw",@init_array
// X86:       .hidden __lwp_probe_start

// A64-LABEL: conv2d:
// A64:       bl __lwp_probe_start
// A64:       bl __lwp_probe_end
// A64:       .section lwp_map,"aw",@progbits
