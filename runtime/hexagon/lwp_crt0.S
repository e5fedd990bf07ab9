//===- lwp_crt0.S - Program entry for freestanding qemu-hexagon -----------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// _start: the Linux process entry of a static ELF. The kernel (here
// qemu-hexagon) leaves SP pointing at argc, followed by argv[0..argc-1], NULL,
// envp[...], NULL. We pass argc, argv and envp to lwp_hex_start (C), which
// initialises the runtime, calls main and exits with its status.
//===----------------------------------------------------------------------===//

  .text
  .globl _start
  .type _start, @function
  .p2align 4
_start:
  { r0 = memw(r29+#0)                   // argc
    r1 = add(r29, #4)                   // argv
    r30 = #0                            // no frame above
    r31 = #0 }
  { r2 = addasl(r1, r0, #2)             // &argv[argc] (the NULL)
    r29 = and(r29, #-8) }               // 8-byte aligned stack
  { r2 = add(r2, #4)                    // envp
    call lwp_hex_start }
  { jump . }                            // lwp_hex_start does not return
  .size _start, . - _start

  .section .note.GNU-stack, "", @progbits
