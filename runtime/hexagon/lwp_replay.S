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
// (issue 23)"), in compensated time with the calling-context tree (issue
// 30). Blocks, each one straight-line:
//
//   .Lfast    a capped leaf pair: a start whose next event is the end of the
//             same slot, past the cap, whose slot's cached node is a child
//             of the top frame's node: no frame and no record; its own
//             nested count is 0, so only the region's count and total, the
//             parent's self and children and the node's count and cycles
//             move (14 packets the pair with c20);
//   .Lquad    a capped call of one capped leaf: a start, a capped leaf pair
//             of another region, the first start's end (the nested
//             workload's four probes), both nodes cached: no frame and no
//             record either; the outer region's count, total, self (less
//             the leaf's time), nested (2) and children, the leaf's count
//             and total, the parent's self and children, both nodes, four
//             drops (30 packets the four with c20);
//   .Lstart1  a start of a registered region that is not open, in the top
//             frame's function or deeper, with room on the stack, whose
//             slot's cached node is a child of the top frame's node: a frame
//             is pushed with that node, the start recorded or dropped (16
//             packets, then the next event's words choose the next block);
//   .Lend1    an end of the top frame's region, its outermost instance (no
//             flag on the frame): the frame is closed and popped, its node
//             counts it (15 packets); an end that follows comes straight
//             back here;
//   .Lloop    one event at a time, the same common shapes (a recorded leaf
//             pair, a start, an end) with every check, before C.
//
// Each block ends by looking at the words of the next events (the next one,
// the one after it, the fourth) and jumps to the block that fits; a block
// whose checks fail passes the event on (.Lquad_x, .Lsingle, .Lslow) to one
// that does less.
//
// A start whose slot caches the node of another path (a region entered
// from several paths in turn) searches the top frame's node's children for
// its own and caches it (.Lslow, .Lrefresh, .Lquad_fail: WALK).
//
// Anything else (a resume, recursion, a longjmp's stale frames, a full
// stack, an unregistered slot, a count about to move 2^29 into the overflow
// word, a drop in the window of the 2^30 fold, a start whose path has no
// node yet) is left to the C replay: the routine returns the first
// event it did not replay, with the state written back, and the C driver
// replays that one event and calls again. The driver writes a sentinel
// event at End (a resume word of a readable slot), so the blocks need no
// compare with End; only .Lloop has one. The blocks read the words of up to
// three events past the sentinel (the journal has four spare events): those
// are stale events, earlier sentinels or zero, never the word a quad's
// fourth event would need there (a sentinel's slot | 3), and no block reads
// through a slot before the word says it is a start or an end.
//
// Compensated time (docs/hexagon-runtime.md, "Compensated time"): every
// counter value is the event's counter less Pause, and each event replayed
// adds Cost (one probe's ticks, lwp_hex_state.Cost) to Pause after its
// value is taken; the blocks that form no counter value (a leaf pair, a
// quad) take Cost out of the inclusive times they compute (K for a leaf,
// 3K for the quad's outer region) and add 2K or 4K to Pause.
//
// The calling-context tree (struct lwp_hex_node): a region's slot caches
// the node of its last start (+12) and that node's parent (+48); a start
// whose top frame's node is that parent takes that node (the frame keeps
// it at +4); an end adds 1 to the low word of its node's count (a memory
// add: the C side carries the wraps) and the inclusive time to its cycles.
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
// self, the parent's self, the node's cycles and the count words of
// children and nested (64-bit adds, no multiply).
//===----------------------------------------------------------------------===//

#ifndef LWP_STACK_FRAMES
#define LWP_STACK_FRAMES 4096
#endif

// struct lwp_hex_state (lwp_hexagon_runtime.c)
#define ST_NEXT 0    // Next (+0) and Top (+4) as one double word
#define ST_DROPS 8   // Drops (+8) and Last (+12)
#define ST_LOW 16    // Low (+16) and High (+20): c20's last value, its wraps
#define ST_PAUSE 24  // Pause, 64 bits
#define ST_COST 32   // Cost: one probe's counter ticks
// struct lwp_hex_frame
#define F_SLOT 0     // SlotFlags (+0), Node (+4)
#define F_NODE 4
#define F_START 8
#define F_PARENT 16  // Parent (+16), Es (+20)
#define F_ES 20
#define F_SP 24      // SpRec
// struct lwp_slot (lwp/Runtime/MapFormat.h)
#define S_INDEX 0    // index (+0), bias (+4)
#define S_NODE 12    // open: the node of its last start
#define S_TOTAL 16
#define S_SELF 24
#define S_NESTED 32
#define S_CHILDREN 40
#define S_UP 48      // outer: that node's parent
// struct lwp_hex_node
#define N_COUNT 8    // the low word of the count
#define N_CYCLES 16
#define N_FIRST 32   // the first child (lwp_hex_fold_node: none)
#define N_NEXT 36    // the next sibling (lwp_hex_fold_node: none)
// The fold's window (LWP_FOLD_WINDOW): a drop whose count modulo 2^30 is
// below it goes to C.
#define FOLD_WINDOW 0x100000
// The stack frame: the callee-saved registers (+0 .. +47), Lim, End.
#define SP_LIM 48
#define SP_END 52

