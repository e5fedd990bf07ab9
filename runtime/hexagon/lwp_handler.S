//===- lwp_handler.S - Hexagon probe handlers (v67) -----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The two probe handlers compiled code calls. Each probe is ONE packet
//
//   { r0 = ##slot; call __lwp_probe_start }     (or __lwp_probe_end)
//
// where slot is the address of the region's struct lwp_slot
// (lwp/Runtime/MapFormat.h) in its module's blob, section lwp_map (64 bytes,
// 16-byte aligned). Besides counting every execution and recording the first
// cap ones, the handlers keep each region's exact figures (docs/
// hexagon-runtime.md, "Figures"): a shadow stack of open instances in static
// memory (struct lwp_hex_frame in lwp_hexagon_runtime.c), pushed by the start
// handler and popped by the end handler, which adds the instance's figures
// to its region and to its parent's. Everything irregular takes a slow path
// in C (lwp_hex_slow, through .Lslow_call, which saves every register).
//
// Register contract. LLVM 22 (HexagonPseudo.td) declares the call
//   PS_call_instrprof_custom: Defs = [R0, R14, R15, R28, R29, R30, R31, PC]
// and the lowering keeps that contract for every probe: the caller keeps
// everything else live across it: r1-r13, r16-r27, P0-P3 (C4), USR (C8),
// SA0/LC0/SA1/LC1, M0/M1, CS0/CS1, GP, the HVX state. These handlers therefore
//   - clobber only r0, r14, r15 and r28 (the scratch registers of the
//     contract; r28 holds the caller's P3:0 while the handler runs),
//   - save r3:2, r5:4, r7:6 in the 24 bytes below SP (memd(r29+#-8..-24))
//     and restore them, leaving r29/r30/r31 unchanged (no frame: the runtime
//     installs no asynchronous signal handler that could overwrite that
//     scratch; see docs/hexagon-runtime.md, Limits),
//   - save P3:0 in r28 and restore it before returning,
//   - use no saturating or floating-point instruction (USR untouched), no
//     hardware loop (SA/LC untouched), no modifier register (M0/M1).
// The slow path saves all of these (and USR, SA/LC, M, CS) around the C call.
//
// State (struct lwp_hex_state in lwp_hexagon_runtime.c, addressed absolutely
// with a constant extender, ##lwp_hex_state):
//   +0   next       address of the next free record
//   +4   top        address of the top frame (lwp_hex_frames[0], a sentinel
//                   that never closes, when no instance is open)
//   +8   drops      records not stored, + 2^20, modulo 2^32
//   +12  last|mode  address of the last record slot of the buffer; bit 0
//                   set: count QEMU packets (c20), clear: UPCYCLE
// Every probe stores a record or counts a drop, so drops + next / 16 counts
// the probes (modulo 2^32): the probes that ran inside an instance are the
// difference of that count at its end and at its start, less one.
//
// A frame (32 bytes, struct lwp_hex_frame):
//   +0   slot|flags  INNER (2): recursion, OVF (4): starts past a full stack
//                    pending above it; either sends its end to the slow path
//   +4   sp|REC      the caller's r29 at the start; REC (1): the start was
//                    under the cap, so the end is recorded while there is room
//   +8   start       counter value of the start
//   +16  parent      slot of the frame below (lwp_hex_top_slot at the bottom)
//   +20  count       probe count before the start probe
// The slot words the handlers keep (docs/hexagon-runtime.md, "Regions,
// slots and registration"):
//   +0   index       | bit 31 while an outermost instance is open
//   +4   bias        count - cap (the start handler adds 1)
//   +16  total       inclusive cycles of the closed outermost instances
//   +24  self        self - total: its inner instances' cycles minus those
//                    of its children (a child's end subtracts its cycles
//                    from its parent's word)
//   +32  nested      low word += probes inside each outermost instance
//   +40  children    low word += 1 a start inside one of its instances
// (the 32-bit low words are normalised by the fold, lwp_hexagon_runtime.c).
//
// Records: the start handler stores the slot address as the ID word, the end
// handler slot | 1 (slots are 16-byte aligned); lwp_dump turns the words into
// region IDs. A record's site and ID word are stored at next before it is
// known whether the record is kept: next moves only when it is, and the
// buffer has one spare record after its last slot, so such a store is
// overwritten or never read.
//
// Start handler: a start whose parent frame (the top frame) lies below the
// caller's stack (left by longjmp), whose region is open (recursion, or a
// longjmp back into it), whose stack is full or whose module never
// registered takes the slow path. Otherwise it counts (bias + 1, open), adds
// a child to the parent's region, pushes {slot, sp|REC, counter, parent,
// probe count}, records {site, slot, counter} while count <= cap and the
// buffer has room or counts a drop, and reads the counter as late as
// possible (S11 of 13, 3 packets before the return, the call packet of
// the next probe not counted).
//
// End handler: reads the counter first (E3); if its top frame is its slot's
// outermost instance (no flag), pops it and adds the inclusive cycles
// (counter - start) to the slot's total and subtracts them from the parent's
// self word, adds the probes inside to nested, clears the open flag, and
// records {site, slot | 1, counter} while REC and the buffer has room (else
// counts a drop). Anything else (a frame above it left by longjmp, an inner
// instance, an end without an open instance, starts past a full stack
// pending) takes the slow path. A drop that puts the drop count in the 2^20
// after a multiple of 2^30 calls the C fold once the probe is done.
//
// Packets (QEMU 7.2, test/Runtime/Hexagon/packets.c): each handler takes 13
// packets on its recording path and the same 13 on its capped and
// buffer-full paths (the record and the drop share every packet: predicated
// stores), in both counter modes; 14 per probe with the call packet. The
// slow paths cost a few hundred packets (the C call with every register
// saved). Memory operations bound the schedule: a packet holds at most two
// (a memop pairs only with a load) and the start handler issues 20 of
// them, the end handler 22 (3 register pairs saved and restored, 4 and 7
// loads, the stores of the frame, the record, the state and the figures),
// and most packets also fill their four words. Besides, shifts, bit
// operations, 64-bit arithmetic, predicate logic, control-register reads and
// jumpr issue only in slots 2 and 3 (utils/bench/hexagon_slots.sh): two a
// packet. Why 10 packets a probe does not fit with these figures:
// docs/performance.md, "Hexagon: 10 packets per probe (issue 11, third
// round)".
//
// Counter: UPCYCLE is read as r15:14 = c15:14. QEMU's packet counter c20 has
// no name in LLVM's assembler: its read is the word C20_TO_R14_NOT_LAST
// (r14 = c20, parse bits 01, so that the assembler packet after it belongs
// to the same hardware packet; that packet must not use slot 3), with
// r15 = 0 set beforehand. The c20 tail of each handler is a copy of the
// UPCYCLE one with that word in place of the read: both take the same
// packets.
//===----------------------------------------------------------------------===//

