// The bundled model through the whole MLIR pipeline to machine code: one
// packet { r0 = #id; call handler } per probe on Hexagon (PIC and non-PIC),
// a plain call on x86-64 and AArch64; the map lands in section lwp_map.
// RUN: lwp-opt %lwp_src_root/examples/model/conv_matmul.mlir --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=1" --lwp-to-llvm=target=hexagon | mlir-translate --mlir-to-llvmir -o %t.hex.ll
// RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 %t.hex.ll -o - | FileCheck %s --check-prefix=HEX
// RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 -relocation-model=pic %t.hex.ll -o - | FileCheck %s --check-prefix=HEX
// RUN: lwp-opt %lwp_src_root/examples/model/conv_matmul.mlir --lwp-linalg-to-loops --lwp-instrument="max-loop-depth=1" --lwp-to-llvm=target=x86_64 | mlir-translate --mlir-to-llvmir -o %t.host.ll
// RUN: llc -mtriple=x86_64-linux-gnu -O2 %t.host.ll -o - | FileCheck %s --check-prefix=X86
// RUN: llc -mtriple=aarch64-linux-gnu -O2 %t.host.ll -o - | FileCheck %s --check-prefix=A64

// Function region of conv2d (ID 0), then its first loop (ID 1); the packet
// holds the call and the ID, nothing else is needed.
// HEX-LABEL: conv2d:
// HEX:       {
// HEX-DAG:     call __lwp_probe_start
// HEX-DAG:     r0 = #0
// HEX:       }
// HEX:       {
// HEX-DAG:     call __lwp_probe_start
// HEX-DAG:     r0 = #1
// HEX:       }
// HEX:       call __lwp_probe_end
// HEX:       .section lwp_map,"a",@progbits
// HEX-NEXT:  .globl __lwp_map.0.
// HEX-NEXT:  .p2align 3
// HEX:       {{\.(ascii|string)}} "LWPMAP\000\000\001\000\000

// X86-LABEL: conv2d:
// X86:       xorl %edi, %edi
// X86-NEXT:  callq __lwp_probe_start
// X86:       movl $1, %edi
// X86-NEXT:  callq __lwp_probe_start
// X86:       callq __lwp_probe_end
// X86:       .section lwp_map,"a",@progbits

// A64-LABEL: conv2d:
// A64:       mov w0, wzr
// A64:       bl __lwp_probe_start
// A64:       bl __lwp_probe_end
// A64:       .section lwp_map,"a",@progbits
