//===- lwp_replay.S - The journal's replay, common path (v67) ------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The replay's common path in straight-line code (issue 23): the journal
// events (struct lwp_hex_event, 32 bytes, lwp_hexagon_runtime.c) of the
// shapes almost every probe has, with the exact effect of the C replay
// (lwp_hexagon_runtime.c, replayEvent; docs/hexagon-runtime.md, "Run time
// (issue 23)"). Blocks, each one straight-line:
//
//   .Lfast    a capped leaf pair: a start whose next event is the end of the
//             same slot, past the cap: no frame and no record; its own
//             nested count is 0, so only the region's count and total and
//             the parent's self and children move (13 packets the pair);
//   .Lquad    a capped call of one capped leaf: a start, a capped leaf pair
//             of another region, the first start's end (the nested
//             workload's four probes): no frame and no record either; the
//             outer region's count, total, self (less the leaf's time),
//             nested (2) and children, the leaf's count and total, the
//             parent's self and children, four drops (22 packets the four
//             with c20; one that follows comes straight back here);
//   .Lstart1  a start of a registered region that is not open, in the top
//             frame's function or deeper, with room on the stack: a frame is
//             pushed, the start recorded or dropped (14 packets, then 1 to
//             a quad, 2 to a leaf pair or another start);
//   .Lend1    an end of the top frame's region, its outermost instance (no
//             flag on the frame): the frame is closed and popped (13; an end
//             that follows comes straight back here, else 1 more packet to a
//             leaf pair, 2 to a quad, 3 to a start);
//   .Lloop    one event at a time, the same common shapes (a recorded leaf
//             pair, a start, an end) with every check, before C.
//
// Each block ends by looking at the words of the next events (the next one,
// the one after it, the fourth) and jumps to the block that fits; a block
// whose checks fail passes the event on (.Lquad_x, .Lsingle, .Lslow) to one
// that does less.
//
// Anything else (a resume, recursion, a longjmp's stale frames, a full
// stack, an unregistered slot, a count about to move 2^29 into the overflow
// word, a drop in the window of the 2^30 fold) is left to the C replay: the
// routine returns the first event it did not replay, with the state written
// back, and the C driver replays that one event and calls again. The driver
// writes a sentinel event at End (a resume word of a readable slot), so the
// blocks need no compare with End; only .Lloop has one. The blocks read the
// words of up to three events past the sentinel (the journal has four spare
// events): those are stale events, earlier sentinels or zero, never the word
// a quad's fourth event would need there (a sentinel's slot | 3), and no
// block reads through a slot before the word says it is a start or an end.
//
//   const struct lwp_hex_event *lwp_hex_replay_c20(Ev, End)
//   const struct lwp_hex_event *lwp_hex_replay_upcycle(Ev, End)
//
// replay the events [Ev, End) recorded with QEMU's packet counter (32 bits
// in the event's low counter word, extended with the wraps the state counts)
// or UPCYCLE (64 bits). The state is lwp_hex_state (layout below); the
// caller guarantees that no start past a full stack is pending (OvfDepth 0).
//
// Every value stays 32-bit but the counter values, the region's total and
// self, the parent's self and the count words of children and nested
// (64-bit adds, no multiply).
//===----------------------------------------------------------------------===//

#ifndef LWP_STACK_FRAMES
#define LWP_STACK_FRAMES 4096
#endif

// struct lwp_hex_state (lwp_hexagon_runtime.c)
#define ST_NEXT 0    // Next (+0) and Top (+4) as one double word
#define ST_DROPS 8   // Drops (+8) and Last (+12)
#define ST_LOW 16    // Low (+16) and High (+20): c20's last value, its wraps
#define ST_PAUSE 24  // Pause, 64 bits
// struct lwp_hex_frame
#define F_SLOT 0     // SlotFlags (+0), SpRec (+4)
#define F_START 8
#define F_PARENT 16  // Parent (+16), Es (+20)
// struct lwp_slot (lwp/Runtime/MapFormat.h)
#define S_INDEX 0    // index (+0), bias (+4)
#define S_TOTAL 16
#define S_SELF 24
#define S_NESTED 32
#define S_CHILDREN 40
// The fold's window (LWP_FOLD_WINDOW): a drop whose count modulo 2^30 is
// below it goes to C.
#define FOLD_WINDOW 0x100000

