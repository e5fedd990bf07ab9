// test/E2E/hvx-hexagon.test: a broken __lwp_probe_end (linked with
// --wrap=__lwp_probe_end) that inverts the HVX predicates Q0-Q3, then runs
// the real handler; the program's output catches it.
  .text
  .globl __wrap___lwp_probe_end
  .type __wrap___lwp_probe_end, @function
  .p2align 4
__wrap___lwp_probe_end:
  .irp n,0,1,2,3
  { q\n = not(q\n) }
  .endr
  { jump __real___lwp_probe_end }
  .size __wrap___lwp_probe_end, . - __wrap___lwp_probe_end
