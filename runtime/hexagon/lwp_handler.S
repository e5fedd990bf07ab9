//===- lwp_handler.S - Hexagon probe handlers (v67) -----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The three probe handlers compiled code calls. Each probe is ONE packet
//
//   { r28 = r31; r14 = ##slot; call __lwp_probe_start }
//                                  (or __lwp_probe_end, __lwp_probe_resume)
//
// where r28 keeps the caller's return address (the handlers return with
// { r31 = r28; jumpr r31 }: r31 comes back unchanged, so a leaf function
// needs no frame for its probes) and slot is the address of the region's
// struct lwp_slot (lwp/Runtime/MapFormat.h) in its module's blob, section
// lwp_map (64 bytes, 16-byte aligned), in r14, so that r0-r5, which hold a
// function's arguments at its entry and its result at its exit, where its
// probes are, stay the program's.
//
// The handlers only journal the probe: each appends one 32-byte event
// (struct lwp_hex_event in lwp_hexagon_runtime.c) to the journal and
// returns:
//   +0   slot | kind  the slot address; bit 0 set by the end handler, bit 1
//                     by the resume handler (whose slot may be 0)
//   +4   site         the caller's return address (r31)
//   +8   sp           the caller's stack pointer (r29)
//   +16  counter      UPCYCLE (c15:14); under QEMU its packet counter c20 in
//                     the low word (the high word is then the site: the
//                     runtime keeps the low word and counts its wraps)
// Everything else, the count, the cap, the records, the shadow stack and
// the exact figures (docs/hexagon-runtime.md, "Figures"), is done in C when
// the journal is replayed (lwp_hexagon_runtime.c, replayJournal): when it
// is full (the handler that fills it calls lwp_hex_journal_full through
// .Ljournal_call, which saves every register), before the dump and before
// the runtime's own functions read the figures. The replay's own time is
// taken out of every later counter value, so the figures are those of a run
// that never replayed, and so is each probe's cost (6 QEMU packets from one
// counter read to the next: compensated time, docs/hexagon-runtime.md).
//
// The journal (lwp_hex_journal) is 2^LWP_JOURNAL_LOG2 events aligned to
// its size in bytes, and lwp_hex_jnext the address of the next free event:
// the handler that stores the last event moves lwp_hex_jnext to the end of
// the journal, the only address it can reach whose bits 5 and up (to the
// journal's size) are all zero, and that is its full test (one extractu and
// a jump on zero, no predicate).
//
// Register contract. LLVM 22 (HexagonPseudo.td) declares the call
//   PS_call_instrprof_custom: Defs = [R0, R14, R15, R28, R29, R30, R31, PC]
// and the lowering clobbers a subset of it for every probe, r14, r15 and
// r28: the caller keeps everything else live across it, r0 and r31 included
// (the probe packet copies r31 to r28, the handler copies it back as it
// returns). These handlers clobber only r14 and r15, use r31 as the event's
// address until they load the site back into it, read r28, leave r0-r13 and
// r29/r30 as the probe packet found them, touch no predicate, no memory below
// the stack pointer, no USR, loop, modifier or HVX state. The replay
// (.Ljournal_call) saves all of these around the C call.
//
// Packets: 5 a handler, 6 a probe with the call packet, start and end alike,
// whatever the cap or the record buffer (test/Runtime/Hexagon/packets.c,
// exact under QEMU). The replay costs run time a probe (docs/hexagon-runtime.md,
// "Run time (issue 23)"; the current figure in docs/performance.md's table),
// taken out of the figures.
//
// Counter: the handlers read UPCYCLE (r15:14 = c15:14, the first word of
// their second packet). QEMU reads UPCYCLE as 0 and counts packets in c20,
// which has no name in LLVM's assembler and is reserved on hardware: when
// the runtime chooses c20 at start-up it rewrites that word of both
// handlers as r14 = c20 (patchCounterReads, with the word's parse bits
// kept), before any probe runs.
//===----------------------------------------------------------------------===//

