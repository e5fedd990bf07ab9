/*===- lwp_hexagon_measure.h - Packet counts of probe sequences --*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * For tests and benchmarks under qemu-hexagon: LWP_MEASURE(body) runs the
 * inline-assembly packets \p body between two reads of QEMU's packet counter
 * c20 and yields the difference (packets, including the 1-packet cost of the
 * second read's predecessor; subtract LWP_MEASURE("") for the bare cost).
 * c20 is read with a raw word (r0 = c20): LLVM's assembler has no name for
 * it (design brief). LWP_START(id) / LWP_END(id) are probe calls exactly as
 * llc emits them: one packet { call handler; r0 = #id }. The clobbers are
 * what a probe call may change (r0, r14, r15, r28, r31).
 */
#ifndef LWP_RUNTIME_HEXAGON_MEASURE_H
#define LWP_RUNTIME_HEXAGON_MEASURE_H

#define LWP_MEASURE(body)                                                      \
  ({                                                                           \
    unsigned Before, After;                                                    \
    __asm__ volatile(".word 0x6a14c000\n\t{ %0 = r0 }\n\t" body                \
                     ".word 0x6a14c000\n\t{ %1 = r0 }"                         \
                     : "=&r"(Before), "=&r"(After)                             \
                     :                                                         \
                     : "r0", "r14", "r15", "r28", "r31", "memory");            \
    After - Before;                                                            \
  })
#define LWP_START(id) "{ call __lwp_probe_start; r0 = #" #id " }\n\t"
#define LWP_END(id) "{ call __lwp_probe_end; r0 = #" #id " }\n\t"

#endif /* LWP_RUNTIME_HEXAGON_MEASURE_H */
