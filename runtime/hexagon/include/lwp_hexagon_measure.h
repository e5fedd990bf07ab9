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
 * it (design brief). c20 counts under QEMU whichever counter the runtime
 * records, so the figures hold for both handler tails.
 *
 * LWP_START(k) / LWP_END(k) are probe calls exactly as compiled code emits
 * them, one packet { r28 = r31; r14 = ##slot; call handler }, on slot k
 * (0-15) of lwp_measure_module, a 16-region module this header defines and
 * registers (lwp_hexagon_test_module.h); its ID is
 * lwp_measure_module.Slots[k].index.
 * The clobbers are what a probe call may change (r14, r15, r28) and r0, which
 * the counter reads write.
 */
#ifndef LWP_RUNTIME_HEXAGON_MEASURE_H
#define LWP_RUNTIME_HEXAGON_MEASURE_H

#include "lwp_hexagon_test_module.h"

#define LWP_MEASURE(body)                                                      \
  ({                                                                           \
    unsigned Before, After;                                                    \
    __asm__ volatile(".word 0x6a14c000\n\t{ %0 = r0 }\n\t" body                \
                     ".word 0x6a14c000\n\t{ %1 = r0 }"                         \
                     : "=&r"(Before), "=&r"(After)                             \
                     :                                                         \
                     : "r0", LWP_TEST_PROBE_CLOBBERS);                         \
    After - Before;                                                            \
  })

/** The module of LWP_START / LWP_END: 16 regions. */
LWP_TEST_MODULE(lwp_measure_module, 16)

#define LWP_START(k) LWP_TEST_PROBE_ASM(start, lwp_measure_module, 16, k)
#define LWP_END(k) LWP_TEST_PROBE_ASM(end, lwp_measure_module, 16, k)

#endif /* LWP_RUNTIME_HEXAGON_MEASURE_H */
