// lwp-lower in clang's pipeline for Hexagon, end to end under qemu-hexagon:
// clang -O2 -fpass-plugin compiles the kernel into instrprof.custom packets
// ({ call __lwp_probe_start; r0 = #id }) and the lwp_map section; linked with
// the Hexagon runtime, the program counts every region exactly (packets are
// deterministic), and lwp-report reads the map from the ELF.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hexagon_cc -g -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -mllvm -max-loop-depth=1 \
// RUN:   -c %S/../Inputs/lower/kernel.c -o %t/kernel.o
// RUN: %hexagon_cc -g -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -mllvm -max-loop-depth=1 \
// RUN:   -S -emit-llvm %S/../Inputs/lower/kernel.c -o %t/kernel.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/kernel.ll --implicit-check-not=lwp.instrumentation_map
// RUN: llvm-objdump -d -r %t/kernel.o | FileCheck %s --check-prefix=CODE
// RUN: llvm-readelf -S %t/kernel.o | FileCheck %s --check-prefix=ELF
// RUN: %hexagon_cc -c %s -o %t/main.o
// RUN: %hexagon_link %t/main.o %t/kernel.o -o %t/prog.elf
// RUN: env LWP_OUTPUT=%t/prog.dump %qemu_hexagon %t/prog.elf
// RUN: lwp-report --raw --no-records %t/prog.dump | FileCheck %s --check-prefix=COUNT
// RUN: lwp-report --map %t/prog.elf | FileCheck %s --check-prefix=MAP
// RUN: llvm-strip %t/prog.elf -o %t/prog.stripped
// RUN: llvm-readelf -S %t/prog.stripped | FileCheck %s --check-prefix=ELF

// IR:     @__lwp_handler_name.__lwp_probe_start = internal constant
// IR:     @__lwp_map.0.0x{{[0-9a-f]+}} = hidden constant {{.*}}, section "lwp_map", align 8
// IR-DAG: call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_start, i32 0)
// IR-DAG: call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_start, i32 1)
// IR-DAG: call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_start, i32 2)
// IR-DAG: call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_end, i32 2)
// IR-DAG: call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_end, i32 1)
// IR-DAG: call void @llvm.hexagon.instrprof.custom(ptr @__lwp_handler_name.__lwp_probe_end, i32 0)
// IR-NOT: @__lwp_probe_start(
// IR-NOT: @__lwp_probe_end(

// Each probe call is relocated against its handler; no other call remains.
// CODE-LABEL: <kernel>:
// CODE:       call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_start
// CODE:       call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_start
// CODE:       call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_start
// CODE:       call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_end
// CODE:       call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_end
// CODE:       call
// CODE-NEXT:  R_HEX_B22_PCREL __lwp_probe_end
// CODE-NOT:   R_HEX_B22_PCREL

// ELF: lwp_map PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 A 0 0 8

// COUNT:      target hexagon,
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

long kernel(int Rows, int Cols, int Seed);

volatile long Sink;

int main(void) {
  for (int Seed = 0; Seed != 3; ++Seed)
    Sink += kernel(7, 5, Seed);
  return 0;
}
