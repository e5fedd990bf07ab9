; lwp-lower's output through llc 22 (Inputs/lower/probes.ll: function region
; 0, loop region 1; the map blob's 64-byte slots start at 128, so slot 0 is
; map+144 and slot 1 map+208). Hexagon, PIC and non-PIC: each probe is one
; packet { call <handler>; r28 = r31; r14 = ##<slot> }, and the loop between the probes
; stays a hardware loop. x86-64 and AArch64: a direct call of the hidden handler with
; the slot address in the first argument register; values live across the
; calls stay in caller-saved registers (preserve_all), and the probe before
; the ret is a call, not a tail jump. The map is one writable blob in section
; lwp_map, registered by a constructor in .init_array.1 (priority 1).
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower -lwp-target=hexagon %S/Inputs/lower/probes.ll -o %t.hex.bc
; RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 %t.hex.bc -o - | FileCheck %s --check-prefixes=HEX,HEXSTATIC,SEC
; RUN: llc -mtriple=hexagon -mcpu=hexagonv67 -O2 -relocation-model=pic %t.hex.bc -o - \
; RUN:   | FileCheck %s --check-prefixes=HEX,HEXPIC,SEC
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %S/Inputs/lower/probes.ll -o %t.host.bc
; RUN: llc -mtriple=x86_64-linux-gnu -O2 %t.host.bc -o - | FileCheck %s --check-prefixes=X86,SEC,HIDDEN
; RUN: llc -mtriple=aarch64-linux-gnu -O2 %t.host.bc -o - | FileCheck %s --check-prefixes=A64,SEC,HIDDEN
; The same objects from clang -c: the section is allocated and writable
; ("WA"), 16-byte aligned, holds the 272-byte blob; the probes' relocations
; point at the slots (section offsets 0x90 and 0xd0) and the constructor is in
; .init_array.1.
; RUN: clang --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -O2 -c %t.hex.bc -o %t.hex.o
; RUN: llvm-readelf -S %t.hex.o | FileCheck %s --check-prefix=ELF
; RUN: llvm-objdump -s -j lwp_map %t.hex.o | FileCheck %s --check-prefix=DUMP
; RUN: llvm-objdump -d -r %t.hex.o | FileCheck %s --check-prefix=HEXRELOC
; RUN: clang --target=x86_64-linux-gnu -O2 -c %t.host.bc -o %t.host.o
; RUN: llvm-readelf -S %t.host.o | FileCheck %s --check-prefix=ELF
; RUN: llvm-objdump -s -j lwp_map %t.host.o | FileCheck %s --check-prefix=DUMP
; RUN: llvm-objdump -d -r %t.host.o | FileCheck %s --check-prefix=RELOC
; RUN: llvm-readelf -s %t.host.o | FileCheck %s --check-prefix=SYMS

; A probe's call and the slot address are in one packet, the address a
; constant-extended immediate.
; HEX-LABEL: sum:
; The probe keeps r31 (the packet copies it to r28, the handler copies it
; back): sum, a leaf, gets no frame and returns with jumpr r31.
; The probe is the function's first packet: the handler keeps r0, so the
; pointer (r0) and n (r1) stay where the caller put them, with no copy and no
; save.
; HEX:       // %bb.0:
; HEX-NEXT:    .loc 0 3 0 prologue_end
; HEX-NEXT:    //# InlineAsm Start
; HEX-NEXT:  {
; HEX-NEXT:    call __lwp_probe_start
; HEX-NEXT:    r28 = r31
; HEX-NEXT:    r14 = ##[[MAP:__lwp_map\.[0-9a-f]{16}]]+144
; HEX-NEXT:  }
; HEX-EMPTY:
; HEX-NEXT:    //# InlineAsm End
; HEX-NEXT:  {
; HEX-NEXT:    p0 = cmp.gt(r1,#0)
; HEX-SAME:    jump:nt .LBB0_4
; HEX-NEXT:  }
; HEX-NEXT:  // %bb.
; HEX-NEXT:    .loc 0 5 3
; HEX-NEXT:    //# InlineAsm Start
; HEX-NEXT:  {
; HEX-NEXT:    call __lwp_probe_start
; HEX-NEXT:    r28 = r31
; HEX-NEXT:    r14 = ##[[MAP]]+208
; HEX-NEXT:  }
; HEX:         loop0(.LBB0_[[#]],
; HEX:         r1 = memw(r0++#4)
; HEX-NEXT:  } :endloop0
; The sum is computed into r0, the result register, before the end probes.
; HEX-NEXT:  .LBB0_3:
; HEX-NEXT:  {
; HEX-NEXT:    r0 = add(r2,r1)
; HEX-NEXT:  }
; HEX:         .loc 0 5 3
; HEX-NEXT:    //# InlineAsm Start
; HEX-NEXT:  {
; HEX-NEXT:    call __lwp_probe_end
; HEX-NEXT:    r28 = r31
; HEX-NEXT:    r14 = ##[[MAP]]+208
; HEX-NEXT:  }
; HEX:         .loc 0 7 3
; HEX-NEXT:    //# InlineAsm Start
; HEX-NEXT:  {
; HEX-NEXT:    call __lwp_probe_end
; HEX-NEXT:    r28 = r31
; HEX-NEXT:    r14 = ##[[MAP]]+144
; HEX-NEXT:  }
; HEX-EMPTY:
; HEX-NEXT:    //# InlineAsm End
; HEX-NEXT:  {
; HEX-NEXT:    jumpr r31
; HEX-NEXT:  }
; With n <= 0 the result, 0, is set in r0 before a copy of the function's end
; probe (the paths no longer meet at a copy into r0).
; HEX-NEXT:  .LBB0_4:
; HEX:       {
; HEX-NEXT:    r0 = #0
; HEX-NEXT:  }
; HEX:         //# InlineAsm Start
; HEX-NEXT:  {
; HEX-NEXT:    call __lwp_probe_end
; HEX-NEXT:    r28 = r31
; HEX-NEXT:    r14 = ##[[MAP]]+144
; HEX-NEXT:  }
; HEX-EMPTY:
; HEX-NEXT:    //# InlineAsm End
; HEX-NEXT:  {
; HEX-NEXT:    jumpr r31
; HEX-NEXT:  }
; HEX-NOT:   call __lwp_probe
; HEX-NOT:   instrprof
; The constructor passes the blob's address: absolute, or PC-relative in PIC.
; HEX-LABEL: __lwp_module_ctor:
; HEX:       {
; HEXSTATIC-NEXT: call __lwp_register_module
; HEXSTATIC-NEXT: r0 = ##[[MAP]]{{$}}
; HEXPIC-NEXT:    r0 = add(pc,##[[MAP]]@PCREL)
; HEXPIC-NEXT:    call __lwp_register_module
; HEX-NOT:   call __lwp_probe

; X86-LABEL: sum:
; X86:         movq %rdi, %rcx
; X86-NEXT:  .Ltmp0:
; X86-NEXT:    .loc 0 3 0 prologue_end
; X86-NEXT:    movl $[[MAP:__lwp_map\.[0-9a-f]{16}]]+144, %edi
; X86-NEXT:    callq __lwp_probe_start{{$}}
; X86-NEXT:    testl %esi, %esi
; X86:         movl $[[MAP]]+208, %edi
; X86-NEXT:    callq __lwp_probe_start{{$}}
; X86:         addl (%rcx), %eax
; X86:         movl $[[MAP]]+208, %edi
; X86-NEXT:    callq __lwp_probe_end{{$}}
; X86:         movl $[[MAP]]+144, %edi
; X86-NEXT:    callq __lwp_probe_end{{$}}
; X86-NEXT:    popq
; X86-NEXT:    .cfi_def_cfa_offset 8
; X86-NEXT:    retq
; X86-LABEL: __lwp_module_ctor:
; X86:         movl $[[MAP]], %edi
; X86-NEXT:    callq __lwp_register_module@PLT

; A64-LABEL: sum:
; A64:         mov x10, x0
; A64:         adrp x0, [[MAP:__lwp_map\.[0-9a-f]{16}]]+144
; A64-NEXT:    add x0, x0, :lo12:[[MAP]]+144
; A64-NEXT:    mov w9, w1
; A64-NEXT:    bl __lwp_probe_start
; A64:         adrp x0, [[MAP]]+208
; A64-NEXT:    add x0, x0, :lo12:[[MAP]]+208
; A64-NEXT:    bl __lwp_probe_start
; A64:         ldr w8, [x10], #4
; A64-NEXT:    subs w9, w9, #1
; A64:         adrp x0, [[MAP]]+208
; A64-NEXT:    add x0, x0, :lo12:[[MAP]]+208
; A64-NEXT:    bl __lwp_probe_end
; A64:         adrp x0, [[MAP]]+144
; A64-NEXT:    add x0, x0, :lo12:[[MAP]]+144
; A64-NEXT:    bl __lwp_probe_end
; A64-NEXT:    mov w0, w11
; A64-NEXT:    ldr x30,
; A64-NEXT:    ret
; A64-LABEL: __lwp_module_ctor:
; A64:         adrp x0, [[MAP]]{{$}}
; A64-NEXT:    add x0, x0, :lo12:[[MAP]]{{$}}
; A64-NEXT:    bl __lwp_register_module

; The blob: a local symbol (no .globl) in the writable section, 16-aligned,
; header version 3, size 272, 2 regions, strings at 0x80, slots at 0x90.
; SEC-NOT:   .globl {{.*}}__lwp_map
; SEC:       .type [[MAP]],@object
; SEC-NEXT:  .section lwp_map,"aw",@progbits
; SEC-NEXT:  .p2align 4, 0x0
; SEC-NEXT:  [[MAP]]:
; SEC-NEXT:  {{\.(ascii|asciz|string)}} "LWPMAP\000\000\003\000\000\000\020\001\000\000\002\000\000\000\200\000\000\000\220\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\004\000\000\000\003\000\000\000\000\000\000\000\b\000\000\000\b\000\000\000\b\000\000\000\001\000\000\000\001\003\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\004\000\000\000\005\000\000\000\003\000\000\000\b\000\000\000\b\000\000\000\b\000\000\000sum\000s.c\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000"
; SEC-NEXT:  .size [[MAP]], 272
; SEC-EMPTY:
; SEC-NEXT:  .section .init_array.1,"aw",@init_array
; SEC-NEXT:  .p2align
; SEC-NEXT:  {{\.(word|quad|xword)}} __lwp_module_ctor
; SEC-NOT:   .globl {{.*}}__lwp_map
; The host handlers are hidden: each image binds them to its own runtime copy.
; HIDDEN:    .hidden __lwp_probe_start
; HIDDEN-NEXT: .hidden __lwp_probe_end

; ELF: ] lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000110 00 WA 0 0 16
; ELF: ] .init_array.1 INIT_ARRAY

; DUMP:      Contents of section lwp_map:
; DUMP-NEXT: 0000 4c57504d 41500000 03000000 10010000
; DUMP-NEXT: 0010 02000000 80000000 90000000 00000000
; DUMP-NEXT: 0020 00000000 00000000 00000000 00000000
; DUMP-NEXT: 0030 00000000 00000000 04000000 03000000
; DUMP-NEXT: 0040 00000000 08000000 08000000 08000000
; DUMP-NEXT: 0050 01000000 01030000 00000000 00000000
; DUMP-NEXT: 0060 00000000 00000000 04000000 05000000
; DUMP-NEXT: 0070 03000000 08000000 08000000 08000000
; DUMP-NEXT: 0080 73756d00 732e6300 00000000 00000000
; DUMP-NEXT: 0090 00000000 00000000 00000000 00000000
; DUMP-NEXT: 00a0 00000000 00000000 00000000 00000000
; DUMP-NEXT: 00b0 00000000 00000000 00000000 00000000
; DUMP-NEXT: 00c0 00000000 00000000 00000000 00000000
; DUMP-NEXT: 00d0 00000000 00000000 00000000 00000000
; DUMP-NEXT: 00e0 00000000 00000000 00000000 00000000
; DUMP-NEXT: 00f0 00000000 00000000 00000000 00000000
; DUMP-NEXT: 0100 00000000 00000000 00000000 00000000
; DUMP-NOT:  {{^ *[0-9a-f]{4} }}

; Each packet: the call, the copy of r31 to r28 and the two halves of the
; slot's address.
; HEXRELOC:      R_HEX_B22_PCREL __lwp_probe_start
; HEXRELOC-NEXT: r28 = r31
; HEXRELOC-NEXT: immext
; HEXRELOC-NEXT: R_HEX_32_6_X lwp_map+0x90
; HEXRELOC-NEXT: r14 = ##0x0 }
; HEXRELOC-NEXT: R_HEX_16_X lwp_map+0x90
; HEXRELOC:      R_HEX_B22_PCREL __lwp_probe_start
; HEXRELOC-NEXT: r28 = r31
; HEXRELOC-NEXT: immext
; HEXRELOC-NEXT: R_HEX_32_6_X lwp_map+0xd0
; HEXRELOC-NEXT: r14 = ##0x0 }
; HEXRELOC-NEXT: R_HEX_16_X lwp_map+0xd0
; HEXRELOC:      R_HEX_B22_PCREL __lwp_probe_end
; HEXRELOC-NEXT: r28 = r31
; HEXRELOC-NEXT: immext
; HEXRELOC-NEXT: R_HEX_32_6_X lwp_map+0xd0
; HEXRELOC-NEXT: r14 = ##0x0 }
; HEXRELOC-NEXT: R_HEX_16_X lwp_map+0xd0
; HEXRELOC:      R_HEX_B22_PCREL __lwp_probe_end
; HEXRELOC-NEXT: r28 = r31
; HEXRELOC-NEXT: immext
; HEXRELOC-NEXT: R_HEX_32_6_X lwp_map+0x90
; HEXRELOC-NEXT: r14 = ##0x0 }
; HEXRELOC-NEXT: R_HEX_16_X lwp_map+0x90

; x86-64 (PIE by default in clang): the slot address is RIP-relative (the
; addend is the slot's offset minus 4), the handler a direct call.
; RELOC:      R_X86_64_PC32 lwp_map+0x8c
; RELOC-NEXT: callq
; RELOC-NEXT: R_X86_64_PLT32 __lwp_probe_start-0x4
; RELOC:      R_X86_64_PC32 lwp_map+0xcc
; RELOC-NEXT: callq
; RELOC-NEXT: R_X86_64_PLT32 __lwp_probe_start-0x4
; RELOC:      R_X86_64_PC32 lwp_map+0xcc
; RELOC-NEXT: callq
; RELOC-NEXT: R_X86_64_PLT32 __lwp_probe_end-0x4
; RELOC:      R_X86_64_PC32 lwp_map+0x8c
; RELOC-NEXT: callq
; RELOC-NEXT: R_X86_64_PLT32 __lwp_probe_end-0x4
; RELOC-LABEL: <__lwp_module_ctor>:
; RELOC:      R_X86_64_PC32 lwp_map-0x4
; RELOC:      R_X86_64_PLT32 __lwp_register_module-0x4

; SYMS-DAG: 272 OBJECT LOCAL DEFAULT {{[0-9]+}} __lwp_map.{{[0-9a-f]{16}$}}
; SYMS-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} __lwp_module_ctor
; SYMS-DAG: NOTYPE GLOBAL HIDDEN UND __lwp_probe_start
; SYMS-DAG: NOTYPE GLOBAL HIDDEN UND __lwp_probe_end
; SYMS-DAG: NOTYPE GLOBAL DEFAULT UND __lwp_register_module