#define STATE lwp_hex_state
#define C20_TO_R14_NOT_LAST 0x6a14400e // r14 = c20 (parse bits 01)

  .text

//===----------------------------------------------------------------------===//
// __lwp_probe_start: r0 = slot, r31 = site, r29 = the caller's stack.
// S1-S4 save and load, S5-S6 decide (slow path) and count, S7-S10 push the
// frame and decide record or drop, S11 reads the counter, S12 stores it in
// the frame and the record, S13 restores and returns.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_start
  .type __lwp_probe_start, @function
  .p2align 4
__lwp_probe_start:
  { r28 = p3:0                              // S1
    memd(r29+#-8) = r3:2
    r3:2 = memd(##STATE) }                  // r2 = next, r3 = top frame
  { memd(r29+#-16) = r5:4                   // S2
    r5:4 = memd(r3+#0)                      // r4 = parent|flags, r5 = its stack
    p0 = cmp.gtu(r3, ##lwp_hex_frames_limit) } // stack full
  { memd(r29+#-24) = r7:6                   // S3
    r7:6 = memd(r0+#0)                      // r6 = index|open, r7 = bias
    p1 = cmp.gtu(r29, r5)                   // parent left without its end
    r4 = and(r4, #-16) }                    // parent slot
  { r15:14 = memd(##(STATE+8))              // S4: r14 = drops, r15 = last|mode
    memw(r4+#40) += #1                      // a child of the parent (undone
                                            // by the slow path)
    p2 = cmp.gt(r6, #0) }                   // registered, not open
  { p0 = or(p0, or(p1, !p2))                // S5: slow
    r6 = setbit(r6, #31)                    // open
    r7 = add(r7, #1)                        // counted
    r5 = add(r14, #1) }                     // drops + 1
  { if (p0) jump:nt .Lstart_slow            // S6
    if (!p0) memd(r0+#0) = r7:6             // open, counted
    r14 += lsr(r2, #4)                      // probe count before
    memw(r2+#0) = r31 }                     // record: site (kept or not)
  { p2 = cmp.gt(r7, #0)                     // S7: capped
    p1 = cmp.gtu(r2, r15)                   // buffer full
    r7:6 = combine(r29, r0)                 // frame: slot, stack
    memw(r2+#4) = r0 }                      // record: ID word
  { p1 = or(p1, p2)                         // S8: dropped
    if (p1.new) memw(##(STATE+8)) = r5
    if (!p2) r7 = add(r7, #1) }             // stack | REC: counted under the cap
  { memd(r3+#32) = r7:6                     // S9
    r7:6 = combine(r14, r4)                 // frame: parent, probe count
    p3 = tstbit(r15, #0)                    // c20
    r15 = #0 }                              // its high word
  { memd(r3+#48) = r7:6                     // S10
    if (!p1) r2 = add(r2, #16)              // next: a record kept
    r3 = add(r3, #32)                       // the pushed frame
    if (p3) jump:nt .Lstart_c20 }
  { memd(##STATE) = r3:2                    // S11: next, top
    r15:14 = c15:14                         // the counter (UPCYCLE)
    r7:6 = memd(r29+#-24) }
.Lstart_t:
  { memd(r3+#8) = r15:14                    // S12: frame: start
    if (!p1) memd(r2+#-8) = r15:14 }        // record: counter
  { r3:2 = memd(r29+#-8)                    // S13
    r5:4 = memd(r29+#-16)
    p3:0 = r28
    jumpr r31 }
.Lstart_c20:
  .word C20_TO_R14_NOT_LAST                 // S11': the counter (c20)
  { memd(##STATE) = r3:2
    r7:6 = memd(r29+#-24) }
  { memd(r3+#8) = r15:14                    // S12'
    if (!p1) memd(r2+#-8) = r15:14 }
  { r3:2 = memd(r29+#-8)                    // S13'
    r5:4 = memd(r29+#-16)
    p3:0 = r28
    jumpr r31 }
  // The slow path counts the start itself, its child of the parent too:
  // undo S4's, restore and call it.
.Lstart_slow:
  { memw(r4+#40) -= #1
    r3:2 = memd(r29+#-8) }
  { r5:4 = memd(r29+#-16)
    r7:6 = memd(r29+#-24)
    p3:0 = r28 }
  { r28 = #0
    jump .Lslow_call }
  .size __lwp_probe_start, . - __lwp_probe_start

//===----------------------------------------------------------------------===//
// __lwp_probe_end: r0 = slot, r31 = site, r29 = the caller's stack.
// E1-E3 save, load and read the counter (E3, or E3' for c20), E4-E6 store
// the record's counter and site (kept or not) and decide (slow path),
// E7-E12 pop the frame, store the figures and decide record or drop, E13
// restores and returns.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_end
  .type __lwp_probe_end, @function
  .p2align 4
__lwp_probe_end:
  { r28 = p3:0                              // E1
    memd(r29+#-8) = r3:2
    r3:2 = memd(##(STATE+8)) }              // r2 = drops, r3 = last|mode
  { memd(r29+#-16) = r5:4                   // E2
    r5:4 = memd(##STATE)                    // r4 = next, r5 = top
    p0 = tstbit(r3, #0)
    if (p0.new) jump:nt .Lend_c20 }
  { r15:14 = c15:14                         // E3: the counter (UPCYCLE)
    memd(r29+#-24) = r7:6
    r7:6 = memd(r5+#0)                      // r6 = slot|flags, r7 = stack|REC
    jump .Lend_body }
.Lend_c20:
  .word C20_TO_R14_NOT_LAST                 // E3': the counter (c20)
  { r15 = #0
    memd(r29+#-24) = r7:6
    r7:6 = memd(r5+#0) }
.Lend_body:
  { p1 = cmp.gtu(r4, r3)                    // E4: buffer full
    r3 = add(r2, #1)                        // drops + 1
    r2 += lsr(r4, #4)                       // probe count before
    memd(r4+#8) = r15:14 }                  // record: counter
  { p0 = cmp.eq(r6, r0)                     // E5: its frame, no flag
    p2 = tstbit(r7, #0)                     // REC
    r7:6 = memd(r5+#8)                      // start
    memw(r4+#0) = r31 }                     // record: site
  { if (!p0) jump:nt .Lend_slow             // E6
    r7:6 = sub(r15:14, r7:6)                // inclusive cycles
    r15:14 = memd(r5+#16)                   // r14 = parent, r15 = its count
    r5 = add(r5, #-32) }                    // new top
  { p1 = or(p1, !p2)                        // E7: dropped
    r2 = add(r2, sub(#-1, r15))             // probes inside
    r15 = add(r0, #1) }                     // ID word: slot | 1
  { if (!p1) r4 = add(r4, #16)              // E8: next: a record kept
    memw(r4+#4) = r15                       // record: ID word
    if (p1) memw(##(STATE+8)) = r3 }        // or a drop
  { memd(##STATE) = r5:4                    // E9: next, top
    r5:4 = memd(r0+#16)                     // total
    r3 = extractu(r3, #10, #20) }           // drops in a fold window
  { r5:4 = add(r5:4, r7:6)                  // E10: total + its cycles
    memw(r0+#32) += r2                      // nested
    r3:2 = memd(r14+#24)                    // parent's self word
    p3 = cmp.eq(r3, #0) }
  { memd(r0+#16) = r5:4                     // E11
    r3:2 = sub(r3:2, r7:6)                  // the parent's self - them
    r7:6 = memd(r29+#-24)
    p3 = and(p3, p1) }                      // fold
  { memd(r14+#24) = r3:2                    // E12
    r5:4 = memd(r29+#-16)
    if (p3) jump:nt .Lend_fold }            // (finishes, then folds)
  { r3:2 = memd(r29+#-8)                    // E13
    memw(r0+#0) = clrbit(#31)               // closed
    p3:0 = r28
    jumpr r31 }
.Lend_fold:
  { r3:2 = memd(r29+#-8)
    memw(r0+#0) = clrbit(#31)
    p3:0 = r28 }
  { r28 = #2
    jump .Lslow_call }
  // The slow path closes what E6 found in the way and records the end
  // itself; the counter is in the record E4 stored.
.Lend_slow:
  { r15:14 = memd(r4+#8)                    // the counter
    r3:2 = memd(r29+#-8) }
  { r5:4 = memd(r29+#-16)
    r7:6 = memd(r29+#-24)
    p3:0 = r28 }
  { r28 = #1
    jump .Lslow_call }
  .size __lwp_probe_end, . - __lwp_probe_end

//===----------------------------------------------------------------------===//
// .Lslow_call: calls lwp_hex_slow(kind, slot, sp, site, t) with every
// register of the caller saved. Entered with r28 = kind, r0 = slot,
// r15:14 = t (end), r31 = site, r29 = the caller's stack, and every other
// register (r1-r13, r16-r27, P3:0, USR, loops, M, CS) as the caller left it.
//===----------------------------------------------------------------------===//
#define SLOW_FRAME 96
  .p2align 4
.Lslow_call:
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
    r0 = r28                                // kind
    r1 = memw(r29+#0)                       // slot
    r2 = add(r30, #8) }                     // the caller's stack
  { r3 = r31                                // site
    r5:4 = r15:14                           // t
    call lwp_hex_slow }
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
  { r13:12 = memd(r29+#48) }
  { dealloc_return }

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
// as compiled code calls the handlers ({ r0 = ##slot; call }). The
// calibration reads the two records it leaves.
  .globl lwp_hex_empty_pair
  .type lwp_hex_empty_pair, @function
  .p2align 4
lwp_hex_empty_pair:
  { r1 = r31
    r0 = ##lwp_hex_calibration_slots
    call __lwp_probe_start }
  { r0 = ##lwp_hex_calibration_slots
    call __lwp_probe_end }
  { jumpr r1 }
  .size lwp_hex_empty_pair, . - lwp_hex_empty_pair

// void lwp_hex_nested_pair(void): an empty pair of calibration slot 1 inside
// a pair of slot 0, for the calibration of what a nested pair adds to its
// region.
  .globl lwp_hex_nested_pair
  .type lwp_hex_nested_pair, @function
  .p2align 4
lwp_hex_nested_pair:
  { r1 = r31
    r0 = ##lwp_hex_calibration_slots
    call __lwp_probe_start }
  { r0 = ##(lwp_hex_calibration_slots + 64)
    call __lwp_probe_start }
  { r0 = ##(lwp_hex_calibration_slots + 64)
    call __lwp_probe_end }
  { r0 = ##lwp_hex_calibration_slots
    call __lwp_probe_end }
  { jumpr r1 }
  .size lwp_hex_nested_pair, . - lwp_hex_nested_pair

  .section .note.GNU-stack, "", @progbits
