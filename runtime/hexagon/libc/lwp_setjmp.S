//===- lwp_setjmp.S - setjmp and longjmp for Hexagon ----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// setjmp(env) saves what the Hexagon ABI has a callee keep: r16-r27, the
// frame pointer r30, the return address r31 and the stack pointer r29, into
// jmp_buf (machine/setjmp.h: 8 double words) and returns 0. longjmp(env,
// val) restores them and returns val (1 for 0) from that setjmp. No signal
// mask (single thread, newlib's signal emulation). LWP's runtime closes the
// regions a longjmp leaves at the next probe (docs/hexagon-runtime.md).
//===----------------------------------------------------------------------===//

  .text
  .globl setjmp
  .type setjmp, @function
  .globl _setjmp
  .set _setjmp, setjmp
  .p2align 4
setjmp:
  { memd(r0+#0) = r17:16
    memd(r0+#8) = r19:18 }
  { memd(r0+#16) = r21:20
    memd(r0+#24) = r23:22 }
  { memd(r0+#32) = r25:24
    memd(r0+#40) = r27:26 }
  { memd(r0+#48) = r31:30
    memw(r0+#56) = r29 }
  { r0 = #0
    jumpr r31 }
  .size setjmp, . - setjmp

  .globl longjmp
  .type longjmp, @function
  .globl _longjmp
  .set _longjmp, longjmp
  .p2align 4
longjmp:
  { r17:16 = memd(r0+#0)
    r19:18 = memd(r0+#8) }
  { r21:20 = memd(r0+#16)
    r23:22 = memd(r0+#24) }
  { r25:24 = memd(r0+#32)
    r27:26 = memd(r0+#40) }
  { r31:30 = memd(r0+#48)
    r29 = memw(r0+#56) }
  { p0 = cmp.eq(r1, #0)
    r0 = r1 }
  { if (p0) r0 = #1
    jumpr r31 }
  .size longjmp, . - longjmp

  .section .note.GNU-stack, "", @progbits
