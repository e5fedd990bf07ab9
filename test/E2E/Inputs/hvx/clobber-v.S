// test/E2E/hvx-hexagon.test: a broken __lwp_probe_start (linked with
// --wrap=__lwp_probe_start) that inverts every HVX V register, then runs
// the real handler. The handler contract forbids it; the test shows that
// the program's output catches it.
  .text
  .globl __wrap___lwp_probe_start
  .type __wrap___lwp_probe_start, @function
  .p2align 4
__wrap___lwp_probe_start:
  .irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  { v\n = vnot(v\n) }
  .endr
  { jump __real___lwp_probe_start }
  .size __wrap___lwp_probe_start, . - __wrap___lwp_probe_start
