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
// (lwp/Runtime/MapFormat.h) in its module's blob, section lwp_map: 16 bytes,
// 16-byte aligned,
//   slot+0   index     program-wide region ID (written at registration)
//   slot+4   bias      count - cap, signed 32 bits
//   slot+8   overflow  units of 2^29 executions moved out of bias
//   slot+12  reserved
// Start and end are two entry points; a record's ID word is the raw slot
// address for a start and slot | 1 for an end (slots are 16-byte aligned, so
// bit 0 is free). lwp_dump turns the words into region IDs.
//
// Register contract. LLVM 22 (HexagonPseudo.td) declares the call
//   PS_call_instrprof_custom: Defs = [R0, R14, R15, R28, R29, R30, R31, PC]
// and the lowering keeps that contract for every probe: the caller keeps
// everything else live across it: r1-r13, r16-r27, P0-P3 (C4), USR (C8),
// SA0/LC0/SA1/LC1, M0/M1, CS0/CS1, GP, the HVX state. These handlers therefore
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
// State (struct lwp_hex_state in lwp_hexagon_runtime.c, addressed absolutely
// with a constant extender, ##lwp_hex_state):
//   +0   next       address of the next free record (u32)
//   +4   last|mode  address of the last record slot of the buffer; bit 0
//                   set: count QEMU packets (c20), clear: UPCYCLE
//   +8   dropped    records not stored (u64)
// The buffer has one spare record after its last slot, a guard: the full
// test (next > last) branches away before any record store, so no path
// writes there. `next` moves on only when a record is kept.
//
// bias < 0 means "fewer than cap executions": the start handler records iff
// the old bias is < 0 (count after the increment <= cap), the end handler iff
// bias <= 0 (count <= cap), docs/dump-format.md "Cap and counts". The capped
// start path keeps bias below 2^30 (moving 2^29 into overflow whenever the
// new bias has bit 30 set), so counts stay exact to 2^61 and the sign test
// never wraps. A slot whose module never registered holds bias 0 (zero in
// the file): its start probes take the capped path and never record.
//
// Recording path of either handler, in packets (P1-P6 below; plus the call
// packet: 7 per probe). The counter choice costs no packet: the mode test and
// its jump share packet P4 with work of both tails.
//   P1 save P3:0 and r3:2; load bias
//   P2 load next and last|mode; cap test (start: also the new bias; end: set
//      bit 0 of the ID word)
//   P3 branch to the capped path; buffer-full test and branch (start: store
//      the new bias, whatever follows)
//   P4 mode test and branch; store next + 16 as the new next
//   P5 read the counter (UPCYCLE c15:14, or c20 with zero high word); store
//      the site and the ID word
//   P6 store the counter, restore r3:2 and P3:0, return
// Capped start, capped end and buffer-full paths: P1-P3 and 3 packets that
// count the drop, 6 in all (7 with the call).
//===----------------------------------------------------------------------===//

// Addresses in the state.
#define NEXT_ADDR lwp_hex_state
#define DROPPED_ADDR (lwp_hex_state + 8)

// QEMU's packet counter c20 has no name in LLVM's assembler; these words are
// the assembled packet P5 of the UPCYCLE tail,
//   { r14 = upcyclelo; r15 = #0; memw(r2+#0) = r31; memw(r2+#4) = r0 },
// in the assembler's order, with the control register field of the transfer
// (bits 20:16) changed from 14 to 20. No word has a relocation.
#define C20_TO_R14_NOT_LAST 0x6a14400e // r14 = c20 (parse bits 01)
#define R15_ZERO_NOT_LAST 0x7800400f   // r15 = #0 (parse bits 01)
#define STORE_SITE_NOT_LAST 0xa1825f00 // memw(r2+#0) = r31 (parse bits 01)
#define STORE_ID_LAST 0xa182c001       // memw(r2+#4) = r0 (parse bits 11)

  .text
  .p2align 4

//===----------------------------------------------------------------------===//
// __lwp_probe_start: r0 = slot address, r31 = site. Counts the execution in
// the slot, records {site, slot, counter} while count <= cap.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_start
  .type __lwp_probe_start, @function