// Registers of the loop:
//   r0 Ev        r1 End       r4 Next      r5 Top       r6 Drops    r7 Last
//   r8 Low       r9 High      r11:10 Pause r12 the full stack's top frame
//   r13 the frames' base
//   r17:16 {Site, Word}  r18 Sp  r19 the event's c20  r21:20 Now
//   r22 High after the event  r14 Slot  r25:24 {bias, index}
//   r27:26 the top frame's {SpRec, SlotFlags}  r15 the top frame's slot
//   r28 Lim (the blocks above; .Lloop uses r28 as scratch and reloads it)
// Scratch: r2, r3, r23, r31 (allocframe saved it), p0-p3 (the blocks reuse
// other registers above as their comments say).

// Now (\now) of the event at \ev; with c20 also the event's c20 (\low) and
// High after it (\high), from the c20 value \last and High \prev before it.
// Trashes p3.
.macro NOW c20, ev, now, low, high, last, prev
.if \c20
  { \low = memw(\ev+#16) }
  { p3 = cmp.gtu(\last, \low)               // below the last value: a wrap
    \high = \prev }
  { if (p3) \high = add(\prev, #1) }
  { \now = combine(\high, \low) }
.else
  { \now = memd(\ev+#16) }
.endif
  { \now = sub(\now, r11:10) }
.endm

// Commits the counter state after the event(s) replayed.
.macro COMMIT c20, low, high
.if \c20
  { r8 = \low
    r9 = \high }
.endif
.endm

// The record of a probe: site \site, raw ID word \word, depth \depth, counter
// \now, when \p (its region is within the cap) and Next <= Last; else one
// drop (the loop has checked the fold window). Trashes p0, r2.
.macro RECORD p, site, word, depth, now
  { p0 = cmp.gtu(r4, r7)                    // Next > Last: the buffer is full
    r2 = add(r6, #1) }
  { p0 = and(\p, !p0) }
  { if (p0) memw(r4+#0) = \site
    if (p0) memw(r4+#4) = \word }
  { if (p0) memw(r4+#8) = \depth
    if (p0) memd(r4+#16) = \now }
  { if (p0) r4 = add(r4, #32)
    if (!p0) r6 = r2 }
.endm

.macro REPLAY name, c20
  .globl \name
  .type \name, @function
  .p2align 4
\name:
  { allocframe(#56) }
  { memd(r29+#0) = r17:16
    memd(r29+#8) = r19:18 }
  { memd(r29+#16) = r21:20
    memd(r29+#24) = r23:22 }
  { memd(r29+#32) = r25:24
    memd(r29+#40) = r27:26 }
  { r28 = ##lwp_hex_state }
  { r5:4 = memd(r28+#ST_NEXT)
    r7:6 = memd(r28+#ST_DROPS) }
  { r9:8 = memd(r28+#ST_LOW)
    r11:10 = memd(r28+#ST_PAUSE) }
  { r13 = ##lwp_hex_frames }
  { r12 = add(r13, ##(32 * LWP_STACK_FRAMES)) }
  { r2 = and(r6, ##0x3fffffff)
    r3 = or(r6, ##0x3fffffff) }
  // Lim (r28): the blocks below take up to two drops while Drops < Lim,
  // that is while both stay out of the fold's window (a drop whose count
  // modulo 2^30 is below FOLD_WINDOW); 0 when the next drop would be in it
  // (every event then takes the general loop, which checks each drop).
  { p0 = cmp.gtu(r2, #FOLD_WINDOW - 2)      // Drops + 1 out of the window
    r28 = add(r3, #-1) }
  { if (!p0) r28 = #0 }
  { memw(r29+#48) = r28 }

  { jump .L\name\()_fast }

  //--- An end of the top frame's region, no flag on the frame (the common
  // end of the C replay), one drop out of the fold's window; 13 packets. An
  // end that follows comes straight back here; else the next event's words
  // (the second one's loaded here) choose the next block.
.L\name\()_end1:
  { r17:16 = memd(r0+#0)                    // {Site, Word}
    r27:26 = memd(r5+#F_SLOT)               // the top frame {SpRec, flags}
    p0 = cmp.gtu(r28, r6)                   // the drops
    r3 = lsr(r4, #5) }
  { r14 = and(r16, #-16)                    // the slot
    r2 = add(r16, #-1)
.if \c20
    r19 = memw(r0+#16)                      // c20
.else
    r21:20 = memd(r0+#16)                   // UPCYCLE
.endif
    r23:22 = memd(r5+#F_START) }
  { p1 = cmp.eq(r26, r2)                    // the top frame's, no flag
    r25:24 = memd(r14+#S_INDEX)             // {bias, index}
    r27:26 = memd(r5+#F_PARENT)             // {Es, Parent}
    r3 = add(r3, r6) }                      // the probe count before it
  { p0 = and(p0, p1)
.if \c20
    p3 = cmp.gtu(r8, r19)                   // a c20 wrap
    r2 = r9
.else
    r21:20 = sub(r21:20, r11:10)            // Now
.endif
    r3 = sub(r3, r27) }
  { if (!p0) jump:nt .L\name\()_loop
.if \c20
    if (p3) r2 = add(r9, #1)
.endif
    r3 = add(r3, #-1)                       // probes inside it
    p2 = !cmp.gt(r25, #0) }                 // recorded: bias <= 0
  { r24 = clrbit(r24, #31)                  // closed
.if \c20
    r9:8 = combine(r2, r19)
.endif
    r19:18 = memd(r14+#S_TOTAL)
    r31 = memw(r0+#64) }                    // the next event's second word
  { memw(r14+#S_INDEX) = r24
.if \c20
    r21:20 = sub(r9:8, r11:10)              // Now
.endif
    r25:24 = memd(r14+#S_NESTED)
    r31 = add(r31, #-1) }
  { r23:22 = sub(r21:20, r23:22)            // inclusive cycles
    r25:24 = add(r3, r25:24)
    r3:2 = memd(r26+#S_SELF)
    p0 = cmp.gtu(r4, r7) }                  // the buffer is full
  { r19:18 = add(r19:18, r23:22)
    memd(r14+#S_NESTED) = r25:24
    r3:2 = sub(r3:2, r23:22)
    r15 = sub(r5, r13) }
  { memd(r14+#S_TOTAL) = r19:18
    memd(r26+#S_SELF) = r3:2
    r15 = lsr(r15, #5)                      // the depth
    r5 = add(r5, #-32) }
  { p0 = and(p2, !p0)
    r27 = add(r6, #1)
    r2 = memw(r0+#32)                       // the next event's word
    r0 = add(r0, #32) }
  { if (p0) memw(r4+#0) = r17
    if (p0) memw(r4+#4) = r16
    if (!p0) r6 = r27
    p1 = tstbit(r2, #0) }                   // an end: straight here again
  { if (p0) memw(r4+#8) = r15
    if (p0) memd(r4+#16) = r21:20
    if (p0) r4 = add(r4, #32)
    if (p1) jump .L\name\()_end1 }
  // Else the next event (word r2, the second word's less one r31): a leaf
  // pair, a quad, a start, else a resume.
  { p2 = cmp.eq(r31, r2)
    if (p2.new) jump:t .L\name\()_fast
    r19 = memw(r0+#96)                      // the fourth word
    r15 = add(r2, #1) }
  { p1 = cmp.eq(r19, r15)
    if (p1.new) jump:t .L\name\()_quad
    p0 = bitsclr(r2, #3)
    r16 = r2 }
  { if (p0) jump .L\name\()_start1
    jump .L\name\()_single_end }


.L\name\()_fast:
  //--- A capped leaf pair: a start whose next event is the end of the same
  // slot, of a registered region that is not open and past its cap (0 <=
  // bias < 2^30 - 1: the count does not move into the overflow word), the
  // probe's stack the top frame's or below, room on the stack (the C
  // replay's conditions of a common start), two drops out of the fold's
  // window. No record, no frame: the count, the total, the parent's self
  // and children, two drops; 13 packets. Loads through the slot are
  // predicated on a start (a resume's slot may be 0; so may the sentinel
  // event the C driver writes at End, whose word is 2). With c20, the wraps
  // are counted once for the pair (Low > c20 at the end): the C replay
  // counts them per event, the same unless 2^32 packets pass between two
  // probes.
  { r17:16 = memd(r0+#0)                    // {Site, Word}
    r27:26 = memd(r5+#F_SLOT)               // the top frame {SpRec, flags}
    p0 = cmp.gtu(r28, r6) }                 // the drops
  { r14 = and(r16, #-16)                    // the slot
    r15 = and(r26, #-16)                    // the parent
    p1 = bitsclr(r16, #3)                   // a start
    r3 = memw(r0+#32) }                     // the next event's word
  { if (p1) r25:24 = memd(r14+#S_INDEX)     // {bias, index}
    r18 = memw(r0+#8)                       // Sp
    r2 = add(r16, #1)
    r27 = and(r27, #-8) }                   // the top frame's stack
  { p3 = cmp.eq(r3, r2)                     // the next event ends it
    if (!p3.new) jump:nt .L\name\()_single
.if \c20
    r19 = memw(r0+#16)                      // c20 at the start
    r23 = memw(r0+#48) }                    // c20 at the end
.else
    r23:22 = memd(r0+#16)                   // UPCYCLE at the start
    r17:16 = memd(r0+#48) }                 // UPCYCLE at the end
.endif
  { p0 = and(p0, p1)
    p2 = cmp.gtu(r18, r27)                  // a stack above the top frame's
    if (p1) r27:26 = memd(r14+#S_TOTAL)
    r21:20 = memd(r15+#S_CHILDREN) }
  { p0 = and(p0, !p2)
    p1 = cmp.gtu(r25, ##0x3ffffffe)         // recorded, or an overflow move
    p3 = cmp.gt(r24, #0) }                  // registered, not open
  { p0 = and(p0, and(p3, !p1))
    p1 = cmp.eq(r5, r12)                    // the stack is full
    r2 = add(r25, #1)                       // the new bias
.if \c20
    r3 = sub(r23, r19) }                    // inclusive packets
  { p0 = and(p0, !p1)
    p3 = cmp.gtu(r8, r23)                   // a c20 wrap
    r19:18 = combine(#0, r3)
    r25:24 = memd(r15+#S_SELF) }
.else
    r19:18 = sub(r17:16, r23:22) }          // inclusive cycles
  { p0 = and(p0, !p1)
    r25:24 = memd(r15+#S_SELF) }
.endif
  { if (!p0) jump:nt .L\name\()_slow        // (the packet runs either way)
    if (p0) memw(r14+#4) = r2               // the bias
    if (p0) r6 = add(r6, #2)                // two drops
    r3 = #1 }
  { r27:26 = add(r27:26, r19:18)
.if \c20
    if (p3) r9 = add(r9, #1)
    r8 = r23
.endif
    r21:20 = add(r3, r21:20) }
  { memd(r14+#S_TOTAL) = r27:26
    r25:24 = sub(r25:24, r19:18)
    r2 = memw(r0+#64)                       // the next event's word
    r0 = add(r0, #64) }
  { memd(r15+#S_CHILDREN) = r21:20
    memd(r15+#S_SELF) = r25:24
    p1 = tstbit(r2, #0)                     // an end
    if (!p1.new) jump:t .L\name\()_fast }
  { jump .L\name\()_end1 }

  // Not a leaf pair (p1: a start).
.L\name\()_single:
  { if (p1) jump .L\name\()_quad
    r16 = memw(r0+#0) }
.L\name\()_single_end:
  { p2 = tstbit(r16, #0)
    if (p2.new) jump:t .L\name\()_end1 }
  { jump .L\name\()_loop }
  // A leaf pair the block above did not take: a start whose conditions the
  // start below checks again.
.L\name\()_slow:
  { r16 = memw(r0+#0) }
  { p1 = bitsclr(r16, #3)
    if (p1.new) jump:t .L\name\()_start1 }
  { jump .L\name\()_single_end }


  //--- A capped call of one capped leaf: a start S, the start of another
  // region L, L's end, S's end, each start under the common start's
  // conditions (for L the frame S would push is the top one: L's stack at
  // or below S's, room for two frames, L's slot not S's), both regions past
  // their cap with no overflow move (0 <= bias < 2^30 - 1), four drops out
  // of the fold's window (Drops + 2 < Lim, without a wrap). The C replay
  // would push and pop both frames; S's end would find its own frame, no
  // flag on it, with two probes inside. Nothing is written but the figures:
  // S's count, total, self (less L's inclusive time), nested (+2) and
  // children, L's count and total, the parent's self and children, four
  // drops; with c20 the wraps once for the four (Low > the last c20), as
  // the leaf pair does. A first word that is not a start, a fourth word that
  // does not end it or a second word that is not a start leave early
  // (.Lquad_x); any other failed check after the checks (.Lquad_fail). The
  // stack test compares the probe's Sp with SpRec unmasked: Sp is 8-byte
  // aligned, so Sp > SpRec & -8 exactly when Sp > SpRec.
.L\name\()_quad:
  { r16 = memw(r0+#0)                       // the first and fourth words
    r19 = memw(r0+#96)
    r3 = add(r5, #32)                       // the frame the first would push
    r2 = add(r6, #2) }                      // four drops: Drops + 2 < Lim
  { r17 = memw(r0+#32)
    r18 = memw(r0+#64)
    p0 = bitsclr(r16, #3)                   // the first is a start
    r15 = add(r16, #1) }                    // its end
  { p2 = cmp.eq(r19, r15)                   // the fourth ends the first
    if (!p2.new) jump:nt .L\name\()_quad_x
    if (p0) r25:24 = memd(r16+#S_INDEX)     // the outer slot {bias, index}
    r14 = add(r17, #1) }                    // the second's end
  { p1 = bitsclr(r17, #3)                   // the second is a start
    if (!p1.new) jump:nt .L\name\()_quad_x
    r27:26 = memd(r5+#F_SLOT)               // the top frame {SpRec, flags}
    r20 = memw(r0+#8) }                     // Sp of the outer start
  { r23:22 = memd(r17+#S_INDEX)             // the inner slot {bias, index}
    r21 = memw(r0+#40)                      // Sp of the inner start
    p3 = cmp.eq(r18, r14)                   // the third ends the second
    p2 = cmp.gtu(r28, r6) }                 // two drops
  { p0 = and(p0, and(p3, p2))
    p1 = !cmp.eq(r16, r17)                  // two regions
.if \c20
    r15 = memw(r0+#16)                      // c20 of the outer start
    r14 = memw(r0+#112) }                   // c20 of the outer end
.else
    }
.endif
  { p0 = and(p0, p1)
    p1 = cmp.gtu(r28, r2)                   // four drops
.if \c20
    r18 = memw(r0+#48)                      // c20 of the inner start
    r19 = memw(r0+#80) }                    // c20 of the inner end
.else
    }
.endif
  { p0 = and(p0, p1)
    p1 = cmp.gtu(r12, r3)                   // room for two frames
    p2 = cmp.gtu(r20, r27)                  // above the top frame's stack
    r2 = or(r25, r23) }                     // either bias
  { p0 = and(p0, and(p1, !p2))
    p1 = cmp.gtu(r21, r20)                  // the inner above the outer
    p2 = cmp.gt(r24, #0)                    // the outer registered, not open
    r26 = and(r26, #-16) }                  // the parent
  { p0 = and(p0, and(p2, !p1))
    p1 = cmp.gt(r22, #0)                    // the inner registered, not open
    p2 = cmp.gtu(r2, ##0x3ffffffe) }        // recorded, or an overflow move
  { p0 = and(p0, and(p1, !p2))
    if (!p0.new) jump:nt .L\name\()_quad_fail
    r25 = add(r25, #1)
    r23 = add(r23, #1) }
.if \c20
  { memw(r16+#4) = r25                      // the biases
    memw(r17+#4) = r23
    r18 = sub(r19, r18)                     // the inner's inclusive packets
    r19 = #0 }
  { r25:24 = memd(r16+#S_TOTAL)
    r23:22 = memd(r16+#S_SELF)
    r2 = sub(r14, r15)                      // the outer's
    r3 = #0 }
  { r21:20 = memd(r16+#S_NESTED)
    r31 = memw(r0+#128)                     // the next event's word
    p1 = cmp.gtu(r8, r14)                   // a c20 wrap
    r8 = r14 }
.else
  { memw(r16+#4) = r25                      // the biases
    memw(r17+#4) = r23 }
  { r19:18 = memd(r0+#48)
    r15:14 = memd(r0+#80) }
  { r3:2 = memd(r0+#16)
    r21:20 = memd(r0+#112) }
  { r19:18 = sub(r15:14, r19:18)            // the inner's inclusive cycles
    r25:24 = memd(r16+#S_TOTAL)
    r23:22 = memd(r16+#S_SELF) }
  { r3:2 = sub(r21:20, r3:2)                // the outer's
    r21:20 = memd(r16+#S_NESTED)
    r31 = memw(r0+#128) }                   // the next event's word
.endif
  { r15:14 = memd(r16+#S_CHILDREN)
    r27 = #2
    r25:24 = add(r25:24, r3:2)
    r23:22 = sub(r23:22, r19:18) }
  { memd(r16+#S_TOTAL) = r25:24
    memd(r16+#S_SELF) = r23:22
    r21:20 = add(r27, r21:20)               // two probes inside it
    r27 = #1 }
  { memd(r16+#S_NESTED) = r21:20
    r25:24 = memd(r17+#S_TOTAL)
    r15:14 = add(r27, r15:14)
.if \c20
    if (p1) r9 = add(r9, #1)
.endif
    }
  { memd(r16+#S_CHILDREN) = r15:14
    r23:22 = memd(r26+#S_CHILDREN)
    r25:24 = add(r25:24, r19:18)
    r6 = add(r6, #4) }                      // four drops
  { memd(r17+#S_TOTAL) = r25:24
    r21:20 = memd(r26+#S_SELF)
    r16 = add(r31, #1)
    p1 = tstbit(r31, #0) }                  // an end
  { r23:22 = add(r27, r23:22)
    r17 = memw(r0+#160)                     // the word after it
    r0 = add(r0, #128) }
  { memd(r26+#S_CHILDREN) = r23:22
    r21:20 = sub(r21:20, r3:2)
    p2 = cmp.eq(r17, r16) }                 // a leaf pair
  { memd(r26+#S_SELF) = r21:20
    if (p1) jump .L\name\()_end1
    if (!p2) jump .L\name\()_quad }
  { jump .L\name\()_fast }
  // Not a quad (p0: the first is a start; r17 the second word, r15 the
  // first's end word): a leaf pair, a start, an end or a resume.
.L\name\()_quad_x:
  { p1 = cmp.eq(r17, r15)
    if (p1.new) jump:t .L\name\()_fast
    if (p0) jump .L\name\()_start1 }
  { jump .L\name\()_single_end }
  // A quad's later checks failed: the same way on.
.L\name\()_quad_fail:
  { p0 = bitsclr(r16, #3)
    r15 = add(r16, #1) }
  { jump .L\name\()_quad_x }


  //--- A start, recorded or not, not followed by its end: the common start
  // of the C replay (a registered region not open, the probe's stack the
  // top frame's or below, room on the stack, no overflow move, one drop out
  // of the fold's window): a frame is pushed; 14 packets, then the next
  // event's words choose the next block. Else the general loop below.
.L\name\()_start1:
  { r17:16 = memd(r0+#0)                    // {Site, Word}
    r27:26 = memd(r5+#F_SLOT)               // the top frame {SpRec, flags}
    p0 = cmp.gtu(r28, r6)                   // the drops
    r3 = lsr(r4, #5) }
  { r14 = and(r16, #-16)                    // the slot
    r15 = and(r26, #-16)                    // the parent
    r18 = memw(r0+#8)                       // Sp
.if \c20
    r19 = memw(r0+#16) }                    // c20
.else
    r21:20 = memd(r0+#16) }                 // UPCYCLE
.endif
  { r25:24 = memd(r14+#S_INDEX)             // {bias, index}
    r23:22 = memd(r15+#S_CHILDREN)
    r27 = and(r27, #-8)                     // the top frame's stack
    p1 = !cmp.eq(r5, r12) }                 // room on the stack
  { p2 = cmp.gtu(r18, r27)                  // a stack above the top frame's
    p3 = cmp.gt(r24, #0)                    // registered, not open
    r3 = add(r3, r6)                        // the probe count before it
.if \c20
    r2 = r9 }
.else
    r21:20 = sub(r21:20, r11:10) }          // Now
.endif
  { p0 = and(p0, and(p3, !p2))
    p2 = cmp.gt(r25, ##0x3ffffffe)          // an overflow move
.if \c20
    p3 = cmp.gtu(r8, r19) }                 // a c20 wrap
.else
    }
.endif
  { p0 = and(p0, and(p1, !p2))
.if \c20
    if (p3) r2 = add(r9, #1)
.endif
    p1 = tstbit(r25, #31)                   // recorded (count <= cap)
    r25 = add(r25, #1) }                    // the new bias
  { if (!p0) jump:nt .L\name\()_loop
.if \c20
    if (p0) r9:8 = combine(r2, r19)
.endif
    if (p1) r18 = add(r18, #1)              // LWP_HEX_F_REC
    r26 = add(r5, #32) }                    // the frame
  { r19 = memw(r0+#128)                     // the next event's fourth word
.if \c20
    r21:20 = sub(r9:8, r11:10)              // Now
.endif
    r24 = setbit(r24, #31)                  // open
    r2 = #1 }
  { memd(r14+#S_INDEX) = r25:24             // {bias, index}
    memw(r26+#F_SLOT) = r16
    r23:22 = add(r2, r23:22)
    r5 = r26 }
  { memw(r26+#4) = r18
    memd(r26+#F_START) = r21:20
    r2 = sub(r26, r13)
    r0 = add(r0, #32) }
  { memw(r26+#F_PARENT) = r15
    memw(r26+#20) = r3
    r2 = lsr(r2, #5)                        // the depth
    p0 = cmp.gtu(r4, r7) }                  // the buffer is full
  { memd(r15+#S_CHILDREN) = r23:22
    p0 = and(p1, !p0)
    r3 = add(r6, #1)
    r27 = memw(r0+#0) }                     // the next event's word
  { if (p0) memw(r4+#0) = r17
    if (p0) memw(r4+#4) = r16
    if (!p0) r6 = r3
    r25 = add(r27, #1) }                    // its end's word
  { if (p0) memw(r4+#8) = r2
    if (p0) memd(r4+#16) = r21:20
    if (p0) r4 = add(r4, #32) }
  // The next event (word r27, its end's word r25, the fourth word r19): a
  // quad, a leaf pair, another start, else an end or a resume.
  { p2 = cmp.eq(r19, r25)
    if (p2.new) jump:t .L\name\()_quad
    r17 = memw(r0+#32)
    p0 = bitsclr(r27, #3) }
  { p1 = cmp.eq(r17, r25)
    if (p1.new) jump:nt .L\name\()_fast
    if (p0) jump .L\name\()_start1
    r16 = r27 }
  { jump .L\name\()_single_end }


  // Every other shape, one event at a time.
.L\name\()_resume:
  { r28 = memw(r29+#48) }
  { jump .L\name\()_fast }
.L\name\()_loop:
  { p0 = cmp.gtu(r1, r0)
    if (!p0.new) jump:nt .L\name\()_exit
    r17:16 = memd(r0+#0)                    // {Site, Word}
    r19:18 = memd(r0+#8) }                  // Sp
  { r14 = and(r16, #-16)                    // the slot
    p1 = tstbit(r16, #0)                    // an end
    p2 = tstbit(r16, #1)                    // a resume
    r2 = add(r6, #2) }                      // the fold window: two drops
  { if (p2) jump:nt .L\name\()_exit         // C
    if (!p2) r25:24 = memd(r14+#S_INDEX)    // {bias, index}
    r27:26 = memd(r5+#F_SLOT) }             // the top frame's {SpRec, flags}
  { r2 = and(r2, ##0x3fffffff) }
  { p0 = cmp.gtu(r2, #FOLD_WINDOW + 1)      // both drops outside the window
    if (!p0.new) jump:nt .L\name\()_exit
    r15 = and(r26, #-16) }                  // the top frame's slot
  NOW \c20, r0, r21:20, r19, r22, r8, r9
  { if (p1) jump .L\name\()_end
    r2 = and(r27, #-8) }                    // the top frame's stack

  //--- A start: common when the region is registered and not open (index
  // > 0), the probe's stack is the top frame's or below, the stack has room
  // and the count does not move into the overflow word (bias < 2^30 - 1).
  { p0 = cmp.gt(r24, #0)
    p1 = cmp.gtu(r18, r2)
    p2 = cmp.eq(r5, r12) }
  { p0 = and(p0, !p1)
    p1 = cmp.gt(r25, ##0x3ffffffe) }
  { p0 = and(p0, !p2)
    r23 = add(r25, #1)                      // the new bias
    r3 = add(r0, #32) }                     // the next event
  { p0 = and(p0, !p1)
    p1 = cmp.gtu(r1, r3) }                  // there is one
  { if (!p0) jump:nt .L\name\()_exit
    if (p1) r2 = memw(r0+#32)               // its word
    r3 = add(r16, #1) }
  { p3 = cmp.eq(r2, r3)                     // it ends the region
    memw(r14+#4) = r23                      // the bias
    r28 = #1 }
  { r3:2 = memd(r15+#S_CHILDREN)
    p1 = and(p1, p3)                        // a leaf pair
    p2 = tstbit(r25, #31) }                 // recorded (count <= cap)
  { r3:2 = add(r28, r3:2) }
  { memd(r15+#S_CHILDREN) = r3:2
    if (!p1) jump .L\name\()_start }

  //--- A leaf pair: no frame; the region's nested count does not move.
  { r28 = add(r0, #32) }
  NOW \c20, r28, r27:26, r23, r2, r19, r22
  COMMIT \c20, r23, r2
  { r25:24 = sub(r27:26, r21:20) }          // inclusive cycles
  { r3:2 = memd(r14+#S_TOTAL) }
  { r3:2 = add(r3:2, r25:24) }
  { memd(r14+#S_TOTAL) = r3:2
    r3:2 = memd(r15+#S_SELF) }
  { r3:2 = sub(r3:2, r25:24) }
  { memd(r15+#S_SELF) = r3:2
    r28 = sub(r5, r13) }
  { r28 = add(r28, #32) }
  { r28 = lsr(r28, #5) }                    // the depth
  RECORD p2, r17, r16, r28, r21:20
  { r3 = memw(r0+#36)                       // the end's site
    r15 = add(r16, #1) }                    // its word
  RECORD p2, r3, r15, r28, r27:26
  { r0 = add(r0, #64)
    jump .L\name\()_resume }

  //--- A start alone: a frame is pushed.
.L\name\()_start:
  COMMIT \c20, r19, r22
  { r24 = setbit(r24, #31)                  // open
    r2 = lsr(r4, #5)
    r3 = add(r5, #32) }                     // the frame
  { memw(r14+#S_INDEX) = r24
    r2 = add(r2, r6)                        // the probe count before it
    if (p2) r18 = add(r18, #1) }            // LWP_HEX_F_REC
  { memw(r3+#0) = r16
    memw(r3+#4) = r18 }
  { memd(r3+#F_START) = r21:20
    r5 = r3 }
  { memw(r3+#16) = r15
    memw(r3+#20) = r2
    r28 = sub(r3, r13) }
  { r28 = lsr(r28, #5) }                    // the depth
  RECORD p2, r17, r16, r28, r21:20
  { r0 = add(r0, #32)
    jump .L\name\()_resume }

  //--- An end: common when the top frame is its region's, no flag on it.
.L\name\()_end:
  { r3 = add(r16, #-1) }
  { p0 = cmp.eq(r26, r3)
    if (!p0.new) jump:nt .L\name\()_exit
    r3:2 = memd(r5+#F_START)
    r27:26 = memd(r5+#F_PARENT) }           // {Es, Parent}
  COMMIT \c20, r19, r22
  { r24 = clrbit(r24, #31)                  // closed
    r23 = add(r25, #-1)
    r28 = lsr(r4, #5) }
  { memw(r14+#S_INDEX) = r24
    p2 = tstbit(r23, #31)                   // recorded: bias <= 0
    r25:24 = sub(r21:20, r3:2)              // inclusive cycles
    r28 = add(r28, r6) }                    // the probe count before it
  { r3:2 = memd(r14+#S_TOTAL)
    r28 = sub(r28, r27) }
  { r3:2 = add(r3:2, r25:24)
    r28 = add(r28, #-1) }                   // probes inside it
  { memd(r14+#S_TOTAL) = r3:2
    r3:2 = memd(r14+#S_NESTED) }
  { r3:2 = add(r28, r3:2) }
  { memd(r14+#S_NESTED) = r3:2
    r3:2 = memd(r26+#S_SELF) }
  { r3:2 = sub(r3:2, r25:24)
    r28 = sub(r5, r13) }
  { memd(r26+#S_SELF) = r3:2
    r28 = lsr(r28, #5)                      // the depth
    r5 = add(r5, #-32) }
  RECORD p2, r17, r16, r28, r21:20
  { r0 = add(r0, #32)
    jump .L\name\()_resume }

.L\name\()_exit:
  { r28 = ##lwp_hex_state }
  { memd(r28+#ST_NEXT) = r5:4
    memw(r28+#ST_DROPS) = r6 }
  { memd(r28+#ST_LOW) = r9:8 }
  { r17:16 = memd(r29+#0)
    r19:18 = memd(r29+#8) }
  { r21:20 = memd(r29+#16)
    r23:22 = memd(r29+#24) }
  { r25:24 = memd(r29+#32)
    r27:26 = memd(r29+#40) }
  { dealloc_return }
  .size \name, . - \name
.endm

  .text
  REPLAY lwp_hex_replay_c20, 1
  REPLAY lwp_hex_replay_upcycle, 0

  .section .note.GNU-stack, "", @progbits