// Registers of the loop:
//   r0 Ev        r1 Cost      r4 Next      r5 Top       r6 Drops    r7 Last
//   r8 Low       r9 High      r11:10 Pause r12 the full stack's top frame
//   r13 the frames' base     r28 Lim (the blocks above; .Lloop uses r28 as
//   scratch and reloads it)  End on the stack (SP_END)
// Scratch: r2, r3, r14-r27, r31 (allocframe saved it), p0-p3; with UPCYCLE
// also r9:8 (Low and High are c20's).

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

// Adds 1 to the count of node \node and \incl to its cycles (\tmp a pair).
.macro NODE_ADD node, incl, tmp
  { \tmp = memd(\node+#N_CYCLES) }
  { \tmp = add(\tmp, \incl)
    memw(\node+#N_COUNT) += #1 }
  { memd(\node+#N_CYCLES) = \tmp }
.endm

// Searches the children of node \parent for ID \id (a registered region's
// index): found, the child becomes the cached node of slot \slot (its node
// and that node's parent) and the walk jumps to \found; at the end of the
// list (lwp_hex_fold_node, ID 0) to \notfound. Trashes r2, r3, \next, p0,
// p1.
.macro WALK parent, id, slot, next, found, notfound
  { r3 = memw(\parent+#N_FIRST) }
1:
  { r2 = memw(r3+#0)                        // its ID (0: the end)
    \next = memw(r3+#N_NEXT) }
  { p0 = cmp.eq(r2, \id)
    if (p0.new) jump:nt 2f
    p1 = cmp.eq(r2, #0) }
  { if (p1) jump \notfound
    r3 = \next
    jump 1b }
2:
  { memw(\slot+#S_NODE) = r3
    memw(\slot+#S_UP) = \parent
    jump \found }
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
  { r28 = ##lwp_hex_state
    memw(r29+#SP_END) = r1 }
  { r5:4 = memd(r28+#ST_NEXT)
    r7:6 = memd(r28+#ST_DROPS) }
  { r9:8 = memd(r28+#ST_LOW)
    r11:10 = memd(r28+#ST_PAUSE) }
  { r1 = memw(r28+#ST_COST)
    r13 = ##lwp_hex_frames }
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
  { memw(r29+#SP_LIM) = r28 }

  { jump .L\name\()_fast }

  //--- An end of the top frame's region, no flag on the frame (the common
  // end of the C replay), one drop out of the fold's window. An end that
  // follows comes straight back here; else the next event's words (the
  // second one's loaded here) choose the next block.
.L\name\()_end1:
  { r17:16 = memd(r0+#0)                    // {Site, Word}
    r27:26 = memd(r5+#F_SLOT)               // the top frame {node, slot}
    p0 = cmp.gtu(r28, r6)                   // the drops
    r3 = lsr(r4, #5) }
  { r14 = and(r16, #-16)                    // the slot
    r2 = add(r16, #-1)
.if \c20
    r15 = memw(r0+#16)                      // c20
.else
    r21:20 = memd(r0+#16)                   // UPCYCLE
.endif
    r23:22 = memd(r5+#F_START) }
  { p1 = cmp.eq(r26, r2)                    // the top frame's, no flag
    r25:24 = memd(r14+#S_INDEX)             // {bias, index}
    r19:18 = memd(r5+#F_PARENT)             // {Es, Parent}
    r3 = add(r3, r6) }                      // the probe count before it
  { p0 = and(p0, p1)
.if \c20
    p3 = cmp.gtu(r8, r15)                   // a c20 wrap
    r2 = r9
.else
    r21:20 = sub(r21:20, r11:10)            // Now
.endif
    r3 = sub(r3, r19) }
  { if (!p0) jump:nt .L\name\()_loop
.if \c20
    if (p3) r2 = add(r9, #1)
.endif
    r3 = add(r3, #-1)                       // probes inside it
    p2 = !cmp.gt(r25, #0) }                 // recorded: bias <= 0
  { r24 = clrbit(r24, #31)                  // closed
.if \c20
    r9:8 = combine(r2, r15)
.endif
    r19 = memw(r0+#64)                      // the next event's second word
    r27:26 = memd(r14+#S_TOTAL) }
  { memw(r14+#S_INDEX) = r24
.if \c20
    r21:20 = sub(r9:8, r11:10)              // Now
.endif
    r25:24 = memd(r14+#S_NESTED)
    r19 = add(r19, #-1) }
  { r23:22 = sub(r21:20, r23:22)            // inclusive cycles
    r25:24 = add(r3, r25:24)
    r3:2 = memd(r18+#S_SELF)
    r15 = memw(r5+#F_NODE) }                // its node
  { r27:26 = add(r27:26, r23:22)
    memd(r14+#S_NESTED) = r25:24
    r3:2 = sub(r3:2, r23:22)
    r25:24 = memd(r15+#N_CYCLES) }
  { memd(r14+#S_TOTAL) = r27:26
    memd(r18+#S_SELF) = r3:2
    r25:24 = add(r25:24, r23:22)
    r11:10 = add(r1, r11:10) }              // Pause: the probe
  { memd(r15+#N_CYCLES) = r25:24
    r3 = sub(r5, r13)
    p0 = cmp.gtu(r4, r7)                    // the buffer is full
    r5 = add(r5, #-32) }
  { memw(r15+#N_COUNT) += #1
    r3 = lsr(r3, #5)                        // the depth
    p0 = and(p2, !p0)
    r27 = add(r6, #1) }
  { r2 = memw(r0+#32)                       // the next event's word
    r0 = add(r0, #32) }
  { if (p0) memw(r4+#0) = r17
    if (p0) memw(r4+#4) = r16
    if (!p0) r6 = r27
    p1 = tstbit(r2, #0) }                   // an end: straight here again
  { if (p0) memw(r4+#8) = r3
    if (p0) memd(r4+#16) = r21:20
    if (p0) r4 = add(r4, #32)
    if (p1) jump .L\name\()_end1 }
  // Else the next event (word r2, the second word's less one r19): a leaf
  // pair, a quad, a start, else a resume.
  { p2 = cmp.eq(r19, r2)
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
  // replay's conditions of a common start), its slot's cached node a child
  // of the top frame's node, two drops out of the fold's window. No record,
  // no frame: the count, the total, the parent's self and children, the
  // node's count and cycles, two drops. Loads through the slot are
  // predicated on a start (a resume's slot may be 0; so may the sentinel
  // event the C driver writes at End, whose word is 2), through its cached
  // node on the checks (a slot never started has node 0). With c20, the
  // wraps are counted once for the pair (Low > c20 at the end): the C
  // replay counts them per event, the same unless 2^32 packets pass between
  // two probes.
  { r17:16 = memd(r0+#0)                    // {Site, Word}
    r27:26 = memd(r5+#F_SLOT)               // the top frame {node, slot}
    p0 = cmp.gtu(r28, r6)                   // the drops
    p2 = cmp.eq(r5, r12) }                  // the stack is full
  { r14 = and(r16, #-16)                    // the slot
    r15 = and(r26, #-16)                    // the parent
    r3 = memw(r0+#32)                       // the next event's word
    r23 = memw(r5+#F_SP) }                  // the top frame's stack | REC
  { p1 = bitsclr(r16, #3)                   // a start
    if (p1.new) r25:24 = memd(r14+#S_INDEX) // {bias, index}
    if (p1.new) r22 = memw(r14+#S_NODE)     // the node of its last start
    r2 = add(r16, #1) }                     // its end's word
  { p3 = cmp.eq(r3, r2)                     // the next event ends it
    if (!p3.new) jump:nt .L\name\()_single
    if (p1) r17 = memw(r14+#S_UP)           // that node's parent
    r18 = memw(r0+#8) }                     // Sp
  // Pause moves by the first probe's cost here, undone by .Lslow when the
  // block does not take the pair.
.if \c20
  { r19 = memw(r0+#16)                      // c20 at the start
    r16 = memw(r0+#48)                      // c20 at the end
    p0 = and(p0, and(p1, !p2))              // the drops, a start, room
    r11:10 = add(r1, r11:10) }              // Pause: the start probe
.else
  { r3:2 = memd(r0+#16)                     // UPCYCLE at the start
    r9:8 = memd(r0+#48)                     // UPCYCLE at the end
    p0 = and(p0, and(p1, !p2))              // the drops, a start, room
    r11:10 = add(r1, r11:10) }              // Pause: the start probe
.endif
  // SpRec unmasked: Sp is 8-byte aligned, so Sp > SpRec & -8 exactly when
  // Sp > SpRec.
  { p2 = cmp.gtu(r18, r23)                  // a stack above the top frame's
    p3 = cmp.eq(r17, r27)                   // its node: the top node's child
    if (p1) r27:26 = memd(r14+#S_TOTAL)
    r21:20 = memd(r15+#S_CHILDREN) }
  { p0 = and(p0, and(p3, !p2))
    p1 = cmp.gtu(r25, ##0x3ffffffe)         // recorded, or an overflow move
.if \c20
    r19 = add(r19, r1) }                    // + the start probe's cost
  { p3 = cmp.gt(r24, #0)                    // registered, not open
    if (p0) r19:18 = memd(r22+#N_CYCLES)
    r2 = add(r25, #1)                       // the new bias
    r3 = sub(r16, r19) }                    // inclusive packets, compensated
  { p0 = and(p0, and(p3, !p1))
    if (!p0.new) jump:nt .L\name\()_slow
    if (p0.new) memw(r14+#4) = r2           // the bias
    r25:24 = memd(r15+#S_SELF) }
  { r3:2 = combine(#0, r3)                  // inclusive packets, 64-bit
    p3 = cmp.gtu(r8, r16)                   // a c20 wrap
    r8 = r16
    r6 = add(r6, #2) }                      // two drops
  { r27:26 = add(r27:26, r3:2)
    r19:18 = add(r19:18, r3:2)
    memw(r22+#N_COUNT) += #1
    if (p3) r9 = add(r9, #1) }
.else
    r3:2 = add(r1, r3:2) }                  // + the start probe's cost
  { p3 = cmp.gt(r24, #0)                    // registered, not open
    if (p0) r19:18 = memd(r22+#N_CYCLES)
    r16 = add(r25, #1)                      // the new bias
    r3:2 = sub(r9:8, r3:2) }                // inclusive cycles, compensated
  { p0 = and(p0, and(p3, !p1))
    if (!p0.new) jump:nt .L\name\()_slow
    if (p0.new) memw(r14+#4) = r16          // the bias
    r25:24 = memd(r15+#S_SELF) }
  { r27:26 = add(r27:26, r3:2)
    r19:18 = add(r19:18, r3:2)
    memw(r22+#N_COUNT) += #1
    r6 = add(r6, #2) }                      // two drops
.endif
  { memd(r14+#S_TOTAL) = r27:26
    memd(r22+#N_CYCLES) = r19:18
    r25:24 = sub(r25:24, r3:2)              // the parent's self
    r3 = #1 }
  { memd(r15+#S_SELF) = r25:24
    r21:20 = add(r3, r21:20)                // the parent's children
    r11:10 = add(r1, r11:10)                // Pause: the end probe
    r17 = memw(r0+#64) }                    // the next event's word
  { memd(r15+#S_CHILDREN) = r21:20
    r0 = add(r0, #64)
    p1 = tstbit(r17, #0)                    // an end
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
  // start below checks again; when the slot's cached node (its parent in
  // r17, loaded for a start) is not a child of the top frame's node, it is
  // searched for first (.Lrefresh, from the walk on).
.L\name\()_slow:
  { r16 = memw(r0+#0)
    r27 = memw(r5+#F_NODE)                  // the top frame's node
    r2 = sub(#0, r1) }
  { p1 = bitsclr(r16, #3)                   // a start
    p0 = cmp.eq(r17, r27)                   // its cached node was right
    r14 = and(r16, #-16)
    r11:10 = add(r2, r11:10) }              // Pause as it was
  { if (!p1) jump .L\name\()_single_end
    if (p0) jump .L\name\()_start1 }
  { r24 = memw(r14+#S_INDEX) }
  { p1 = cmp.gt(r24, #0)                    // registered, not open
    if (!p1.new) jump:nt .L\name\()_start1 }
  WALK r27, r24, r14, r15, .L\name\()_fast, .L\name\()_loop

  //--- A start that a block did not take: when the region is registered and
  // not open and its slot's cached node is not a child of the top frame's
  // node, the top frame's node's children are searched for the region's ID
  // (a region entered from several paths in turn: its slot caches one node);
  // a child found becomes the slot's cached node and the event goes back to
  // the blocks. Otherwise (the cache was right, or the path is new: C
  // creates its node) the general loop below.
.L\name\()_refresh:
  { r16 = memw(r0+#0)                       // the word: a start
    r27 = memw(r5+#F_NODE) }                // the top frame's node
  { r14 = and(r16, #-16) }                  // the slot
  { r2 = memw(r14+#S_UP)                    // the parent of its last node
    r24 = memw(r14+#S_INDEX) }              // its index: its ID, not open
  { p0 = cmp.eq(r2, r27)                    // the cache was right
    p1 = cmp.gt(r24, #0) }                  // registered, not open
  { p0 = or(p0, !p1)
    if (p0.new) jump:nt .L\name\()_loop }
  WALK r27, r24, r14, r15, .L\name\()_fast, .L\name\()_loop


  //--- A capped call of one capped leaf: a start S, the start of another
  // region L, L's end, S's end, each start under the common start's
  // conditions (for L the frame S would push is the top one: L's stack at
  // or below S's, room for two frames, L's slot not S's), both regions past
  // their cap with no overflow move (0 <= bias < 2^30 - 1), S's cached node
  // a child of the top frame's node and L's a child of S's, four drops out
  // of the fold's window (Drops + 2 < Lim, without a wrap). The C replay
  // would push and pop both frames; S's end would find its own frame, no
  // flag on it, with two probes inside. Nothing is written but the figures:
  // S's count, total, self (less L's inclusive time), nested (+2) and
  // children, L's count and total, the parent's self and children, both
  // nodes' counts and cycles, four drops; with c20 the wraps once for the
  // four (Low > the last c20), as the leaf pair does. A first word that is
  // not a start, a fourth word that does not end it or a second word that
  // is not a start leave early (.Lquad_x); any other failed check after the
  // checks (.Lquad_fail). The stack test compares the probe's Sp with SpRec
  // unmasked: Sp is 8-byte aligned, so Sp > SpRec & -8 exactly when Sp >
  // SpRec.
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
    r27:26 = memd(r5+#F_SLOT)               // the top frame {node, slot}
    r20 = memw(r0+#8) }                     // Sp of the outer start
  { r23:22 = memd(r17+#S_INDEX)             // the inner slot {bias, index}
    r21 = memw(r0+#40)                      // Sp of the inner start
    p3 = cmp.eq(r18, r14)                   // the third ends the second
    p2 = cmp.gtu(r28, r6) }                 // two drops
  { p0 = and(p0, and(p3, p2))
    p1 = !cmp.eq(r16, r17)                  // two regions
    r31 = memw(r5+#F_SP)                    // the top frame's stack | REC
    if (p0) r18 = memw(r16+#S_UP) }         // the outer node's parent
  { p0 = and(p0, p1)
    p1 = cmp.gtu(r28, r2)                   // four drops
    if (p0) r15 = memw(r16+#S_NODE)         // the outer node
    r14 = memw(r17+#S_UP) }                 // the inner node's parent
  { p0 = and(p0, p1)
    p1 = cmp.gtu(r12, r3)                   // room for two frames
    p2 = cmp.gtu(r20, r31)                  // above the top frame's stack
    r2 = or(r25, r23) }                     // either bias
  { p0 = and(p0, and(p1, !p2))
    p1 = cmp.gtu(r21, r20)                  // the inner above the outer
    p2 = cmp.gt(r24, #0)                    // the outer registered, not open
    r26 = and(r26, #-16) }                  // the parent
  { p0 = and(p0, and(p2, !p1))
    p1 = cmp.gt(r22, #0)                    // the inner registered, not open
    p2 = cmp.gtu(r2, ##0x3ffffffe) }        // recorded, or an overflow move
  { p0 = and(p0, and(p1, !p2))
    p1 = cmp.eq(r18, r27)                   // the outer node's: the top's
    p2 = cmp.eq(r14, r15)                   // the inner node's: the outer
    r31 = memw(r17+#S_NODE) }               // the inner node
  { p3 = and(p0, and(p1, p2))               // (p0, p1, p2 kept for
    if (!p3.new) jump:nt .L\name\()_quad_fail //  .Lquad_fail)
    r25 = add(r25, #1)                      // the new biases
    r23 = add(r23, #1) }
.L\name\()_quad_commit:
  { memw(r16+#4) = r25                      // the biases
    memw(r17+#4) = r23
    r27 = addasl(r1, r1, #1)                // 3 x Cost
    r6 = add(r6, #4) }                      // four drops
.if \c20
  { r20 = memw(r0+#16)                      // c20 of the outer start
    r21 = memw(r0+#112)                     // c20 of the outer end
    r24 = asl(r1, #2)                       // 4 x Cost
    r3 = #0 }
  { r18 = memw(r0+#48)                      // c20 of the inner start
    r19 = memw(r0+#80)                      // c20 of the inner end
    r20 = add(r20, r27)                     // + the three probes' cost
    r23 = #0 }
  { r2 = sub(r21, r20)                      // the outer's inclusive packets
    r18 = add(r18, r1)                      // + the inner start's cost
    p1 = cmp.gtu(r8, r21)                   // a c20 wrap
    r8 = r21 }
  { r22 = sub(r19, r18)                     // the inner's
    if (p1) r9 = add(r9, #1)
    r11:10 = add(r24, r11:10)               // Pause: the four probes
    r25:24 = memd(r16+#S_TOTAL) }
.else
  { r21:20 = memd(r0+#16)                   // UPCYCLE of the outer start
    r3:2 = memd(r0+#112)                    // of the outer end
    r24 = asl(r1, #2) }                     // 4 x Cost
  { r19:18 = memd(r0+#48)                   // of the inner start
    r23:22 = memd(r0+#80)                   // of the inner end
    r21:20 = add(r27, r21:20) }             // + the three probes' cost
  { r3:2 = sub(r3:2, r21:20)                // the outer's inclusive cycles
    r19:18 = add(r1, r19:18) }              // + the inner start's cost
  { r23:22 = sub(r23:22, r19:18)            // the inner's
    r11:10 = add(r24, r11:10)               // Pause: the four probes
    r25:24 = memd(r16+#S_TOTAL) }
.endif
  // r3:2 the outer's inclusive time, r23:22 the inner's; r15 the outer
  // node, r31 the inner node, r26 the parent.
  { r21:20 = memd(r16+#S_SELF)
    r19:18 = memd(r16+#S_NESTED)
    r25:24 = add(r25:24, r3:2)
    r14 = #2 }
  { memd(r16+#S_TOTAL) = r25:24
    r25:24 = memd(r17+#S_TOTAL)
    r21:20 = sub(r21:20, r23:22)            // the outer's self, less the inner
    r19:18 = add(r14, r19:18) }             // two probes inside it
  { memd(r16+#S_SELF) = r21:20
    memd(r16+#S_NESTED) = r19:18
    r25:24 = add(r25:24, r23:22)
    r14 = #1 }
  { memd(r17+#S_TOTAL) = r25:24
    r21:20 = memd(r16+#S_CHILDREN) }
  { r19:18 = memd(r26+#S_CHILDREN)
    r25:24 = memd(r15+#N_CYCLES)
    r21:20 = add(r14, r21:20) }
  { memd(r16+#S_CHILDREN) = r21:20
    r21:20 = memd(r26+#S_SELF)
    r19:18 = add(r14, r19:18)
    r25:24 = add(r25:24, r3:2) }
  { memd(r26+#S_CHILDREN) = r19:18
    memd(r15+#N_CYCLES) = r25:24
    r21:20 = sub(r21:20, r3:2) }
  { memd(r26+#S_SELF) = r21:20
    r25:24 = memd(r31+#N_CYCLES) }
  { memw(r15+#N_COUNT) += #1
    r27 = memw(r0+#128)                     // the next event's word
    r25:24 = add(r25:24, r23:22) }
  { memw(r31+#N_COUNT) += #1
    r17 = memw(r0+#160)                     // the word after it
    r16 = add(r27, #1)
    p1 = tstbit(r27, #0) }                  // an end
  { memd(r31+#N_CYCLES) = r25:24
    p2 = cmp.eq(r17, r16)                   // a leaf pair
    r0 = add(r0, #128) }
  { if (p1) jump .L\name\()_end1
    if (!p2) jump .L\name\()_quad }
  { jump .L\name\()_fast }
  // Not a quad (p0: the first is a start; r17 the second word, r15 the
  // first's end word): a leaf pair, a start, an end or a resume.
.L\name\()_quad_x:
  { p1 = cmp.eq(r17, r15)
    if (p1.new) jump:t .L\name\()_fast
    if (p0) jump .L\name\()_start1 }
  { jump .L\name\()_single_end }
  // A quad's later checks failed (p0: all but the nodes' held, p1: the
  // outer's cached node is a child of the top frame's node, p2: the
  // inner's of the outer's; r16 and r17 the two slots, r24 and r22 their
  // indexes, r27 the top frame's node, r15 the outer's cached node, r25 and
  // r23 the new biases). With only the inner's node wrong, it is searched
  // for among the outer node's children and the quad goes on with it; with
  // the outer's wrong (both regions registered and not open), both are
  // searched for (as .Lrefresh does) and the quad tried again; else (or
  // when a node is not there yet) the same way on.
.L\name\()_quad_fail:
  { p3 = and(p0, and(p1, !p2))              // only the inner's node
    if (!p3.new) jump:t .L\name\()_quad_outer }
  WALK r15, r22, r17, r19, .L\name\()_quad_found, .L\name\()_quad_no
.L\name\()_quad_found:
  { r31 = r3                                // the inner node
    jump .L\name\()_quad_commit }
.L\name\()_quad_outer:
  { p0 = cmp.gt(r24, #0)                    // the outer registered, not open
    p1 = cmp.gt(r22, #0)                    // the inner
    r2 = memw(r16+#S_UP) }                  // the parent of the outer's node
  { p0 = and(p0, p1)
    if (!p0.new) jump:nt .L\name\()_quad_no
    p1 = cmp.eq(r2, r27) }                  // the outer's node: the top's child
  { if (p1) jump .L\name\()_quad_inner }
  WALK r27, r24, r16, r19, .L\name\()_quad_inner, .L\name\()_quad_no
.L\name\()_quad_inner:
  { r15 = memw(r16+#S_NODE) }               // the outer's node
  { r2 = memw(r17+#S_UP) }                  // the parent of the inner's node
  { p0 = cmp.eq(r2, r15)                    // both right: another check failed
    if (p0.new) jump:nt .L\name\()_quad_no }
  WALK r15, r22, r17, r19, .L\name\()_quad, .L\name\()_quad_no
.L\name\()_quad_no:
  { p0 = bitsclr(r16, #3)
    r15 = add(r16, #1) }
  { jump .L\name\()_quad_x }


  //--- A start, recorded or not, not followed by its end: the common start
  // of the C replay (a registered region not open, the probe's stack the
  // top frame's or below, room on the stack, no overflow move, one drop out
  // of the fold's window) whose slot's cached node is a child of the top
  // frame's node: a frame is pushed with that node; then the next event's
  // words choose the next block. Else the general loop below.
.L\name\()_start1:
  { r17:16 = memd(r0+#0)                    // {Site, Word}
    r27:26 = memd(r5+#F_SLOT)               // the top frame {node, slot}
    p0 = cmp.gtu(r28, r6)                   // the drops
    r3 = lsr(r4, #5) }
  { r14 = and(r16, #-16)                    // the slot
    r15 = and(r26, #-16)                    // the parent
    r18 = memw(r0+#8)                       // Sp
    r31 = memw(r5+#F_SP) }                  // the top frame's stack | REC
  { r25:24 = memd(r14+#S_INDEX)             // {bias, index}
    r2 = memw(r14+#S_UP)                    // the parent of its last node
    r3 = add(r3, r6)                        // the probe count before it
    p1 = !cmp.eq(r5, r12) }                 // room on the stack
  { r26 = memw(r14+#S_NODE)                 // its last node
.if \c20
    r19 = memw(r0+#16)                      // c20
.else
    r21:20 = memd(r0+#16)                   // UPCYCLE
.endif
    r31 = and(r31, #-8)                     // the top frame's stack
    p3 = cmp.eq(r2, r27) }                  // its parent: the top frame's
  { p2 = cmp.gtu(r18, r31)                  // a stack above the top frame's
    p0 = and(p0, and(p1, p3))
    r23:22 = memd(r15+#S_CHILDREN)
    p3 = cmp.gt(r24, #0) }                  // registered, not open
  { p0 = and(p0, and(p3, !p2))
    p2 = cmp.gt(r25, ##0x3ffffffe)          // an overflow move
    if (p1) memw(r5+#32+F_NODE) = r26 }     // the node, in the next frame
  { p0 = and(p0, !p2)
.if \c20
    p3 = cmp.gtu(r8, r19)                   // a c20 wrap
    r2 = r9
.endif
    p1 = tstbit(r25, #31) }                 // recorded (count <= cap)
  { if (!p0) jump:nt .L\name\()_refresh
.if \c20
    if (p3) r2 = add(r9, #1)
.endif
    if (p1) r18 = add(r18, #1)              // LWP_HEX_F_REC
    r25 = add(r25, #1) }                    // the new bias
  { r24 = setbit(r24, #31)                  // open
.if \c20
    r9:8 = combine(r2, r19)
.endif
    r26 = add(r5, #32)                      // the frame
    r2 = #1 }
  { memd(r14+#S_INDEX) = r25:24             // {bias, index}
    memw(r26+#F_SLOT) = r16
.if \c20
    r21:20 = sub(r9:8, r11:10)              // Now
.else
    r21:20 = sub(r21:20, r11:10)            // Now
.endif
    r23:22 = add(r2, r23:22) }
  { memw(r26+#F_SP) = r18
    memd(r26+#F_START) = r21:20
    r11:10 = add(r1, r11:10)                // Pause: the probe
    r5 = r26 }
  { memw(r26+#F_PARENT) = r15
    memw(r26+#F_ES) = r3
    r2 = sub(r26, r13)
    r0 = add(r0, #32) }
  { memd(r15+#S_CHILDREN) = r23:22
    r2 = lsr(r2, #5)                        // the depth
    p0 = cmp.gtu(r4, r7)                    // the buffer is full
    r27 = memw(r0+#0) }                     // the next event's word
  { p0 = and(p1, !p0)
    r3 = add(r6, #1)
    r19 = memw(r0+#96)                      // the next event's fourth word
    r25 = add(r27, #1) }                    // its end's word
  { if (p0) memw(r4+#0) = r17
    if (p0) memw(r4+#4) = r16
    if (!p0) r6 = r3 }
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
  { r28 = memw(r29+#SP_LIM) }
  { jump .L\name\()_fast }
.L\name\()_loop:
  { r28 = memw(r29+#SP_END) }
  { p0 = cmp.gtu(r28, r0)
    if (!p0.new) jump:nt .L\name\()_exit
    r17:16 = memd(r0+#0)                    // {Site, Word}
    r19:18 = memd(r0+#8) }                  // Sp
  { r14 = and(r16, #-16)                    // the slot
    p1 = tstbit(r16, #0)                    // an end
    p2 = tstbit(r16, #1)                    // a resume
    r2 = add(r6, #2) }                      // the fold window: two drops
  { if (p2) jump:nt .L\name\()_exit         // C
    if (!p2) r25:24 = memd(r14+#S_INDEX)    // {bias, index}
    r27:26 = memd(r5+#F_SLOT) }             // the top frame's {node, slot}
  { r2 = and(r2, ##0x3fffffff)
    r31 = memw(r5+#F_SP) }                  // the top frame's stack | REC
  { p0 = cmp.gtu(r2, #FOLD_WINDOW + 1)      // both drops outside the window
    if (!p0.new) jump:nt .L\name\()_exit
    r15 = and(r26, #-16) }                  // the top frame's slot
  NOW \c20, r0, r21:20, r19, r22, r8, r9
  { if (p1) jump .L\name\()_end
    r2 = and(r31, #-8) }                    // the top frame's stack

  //--- A start: common when the region is registered and not open (index
  // > 0), the probe's stack is the top frame's or below, the stack has room,
  // the count does not move into the overflow word (bias < 2^30 - 1) and
  // its slot's cached node is a child of the top frame's node.
  { p0 = cmp.gt(r24, #0)
    p1 = cmp.gtu(r18, r2)
    p2 = cmp.eq(r5, r12)
    r3 = memw(r14+#S_UP) }                  // the parent of its last node
  { p0 = and(p0, !p1)
    p1 = cmp.gt(r25, ##0x3ffffffe)
    r31 = memw(r14+#S_NODE) }               // its last node
  { p0 = and(p0, !p2)
    p2 = cmp.eq(r3, r27)                    // its parent: the top frame's
    r23 = add(r25, #1)                      // the new bias
    r3 = add(r0, #32) }                     // the next event
  { p0 = and(p0, and(p2, !p1))
    p1 = cmp.gtu(r28, r3) }                 // there is one
  { if (!p0) jump:nt .L\name\()_exit
    if (p1) r2 = memw(r0+#32)               // its word
    r3 = add(r16, #1) }
  { p3 = cmp.eq(r2, r3)                     // it ends the region
    memw(r14+#4) = r23                      // the bias
    r11:10 = add(r1, r11:10)                // Pause: the start probe
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
  { r25:24 = sub(r27:26, r21:20)            // inclusive cycles
    r11:10 = add(r1, r11:10) }              // Pause: the end probe
  { r3:2 = memd(r14+#S_TOTAL) }
  { r3:2 = add(r3:2, r25:24) }
  { memd(r14+#S_TOTAL) = r3:2
    r3:2 = memd(r15+#S_SELF) }
  { r3:2 = sub(r3:2, r25:24) }
  { memd(r15+#S_SELF) = r3:2 }
  NODE_ADD r31, r25:24, r3:2
  { r28 = sub(r5, r13) }
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
  { memw(r3+#F_SLOT) = r16
    memw(r3+#F_NODE) = r31 }
  { memd(r3+#F_START) = r21:20
    r5 = r3 }
  { memw(r3+#F_PARENT) = r15
    memw(r3+#F_ES) = r2
    r28 = sub(r3, r13) }
  { memw(r3+#F_SP) = r18
    r28 = lsr(r28, #5) }                    // the depth
  RECORD p2, r17, r16, r28, r21:20
  { r0 = add(r0, #32)
    jump .L\name\()_resume }

  //--- An end: common when the top frame is its region's, no flag on it.
.L\name\()_end:
  { r3 = add(r16, #-1) }
  { p0 = cmp.eq(r26, r3)
    if (!p0.new) jump:nt .L\name\()_exit
    r3:2 = memd(r5+#F_START) }
  COMMIT \c20, r19, r22
  { r19:18 = memd(r5+#F_PARENT) }           // {Es, Parent}
  { r24 = clrbit(r24, #31)                  // closed
    r23 = add(r25, #-1)
    r28 = lsr(r4, #5) }
  { memw(r14+#S_INDEX) = r24
    p2 = tstbit(r23, #31)                   // recorded: bias <= 0
    r25:24 = sub(r21:20, r3:2)              // inclusive cycles
    r28 = add(r28, r6) }                    // the probe count before it
  { r3:2 = memd(r14+#S_TOTAL)
    r28 = sub(r28, r19)
    r11:10 = add(r1, r11:10) }              // Pause: the probe
  { r3:2 = add(r3:2, r25:24)
    r28 = add(r28, #-1) }                   // probes inside it
  { memd(r14+#S_TOTAL) = r3:2
    r3:2 = memd(r14+#S_NESTED) }
  { r3:2 = add(r28, r3:2) }
  { memd(r14+#S_NESTED) = r3:2
    r3:2 = memd(r18+#S_SELF) }
  { r3:2 = sub(r3:2, r25:24) }
  { memd(r18+#S_SELF) = r3:2 }
  NODE_ADD r27, r25:24, r3:2
  { r28 = sub(r5, r13) }
  { r28 = lsr(r28, #5)                      // the depth
    r5 = add(r5, #-32) }
  RECORD p2, r17, r16, r28, r21:20
  { r0 = add(r0, #32)
    jump .L\name\()_resume }

.L\name\()_exit:
  { r28 = ##lwp_hex_state }
  { memd(r28+#ST_NEXT) = r5:4
    memw(r28+#ST_DROPS) = r6 }
.if \c20
  { memd(r28+#ST_LOW) = r9:8 }
.endif
  { memd(r28+#ST_PAUSE) = r11:10 }
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
