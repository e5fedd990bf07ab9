// lwp-lower in clang's pipeline, end to end on the host: clang -O2
// -fpass-plugin gives preserve_all calls of the hidden handlers with the
// address of each region's slot, the map blob in the writable lwp_map section
// and a priority-1 constructor that registers it; linked with the host
// runtime the program counts every region exactly under the IDs the runtime
// gives (1, 2, 3), lwp-report reads the map from the binary, and llvm-strip
// keeps it. -fdebug-prefix-map makes the file name in the blob, and so the
// blob's layout, independent of the checkout's path.
// REQUIRES: lwp-host-runtime
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{cc} = clang -O2 -g -fdebug-prefix-map=%S/Inputs=/lwp -fpass-plugin=%lwp_llvm_plugin \
// DEFINE:   -mllvm -stats-level=70 -mllvm -max-loop-depth=1 %S/Inputs/lower/kernel.c
// RUN: %{cc} -S -emit-llvm -o %t/kernel.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/kernel.ll --implicit-check-not=lwp.instrumentation_map
// RUN: grep -c 'call preserve_allcc void @__lwp_probe_' %t/kernel.ll | FileCheck %s --check-prefix=NPROBES
// RUN: %{cc} -c -o %t/kernel.o
// RUN: llvm-readelf -S %t/kernel.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-objdump -s -j lwp_map %t/kernel.o | FileCheck %s --check-prefix=OBJ
// RUN: clang -O2 -c %s -o %t/main.o
// RUN: clang %t/main.o %t/kernel.o %lwp_host_lib -o %t/prog
// RUN: clang -O2 %s %S/Inputs/lower/kernel.c -o %t/plain
// RUN: %t/plain 7 > %t/plain.out
// RUN: env LWP_OUTPUT=%t/prog.dump %t/prog 7 > %t/prog.out
// RUN: diff %t/plain.out %t/prog.out
// RUN: lwp-report --raw --no-records %t/prog.dump | FileCheck %s --check-prefix=COUNT
// RUN: lwp-report --map %t/prog | FileCheck %s --check-prefix=MAP
// RUN: llvm-strip %t/prog -o %t/prog.stripped
// RUN: llvm-readelf -S %t/prog.stripped | FileCheck %s --check-prefix=ELF
// RUN: lwp-report --map %t/prog.stripped | FileCheck %s --check-prefix=MAP
// RUN: lwp-report %t/prog.stripped %t/prog.dump --sort=id --format=csv | FileCheck %s --check-prefix=REPORT

// The blob (version 3): 400 bytes, 3 regions, strings at 0xb0 (176), 64-byte
// slots from 0xd0 (208): region 0 (the function, line 4) at 208, 1 (the row
// loop, 7:3, depth 0, height 1, parent 0) at 272, 2 (the column loop, 9:5,
// depth 1, height 0, parent 1) at 336; strings "kernel",  "" (no operator) and
// "/lwp/lower/kernel.c".
// IR:      @[[MAPG:__lwp_map\.[0-9a-f]{16}]] = internal global [400 x i8] c"LWPMAP\00\00\03\00\00\00\90\01\00\00\03\00\00\00\B0\00\00\00\D0\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\07\00\00\00\04\00\00\00\00\00\00\00\1B\00\00\00\1B\00\00\00\1B\00\00\00\01\00\00\00\01\03\00\00\00\00\00\00\01\00\00\00\00\00\00\00\00\00\00\00\07\00\00\00\07\00\00\00\03\00\00\00\1B\00\00\00\1B\00\00\00\1B\00\00\00\02\00\00\00\01\03\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\07\00\00\00\09\00\00\00\05\00\00\00\1B\00\00\00\1B\00\00\00\1B\00\00\00kernel\00/lwp/lower/kernel.c\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section "lwp_map", align 16
// IR-NEXT: @llvm.compiler.used = appending global [1 x ptr] [ptr @[[MAPG]]], section "llvm.metadata"
// IR-NEXT: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__lwp_module_ctor, ptr null }]
// IR-LABEL: define {{.*}} @kernel(
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 208)), !dbg [[FN:![0-9]+]]
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 272)), !dbg [[ROWS:![0-9]+]]
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_start(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 336)), !dbg [[COLS:![0-9]+]]
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 336)), !dbg [[COLS]]
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 272)), !dbg [[ROWS]]
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_end(ptr getelementptr inbounds (i8, ptr @[[MAPG]], i64 208)), !dbg
// IR:      declare hidden preserve_allcc void @__lwp_probe_start(ptr)
// IR:      declare hidden preserve_allcc void @__lwp_probe_end(ptr)
// IR:      define internal void @__lwp_module_ctor()
// IR-NEXT:   call void @__lwp_register_module(ptr @[[MAPG]])
// IR-DAG:  [[FN]] = !DILocation(line: 4, scope:
// IR-DAG:  [[ROWS]] = !DILocation(line: 7, column: 3, scope:
// IR-DAG:  [[COLS]] = !DILocation(line: 9, column: 5, scope:
// NPROBES: 6

// ELF: lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000190 00 WA 0 0 16
// OBJ:      Contents of section lwp_map:
// OBJ-NEXT: 0000 4c57504d 41500000 03000000 90010000
// OBJ-NEXT: 0010 03000000 b0000000 d0000000 00000000

// Three calls of kernel with 7 rows: 3 functions, 3 row loops, 21 column
// loops, under the program-wide IDs 1-3 that the runtime gave the module.
// COUNT:      dump: version 4, target x86_64,
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

#include <stdio.h>
#include <stdlib.h>

long kernel(int Rows, int Cols, int Seed);

int main(int argc, char **argv) {
  int Rows = argc > 1 ? atoi(argv[1]) : 1;
  long Sum = 0;
  for (int Seed = 0; Seed != 3; ++Seed)
    Sum += kernel(Rows, 5, Seed);
  printf("%ld\n", Sum);
  return 0;
}