__lwp_probe_start:
  { r28 = p3:0                          // P1
    memd(r29+#-8) = r3:2
    r15 = memw(r0+#4) }                 // old bias
  { r3:2 = memd(##NEXT_ADDR)            // P2: r2 = next, r3 = last|mode
    p0 = cmp.gt(r15, #-1)               // old bias >= 0: capped
    r15 = add(r15, #1) }                // new bias
  // Capped and full: the first jump of the packet wins, so the capped path
  // still makes its overflow test when the buffer is full.
  { if (p0) jump:nt .Lstart_capped      // P3
    p1 = cmp.gtu(r2, r3)                // next > last: buffer full
    if (p1.new) jump:nt .Ldrop          // full: counted, not stored
    memw(r0+#4) = r15                   // the count, whatever follows
    r14 = #1 }                          // the drop paths' increment
  { p0 = tstbit(r3, #0)                 // P4
    if (p0.new) jump:nt .Lstart_c20
    r14 = add(r2, #16)
    memw(##NEXT_ADDR) = r14.new }
  { r15:14 = c15:14                     // P5: UPCYCLE
    memw(r2+#0) = r31                   // site
    memw(r2+#4) = r0 }                  // ID word: the slot
  { memd(r2+#8) = r15:14                // P6
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }
.Lstart_c20:
  .word C20_TO_R14_NOT_LAST             // P5': r15:14 = {0, c20}, site, ID
  .word R15_ZERO_NOT_LAST
  .word STORE_SITE_NOT_LAST
  .word STORE_ID_LAST
  { memd(r2+#8) = r15:14                // P6'
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }

  // Capped start: the new bias (r15) is stored, the record dropped. The bias
  // stays below 2^30 (bit 30 clear) unless 2^30 - 1 executions passed the
  // cap: then the overflow path moves 2^29 of it into the slot's overflow
  // word. r14 = 1. Falls through into the drop path's increment.
.Lstart_capped:
  { p0 = tstbit(r15, #30)               // C1
    if (p0.new) jump:nt .Lstart_overflow
    r3:2 = memd(##DROPPED_ADDR) }
.Ldrop_add:
  { r3:2 = add(r14, r3:2)               // D2: dropped + 1 (r14 = 1)
    p3:0 = r28 }
  { memd(##DROPPED_ADDR) = r3:2         // D3
    r3:2 = memd(r29+#-8)
    jumpr r31 }

  // Rare (once per 2^29 capped executions): overflow + 1, bias - 2^29, then
  // the drop path's increment with dropped already in r3:2.
.Lstart_overflow:
  { r15 = add(r15, ##-0x20000000)       // O1
    memw(r0+#8) += #1 }
  { memw(r0+#4) = r15                   // O2
    jump .Ldrop_add }
  .size __lwp_probe_start, . - __lwp_probe_start

//===----------------------------------------------------------------------===//
// __lwp_probe_end: r0 = slot address, r31 = site. Records
// {site, slot | 1, counter} while count <= cap.
//===----------------------------------------------------------------------===//
  .globl __lwp_probe_end
  .type __lwp_probe_end, @function
  .p2align 4
__lwp_probe_end:
  { r28 = p3:0                          // P1
    memd(r29+#-8) = r3:2
    r15 = memw(r0+#4) }                 // bias
  { r3:2 = memd(##NEXT_ADDR)            // P2: r2 = next, r3 = last|mode
    p0 = cmp.gt(r15, #0)                // bias > 0: count > cap
    r0 = setbit(r0, #0) }               // ID word: slot | 1
  { if (p0) jump:nt .Ldrop              // P3
    p1 = cmp.gtu(r2, r3)                // buffer full
    if (p1.new) jump:nt .Ldrop
    r14 = #1 }                          // the drop paths' increment
  { p0 = tstbit(r3, #0)                 // P4
    if (p0.new) jump:nt .Lend_c20
    r14 = add(r2, #16)
    memw(##NEXT_ADDR) = r14.new }
  { r15:14 = c15:14                     // P5: UPCYCLE
    memw(r2+#0) = r31                   // site
    memw(r2+#4) = r0 }                  // ID word
  { memd(r2+#8) = r15:14                // P6
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }
.Lend_c20:
  .word C20_TO_R14_NOT_LAST             // P5': r15:14 = {0, c20}, site, ID
  .word R15_ZERO_NOT_LAST
  .word STORE_SITE_NOT_LAST
  .word STORE_ID_LAST
  { memd(r2+#8) = r15:14                // P6'
    r3:2 = memd(r29+#-8)
    p3:0 = r28
    jumpr r31 }

//===----------------------------------------------------------------------===//
// Drop path of both handlers (buffer full, end capped): count one dropped
// record (64-bit), restore and return. Expects r14 = 1, P3:0 in r28, r3:2 at
// r29-8. Three packets (D1 and the D2, D3 shared with the capped start).
//===----------------------------------------------------------------------===//
.Ldrop:
  { r3:2 = memd(##DROPPED_ADDR)         // D1
    jump .Ldrop_add }
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
