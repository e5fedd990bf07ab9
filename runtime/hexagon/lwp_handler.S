//===- lwp_handler.S - Hexagon probe handlers (v67) -----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// The two probe handlers the Hexagon lowering calls:
//
//   call void @llvm.hexagon.instrprof.custom(ptr @"__lwp_probe_start", i32 id)
//   call void @llvm.hexagon.instrprof.custom(ptr @"__lwp_probe_end",   i32 id)
//
// llc emits each probe as ONE packet `{ call <handler>; r0 = #id }`. Start and
// end are two entry points because an ID with bit 31 set fails instruction
// selection ("Cannot select"); the end handler sets LWP_ID_END_BIT itself.
//
// Register contract. LLVM 22 (HexagonPseudo.td) declares the call
//   PS_call_instrprof_custom: Defs = [R0, R14, R15, R28, R29, R30, R31, PC]
// so the caller keeps everything else live across it: r1-r13, r16-r27,
// P0-P3 (C4), USR (C8), SA0/LC0/SA1/LC1, M0/M1, CS0/CS1, GP, the HVX state.
// These handlers therefore
//   - clobber only r0, r14, r15 and r28 (the scratch registers of the
//     contract; r28 holds the caller's P3:0 while the handler runs),
//   - save r3:2 in the 8 bytes below SP (memd(r29+#-8)) and restore them,
//     leaving r29/r30/r31 unchanged (no frame: the runtime installs no
//     asynchronous signal handler that could overwrite that scratch double
//     word; see docs/hexagon-runtime.md, Limits),
//   - save P3:0 in r28 and restore it before returning (compares write
//     P0/P1),
//   - use no saturating or floating-point instruction (USR untouched), no
//     hardware loop (SA/LC untouched), no modifier register (M0/M1).
//
// State (struct lwp_hex_state in lwp_hexagon_runtime.c; r14 = &State.Count[0],
// the other fields are at negative offsets from it):
//   r14-32  next        address of the next free record (u32)
//   r14-28  last|mode   address of the last record slot of the buffer; bit 0
//                       set: count QEMU packets (c20), clear: UPCYCLE
//   r14-24  dropped     records not stored (u64)
//   r14+4*id  bias[id]  count(id) - cap as a signed 32-bit value
// The buffer has one spare record after its last slot: records are written to
// `next` before the handler knows whether they are kept (cap, full), so a
// write never needs a predicate; `next` moves on only when a record is kept.
// bias[id] < 0 means "fewer than cap executions": the start handler records
// iff the old bias is < 0 (count after the increment <= cap), the end handler
// iff bias <= 0 (count <= cap), docs/dump-format.md "Cap and counts". The
// slow paths keep bias below 2^30 (moving 2^29 into the overflow table), so
// counts stay exact to 2^61 and the sign test never wraps.
//
// Recording path of either handler, in packets (P1-P7 below); the counter
// choice costs no packet: the mode test and its jump share packet P5 with
// work of both tails.
//   P1 save P3:0 and r3:2, load the state address
//   P2 bounds check (id < LWP_MAX_IDS), load bias[id] (predicated: never out
//      of bounds) and next / last|mode
//   P3 branch to the bad-ID path; cap and buffer-full tests
//   P4 branch to the capped / full paths; store the new count and the site
//   P5 mode test and branch; store the ID word
//   P6 read the counter (UPCYCLE c15:14, or c20 with zero high word)
//   P7 store the counter, restore r3:2 and P3:0, return
//===----------------------------------------------------------------------===//

#ifndef LWP_MAX_IDS
#define LWP_MAX_IDS 4096
#endif

// The runtime (lwp_hexagon_runtime.c) references this symbol: a handler
// assembled with another LWP_MAX_IDS than the runtime fails to link.
#define LWP_CAT2(a, b) a##b
#define LWP_CAT(a, b) LWP_CAT2(a, b)
  .globl LWP_CAT(lwp_hex_max_ids_, LWP_MAX_IDS)
  .set LWP_CAT(lwp_hex_max_ids_, LWP_MAX_IDS), 0

