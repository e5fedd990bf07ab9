// lwp-lower in clang's pipeline for Hexagon, end to end under qemu-hexagon:
// clang -O2 -fpass-plugin compiles the kernel into one inline-asm packet per
// probe, { call __lwp_probe_start; r28 = r31; r14 = ##<slot> } with the address of the
// region's slot in the module's map blob, the blob in the writable lwp_map
// section and a priority-1 constructor that registers it; linked with the
// Hexagon runtime, the program counts every region exactly (packets are
// deterministic) under the IDs the runtime gives (1, 2, 3), and lwp-report
// reads the map from the ELF. -fdebug-prefix-map makes the blob independent
// of the checkout's path.
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{cc} = %hexagon_cc -g -fdebug-prefix-map=%S/../Inputs=/lwp -fpass-plugin=%lwp_llvm_plugin \
// DEFINE:   -mllvm -stats-level=70 -mllvm -max-loop-depth=1 %S/../Inputs/lower/kernel.c
// RUN: %{cc} -c -o %t/kernel.o
// RUN: %{cc} -S -emit-llvm -o %t/kernel.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/kernel.ll --implicit-check-not=lwp.instrumentation_map \
// RUN:   --implicit-check-not=instrprof --implicit-check-not=__lwp_handler_name
// RUN: llvm-objdump -d -r %t/kernel.o | FileCheck %s --check-prefix=CODE
// RUN: llvm-readelf -S %t/kernel.o | FileCheck %s --check-prefixes=ELF,ELFOBJ
// RUN: %hexagon_cc -c %s -o %t/main.o
// RUN: %hexagon_link %t/main.o %t/kernel.o -o %t/prog.elf
// RUN: llvm-readelf -S %t/prog.elf > %t/prog.txt
// RUN: llvm-objdump -d --disassemble-symbols=kernel %t/prog.elf >> %t/prog.txt
// RUN: FileCheck %s --check-prefix=LINKED --input-file=%t/prog.txt
// RUN: env LWP_OUTPUT=%t/prog.dump %qemu_hexagon %t/prog.elf
// RUN: lwp-report --raw --no-records %t/prog.dump | FileCheck %s --check-prefix=COUNT
// RUN: lwp-report --map %t/prog.elf | FileCheck %s --check-prefix=MAP
// RUN: lwp-report %t/prog.elf %t/prog.dump --sort=id --format=csv | FileCheck %s --check-prefix=REPORT
// RUN: llvm-strip %t/prog.elf -o %t/prog.stripped
// RUN: llvm-readelf -S %t/prog.stripped | FileCheck %s --check-prefix=ELF
// RUN: lwp-report --map %t/prog.stripped | FileCheck %s --check-prefix=MAP

// The blob is the one of the host (lower-host.c): version 3, 400 bytes,
// 3 regions, 64-byte slots from 208: region 0 (the function) at 208, 1 (the
// row loop) at 272, 2 (the column loop) at 336.
// IR:      @[[MAPG:__lwp_map\.[0-9a-f]{16}]] = internal global [400 x i8] c"LWPMAP\00\00\03\00\00\00\90\01\00\00\03\00\00\00\B0\00\00\00\D0\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\07\00\00\00\04\00\00\00\00\00\00\00\1B\00\00\00\1B\00\00\00\1B\00\00\00\01\00\00\00\01\03\00\00\00\00\00\00\01\00\00\00\00\00\00\00\00\00\00\00\07\00\00\00\07\00\00\00\03\00\00\00\1B\00\00\00\1B\00\00\00\1B\00\00\00\02\00\00\00\01\03\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\07\00\00\00\09\00\00\00\05\00\00\00\1B\00\00\00\1B\00\00\00\1B\00\00\00kernel\00/lwp/lower/kernel.c\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section "lwp_map", align 16
// IR-NEXT: @llvm.compiler.used = appending global [1 x ptr] [ptr @[[MAPG]]], section "llvm.metadata"
// IR-NEXT: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__lwp_module_ctor, ptr null }]
// IR-LABEL: define {{.*}} @kernel(
// IR-DAG:  notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 208)) #[[#]], !dbg [[FN:![0-9]+]]
// IR-DAG:  notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 272)) #[[#]], !dbg [[ROWS:![0-9]+]]
// IR-DAG:  notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 336)) #[[#]], !dbg [[COLS:![0-9]+]]
// IR-DAG:  notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 336)) #[[#]], !dbg [[COLS]]
// IR-DAG:  notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 272)) #[[#]], !dbg [[ROWS]]
// IR-DAG:  notail call void asm sideeffect "{ r28 = r31; r14 = ##$0; call __lwp_probe_end }", "i,~{r14},~{r15},~{r28}"(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 208)) #[[#]], !dbg
// No handler is declared: the packets name it in the assembly.
// IR-NOT:  @__lwp_probe_start
// IR-NOT:  @__lwp_probe_end
// IR:      define internal void @__lwp_module_ctor()
// IR-NEXT:   call void @__lwp_register_module(ptr @[[MAPG]])
// IR-DAG:  [[FN]] = !DILocation(line: 4, scope:
// IR-DAG:  [[ROWS]] = !DILocation(line: 7, column: 3, scope:
// IR-DAG:  [[COLS]] = !DILocation(line: 9, column: 5, scope:

// Each probe is one packet: the call, relocated against its handler, the
// copy of r31 to r28 and the constant-extended slot address, relocated against lwp_map + the slot's
// offset (0xd0, 0x110, 0x150); no other call of a handler remains.
// CODE-LABEL: <kernel>:
// CODE:       { call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_start
// CODE-NEXT:  r28 = r31
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map+0xd0
// CODE-NEXT:  r14 = ##0x0 }
// CODE-NEXT:  R_HEX_16_X lwp_map+0xd0
// CODE:       { call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_start
// CODE-NEXT:  r28 = r31
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map+0x110
// CODE-NEXT:  r14 = ##0x0 }
// CODE-NEXT:  R_HEX_16_X lwp_map+0x110
// CODE:       { call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_start
// CODE-NEXT:  r28 = r31
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map+0x150
// CODE-NEXT:  r14 = ##0x0 }
// CODE-NEXT:  R_HEX_16_X lwp_map+0x150
// CODE:       { call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_end
// CODE-NEXT:  r28 = r31
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map+0x150
// CODE-NEXT:  r14 = ##0x0 }
// CODE-NEXT:  R_HEX_16_X lwp_map+0x150
// CODE:       { call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_end
// CODE-NEXT:  r28 = r31
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map+0x110
// CODE-NEXT:  r14 = ##0x0 }
// CODE-NEXT:  R_HEX_16_X lwp_map+0x110
// CODE:       { call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_end
// CODE-NEXT:  r28 = r31
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map+0xd0
// CODE-NEXT:  r14 = ##0x0 }
// CODE-NEXT:  R_HEX_16_X lwp_map+0xd0
// CODE-NOT:   R_HEX_B22_PCREL __lwp_probe
// The constructor registers the blob.
// CODE-LABEL: <__lwp_module_ctor>:
// CODE:       R_HEX_B22_PCREL __lwp_register_module
// CODE-NEXT:  immext
// CODE-NEXT:  R_HEX_32_6_X lwp_map{{$}}

// ELF:    lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000190 00 WA 0 0 16
// ELFOBJ: .init_array.1 INIT_ARRAY

// Linked: each packet loads the address of its slot in the blob.
// LINKED:      ] lwp_map PROGBITS [[#%x,BLOB:]] {{[0-9a-f]+}} 000190
// LINKED-LABEL: <kernel>:
// LINKED:      { call {{.*}} <__lwp_probe_start>
// LINKED-NEXT: r28 = r31
// LINKED-NEXT: immext
// LINKED-NEXT: r14 = ##0x[[#%x,BLOB+0xd0]] }
// LINKED:      { call {{.*}} <__lwp_probe_start>
// LINKED-NEXT: r28 = r31
// LINKED-NEXT: immext
// LINKED-NEXT: r14 = ##0x[[#%x,BLOB+0x110]] }
// LINKED:      { call {{.*}} <__lwp_probe_start>
// LINKED-NEXT: r28 = r31
// LINKED-NEXT: immext
// LINKED-NEXT: r14 = ##0x[[#%x,BLOB+0x150]] }
// LINKED:      { call {{.*}} <__lwp_probe_end>
// LINKED-NEXT: r28 = r31
// LINKED-NEXT: immext
// LINKED-NEXT: r14 = ##0x[[#%x,BLOB+0x150]] }
// LINKED:      { call {{.*}} <__lwp_probe_end>
// LINKED-NEXT: r28 = r31
// LINKED-NEXT: immext
// LINKED-NEXT: r14 = ##0x[[#%x,BLOB+0x110]] }
// LINKED:      { call {{.*}} <__lwp_probe_end>
// LINKED-NEXT: r28 = r31
// LINKED-NEXT: immext
// LINKED-NEXT: r14 = ##0x[[#%x,BLOB+0xd0]] }

// Three calls of kernel with 7 rows: 3 functions, 3 row loops, 21 column
// loops.
// COUNT:      dump: version 4, target hexagon,
// COUNT-SAME: dropped 0,
// COUNT:      module 0: image 0, blob 0x{{[0-9a-f]+}}, IDs 1-3
// COUNT-NEXT: count 1: 3
// COUNT-NEXT: count 2: 3
// COUNT-NEXT: count 3: 21
// COUNT-NEXT: thread 0: {{.*}}, 54 records
// COUNT-NOT:  module 1:

// MAP:      ID  kind      function  depth  height  parent  location
// MAP-NEXT:  1  function  kernel        -       -       -  /lwp/lower/kernel.c:4:0
// MAP-NEXT:  2  loop      kernel        0       1       1  /lwp/lower/kernel.c:7:3
// MAP-NEXT:  3  loop      kernel        1       0       2  /lwp/lower/kernel.c:9:5
// MAP-NOT:   {{^ *[0-9]+ }}

// REPORT:      id,kind,function,depth,height,parent,count,samples,
// REPORT-NEXT: 1,function,"kernel",,,,3,3,0,{{.*}},"/lwp/lower/kernel.c",4,0,"","","",0
// REPORT-NEXT: 2,loop,"kernel",0,1,1,3,3,0,{{.*}},"/lwp/lower/kernel.c",7,3,"","","",0
// REPORT-NEXT: 3,loop,"kernel",1,0,2,21,21,0,{{.*}},"/lwp/lower/kernel.c",9,5,"","","",0
// REPORT-NOT:  {{.}}

long kernel(int Rows, int Cols, int Seed);

volatile long Sink;

int main(void) {
  for (int Seed = 0; Seed != 3; ++Seed)
    Sink += kernel(7, 5, Seed);
  return 0;
}
