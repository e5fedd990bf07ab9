/*===- lwp_hexagon_test_module.h - Hand-made modules for tests ---*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * For tests and benchmarks of the Hexagon runtime without the compiler
 * passes: a module's map blob built by hand in C and probes issued exactly as
 * compiled code issues them (lwp/Runtime/MapFormat.h, docs/hexagon-runtime.md).
 *
 *   LWP_TEST_BLOB(Name, N)  defines the static blob Name (section lwp_map,
 *       16-byte aligned) with N regions. The N entries are zero and the
 *       string table empty (the runtime reads only the header and the
 *       slots); the slots are Name.Slots[0 .. N-1]. Nothing registers it:
 *       the blob of a module whose constructor did not run.
 *   LWP_TEST_MODULE(Name, N)  the same blob and a priority-1 constructor
 *       that registers it, as an instrumented module does.
 *   LWP_TEST_PROBE(Kind, Slot)  one probe packet in a C function:
 *       { r28 = r31; r14 = ##Slot; call __lwp_probe_<Kind> }, Kind start or
 *       end, Slot a constant address (&Name.Slots[K]).
 *   LWP_TEST_PROBE_ASM(Kind, Name, N, K)  the same packet as assembly text
 *       (for top-level asm and for asm bodies without operands), slot K of
 *       module Name of N regions addressed as Name + offset.
 *
 * The probe packet keeps r31 (the handler restores it from r28), so a
 * function whose only calls are LWP_TEST_PROBEs needs no frame. The
 * handlers compare the caller's r29 with the frames of the shadow stack:
 * regions of one function share its stack pointer, a called function's
 * regions have a smaller one.
 *
 * Module registration order, and so the IDs, follow the link order of the
 * objects (the linker keeps the order of equal-priority constructors); read
 * a region's ID from its slot (Name.Slots[K].index) after start-up.
 */
#ifndef LWP_RUNTIME_HEXAGON_TEST_MODULE_H
#define LWP_RUNTIME_HEXAGON_TEST_MODULE_H

#include "lwp/Runtime/MapFormat.h"

#include <stddef.h>

/** Offset of slot 0 in a blob of LWP_TEST_BLOB with \p N regions: the
 *  32-byte header, N zero entries of 40 bytes and a 1-byte string table,
 *  rounded up to 16. An expression both C and the assembler evaluate. */
#define LWP_TEST_SLOTS_OFFSET(N) ((32 + 40 * (N) + 16) & ~15)

#define LWP_TEST_STR2(x) #x
#define LWP_TEST_STR(x) LWP_TEST_STR2(x)

/** Defines the unregistered blob \p Name with \p N regions (above). */
#define LWP_TEST_BLOB(Name, N)                                                 \
  static struct {                                                              \
    struct lwp_map_blob_header Header;                                         \
    unsigned char Entries[40 * (N)];                                           \
    char Strings[1];                                                           \
    struct lwp_slot Slots[N] __attribute__((aligned(16)));                     \
  } Name __attribute__((section(LWP_MAP_SECTION), aligned(16), used)) = {      \
      {LWP_MAP_MAGIC, LWP_MAP_BLOB_VERSION, sizeof(Name), (N),                 \
       32 + 40 * (N), LWP_TEST_SLOTS_OFFSET(N), 0},                            \
      {0},                                                                     \
      {0},                                                                     \
      {{0, 0, 0, 0}}};                                                         \
  _Static_assert(offsetof(__typeof__(Name), Slots) ==                          \
                     LWP_TEST_SLOTS_OFFSET(N),                                 \
                 "LWP_TEST_SLOTS_OFFSET does not match the layout")

/** Defines the blob \p Name with \p N regions and its registering
 *  constructor (priority 1, the priority of instrumented modules). */
#define LWP_TEST_MODULE(Name, N)                                               \
  LWP_TEST_BLOB(Name, N);                                                      \
  __attribute__((constructor(1))) static void Name##_register(void) {          \
    __lwp_register_module(&Name);                                              \
  }

/** The clobbers of a probe call: what the handlers and the call may change. */
#define LWP_TEST_PROBE_CLOBBERS "r14", "r15", "r28", "memory"

/** One probe packet on slot address \p Slot (a constant) in a C function. */
#define LWP_TEST_PROBE(Kind, Slot)                                             \
  __asm__ volatile("{ r28 = r31; r14 = ##%0; call __lwp_probe_" #Kind " }"     \
                   :                                                           \
                   : "i"(Slot)                                                 \
                   : LWP_TEST_PROBE_CLOBBERS)

/** Assembly text of the address of slot \p K of blob \p Name of \p N
 *  regions, and of one probe packet on it. */
#define LWP_TEST_SLOT_ASM(Name, N, K)                                          \
  #Name "+" LWP_TEST_STR(LWP_TEST_SLOTS_OFFSET(N)) "+64*" #K
#define LWP_TEST_PROBE_ASM(Kind, Name, N, K)                                   \
  "{ r28 = r31; r14 = ##" LWP_TEST_SLOT_ASM(Name, N, K) "; call __lwp_probe_" \
  #Kind " }\n\t"

#endif /* LWP_RUNTIME_HEXAGON_TEST_MODULE_H */
