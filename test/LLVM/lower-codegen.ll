; lwp-lower's output through llc 22 (Inputs/lower/probes.ll: function region
; 7, loop region 8). Hexagon, PIC and non-PIC: each probe is one packet
; { call <handler>; r0 = #id }, and the loop between the probes stays a
; hardware loop. x86-64 and AArch64: a plain call of the handler with the ID
; in the first argument register; values live across the calls stay in
; caller-saved registers (preserve_all), and the probe before the ret is a
; call, not a tail jump. The map is one blob in section lwp_map.
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=hexagon %S/Inputs/lower/probes.ll -o %t.hex.bc
; RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 %t.hex.bc -o - | FileCheck %s --check-prefixes=HEX,SEC
; RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 -relocation-model=pic %t.hex.bc -o - \
; RUN:   | FileCheck %s --check-prefixes=HEX,SEC
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %S/Inputs/lower/probes.ll -o %t.host.bc
; RUN: llc -mtriple=x86_64-linux-gnu -O2 %t.host.bc -o - | FileCheck %s --check-prefixes=X86,SEC
; RUN: llc -mtriple=aarch64-linux-gnu -O2 %t.host.bc -o - | FileCheck %s --check-prefixes=A64,SEC
; The same object from clang -c: the section is allocated ("A"), holds the
; 120-byte blob, and keeps it when stripped.
; RUN: clang --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -O2 -c %t.hex.bc -o %t.hex.o
; RUN: llvm-readelf -S %t.hex.o | FileCheck %s --check-prefix=ELF
; RUN: llvm-objdump -s -j lwp_map %t.hex.o | FileCheck %s --check-prefix=DUMP
; RUN: clang --target=x86_64-linux-gnu -O2 -c %t.host.bc -o %t.host.o
; RUN: llvm-readelf -S %t.host.o | FileCheck %s --check-prefix=ELF
; RUN: llvm-objdump -s -j lwp_map %t.host.o | FileCheck %s --check-prefix=DUMP
; RUN: llvm-objdump -d -r %t.host.o | FileCheck %s --check-prefix=RELOC

; A probe's call and its ID are in one packet: no "}" between them.
; HEX-LABEL: sum:
; HEX:         call __lwp_probe_start
; HEX-NOT:   }
; HEX:         r0 = #7
; HEX:       }
; The handler keeps every register but r0: n (r1) and the pointer (copied to
; r2) are used after the call without a save.
; HEX-NEXT:  .loc
; HEX-NEXT:  {
; HEX-NEXT:    p0 = cmp.gt(r1,#0)
; HEX:         call __lwp_probe_start
; HEX-NOT:   }
; HEX:         r0 = #8
; HEX:       }
; HEX:         loop0(.LBB0_[[#]],
; HEX:         r1 = memw(r2++#4)
; HEX:       } :endloop0
; HEX:         call __lwp_probe_end
; HEX-NOT:   }
; HEX:         r0 = #8
; HEX:       }
; HEX:         call __lwp_probe_end
; HEX-NOT:   }
; HEX:         r0 = #7
; HEX-NEXT:  }
; HEX-NEXT:  {
; HEX-NEXT:    r0 = r1
; HEX-NEXT:    dealloc_return
; HEX-NOT:   call __lwp_probe
; HEX-NOT:   instrprof

; X86-LABEL: sum:
; X86:         movq %rdi, %rcx
; X86:         movl $7, %edi
; X86-NEXT:    callq __lwp_probe_start@PLT
; X86-NEXT:    testl %esi, %esi
; X86:         movl $8, %edi
; X86-NEXT:    callq __lwp_probe_start@PLT
; X86:         addl (%rcx), %eax
; X86:         movl $8, %edi
; X86-NEXT:    callq __lwp_probe_end@PLT
; X86:         movl $7, %edi
; X86-NEXT:    callq __lwp_probe_end@PLT
; X86-NEXT:    popq
; X86-NOT:     jmp
; X86:         retq

; A64-LABEL: sum:
; A64:         mov x10, x0
; A64:         mov w0, #7
; A64:         bl __lwp_probe_start
; A64:         mov w0, #8
; A64-NEXT:    bl __lwp_probe_start
; A64:         ldr w8, [x10], #4
; A64:         mov w0, #8
; A64-NEXT:    bl __lwp_probe_end
; A64:         mov w0, #7
; A64-NEXT:    bl __lwp_probe_end
; A64-NEXT:    mov w0,
; A64-NEXT:    ldr x30,
; A64-NOT:     {{^\s*b\s}}
; A64:         ret

; SEC:       .hidden __lwp_map.7.0x[[HASH:[0-9a-f]+]]
; SEC:       .section lwp_map,"a",@progbits
; SEC-NEXT:  .globl __lwp_map.7.0x[[HASH]]
; SEC-NEXT:  .p2align 3
; SEC-NEXT:  __lwp_map.7.0x[[HASH]]:
; SEC-NEXT:  {{\.(ascii|asciz|string)}} "LWPMAP\000\000\001\000\000\000x\000\000\000\002\000\000\000p\000
; SEC-NEXT:  .size __lwp_map.7.0x[[HASH]], 120

; ELF: ] lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000078 00 A 0 0 8

; DUMP:      Contents of section lwp_map:
; DUMP-NEXT: 0000 4c57504d 41500000 01000000 78000000
; DUMP-NEXT: 0010 02000000 70000000 00000000 00000000
; DUMP-NEXT: 0020 07000000 00000000 00000000 00000000
; DUMP:      0070 73756d00 732e6300

; The host handler is an external symbol, reached through the PLT.
; RELOC: R_X86_64_PLT32 __lwp_probe_start
; RELOC: R_X86_64_PLT32 __lwp_probe_start
; RELOC: R_X86_64_PLT32 __lwp_probe_end
; RELOC: R_X86_64_PLT32 __lwp_probe_end
