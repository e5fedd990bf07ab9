//===- lwp_hexagon_counter.S - The runtime's counter readers (v67) --------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The counter readers of the runtime itself (lwp_hexagon_runtime.c), the
// same two packets as lwp_hex_read_upcycle and lwp_hex_read_c20 of
// lwp_handler.S, which programs call (lwp_hexagon.h). The handlers call the
// runtime when their journal is full (lwp_hex_journal_full), so the runtime
// does not call the handlers' file: it reads the counter here, a leaf file
// that calls nothing (docs/hexagon-runtime.md, "Layers"). The same code as
// the handlers' readers, so that the runtime's reads cost what they did
// when it called those (LWP_REPLAY_TAIL counts the packets after a read).
//===----------------------------------------------------------------------===//

  .text

// uint64_t lwp_hex_counter_upcycle(void): UPCYCLE (c15:14).
  .globl lwp_hex_counter_upcycle
  .type lwp_hex_counter_upcycle, @function
  .p2align 4
lwp_hex_counter_upcycle:
  { r1:0 = c15:14 }
  { jumpr r31 }
  .size lwp_hex_counter_upcycle, . - lwp_hex_counter_upcycle

// uint64_t lwp_hex_counter_c20(void): QEMU's packet counter c20,
// zero-extended. Only under QEMU (c20 is reserved on hardware).
  .globl lwp_hex_counter_c20
  .type lwp_hex_counter_c20, @function
  .p2align 4
lwp_hex_counter_c20:
  .word 0x6a14c000 // { r0 = c20 }
  { r1 = #0
    jumpr r31 }
  .size lwp_hex_counter_c20, . - lwp_hex_counter_c20

  .section .note.GNU-stack, "", @progbits