#ifndef LWP_JOURNAL_LOG2
#define LWP_JOURNAL_LOG2 12
#endif

  .text

// Packets 2-5 of the handlers, entered with r31 = the event, r15:14 =
// {slot | kind, site}, r28 = the caller's return address: the counter read
// (the label \counter marks its packet, where patchCounterReads in
// lwp_hexagon_start.c rewrites the read for c20), the stores, the full test
// with the site loaded back into r31 (.Ljournal_call is entered with it),
// and the return, which restores r31 (the packet reads r31 before it writes
// it).
.macro JOURNAL_TAIL counter
  .globl \counter
\counter:
  { r15:14 = c15:14                         // the counter (patched for c20)
    memd(r31+#0) = r15:14
    memw(r31+#8) = r29
    r31 = add(r31, #32) }                   // the next event
  { memd(r31+#-16) = r15:14
    memw(##lwp_hex_jnext) = r31
    r14 = extractu(r31, #LWP_JOURNAL_LOG2, #5) }
  { if (r14 == #0) jump:nt .Ljournal_call   // full
    r31 = memw(r31+#-28) }                  // the site, back from its event
  { r31 = r28
    jumpr r31 }
.endm

//===----------------------------------------------------------------------===//
// __lwp_probe_start: r14 = slot, r31 = site, r29 = the caller's stack,
// r28 = the caller's return address.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_start
  .type __lwp_probe_start, @function
  .p2align 4
__lwp_probe_start:
  { r31 = memw(##lwp_hex_jnext)            // the event
    r15 = r31 }                             // {slot, site} in r15:14
  JOURNAL_TAIL lwp_hex_start_counter_packet
  .size __lwp_probe_start, . - __lwp_probe_start

//===----------------------------------------------------------------------===//
// __lwp_probe_end: r14 = slot, r31 = site, r29 = the caller's stack,
// r28 = the caller's return address.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_end
  .type __lwp_probe_end, @function
  .p2align 4
__lwp_probe_end:
  { r31 = memw(##lwp_hex_jnext)            // the event
    r14 = add(r14, #1)                      // slot | end
    r15 = r31 }                             // site
  JOURNAL_TAIL lwp_hex_end_counter_packet
  .size __lwp_probe_end, . - __lwp_probe_end

//===----------------------------------------------------------------------===//
// __lwp_probe_resume: r14 = the slot of the region that encloses the resume
// point, or 0 outside every region (docs/probe-form.md, "Resume probes").
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_resume
  .type __lwp_probe_resume, @function
  .p2align 4
__lwp_probe_resume:
  { r31 = memw(##lwp_hex_jnext)            // the event
    r14 = add(r14, #2)                      // slot | resume
    r15 = r31 }                             // site
  JOURNAL_TAIL lwp_hex_resume_counter_packet
  .size __lwp_probe_resume, . - __lwp_probe_resume

//===----------------------------------------------------------------------===//
// .Ljournal_call: calls lwp_hex_journal_full() with every register of the
// caller saved (r0-r13, P3:0, USR, loops, M, CS, and r28, the caller's
// return address; r14 and r15 are the contract's scratch), then returns
// to the probe's site (r31) with r31 = r28, as the fast path does.
//===----------------------------------------------------------------------===//
#define SLOW_FRAME 104
  .p2align 4
.Ljournal_call:
  { allocframe(#SLOW_FRAME) }               // r31:30 saved; r30 = fp
  { memd(r29+#0) = r1:0
    memd(r29+#8) = r3:2 }
  { memd(r29+#16) = r5:4
    memd(r29+#24) = r7:6 }
  { memd(r29+#32) = r9:8
    memd(r29+#40) = r11:10 }
  { memd(r29+#48) = r13:12
    r1:0 = c1:0 }                           // lc0:sa0
  { memd(r29+#56) = r1:0
    r1:0 = c3:2 }                           // lc1:sa1
  { memd(r29+#64) = r1:0
    r1:0 = c7:6 }                           // m1:m0
  { memd(r29+#72) = r1:0
    r1:0 = c13:12 }                         // cs1:cs0
  { memd(r29+#80) = r1:0
    r0 = p3:0 }
  { memw(r29+#88) = r0
    r0 = usr }
  { memw(r29+#92) = r0
    memw(r29+#96) = r28 }
  { call lwp_hex_journal_full }
  { r0 = memw(r29+#92) }
  { usr = r0
    r0 = memw(r29+#88) }
  { p3:0 = r0
    r1:0 = memd(r29+#80) }
  { c13:12 = r1:0
    r1:0 = memd(r29+#72) }
  { c7:6 = r1:0
    r1:0 = memd(r29+#64) }
  { c3:2 = r1:0
    r1:0 = memd(r29+#56) }
  { c1:0 = r1:0
    r1:0 = memd(r29+#0)
    r3:2 = memd(r29+#8) }
  { r5:4 = memd(r29+#16)
    r7:6 = memd(r29+#24) }
  { r9:8 = memd(r29+#32)
    r11:10 = memd(r29+#40) }
  { r13:12 = memd(r29+#48)
    r28 = memw(r29+#96) }
  { deallocframe }                          // r31 = the probe's site
  { r31 = r28
    jumpr r31 }

//===----------------------------------------------------------------------===//
// Counter readers for the C start-up code (C calling convention).
//===----------------------------------------------------------------------===//

// uint64_t lwp_hex_read_upcycle(void): UPCYCLE (c15:14).
  .globl lwp_hex_read_upcycle
  .type lwp_hex_read_upcycle, @function
  .p2align 4
lwp_hex_read_upcycle:
  { r1:0 = c15:14 }
  { jumpr r31 }
  .size lwp_hex_read_upcycle, . - lwp_hex_read_upcycle

// uint64_t lwp_hex_read_c20(void): QEMU's packet counter c20, zero-extended.
// Call it only under QEMU (c20 is reserved on hardware).
  .globl lwp_hex_read_c20
  .type lwp_hex_read_c20, @function
  .p2align 4
lwp_hex_read_c20:
  .word 0x6a14c000 // { r0 = c20 }
  { r1 = #0
    jumpr r31 }
  .size lwp_hex_read_c20, . - lwp_hex_read_c20

// void lwp_hex_empty_pair(void): one empty start/end pair of calibration slot
// 0 (lwp_hex_calibration_slots, 64 bytes each, not in lwp_map), called exactly
// as compiled code calls the handlers ({ r28 = r31; r14 = ##slot; call }).
// The calibration reads the two records it leaves.
  .globl lwp_hex_empty_pair
  .type lwp_hex_empty_pair, @function
  .p2align 4
lwp_hex_empty_pair:
  { r28 = r31
    r14 = ##lwp_hex_calibration_slots
    call __lwp_probe_start }
  { r28 = r31
    r14 = ##lwp_hex_calibration_slots
    call __lwp_probe_end }
  { jumpr r31 }
  .size lwp_hex_empty_pair, . - lwp_hex_empty_pair

// void lwp_hex_nested_pair(void): an empty pair of calibration slot 1 inside
// a pair of slot 0, for the calibration of what a nested pair adds to its
// region.
  .globl lwp_hex_nested_pair
  .type lwp_hex_nested_pair, @function
  .p2align 4
lwp_hex_nested_pair:
  { r28 = r31
    r14 = ##lwp_hex_calibration_slots
    call __lwp_probe_start }
  { r28 = r31
    r14 = ##(lwp_hex_calibration_slots + 64)
    call __lwp_probe_start }
  { r28 = r31
    r14 = ##(lwp_hex_calibration_slots + 64)
    call __lwp_probe_end }
  { r28 = r31
    r14 = ##lwp_hex_calibration_slots
    call __lwp_probe_end }
  { jumpr r31 }
  .size lwp_hex_nested_pair, . - lwp_hex_nested_pair

  .section .note.GNU-stack, "", @progbits