// Offsets from r14 (= &lwp_hex_state.Count[0]).
#define NEXT_OFF -32
#define DROPPED_OFF -24
#define COUNT_BASE (lwp_hex_state + 32)
#define DROPPED_ADDR (lwp_hex_state + 8)

// QEMU's packet counter c20 has no name in LLVM's assembler; these words are
// the assembled packet
//   { r14 = upcyclelo; r15 = #0; memw(r14+#-32) = r15 }   (end handler: no
// store) with the control register field (bits 20:16) changed from 14 to 20.
#define C20_TO_R14_NOT_LAST 0x6a14400e // r14 = c20 (parse bits 01)
#define R15_ZERO_NOT_LAST 0x7800400f   // r15 = #0 (parse bits 01)
#define R15_ZERO_LAST 0x7800c00f       // r15 = #0 (parse bits 11: end)
#define STORE_NEXT_LAST 0xa78eeff8     // memw(r14+#-32) = r15 (end)

  .text
  .p2align 4

//===----------------------------------------------------------------------===//
// __lwp_probe_start: r0 = region ID, r31 = site. Counts the execution,
// records {site, id, counter} while count <= cap.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_start
  .type __lwp_probe_start, @function
__lwp_probe_start:
  { r28 = p3:0                          // P1
    memd(r29+#-8) = r3:2
    r14 = ##COUNT_BASE }
  { p0 = cmp.gtu(r0, ##(LWP_MAX_IDS - 1)) // P2
    if (!p0.new) r15 = memw(r14+r0<<#2)  // old bias
    r3:2 = memd(r14+#NEXT_OFF) }         // r2 = next, r3 = last|mode
  { if (p0) jump:nt .Ldrop              // P3: bad ID
    r15 = add(r15, #1)                  // new bias
    p0 = cmp.gt(r15, #-1)               // old bias >= 0: capped
    p1 = cmp.gtu(r2, r3) }              // next > last: buffer full
  { if (p0) jump:nt .Lstart_capped      // P4
    if (p1) jump:nt .Ldrop              // full: counted, not stored
    memw(r14+r0<<#2) = r15              // the count, whatever follows
    memw(r2+#0) = r31 }                 // site (spare slot when full)
  { p0 = tstbit(r3, #0)                 // P5
    if (p0.new) jump:nt .Lstart_c20
    r15 = add(r2, #16)
    memw(r2+#4) = r0 }                  // ID word
  { r15:14 = c15:14                     // P6: UPCYCLE
    memw(r14+#NEXT_OFF) = r15 }
.Lstart_tail:
  { memd(r2+#8) = r15:14                // P7
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }
.Lstart_c20:
  .word C20_TO_R14_NOT_LAST             // P6': r15:14 = {0, c20}, store next
  .word R15_ZERO_NOT_LAST
  .word STORE_NEXT_LAST
  { memd(r2+#8) = r15:14                // P7'
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }

.Lstart_capped:
  // The count is stored; the record is dropped. The bias stays below 2^30
  // (bit 30 clear) unless 2^30 - 1 executions passed the cap: then the
  // overflow path moves 2^29 of it into lwp_hex_overflow.
  { p0 = tstbit(r15, #30)               // C1
    if (p0.new) jump:nt .Lstart_overflow
    r3:2 = memd(r14+#DROPPED_OFF)
    r15:14 = combine(#0, #1) }
  { r3:2 = add(r3:2, r15:14)            // C2: dropped + 1
    p3:0 = r28 }
  { memd(##DROPPED_ADDR) = r3:2         // C3
    r3:2 = memd(r29+#-8)
    jumpr r31 }
.Lstart_overflow:
  { r14 = ##COUNT_BASE
    r2 = memw(r0<<#2 + ##lwp_hex_overflow) }
  { r15 = memw(r14+r0<<#2)
    r2 = add(r2, #1) }
  { r15 = add(r15, ##-0x20000000)
    memw(r0<<#2 + ##lwp_hex_overflow) = r2 }
  { memw(r14+r0<<#2) = r15
    jump .Ldrop }
  .size __lwp_probe_start, . - __lwp_probe_start

//===----------------------------------------------------------------------===//
// __lwp_probe_end: r0 = region ID, r31 = site. Records
// {site, id | LWP_ID_END_BIT, counter} while count <= cap.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_end
  .type __lwp_probe_end, @function
  .p2align 4
__lwp_probe_end:
  { r28 = p3:0                          // P1
    memd(r29+#-8) = r3:2
    r14 = ##COUNT_BASE }
  { p0 = cmp.gtu(r0, ##(LWP_MAX_IDS - 1)) // P2
    if (!p0.new) r15 = memw(r14+r0<<#2)  // bias
    r3:2 = memd(r14+#NEXT_OFF) }         // r2 = next, r3 = last|mode
  { if (p0) jump:nt .Ldrop              // P3: bad ID
    p0 = cmp.gt(r15, #0)                // bias > 0: count > cap
    p1 = cmp.gtu(r2, r3)                // buffer full
    r0 = setbit(r0, #31) }              // LWP_ID_END_BIT
  { if (p0) jump:nt .Ldrop              // P4
    if (p1) jump:nt .Ldrop
    memw(r2+#0) = r31
    memw(r2+#4) = r0 }
  { p0 = tstbit(r3, #0)                 // P5
    if (p0.new) jump:nt .Lend_c20
    r15 = add(r2, #16)
    memw(r14+#NEXT_OFF) = r15.new }
  { r15:14 = c15:14 }                   // P6: UPCYCLE
  { memd(r2+#8) = r15:14                // P7
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }
.Lend_c20:
  .word C20_TO_R14_NOT_LAST             // P6': r15:14 = {0, c20}
  .word R15_ZERO_LAST
  { memd(r2+#8) = r15:14                // P7'
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }

//===----------------------------------------------------------------------===//
// Drop path of both handlers (bad ID, buffer full, end capped): count one
// dropped record (64-bit), restore and return. Expects r14 = count base,
// P3:0 in r28, r3:2 at r29-8. Three packets.
//===----------------------------------------------------------------------===//
.Ldrop:
  { r3:2 = memd(r14+#DROPPED_OFF)       // D1
    r15:14 = combine(#0, #1) }
  { r3:2 = add(r3:2, r15:14)            // D2
    p3:0 = r28 }
  { memd(##DROPPED_ADDR) = r3:2         // D3
    r3:2 = memd(r29+#-8)
    jumpr r31 }
  .size __lwp_probe_end, . - __lwp_probe_end

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

// void lwp_hex_empty_pair(void): one empty start/end pair of ID 0, called
// exactly as compiled code calls the handlers ({ call; r0 = #0 }). The
// calibration reads the two records it leaves.
  .globl lwp_hex_empty_pair
  .type lwp_hex_empty_pair, @function
  .p2align 4
lwp_hex_empty_pair:
  { r1 = r31
    call __lwp_probe_start
    r0 = #0 }
  { call __lwp_probe_end
    r0 = #0 }
  { jumpr r1 }
  .size lwp_hex_empty_pair, . - lwp_hex_empty_pair

// void lwp_hex_nested_pair(void): an empty pair of ID 1 inside a pair of
// ID 0, for the calibration of what a nested pair adds to its region.
  .globl lwp_hex_nested_pair
  .type lwp_hex_nested_pair, @function
  .p2align 4
lwp_hex_nested_pair:
  { r1 = r31
    call __lwp_probe_start
    r0 = #0 }
  { call __lwp_probe_start
    r0 = #1 }
  { call __lwp_probe_end
    r0 = #1 }
  { call __lwp_probe_end
    r0 = #0 }
  { jumpr r1 }
  .size lwp_hex_nested_pair, . - lwp_hex_nested_pair

  .section .note.GNU-stack, "", @progbits
