// lwp-lower in clang's pipeline, end to end on the host: clang -O2
// -fpass-plugin gives preserve_all handler calls and the lwp_map section in
// the object; linked with the host runtime the program counts every region
// exactly, lwp-report reads the map from the binary, and llvm-strip keeps it.
// REQUIRES: lwp-host-runtime
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang -O2 -g -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -mllvm -max-loop-depth=1 \
// RUN:   -S -emit-llvm %S/Inputs/lower/kernel.c -o %t/kernel.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/kernel.ll --implicit-check-not=lwp.instrumentation_map
// RUN: clang -O2 -g -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -mllvm -max-loop-depth=1 \
// RUN:   -c %S/Inputs/lower/kernel.c -o %t/kernel.o
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
// RUN: lwp-report %t/prog.stripped %t/prog.dump --sort=id | FileCheck %s --check-prefix=REPORT

// IR:      @__lwp_map.0.0x{{[0-9a-f]+}} = hidden constant [{{[0-9]+}} x i8] c"LWPMAP\00\00\01\00\00\00{{.*}}", section "lwp_map", align 8
// IR:      @llvm.compiler.used = appending global [1 x ptr] [ptr @__lwp_map.0.0x{{[0-9a-f]+}}]
// IR-LABEL: define {{.*}} @kernel(
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_start(i32 0)
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_start(i32 1)
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_start(i32 2)
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_end(i32 2)
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_end(i32 1)
// IR-DAG:  notail call preserve_allcc void @__lwp_probe_end(i32 0)
// IR:      declare preserve_allcc void @__lwp_probe_start(i32)
// IR:      declare preserve_allcc void @__lwp_probe_end(i32)

// ELF: lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 A 0 0 8
// OBJ:      Contents of section lwp_map:
// OBJ-NEXT: 0000 4c57504d 41500000 01000000

// Three calls of kernel with 7 rows: 3 functions, 3 row loops, 21 column loops.
// COUNT:      target x86_64,
// COUNT-SAME: dropped 0,
// COUNT:      count 0: 3
// COUNT-NEXT: count 1: 3
// COUNT-NEXT: count 2: 21
// COUNT-NEXT: thread 0: {{.*}}, 54 records

// MAP:      ID  kind      function  depth  height  parent  location
// MAP-NEXT:  0  function  kernel        -       -       -  {{.*}}kernel.c:4
// MAP-NEXT:  1  loop      kernel        0       1       0  {{.*}}kernel.c:7
// MAP-NEXT:  2  loop      kernel        1       0       1  {{.*}}kernel.c:9
// MAP-NOT:   {{^ *[0-9]+ }}

// REPORT: kernel{{ +}}0{{ +}}-{{.*}} 3 {{.*}}kernel.c:4
// REPORT: kernel:loop{{ +}}1{{ +}}0{{.*}} 3 {{.*}}kernel.c:7
// REPORT: kernel:loop{{ +}}2{{ +}}1{{.*}} 21 {{.*}}kernel.c:9

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
