/*===- lwp_hexagon_runtime.c - Freestanding Hexagon runtime -------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The Hexagon runtime but the handlers, which journal each probe
 * (lwp_handler.S), the start-up (lwp_crt0.S, lwp_hexagon_start.c) and the
 * process's end (lwp_hexagon_process.c): the journal and its replay, which
 * keeps the record buffer, the shadow stack of open instances and every
 * figure (recursion, instances left by longjmp or exit, ends without an
 * open instance, a full stack, the periodic fold of the 32-bit probe
 * count) in compensated time, the calling-context tree, module
 * registration (__lwp_register_module), the calibration,
 * lwp_dump / lwp_reset with the exact figures of every region, the dump at
 * exit, the queries of lwp_hexagon.h. Single thread; no libc: memset,
 * memcmp, strlen and malloc come from lwp_hexagon_string.c and
 * lwp_hexagon_malloc.c (or from the C library, runtime/hexagon/libc, when
 * it is linked first). See docs/hexagon-runtime.md.
 *
 * Layers: the handlers call this file (lwp_hex_journal_full), so it calls
 * nothing of theirs: it reads the counter with lwp_hexagon_counter.S, and
 * the start-up hands it the calibration pairs (lwp_hex_init,
 * lwp_hexagon_runtime.h). It registers its dump with the exit hooks of
 * lwp_hexagon_process.h, which exit and the C library's abort path run.
 *
 * Build-time settings (-D):
 *   LWP_CAP             records kept per region, default 100 (LWP_CAP env
 *                       wins)
 *   LWP_MAX_MODULES     entries of the module table, default 4096
 *   LWP_BUFFER_RECORDS  records of the static buffer, default 65536
 *   LWP_STACK_FRAMES    open instances the shadow stack holds, default 4096
 *   LWP_CCT_NODES       nodes of the calling-context tree, the root
 *                       included, default 16384 (LWP_CCT_NODES env, up to
 *                       this, wins)
 */
#include "lwp_hexagon_runtime.h"
#include "lwp/Runtime/DumpFormat.h"
#include "lwp/Runtime/MapFormat.h"
#include "lwp/Runtime/lwp_runtime.h"
#include "lwp_dump_writer.h"
#include "lwp_hexagon.h"
#include "lwp_hexagon_process.h"
#include "lwp_hexagon_syscall.h"

#include <stddef.h>
#include <stdint.h>

#ifndef LWP_CAP
#define LWP_CAP 100
#endif
#ifndef LWP_MAX_MODULES
#define LWP_MAX_MODULES 4096
#endif
#ifndef LWP_BUFFER_RECORDS
#define LWP_BUFFER_RECORDS 65536
#endif
#ifndef LWP_STACK_FRAMES
#define LWP_STACK_FRAMES 4096
#endif
#ifndef LWP_CCT_NODES
#define LWP_CCT_NODES 16384
#endif
/* log2 of the events the journal holds (lwp_handler.S tests for a full
 * journal with the same value). */
#ifndef LWP_JOURNAL_LOG2
#define LWP_JOURNAL_LOG2 12
#endif

_Static_assert(LWP_MAX_MODULES > 0, "LWP_MAX_MODULES must be positive");
/* The 32-bit probe count of the replay (records + drops, below) must not
 * grow by 2^31 between two folds: the records add at most the buffer. */
_Static_assert(LWP_BUFFER_RECORDS > 0 && LWP_BUFFER_RECORDS <= (1 << 26),
               "LWP_BUFFER_RECORDS must be in 1 .. 2^26");
_Static_assert(LWP_STACK_FRAMES > 0 && LWP_STACK_FRAMES <= (1 << 24),
               "LWP_STACK_FRAMES must be in 1 .. 2^24");
_Static_assert(LWP_CCT_NODES >= 1 && LWP_CCT_NODES <= (1 << 24),
               "LWP_CCT_NODES must be in 1 .. 2^24");
_Static_assert(LWP_JOURNAL_LOG2 >= 1 && LWP_JOURNAL_LOG2 <= 16,
               "LWP_JOURNAL_LOG2 must be in 1 .. 16");

/*===----------------------------------------------------------------------===*
 * The journal (shared with lwp_handler.S: do not reorder)
 *===----------------------------------------------------------------------===*/

/** One probe as the handlers journal it, 32 bytes (lwp_handler.S). */
struct lwp_hex_event {
  uint32_t Word;     /**< +0: the slot's address | 1 for an end probe */
  uint32_t Site;     /**< +4: the caller's return address */
  uint32_t Sp;       /**< +8: the caller's stack pointer */
  uint32_t Reserved; /**< +12: not written */
  uint64_t Counter;  /**< +16: UPCYCLE, or c20 in the low word (QEMU) */
  uint64_t Unused;   /**< +24: not written */
};
_Static_assert(sizeof(struct lwp_hex_event) == 32 &&
                   offsetof(struct lwp_hex_event, Sp) == 8 &&
                   offsetof(struct lwp_hex_event, Counter) == 16,
               "lwp_handler.S writes 32-byte events");

#define LWP_JOURNAL_EVENTS (1u << LWP_JOURNAL_LOG2)

/** The journal, aligned to its size in bytes: the handlers find it full
 *  when the next event would be its end (lwp_handler.S). Four events more:
 *  the replay writes a sentinel event at its end and lwp_replay.S reads up
 *  to three events past it (the words of a quad that starts there). */
struct lwp_hex_event lwp_hex_journal[LWP_JOURNAL_EVENTS + 4]
    __attribute__((aligned(LWP_JOURNAL_EVENTS * 32)));
/** The next free event (the handlers load and store it as a word). Set
 *  before any probe can run, so that even a probe before start-up lands in
 *  the journal. */
struct lwp_hex_event *lwp_hex_jnext = lwp_hex_journal;
/* The first event a replay leaves free: LWP_HEXAGON_JOURNAL events before
 * the end of the journal (all of it by default). */
static struct lwp_hex_event *JournalFirst = lwp_hex_journal;

/*===----------------------------------------------------------------------===*
 * State of the replay
 *===----------------------------------------------------------------------===*/

/** The record buffer, the shadow stack and the counter, as the replay keeps
 *  them (lwp_replay.S reads and writes it: do not reorder).
 *
 *  The replay counts every probe (a record or a drop): the probe count is
 *  Drops + Next / 32 modulo 2^32 (Next moves by 32 a record), and the number
 *  of probes that ran inside an instance is the difference of two such
 *  counts.
 *
 *  Compensated time: every counter value the replay uses is the counter
 *  less Pause, and the replay adds Cost to Pause after each event it
 *  replays, so that a value is the counter less the replays' time less
 *  Cost x the probes journaled before it: each probe's own packets are
 *  taken out where they ran (docs/hexagon-runtime.md, "Compensated
 *  time"). */
struct lwp_hex_state {
  uint32_t Next;     /**< +0: address of the next free record */
  uint32_t Top;      /**< +4: address of the top frame (Frames[0]: none) */
  uint32_t Drops;    /**< +8: records not stored + LWP_FOLD_WINDOW, modulo
                          2^32 */
  uint32_t Last;     /**< +12: address of the last record slot */
  uint32_t Low;      /**< +16: c20's last value extended (QEMU) */
  uint32_t High;     /**< +20: its wraps since start-up (units of 2^32) */
  uint64_t Pause;    /**< +24: the counter ticks the replays and the
                          probes replayed so far took: every figure and
                          record uses counter values less this, as if
                          neither had run */
  uint32_t Cost;     /**< +32: counter ticks one probe takes (its call
                          packet and handler, from one counter read to the
                          next; 0 before the calibration or with
                          LWP_COMPENSATE=0), added to Pause a probe */
  uint32_t Pad;      /**< +36: 0 */
};
_Static_assert(sizeof(struct lwp_record_mem32) == 32, "record size");
_Static_assert(offsetof(struct lwp_hex_state, Low) == 16 &&
                   offsetof(struct lwp_hex_state, Pause) == 24 &&
                   offsetof(struct lwp_hex_state, Cost) == 32,
               "lwp_replay.S reads the state at these offsets");

struct lwp_hex_state lwp_hex_state __attribute__((aligned(8)));

/* The drop count modulo 2^30 below which a drop calls the fold (the first
 * drop in the window does its work). Drops counts from this value, so that
 * the first window is the one after 2^30. */
#define LWP_FOLD_WINDOW (1u << 20)

/** One open instance on the shadow stack, 32 bytes. */
struct lwp_hex_frame {
  uint32_t SlotFlags; /**< +0: its slot's address | LWP_HEX_F_INNER/OVF/
                           PAST */
  uint32_t Node;      /**< +4: address of its calling-context node
                           (struct lwp_hex_node), &lwp_hex_fold_node when
                           its path was folded (no node left) */
  uint64_t Start;     /**< +8: counter value of its start record
                           (compensated time) */
  uint32_t Parent;    /**< +16: slot of the frame below (TopSlot at the
                           bottom) */
  uint32_t Es;        /**< +20: probe count before its start probe */
  uint32_t SpRec;     /**< +24: the caller's r29 at its start probe |
                           LWP_HEX_F_REC */
  uint32_t Fold;      /**< +28: when Node is &lwp_hex_fold_node, the node
                           its instance was folded into (the deepest of its
                           path), which its children's instances fold into
                           too; else unused */
};
_Static_assert(sizeof(struct lwp_hex_frame) == 32 &&
                   offsetof(struct lwp_hex_frame, Node) == 4 &&
                   offsetof(struct lwp_hex_frame, Start) == 8 &&
                   offsetof(struct lwp_hex_frame, Parent) == 16 &&
                   offsetof(struct lwp_hex_frame, SpRec) == 24,
               "lwp_replay.S expects 32-byte frames");

/* Flags in the slot word of a frame (slots are 16-byte aligned). The end of
 * a frame with either flag takes the replay's general path (endAt). */
#define LWP_HEX_F_INNER 2u /* another instance of its region is open below */
#define LWP_HEX_F_OVF 4u   /* starts that found the stack full are pending
                              above it (set on the top frame only) */
/* Recorded (REC), and its region's count passed the cap while it was open
 * (recursion): its end is recorded by its REC bit, not by the count. */
#define LWP_HEX_F_PAST 8u
/* Flag in the stack word (the stack pointer is 8-byte aligned). */
#define LWP_HEX_F_REC 1u /* its start was recorded (count <= cap): its end
                            is recorded too while the buffer has room */
/* Bit 31 of a slot's index: an outermost instance of the region is open (a
 * start finding it set takes the general path, startAt; IDs use bits
 * 0-30). */
#define LWP_HEX_OPEN 0x80000000u

/** The shadow stack: Frames[0] is a sentinel that never closes (its stack
 *  word is the highest address, its slot lwp_hex_top_slot); the replay
 *  pushes up to Frames[LWP_STACK_FRAMES]. */
struct lwp_hex_frame lwp_hex_frames[LWP_STACK_FRAMES + 1]
    __attribute__((aligned(32)));

/** The pseudo-region of the sentinel: the parent of the top-level
 *  instances. Its self word accumulates minus their inclusive cycles, its
 *  children word counts them (the thread's top-level figures). */
struct lwp_slot lwp_hex_top_slot __attribute__((aligned(16)));

/** The two regions of the calibration (lwp_hex_empty_pair and
 *  lwp_hex_nested_pair in lwp_handler.S): slots of the runtime itself, not
 *  in lwp_map and never registered, so they have no ID and no figures in
 *  the dump. Zero outside the calibration. */
struct lwp_slot lwp_hex_calibration_slots[2] __attribute__((aligned(16)));

/** One node of the calling-context tree (docs/hexagon-runtime.md, "The
 *  calling-context tree"), 48 bytes: the dump's node, then the links of
 *  the general path. A region's slot caches the node of its last start
 *  (lwp_slot.open) and that node's parent (lwp_slot.outer); a start whose
 *  top frame has that parent node takes it (lwp_replay.S does only that).
 *
 *  The replay adds 1 to the low word of D.count alone (lwp_replay.S with a
 *  memory add): syncNodeCounts() carries its wraps into the high word,
 *  at each fold of the probe count (fewer than 2^31 probes apart) and
 *  before a dump. */
struct lwp_hex_node {
  struct lwp_dump_node D; /**< +0: ID, parent index, count, inclusive
                               cycles (compensated time), flags, folded */
  uint32_t First;         /**< +32: address of its first child;
                               &lwp_hex_fold_node when none */
  uint32_t Next;          /**< +36: address of its next sibling;
                               &lwp_hex_fold_node after the last */
  uint32_t LastLow;       /**< +40: the low word of D.count at the last
                               syncNodeCounts() */
  uint32_t Pad;           /**< +44: 0 */
};
_Static_assert(sizeof(struct lwp_hex_node) == 48 &&
                   offsetof(struct lwp_hex_node, D.count) == 8 &&
                   offsetof(struct lwp_hex_node, D.cycles) == 16,
               "lwp_replay.S expects 48-byte nodes");

/** The calling-context tree: lwp_hex_nodes[0] is the root (the sentinel
 *  frame's node), NodesUsed nodes are in use, at most NodeBudget. */
struct lwp_hex_node lwp_hex_nodes[LWP_CCT_NODES] __attribute__((aligned(16)));

/** The node of the frames whose path was folded, and the end of every
 *  child list: ID 0, no child, no slot caches it as a child of anything.
 *  Ends of folded instances add their figures to it; the dump does not
 *  write it. */
struct lwp_hex_node lwp_hex_fold_node __attribute__((aligned(16)));

/* Nodes of lwp_hex_nodes in use (the root included), and how many it may
 * hold (LWP_CCT_NODES, or less from the environment). */
static uint32_t NodesUsed = 1;
static uint32_t NodeBudget = LWP_CCT_NODES;

/* The records kept for the dump, each with the stack position of its
 * instance (lwp_record64.depth), so that a reader pairs them exactly. */
static struct lwp_record_mem32 Buffer[LWP_BUFFER_RECORDS]
    __attribute__((aligned(32)));

/* State of the general paths of the replay only. */
static uint32_t DroppedHi; /* units of 2^32 of dropped records */
static uint32_t OvfDepth;  /* starts past a full stack whose ends are due */
static uint32_t OvfSp;     /* stack pointer of the first of them */
static uint64_t TopUnwound; /* top-level instances closed without their end */
static uint64_t Outside;    /* probes taken with no instance open that did
                               not start one */

/* The registered modules, in registration order: module I's regions have the
 * IDs Modules[I].first_id .. first_id + num_regions - 1 (increasing with I),
 * and blob_vaddr holds the blob's address (the executable's load bias is
 * 0). Written to the dump as they are. */
static struct lwp_dump_module Modules[LWP_MAX_MODULES];
static uint32_t NumModules;
/* The ID the next registered region gets; ID 0 is never a region. */
static uint32_t NextId = 1;

static uint32_t Cap = LWP_CAP;
static uint32_t CounterKind = LWP_COUNTER_PCYCLES;
/* The calibration without compensation (counter ticks): an empty region's
 * length and what a pair nested in a region adds to it. */
static uint32_t PairCost, NestedCost;
/* The calibration again with the compensation on: what a reader still
 * subtracts (the dump header's costs; 0 under QEMU). */
static uint32_t ResidualPairCost, ResidualNestedCost;
/* Whether the figures are in compensated time (LWP_COMPENSATE, and a
 * calibration that measured). */
static int Compensate;
static const char *ProgramName = "";
static const char *OutputPath = "lwp.dump";

/* Writes all of [Data, Data + Size) to Fd; 0 on success. */
static int writeAll(int Fd, const void *Data, uint64_t Size) {
  const char *P = (const char *)Data;
  while (Size) {
    long N = lwp_hex_syscall4(LwpSysWrite, Fd, (long)P,
                              Size > 0x40000000u ? 0x40000000 : (long)Size, 0);
    if (N <= 0)
      return -1;
    P += N;
    Size -= (uint64_t)N;
  }
  return 0;
}

/*===----------------------------------------------------------------------===*
 * Output helpers (no division: Hexagon has no divide instruction and we link
 * no compiler runtime)
 *===----------------------------------------------------------------------===*/

void lwp_hex_puts(int Fd, const char *S) { writeAll(Fd, S, strlen(S)); }

void lwp_hex_put_char(int Fd, char C) { writeAll(Fd, &C, 1); }

void lwp_hex_put_udec(int Fd, uint64_t V) {
  char Buf[24];
  unsigned N = 0;
  uint64_t Pow = 1;
  while (Pow <= 1000000000000000000ull && Pow * 10 <= V)
    Pow *= 10;
  for (; Pow; ) {
    char D = '0';
    while (V >= Pow) {
      V -= Pow;
      ++D;
    }
    Buf[N++] = D;
    if (Pow == 1)
      break;
    /* Pow /= 10 without a division. */
    uint64_t Q = 1;
    while (Q * 10 < Pow)
      Q *= 10;
    Pow = Q;
  }
  writeAll(Fd, Buf, N);
}

void lwp_hex_put_dec(int Fd, int64_t V) {
  if (V < 0) {
    lwp_hex_put_char(Fd, '-');
    lwp_hex_put_udec(Fd, 0 - (uint64_t)V);
    return;
  }
  lwp_hex_put_udec(Fd, (uint64_t)V);
}

void lwp_hex_put_hex(int Fd, uint64_t V) {
  char Buf[18] = {'0', 'x'};
  unsigned N = 2;
  int Shift = 60;
  while (Shift > 0 && !((V >> Shift) & 0xf))
    Shift -= 4;
  for (; Shift >= 0; Shift -= 4)
    Buf[N++] = "0123456789abcdef"[(V >> Shift) & 0xf];
  writeAll(Fd, Buf, N);
}

/*===----------------------------------------------------------------------===*
 * Counters, state
 *===----------------------------------------------------------------------===*/

unsigned lwp_hex_counter_kind(void) { return CounterKind; }

/* The counter readers of this file (lwp_hexagon_counter.S: the handlers'
 * own readers are in the handlers' file, which this file does not call). */
uint64_t lwp_hex_counter_upcycle(void);
uint64_t lwp_hex_counter_c20(void);

uint64_t lwp_hex_read_counter(void) {
  return CounterKind == LWP_COUNTER_QEMU_PACKETS ? lwp_hex_counter_c20()
                                                 : lwp_hex_counter_upcycle();
}

/* c20 is 32 bits: its wraps since start-up are counted by extend() in
 * lwp_hex_state.High, its last value in lwp_hex_state.Low. */

/* The 64-bit counter value of \p Raw, a value the handlers journaled or
 * lwp_hex_read_counter returned; called in the order the values were read
 * (then a c20 value below the one before is a wrap: at least one probe or
 * runtime call a 2^32 packets). */
static uint64_t extend(uint64_t Raw) {
  if (CounterKind != LWP_COUNTER_QEMU_PACKETS)
    return Raw;
  uint32_t Low = (uint32_t)Raw;
  if (Low < lwp_hex_state.Low)
    ++lwp_hex_state.High;
  lwp_hex_state.Low = Low;
  return ((uint64_t)lwp_hex_state.High << 32) | Low;
}

/* The figures' counter value of now. */
static uint64_t now(void) {
  return extend(lwp_hex_read_counter()) - lwp_hex_state.Pause;
}

uint32_t lwp_hex_probe_pair_cost(void) { return PairCost; }

uint32_t lwp_hex_probe_nested_cost(void) { return NestedCost; }

uint32_t lwp_hex_probe_cost(void) { return lwp_hex_state.Cost; }

/* The slots of registered module \p M (blob_vaddr holds its address). */
static struct lwp_slot *moduleSlots(const struct lwp_dump_module *M) {
  const struct lwp_map_blob_header *H =
      (const struct lwp_map_blob_header *)(uintptr_t)M->blob_vaddr;
  return (struct lwp_slot *)((char *)(uintptr_t)M->blob_vaddr +
                             H->slots_offset);
}

/* The slot of region \p Id, or NULL when no registered module has it. */
static struct lwp_slot *findSlot(uint32_t Id) {
  /* Modules are sorted by first_id: find the last one with first_id <= Id. */
  uint32_t Lo = 0, Hi = NumModules;
  while (Lo != Hi) {
    uint32_t Mid = Lo + ((Hi - Lo) >> 1);
    if (Modules[Mid].first_id <= Id)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (!Lo)
    return NULL;
  const struct lwp_dump_module *M = &Modules[Lo - 1];
  if (Id - M->first_id >= M->num_regions)
    return NULL;
  return moduleSlots(M) + (Id - M->first_id);
}

/* Exact executions of the region of slot \p S: bias + cap + 2^29 x
 * overflow. */
static uint64_t slotCount(const struct lwp_slot *S) {
  return (uint64_t)((int64_t)Cap + S->bias) + ((uint64_t)S->overflow << 29);
}

static void syncJournal(void);

uint64_t lwp_hex_count(uint32_t Id) {
  syncJournal();
  const struct lwp_slot *S = findSlot(Id);
  return S ? slotCount(S) : 0;
}

uint32_t lwp_hex_num_ids(void) { return NextId; }

uint32_t lwp_hex_num_modules(void) { return NumModules; }

static void syncDropped(void);

static void syncNodeCounts(void);

uint64_t lwp_hex_dropped(void) {
  syncJournal();
  syncDropped();
  syncNodeCounts(); /* a fold in this window may now skip its work */
  return ((uint64_t)DroppedHi << 32) + lwp_hex_state.Drops - LWP_FOLD_WINDOW;
}

uint32_t lwp_hex_num_records(void) {
  syncJournal();
  return (uint32_t)((struct lwp_record_mem32 *)(uintptr_t)lwp_hex_state.Next -
                    Buffer);
}

static void fold(void);
static struct lwp_hex_frame *topFrame(void);

void lwp_hex_skip_drops(uint32_t N) {
  syncJournal();
  syncDropped();
  if (topFrame() == lwp_hex_frames)
    Outside += N;
  lwp_hex_state.Drops += N;
  fold(); /* when the skip passed a multiple of 2^30 */
}

uint32_t lwp_hex_drops_before_fold(void) {
  syncJournal();
  return (0u - lwp_hex_state.Drops) & 0x3fffffffu;
}

/* The probe count of the replay: every probe stores a record (Next moves
 * by 32) or counts a drop, so this moves by one a probe (modulo 2^32). */
static uint32_t probeCount(void) {
  return lwp_hex_state.Drops + (lwp_hex_state.Next >> 5);
}

/* Probes taken since the last reset, exactly. */
static uint64_t probesTotal(void) {
  return (uint64_t)lwp_hex_num_records() + lwp_hex_dropped();
}

/*===----------------------------------------------------------------------===*
 * The shadow stack and the general paths of the replay
 *===----------------------------------------------------------------------===*/

static struct lwp_hex_frame *topFrame(void) {
  return (struct lwp_hex_frame *)(uintptr_t)lwp_hex_state.Top;
}

static struct lwp_slot *frameSlot(const struct lwp_hex_frame *F) {
  return (struct lwp_slot *)(uintptr_t)(F->SlotFlags & ~15u);
}

static uint32_t frameSp(const struct lwp_hex_frame *F) {
  return F->SpRec & ~7u;
}

uint32_t lwp_hex_stack_depth(void) {
  syncJournal();
  return (uint32_t)(topFrame() - lwp_hex_frames);
}

/*===----------------------------------------------------------------------===*
 * The calling-context tree
 *===----------------------------------------------------------------------===*/

static struct lwp_hex_node *frameNode(const struct lwp_hex_frame *F) {
  return (struct lwp_hex_node *)(uintptr_t)F->Node;
}

static uint32_t addressOf(const void *P) { return (uint32_t)(uintptr_t)P; }

/* Empties the tree: the root alone (the sentinel frame's node). The slots'
 * cache words must be reset too (resetSlot). */
static void resetTree(void) {
  uint32_t None = addressOf(&lwp_hex_fold_node);
  memset(&lwp_hex_nodes[0], 0, sizeof(lwp_hex_nodes[0]));
  lwp_hex_nodes[0].First = lwp_hex_nodes[0].Next = None;
  memset(&lwp_hex_fold_node, 0, sizeof(lwp_hex_fold_node));
  lwp_hex_fold_node.First = lwp_hex_fold_node.Next = None;
  NodesUsed = 1;
}

/* Counts one more instance of node \p N that took \p Incl cycles: the low
 * word of its count alone, as lwp_replay.S does (syncNodeCounts). */
static void addToNode(struct lwp_hex_node *N, uint64_t Incl) {
  uint64_t C = N->D.count;
  N->D.count = (C & ~0xffffffffull) | (uint32_t)(C + 1);
  N->D.cycles += Incl;
}

/* Carries the wraps of the nodes' count low words into their high words
 * (each low word moves by less than 2^31 between two calls). */
static void syncNodeCounts(void) {
  for (uint32_t I = 1; I < NodesUsed; ++I) {
    struct lwp_hex_node *N = &lwp_hex_nodes[I];
    uint32_t Low = (uint32_t)N->D.count;
    if (Low < N->LastLow)
      N->D.count += 1ull << 32;
    N->LastLow = Low;
  }
}

/* Flags node \p N as holding one more folded instance. */
static void foldInto(struct lwp_hex_node *N) {
  N->D.flags |= LWP_NODE_FOLDED;
  if (N->D.folded != UINT32_MAX)
    ++N->D.folded;
}

/* The node of a start of registered slot \p Slot whose instance's parent is
 * the frame \p T (the top frame before the push) when the slot's cached
 * node is not (startNode, below, takes that one, as lwp_replay.S does): the
 * child of T's node with the region's ID, moved to the front of its
 * list, or a new one while the budget lasts, cached in the slot. With no
 * node left the instance is folded: T's node, the deepest of its path, is
 * flagged and counts it, its address goes to \p Fold, and the instance gets
 * lwp_hex_fold_node, which adds to no figure of the dump. Under a folded
 * frame the instance folds into the same node (T's Fold) uncounted: a
 * node's folded count is of the outermost instances folded into it, as on
 * hosts (docs/dump-format.md). Returns the node's address. */
__attribute__((noinline)) static uint32_t
findNode(struct lwp_slot *Slot, const struct lwp_hex_frame *T,
         uint32_t *Fold) {
  struct lwp_hex_node *N, *P = frameNode(T), *None = &lwp_hex_fold_node;
  if (P == None) {
    *Fold = T->Fold;
    return addressOf(None);
  }
  uint32_t Id = Slot->index & LWP_ID_MASK;
  struct lwp_hex_node *Prev = NULL;
  for (N = (struct lwp_hex_node *)(uintptr_t)P->First; N != None;
       Prev = N, N = (struct lwp_hex_node *)(uintptr_t)N->Next)
    if (N->D.id == Id)
      break;
  if (N != None && Prev) {
    /* To the front: a walk of this list finds it first next time. */
    Prev->Next = N->Next;
    N->Next = P->First;
    P->First = addressOf(N);
  } else if (N == None) {
    if (NodesUsed >= NodeBudget) {
      *Fold = addressOf(P);
      foldInto(P);
      return addressOf(None);
    }
    N = &lwp_hex_nodes[NodesUsed++];
    memset(N, 0, sizeof(*N));
    N->D.id = Id;
    N->D.parent = (uint32_t)(P - lwp_hex_nodes);
    N->First = addressOf(None);
    N->Next = P->First;
    P->First = addressOf(N);
  }
  Slot->open = addressOf(N);
  Slot->outer = addressOf(P);
  return addressOf(N);
}

/* The node of a start of registered slot \p Slot whose parent frame is
 * \p T: the slot's cached node when T's node is its parent, else
 * findNode() (which sets \p Fold when it folds). Returns the node's
 * address. */
static inline uint32_t startNode(struct lwp_slot *Slot,
                                 const struct lwp_hex_frame *T,
                                 uint32_t *Fold) {
  return Slot->outer == T->Node ? Slot->open : findNode(Slot, T, Fold);
}

/* Adds the figures of the instance of frame \p F ended at counter value
 * \p Now (probe count \p E before the probe that ends it) to its region, to
 * its parent and to its node, as an end does; \p Unwound: it had no end
 * probe. Leaves the frame on the stack. */
static void closeFrame(struct lwp_hex_frame *F, uint64_t Now, uint32_t E,
                       int Unwound) {
  struct lwp_slot *S = frameSlot(F);
  struct lwp_slot *P = (struct lwp_slot *)(uintptr_t)F->Parent;
  uint64_t Incl = Now - F->Start;
  addToNode(frameNode(F), Incl);
  if (F->SlotFlags & LWP_HEX_F_INNER) {
    /* Recursion: self only (the live self word is self - total). */
    S->self += Incl;
  } else {
    S->total += Incl;
    S->nested += (uint32_t)(E - F->Es - 1);
    S->index &= ~LWP_HEX_OPEN;
  }
  P->self -= Incl;
  if (Unwound) {
    ++S->unwound;
    if (P == &lwp_hex_top_slot)
      ++TopUnwound;
  }
}

/* Closes the top frame and pops it. */
static void closeTop(uint64_t Now, uint32_t E, int Unwound) {
  struct lwp_hex_frame *F = topFrame();
  closeFrame(F, Now, E, Unwound);
  lwp_hex_state.Top = (uint32_t)(uintptr_t)(F - 1);
}

/* The shadow stack's rules (runtime/common/lwp_figures.h) over the frames
 * above: frame K is lwp_hex_frames[K], its region its slot; a close needs
 * the probe count before the probe (E). */
struct lwp_hex_fig {
  uint32_t E; /* the probe count before the probe that closes */
};
#define LWP_FIG_STATE struct lwp_hex_fig
static inline uint32_t lwp_fig_depth(struct lwp_hex_fig *C) {
  (void)C;
  return (uint32_t)(topFrame() - lwp_hex_frames);
}
static inline uintptr_t lwp_fig_frame_sp(struct lwp_hex_fig *C, uint32_t K) {
  (void)C;
  return frameSp(&lwp_hex_frames[K]);
}
static inline uintptr_t lwp_fig_frame_region(struct lwp_hex_fig *C,
                                             uint32_t K) {
  (void)C;
  return (uintptr_t)frameSlot(&lwp_hex_frames[K]);
}
static inline void lwp_fig_close_top(struct lwp_hex_fig *C, uint64_t Now,
                                     int Unwound) {
  closeTop(Now, C->E, Unwound);
}
#include "lwp_figures.h"

/* Starts past a full stack whose probe ran in a function above them (a
 * larger stack pointer) were left without their ends: forget them. */
static void forgetOverflowed(uint32_t Sp) {
  if (OvfDepth && Sp > OvfSp) {
    OvfDepth = 0;
    topFrame()->SlotFlags &= ~LWP_HEX_F_OVF;
  }
}

/* The count of slot \p S passed the cap while instances of it are open: the
 * recorded ones are flagged, so that their ends, still recorded to pair
 * with their starts, take the general path (endAt), which reads REC; the
 * common end (here and in lwp_replay.S) records by the count. */
static void flagPastCap(const struct lwp_slot *S) {
  for (struct lwp_hex_frame *F = topFrame(); F != lwp_hex_frames; --F)
    if (frameSlot(F) == S && (F->SpRec & LWP_HEX_F_REC))
      F->SlotFlags |= LWP_HEX_F_PAST;
}

static void fold(void);

/* Counts one dropped record; folds in the window after each multiple of
 * 2^30. */
static void countDrop(void) {
  if ((++lwp_hex_state.Drops & 0x3fffffffu) < LWP_FOLD_WINDOW)
    fold();
}

/* The next record, or NULL when the buffer is full. */
static struct lwp_record_mem32 *takeRecord(void) {
  uint32_t N = lwp_hex_state.Next;
  if (N > lwp_hex_state.Last)
    return NULL;
  lwp_hex_state.Next = N + sizeof(struct lwp_record_mem32);
  return (struct lwp_record_mem32 *)(uintptr_t)N;
}

/* Counts a start of slot \p S (bias, and the move of 2^29 into overflow);
 * returns whether the start is recorded by the cap (count <= cap). */
static int countStart(struct lwp_slot *S) {
  int32_t Old = S->bias;
  int32_t New = (int32_t)((uint32_t)Old + 1);
  if (Old >= 0 && (New & 0x40000000)) {
    New -= 0x20000000;
    ++S->overflow;
  }
  S->bias = New;
  return Old < 0;
}

/* A start probe of slot \p Slot that ran at counter value \p Now with the
 * caller's stack pointer \p Sp and return address \p Site: counts it, closes
 * as unwound the instances it shows were left (a top frame below the
 * caller's stack: longjmp; an open instance of the region at the same stack
 * position: a longjmp back into its caller), pushes its instance (a nested
 * one for recursion; none for an unregistered slot, index 0, or a full
 * stack) and records it under the cap while the buffer has room, else
 * counts a drop. */
/* Out of line: the replay's loop keeps its registers for the common case. */
__attribute__((noinline)) static void
startAt(struct lwp_slot *Slot, uint32_t Sp, uint32_t Site, uint64_t Now) {
  uint32_t E = probeCount();
  struct lwp_hex_fig C = {E};
  forgetOverflowed(Sp);
  lwp_fig_close_stale(&C, Sp, Now);
  if (Slot->index & LWP_HEX_OPEN)
    lwp_fig_close_reentered(&C, (uintptr_t)Slot, Sp, Now);
  int Rec = countStart(Slot);
  if (!Rec && (Slot->index & LWP_HEX_OPEN) && slotCount(Slot) == Cap + 1ull)
    flagPastCap(Slot);
  struct lwp_hex_frame *T = topFrame(), *F = NULL;
  if (!(Slot->index & LWP_ID_MASK)) {
    /* An unregistered module: counted and dropped, never accounted. */
    if (T == lwp_hex_frames)
      ++Outside;
  } else if (T == &lwp_hex_frames[LWP_STACK_FRAMES]) {
    /* Counted, not accounted: its end finds OvfDepth. */
    if (!OvfDepth)
      OvfSp = Sp;
    ++OvfDepth;
    T->SlotFlags |= LWP_HEX_F_OVF;
    ++Slot->reserved;
  } else {
    struct lwp_slot *P = frameSlot(T);
    uint32_t Inner = 0;
    if (Slot->index & LWP_HEX_OPEN) {
      Inner = LWP_HEX_F_INNER;
      ++Slot->reserved;
    } else {
      Slot->index |= LWP_HEX_OPEN;
    }
    F = T + 1;
    F->SlotFlags = (uint32_t)(uintptr_t)Slot | Inner;
    F->SpRec = Sp | (Rec ? LWP_HEX_F_REC : 0);
    F->Start = Now;
    F->Parent = (uint32_t)(uintptr_t)P;
    F->Es = E;
    uint32_t Fold = 0;
    F->Node = startNode(Slot, T, &Fold);
    F->Fold = Fold;
    ++P->children;
    lwp_hex_state.Top = (uint32_t)(uintptr_t)F;
  }
  struct lwp_record_mem32 *R = Rec ? takeRecord() : NULL;
  if (!R)
    countDrop();
  if (R) {
    R->site = Site;
    R->id_word = (uint32_t)(uintptr_t)Slot;
    R->depth = F          ? (uint32_t)(F - lwp_hex_frames)
               : OvfDepth ? LWP_STACK_FRAMES + OvfDepth
                          : 0;
    R->cycles = Now;
  }
}

/* An end probe of slot \p Slot that ran at counter value \p Now (\p Sp,
 * \p Site as for startAt): closes its instance, as unwound the instances
 * above it (left by longjmp) or below the caller's stack; an end of a start
 * past a full stack closes nothing; an end with no open instance counts as
 * outside. Records it when its instance's start was recorded (REC; past a
 * full stack, or with no instance closed: while its region is within the
 * cap) and the buffer has room, else counts a drop. */
__attribute__((noinline)) static void endAt(struct lwp_slot *Slot, uint32_t Sp,
                                            uint32_t Site, uint64_t Now) {
  uint32_t E = probeCount();
  uint32_t Depth = 0;
  int Rec = 0;
  forgetOverflowed(Sp);
  if (OvfDepth) {
    /* The end of the last start that found the stack full. */
    Depth = LWP_STACK_FRAMES + OvfDepth;
    Rec = Slot->bias <= 0;
    if (!--OvfDepth)
      topFrame()->SlotFlags &= ~LWP_HEX_F_OVF;
  } else {
    struct lwp_hex_fig C = {E};
    lwp_fig_close_stale(&C, Sp, Now);
    if (Slot->index & LWP_HEX_OPEN)
      Depth = lwp_fig_close_end(&C, (uintptr_t)Slot, Now);
    if (!Depth && topFrame() == lwp_hex_frames)
      ++Outside; /* no open instance: not accounted */
    /* The closed frame, popped, is intact until the next start. An end
     * that closed nothing is recorded under the cap rule (the report counts
     * it as unmatched). */
    Rec = Depth ? (lwp_hex_frames[Depth].SpRec & LWP_HEX_F_REC) != 0
                : Slot->bias <= 0;
  }
  struct lwp_record_mem32 *R = Rec ? takeRecord() : NULL;
  if (R) {
    R->site = Site;
    R->id_word = (uint32_t)(uintptr_t)Slot | 1;
    R->depth = Depth;
    R->cycles = Now;
  } else {
    countDrop();
  }
}

/* A resume probe (docs/probe-form.md, "Resume probes") that ran at counter
 * value \p Now with the caller's stack pointer \p Sp and return address
 * \p Site, inside the instance of slot \p Slot (null: outside every region
 * of its function): closes as unwound the frames below \p Sp (functions a
 * longjmp or an exception left) and the frames at \p Sp above the
 * innermost one of \p Slot. When it closed any, records the resume (raw ID
 * word 0, the stack position left as its depth) while the buffer has room,
 * else counts a drop; otherwise it is not a probe of the counts. */
__attribute__((noinline)) static void
resumeAt(struct lwp_slot *Slot, uint32_t Sp, uint32_t Site, uint64_t Now) {
  struct lwp_hex_fig C = {probeCount()};
  forgetOverflowed(Sp);
  if (!lwp_fig_resume(&C, (uintptr_t)Slot, Sp, Now))
    return;
  if (topFrame() == lwp_hex_frames)
    ++Outside;
  struct lwp_record_mem32 *R = takeRecord();
  if (R) {
    R->site = Site;
    R->id_word = 0;
    R->depth = (uint32_t)(topFrame() - lwp_hex_frames);
    R->cycles = Now;
  } else {
    countDrop();
  }
}

/* The drop count at the last fold. */
static uint32_t FoldDrops;

/* Counts a wrap of the 32-bit drop counter since the last call (there is a
 * call at least every 2^30 drops: the folds). */
static void syncDropped(void) {
  if (lwp_hex_state.Drops < FoldDrops)
    ++DroppedHi;
  FoldDrops = lwp_hex_state.Drops;
}

/* Once every 2^30 dropped records (the replay counts drops and probes in 32
 * bits): counts the wrap of the drop counter, carries the wraps of the
 * nodes' counts and adds the probes counted so far inside every open
 * outermost instance to its region (so that no instance's probe count
 * spans 2^31). Called on every drop in the window
 * after a multiple of 2^30; does its work on the first of them. */
__attribute__((noinline)) static void fold(void) {
  uint32_t Last = FoldDrops;
  syncDropped();
  if (lwp_hex_state.Drops >= Last && (lwp_hex_state.Drops >> 30) == (Last >> 30))
    return; /* folded in this window already */
  syncNodeCounts();
  uint32_t E = probeCount();
  for (struct lwp_hex_frame *F = topFrame(); F != lwp_hex_frames; --F)
    if (!(F->SlotFlags & LWP_HEX_F_INNER)) {
      frameSlot(F)->nested += (uint32_t)(E - F->Es - 1);
      F->Es = E - 1;
    }
}

/*===----------------------------------------------------------------------===*
 * The replay of the journal
 *===----------------------------------------------------------------------===*/

/* The 64-bit counter value of the last event replayed. */
static uint64_t LastEvent;

/* The replay's common path (lwp_replay.S): replays the events from \p Ev
 * to \p End that have the common shapes and returns the first one it did
 * not replay (End when none is left). NULL: every event takes the C path
 * (LWP_HEXAGON_REPLAY=general, a test mode: both paths give the same
 * dump). */
typedef const struct lwp_hex_event *
FastReplayFn(const struct lwp_hex_event *Ev, const struct lwp_hex_event *End);
FastReplayFn lwp_hex_replay_c20, lwp_hex_replay_upcycle;
static FastReplayFn *FastReplay;

/* Replays event \p Ev, the general path of the replay: the common start and
 * end are done here too (as lwp_replay.S does them), the rest goes through
 * startAt, endAt and resumeAt (and a drop that may fold through fold()). */
static void replayEvent(const struct lwp_hex_event *Ev) {
  uint64_t Event = CounterKind == LWP_COUNTER_QEMU_PACKETS
                       ? extend((uint32_t)Ev->Counter)
                       : Ev->Counter;
  uint64_t Now = Event - lwp_hex_state.Pause;
  /* The probe's own time, out of every later value. */
  lwp_hex_state.Pause += lwp_hex_state.Cost;
  uint32_t Word = Ev->Word;
  struct lwp_slot *Slot = (struct lwp_slot *)(uintptr_t)(Word & ~15u);
  struct lwp_hex_frame *Top = topFrame();
  uint32_t E = probeCount();
  int Rec;
  uint32_t Depth;
  if (Word & 1) {
    if (Top->SlotFlags != Word - 1) {
      endAt(Slot, Ev->Sp, Ev->Site, Now);
      return;
    }
    /* The end of the top frame, an outermost instance: closeTop(). */
    struct lwp_slot *P = (struct lwp_slot *)(uintptr_t)Top->Parent;
    uint64_t Incl = Now - Top->Start;
    addToNode(frameNode(Top), Incl);
    Slot->total += Incl;
    Slot->nested += (uint32_t)(E - Top->Es - 1);
    Slot->index &= ~LWP_HEX_OPEN;
    P->self -= Incl;
    Depth = (uint32_t)(Top - lwp_hex_frames);
    lwp_hex_state.Top = (uint32_t)(uintptr_t)(Top - 1);
    /* A frame with no flag: its region's count is on the same side of the
     * cap as at its start (flagPastCap() flags it otherwise), so the count
     * decides as its REC bit would; lwp_replay.S does the same. */
    Rec = Slot->bias <= 0;
  } else if (Word & 2) {
    resumeAt(Slot, Ev->Sp, Ev->Site, Now);
    return;
  } else {
    /* The common start: a registered region not open, inside the top
     * frame's function or deeper, room on the stack. */
    if (((int32_t)Slot->index <= 0) | (Ev->Sp > frameSp(Top)) |
        (Top == &lwp_hex_frames[LWP_STACK_FRAMES]) | (OvfDepth != 0)) {
      startAt(Slot, Ev->Sp, Ev->Site, Now);
      return;
    }
    Rec = countStart(Slot);
    struct lwp_slot *P = frameSlot(Top);
    uint32_t Fold = 0;
    uint32_t Node = startNode(Slot, Top, &Fold);
    Slot->index |= LWP_HEX_OPEN;
    ++Top;
    Top->SlotFlags = Word;
    Top->SpRec = Ev->Sp | (Rec ? LWP_HEX_F_REC : 0);
    Top->Start = Now;
    Top->Parent = (uint32_t)(uintptr_t)P;
    Top->Es = E;
    Top->Node = Node;
    Top->Fold = Fold;
    ++P->children;
    lwp_hex_state.Top = (uint32_t)(uintptr_t)Top;
    Depth = (uint32_t)(Top - lwp_hex_frames);
  }
  struct lwp_record_mem32 *R = Rec ? takeRecord() : NULL;
  if (R) {
    R->site = Ev->Site;
    R->id_word = Word;
    R->depth = Depth;
    R->cycles = Now;
  } else {
    countDrop();
  }
}

/* Replays the journaled probes in order and empties the journal: the common
 * shapes in lwp_replay.S, each other event in C (replayEvent), and every
 * event in C while starts past a full stack are pending. */
static void replayJournal(void) {
  const struct lwp_hex_event *Ev = JournalFirst, *End = lwp_hex_jnext;
  if (Ev == End)
    return;
  /* The sentinel: a resume word of a slot that can be read (lwp_replay.S
   * stops at it without a compare with End). */
  lwp_hex_jnext->Word = (uint32_t)(uintptr_t)&lwp_hex_top_slot | 2;
  while (Ev != End) {
    if (FastReplay && !OvfDepth) {
      Ev = FastReplay(Ev, End);
      if (Ev == End)
        break;
    }
    replayEvent(Ev++);
  }
  LastEvent = CounterKind == LWP_COUNTER_QEMU_PACKETS
                  ? ((uint64_t)lwp_hex_state.High << 32) | lwp_hex_state.Low
                  : End[-1].Counter;
  lwp_hex_jnext = JournalFirst;
}

/* Replays the journal for a runtime function that reads the figures; its
 * time is taken out of the figures. */
static void syncJournal(void) {
  if (lwp_hex_jnext == JournalFirst)
    return;
  uint64_t Before = lwp_hex_read_counter();
  replayJournal();
  uint64_t From = extend(Before);
  lwp_hex_state.Pause += extend(lwp_hex_read_counter()) - From;
}

/* The counter ticks of the journal-full path outside what lwp_hex_journal_full
 * measures, less those of the handler's usual return: from the counter read
 * of the probe that filled the journal to the packet after the probe, the
 * full path takes (the last read here - its event) + LWP_REPLAY_TAIL more
 * ticks than a probe that does not replay (QEMU packets: the restores of
 * .Ljournal_call, deallocframe and the return against the handler's last
 * two packets; test/Runtime/Hexagon/nest.ll and packets.c check that a
 * journal replayed after every probe gives the figures of a large one, to
 * the packet). On hardware the value is an estimate in cycles. */
#define LWP_REPLAY_TAIL 22

/** Called by a handler (lwp_handler.S, .Ljournal_call, every register of the
 *  caller saved) when its event filled the journal: replays it and takes its
 *  time out of the figures. */
void lwp_hex_journal_full(void);
void lwp_hex_journal_full(void) {
  replayJournal();
  uint64_t Now = extend(lwp_hex_read_counter());
  /* Nothing moves when the counter does not (UPCYCLE under QEMU). */
  if (Now > LastEvent)
    lwp_hex_state.Pause += Now - LastEvent + LWP_REPLAY_TAIL;
}

/*===----------------------------------------------------------------------===*
 * Reset, registration, calibration
 *===----------------------------------------------------------------------===*/

/* Empties the buffer and the drop counter. */
static void resetBuffer(void) {
  lwp_hex_state.Next = (uint32_t)(uintptr_t)&Buffer[0];
  lwp_hex_state.Last = (uint32_t)(uintptr_t)&Buffer[LWP_BUFFER_RECORDS - 1];
  lwp_hex_state.Drops = LWP_FOLD_WINDOW;
  DroppedHi = 0;
  FoldDrops = LWP_FOLD_WINDOW;
}

/* Empties the shadow stack, the top-level figures and the tree. */
static void resetStack(void) {
  resetTree();
  memset(&lwp_hex_top_slot, 0, sizeof(lwp_hex_top_slot));
  struct lwp_hex_frame *S = &lwp_hex_frames[0];
  memset(S, 0, sizeof(*S));
  S->SlotFlags = (uint32_t)(uintptr_t)&lwp_hex_top_slot;
  S->SpRec = 0xfffffff8u; /* never below a caller's stack */
  S->Parent = (uint32_t)(uintptr_t)&lwp_hex_top_slot;
  S->Node = addressOf(&lwp_hex_nodes[0]);
  lwp_hex_state.Top = (uint32_t)(uintptr_t)S;
  OvfDepth = 0;
  OvfSp = 0;
  TopUnwound = 0;
  Outside = 0;
}

/* The state of a slot with no execution for cap \p NewCap (its index kept,
 * without the open flag; no cached node: open and outer 0, and no frame's
 * node is 0). */
static void resetSlot(struct lwp_slot *S, uint32_t NewCap) {
  S->index &= LWP_ID_MASK;
  S->bias = -(int32_t)NewCap;
  S->overflow = 0;
  S->open = 0;
  S->total = S->self = S->nested = S->children = 0;
  S->outer = S->unwound = 0;
  S->reserved = 0;
}

/* Empties the buffer, the drop counter, the stack and the figures of every
 * registered region for cap \p NewCap. */
static void resetState(uint32_t NewCap) {
  Cap = NewCap;
  /* Probes before the reset: as if replayed, then reset. */
  lwp_hex_jnext = JournalFirst;
  resetBuffer();
  resetStack();
  for (uint32_t I = 0; I != NumModules; ++I) {
    struct lwp_slot *S = moduleSlots(&Modules[I]);
    for (uint32_t J = 0; J != Modules[I].num_regions; ++J)
      resetSlot(&S[J], NewCap);
  }
}

void lwp_reset(void) { resetState(Cap); }

/* Writes "lwp: <What> <Blob>; <Why>" and a newline on stderr. */
static void warnModule(const char *What, const void *Blob, const char *Why) {
  lwp_hex_puts(2, "lwp: ");
  lwp_hex_puts(2, What);
  lwp_hex_put_char(2, ' ');
  lwp_hex_put_hex(2, (uintptr_t)Blob);
  lwp_hex_puts(2, "; ");
  lwp_hex_puts(2, Why);
  lwp_hex_put_char(2, '\n');
}

void __lwp_register_module(void *Blob) {
  const struct lwp_map_blob_header *H =
      (const struct lwp_map_blob_header *)Blob;
  /* Slots must be 16-byte aligned (the handlers keep the end flag in bit 0
   * of the slot address, lwp_dump masks 4 bits): so must the blob. */
  if (!H || ((uintptr_t)H & 15) ||
      memcmp(H->magic, LWP_MAP_MAGIC, LWP_MAP_MAGIC_SIZE) ||
      H->version < LWP_MAP_BLOB_MIN_VERSION ||
      H->version > LWP_MAP_BLOB_VERSION || (H->slots_offset & 15) ||
      H->slots_offset > H->size ||
      H->num_regions > (H->size - H->slots_offset) / sizeof(struct lwp_slot)) {
    warnModule("bad map blob at", Blob, "its regions are not counted");
    return;
  }
  if (!H->num_regions)
    return; /* no region, no ID: nothing to count */
  struct lwp_slot *Slots = (struct lwp_slot *)((char *)Blob + H->slots_offset);
  if (Slots[0].index)
    return; /* registered before */
  if (NumModules == LWP_MAX_MODULES ||
      H->num_regions > LWP_ID_MASK + 1 - NextId) {
    warnModule("no room for the module at", Blob,
               NumModules == LWP_MAX_MODULES
                   ? "module table full, its regions are not counted"
                   : "region IDs exhausted, its regions are not counted");
    return;
  }
  struct lwp_dump_module *M = &Modules[NumModules++];
  M->blob_vaddr = (uintptr_t)Blob;
  M->image = 0;
  M->first_id = NextId;
  M->num_regions = H->num_regions;
  M->map_hash = lwp_map_hash(Blob);
  for (uint32_t I = 0; I != H->num_regions; ++I) {
    Slots[I].index = NextId++;
    resetSlot(&Slots[I], Cap);
  }
}

/* Runs empty start/end pairs (\p EmptyPair), then empty pairs nested in a
 * pair (\p NestedPair), on the two calibration slots (lwp_handler.S's
 * lwp_hex_empty_pair and lwp_hex_nested_pair, from the start-up), and sets
 * \p Pair to the smallest end - start of an empty region and \p Nested to
 * the smallest extra length a nested pair gives its region, in counter
 * ticks of the figures (compensated by lwp_hex_state.Cost); 0 when below
 * 0. Returns 0 when it could not measure (a record buffer of fewer than 6
 * records: it keeps 6 a run, up to 8 runs). Leaves records, frames and
 * figures behind: the caller resets. */
static int calibrate(void (*EmptyPair)(void), void (*NestedPair)(void),
                     uint32_t *Pair, uint32_t *Nested) {
  *Pair = *Nested = 0;
  enum { Runs = LWP_BUFFER_RECORDS / 6 < 8 ? LWP_BUFFER_RECORDS / 6 : 8 };
  if (!Runs)
    return 0;
  resetBuffer();
  resetStack();
  /* Slot 0 sees 2 x Runs pairs, slot 1 Runs: a cap of 2 x Runs keeps all.
   * A non-zero index: recorded as a registered region's. */
  for (unsigned I = 0; I != 2; ++I) {
    resetSlot(&lwp_hex_calibration_slots[I], 2 * Runs);
    lwp_hex_calibration_slots[I].index = LWP_ID_MASK;
  }
  for (unsigned I = 0; I != Runs; ++I)
    EmptyPair();
  for (unsigned I = 0; I != Runs; ++I)
    NestedPair();
  syncJournal();
  memset(lwp_hex_calibration_slots, 0, sizeof(lwp_hex_calibration_slots));
  if (lwp_hex_num_records() != 6 * Runs)
    return 0;
  uint64_t Empty = ~0ull, NestedLen = ~0ull;
  for (uint32_t I = 0; I != Runs; ++I) {
    const struct lwp_record_mem32 *R = &Buffer[2 * I];
    if (R[1].cycles >= R[0].cycles && R[1].cycles - R[0].cycles < Empty)
      Empty = R[1].cycles - R[0].cycles;
  }
  for (uint32_t I = 0; I != Runs; ++I) {
    const struct lwp_record_mem32 *R = &Buffer[2 * Runs + 4 * I];
    if (R[3].cycles >= R[0].cycles && R[3].cycles - R[0].cycles < NestedLen)
      NestedLen = R[3].cycles - R[0].cycles;
  }
  if (Empty <= 0xffffffffu)
    *Pair = (uint32_t)Empty;
  if (NestedLen != ~0ull && NestedLen >= Empty &&
      NestedLen - Empty <= 0xffffffffu)
    *Nested = (uint32_t)(NestedLen - Empty);
  return 1;
}

/*===----------------------------------------------------------------------===*
 * Build ID: the PT_NOTE segments of our own ELF image, via __ehdr_start
 *===----------------------------------------------------------------------===*/

struct Elf32Ehdr {
  unsigned char Ident[16];
  uint16_t Type, Machine;
  uint32_t Version, Entry, Phoff, Shoff, Flags;
  uint16_t Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstrndx;
};
struct Elf32Phdr {
  uint32_t Type, Offset, Vaddr, Paddr, Filesz, Memsz, Flags, Align;
};
extern const struct Elf32Ehdr __ehdr_start __attribute__((weak));

/* Finds the GNU build ID; returns its size (0 when none). */
static uint32_t findBuildId(const uint8_t **Out) {
  const struct Elf32Ehdr *Eh = &__ehdr_start;
  if (!Eh || memcmp(Eh->Ident, "\177ELF", 4))
    return 0;
  const struct Elf32Phdr *Ph =
      (const struct Elf32Phdr *)((const char *)Eh + Eh->Phoff);
  for (unsigned I = 0; I != Eh->Phnum; ++I) {
    if (Ph[I].Type != 4 /* PT_NOTE */)
      continue;
    const uint8_t *P = (const uint8_t *)(uintptr_t)Ph[I].Vaddr;
    const uint8_t *End = P + Ph[I].Filesz;
    while (P + 12 <= End) {
      uint32_t NameSz = ((const uint32_t *)P)[0];
      uint32_t DescSz = ((const uint32_t *)P)[1];
      uint32_t Type = ((const uint32_t *)P)[2];
      const uint8_t *Name = P + 12;
      const uint8_t *Desc = Name + ((NameSz + 3) & ~3u);
      if (Type == 3 /* NT_GNU_BUILD_ID */ && NameSz == 4 &&
          !memcmp(Name, "GNU", 4) && Desc + DescSz <= End) {
        *Out = Desc;
        return DescSz;
      }
      P = Desc + ((DescSz + 3) & ~3u);
    }
  }
  return 0;
}

/*===----------------------------------------------------------------------===*
 * Dump
 *===----------------------------------------------------------------------===*/

/* First and one past the last byte of section lwp_map: the blobs of every
 * instrumented module (the linker defines both when the section exists; a
 * program without one has neither, and both are then null). */
extern char __start_lwp_map[] __attribute__((weak, visibility("hidden")));
extern char __stop_lwp_map[] __attribute__((weak, visibility("hidden")));

/* The dump's ID word of a record whose handler stored \p Raw (a slot address,
 * | 1 for an end probe): the slot's region ID | LWP_ID_END_BIT for an end;
 * ID 0 when the slot is not in lwp_map (the calibration's) or its module
 * did not register. */
static uint32_t mapIdWord(uint32_t Raw) {
  uint32_t End = (Raw & 1) ? LWP_ID_END_BIT : 0;
  uintptr_t Slot = Raw & ~(uint32_t)15;
  uintptr_t Begin = (uintptr_t)__start_lwp_map;
  uintptr_t Stop = (uintptr_t)__stop_lwp_map;
  if (Slot < Begin || Slot >= Stop || Stop - Slot < sizeof(struct lwp_slot))
    return End;
  return (((const struct lwp_slot *)Slot)->index & LWP_ID_MASK) | End;
}

/* The figures of region \p Id from its slot (lwp_dump_view.region_at): the
 * live words decoded (docs/hexagon-runtime.md, "Figures"). */
static void regionAt(void *Ctx, uint32_t Id, struct lwp_dump_region *Out) {
  (void)Ctx;
  memset(Out, 0, sizeof(*Out));
  const struct lwp_slot *S = findSlot(Id);
  if (!S)
    return;
  Out->count = slotCount(S);
  Out->total = S->total;
  Out->self = S->total + S->self;
  Out->nested = S->nested;
  Out->children = S->children;
  Out->outer = Out->count - S->reserved;
  Out->unwound = S->unwound;
}

/* What the virtual close of one open frame changes (its slot, its
 * parent's and its node), saved before it and restored after the dump is
 * written, 192 bytes (from the allocator; grown, never freed). */
struct SavedFrame {
  struct lwp_slot *Slot, *Parent;
  struct lwp_hex_node *Node;
  uint32_t Pad;
  struct lwp_slot SlotCopy, ParentCopy;
  struct lwp_hex_node NodeCopy;
};
static struct SavedFrame *Saved;
static uint32_t SavedCapacity;

/* Saves what closing every open frame changes; returns how many frames, or
 * -1 without memory. */
static int saveOpenFrames(void) {
  uint32_t Depth = lwp_hex_stack_depth();
  if (Depth > SavedCapacity) {
    struct SavedFrame *P =
        (struct SavedFrame *)malloc((size_t)Depth * sizeof(*P));
    if (!P)
      return -1;
    Saved = P;
    SavedCapacity = Depth;
  }
  for (uint32_t K = Depth; K; --K) {
    struct lwp_hex_frame *F = &lwp_hex_frames[K];
    struct SavedFrame *V = &Saved[Depth - K];
    V->Slot = frameSlot(F);
    V->Parent = (struct lwp_slot *)(uintptr_t)F->Parent;
    V->Node = frameNode(F);
    V->SlotCopy = *V->Slot;
    V->ParentCopy = *V->Parent;
    V->NodeCopy = *V->Node;
  }
  return (int)Depth;
}

/* Restores the \p N frames' state saveOpenFrames saved, the latest first. */
static void restoreOpenFrames(int N) {
  for (int I = N; I--;) {
    struct SavedFrame *V = &Saved[I];
    *V->Node = V->NodeCopy;
    *V->Parent = V->ParentCopy;
    *V->Slot = V->SlotCopy;
  }
}

static int writeToFd(void *Ctx, const void *Data, uint64_t Size) {
  return writeAll((int)(intptr_t)Ctx, Data, Size);
}

int lwp_dump(const char *Path) {
  if (!Path)
    Path = OutputPath;
  if (!Path || !*Path)
    return -1;
  syncJournal();
  uint64_t Now = now();

  struct lwp_dump_view V;
  memset(&V, 0, sizeof(V));
  V.header.target = LWP_TARGET_HEXAGON;
  V.header.counter = (uint16_t)CounterKind;
  V.header.record_size = sizeof(struct lwp_record64);
  V.header.counter_hz = 0;
  V.header.num_ids = NextId;
  V.header.cap = Cap;
  V.header.dropped = lwp_hex_dropped();
  /* Compensated: what a reader still subtracts (0 under QEMU). */
  V.header.probe_pair_cost = Compensate ? ResidualPairCost : PairCost;
  V.header.probe_nested_cost = Compensate ? ResidualNestedCost : NestedCost;
  V.header.flags =
      LWP_DUMP_FLAG_FIGURES | (Compensate ? LWP_DUMP_FLAG_COMPENSATED : 0);
  V.header.process_id = (uint64_t)lwp_hex_syscall4(LwpSysGetpid, 0, 0, 0, 0);

  struct lwp_image_view Image;
  Image.load_bias = 0;
  Image.build_id = NULL;
  Image.build_id_size = findBuildId(&Image.build_id);
  Image.name = ProgramName;
  Image.name_size = (uint32_t)strlen(ProgramName);
  V.images = &Image;
  V.num_images = 1;
  V.modules = Modules;
  V.num_modules = NumModules;
  V.region_at = regionAt;
  V.map_id_word = mapIdWord;

  /* Instances open now are closed in the written figures, as unwound, at
   * the counter value of the dump; the live state is restored after, so
   * that recording goes on after an lwp_dump. */
  syncNodeCounts();
  int NumSaved = saveOpenFrames();
  if (NumSaved < 0)
    return -1;
  uint64_t SavedTopUnwound = TopUnwound;
  uint32_t E = probeCount();
  for (uint32_t K = lwp_hex_stack_depth(); K; --K)
    closeFrame(&lwp_hex_frames[K], Now, E, 1);

  struct lwp_thread_view Thread;
  memset(&Thread, 0, sizeof(Thread));
  Thread.thread_id = 0;
  Thread.records = Buffer;
  Thread.num_records = lwp_hex_num_records();
  Thread.top_cycles = 0 - lwp_hex_top_slot.self;
  Thread.top_instances = lwp_hex_top_slot.children;
  /* Every probe ran inside a top-level instance, or is the start or end of
   * one, or ran with no instance open (not a start). */
  Thread.top_nested = probesTotal() - 2 * Thread.top_instances + TopUnwound -
                      Outside;
  /* A count that the closes above moved past 2^32; the root holds the
   * top-level figures. */
  syncNodeCounts();
  lwp_hex_nodes[0].D.count = Thread.top_instances;
  lwp_hex_nodes[0].D.cycles = Thread.top_cycles;
  Thread.nodes = lwp_hex_nodes;
  Thread.num_nodes = NodesUsed;
  Thread.node_stride = sizeof(struct lwp_hex_node);
  V.threads = &Thread;
  V.num_threads = 1;

  int Err = -1;
  long Fd = lwp_hex_syscall4(LwpSysOpenat, LwpAtFdCwd, (long)Path,
                             LwpOWronly | LwpOCreat | LwpOTrunc, 0644);
  if (Fd >= 0) {
    Err = lwp_write_dump(&V, writeToFd, (void *)(intptr_t)Fd);
    if (lwp_hex_syscall4(LwpSysClose, Fd, 0, 0, 0) < 0)
      Err = -1;
  }

  restoreOpenFrames(NumSaved);
  TopUnwound = SavedTopUnwound;
  return Err ? -1 : 0;
}


void lwp_hex_dump_at_exit(void) {
  static int Written;
  if (Written)
    return;
  Written = 1;
  if (OutputPath && *OutputPath && lwp_dump(OutputPath)) {
    lwp_hex_puts(2, "lwp: cannot write the dump to ");
    lwp_hex_puts(2, OutputPath);
    lwp_hex_puts(2, "\n");
  }
}

/*===----------------------------------------------------------------------===*
 * Set-up (lwp_hexagon_runtime.h)
 *===----------------------------------------------------------------------===*/

void lwp_hex_init(const struct lwp_hex_config *Config) {
  /* First: a constructor that calls exit leaves the dump too. */
  lwp_hex_exit_hook(lwp_hex_dump_at_exit, LWP_HEX_AT_EXIT | LWP_HEX_AT_SIGNAL);
  ProgramName = Config->program_name;
  OutputPath = Config->output_path;
  CounterKind = Config->counter;
  /* The replay's common path in assembly unless general_replay (test mode:
   * the C replay only; the figures are the same). */
  FastReplay = Config->general_replay ? NULL
               : CounterKind == LWP_COUNTER_QEMU_PACKETS
                   ? lwp_hex_replay_c20
                   : lwp_hex_replay_upcycle;
  JournalFirst = lwp_hex_journal + LWP_JOURNAL_EVENTS - Config->journal_events;
  lwp_hex_jnext = JournalFirst;
  /* Without compensation first; then, with the cost of a probe taken out
   * (half a nested pair: two whole probes), what is left for a reader. */
  lwp_hex_state.Cost = 0;
  /* Without a calibration there is no cost to take out: raw figures. */
  Compensate = calibrate(Config->empty_pair, Config->nested_pair, &PairCost,
                         &NestedCost) &&
               Config->compensate;
  if (Compensate) {
    lwp_hex_state.Cost = NestedCost ? NestedCost >> 1 : PairCost;
    calibrate(Config->empty_pair, Config->nested_pair, &ResidualPairCost,
              &ResidualNestedCost);
  }
  NodeBudget = Config->cct_nodes;
  /* The cap before the constructors: registration sets bias = -cap. */
  resetState(Config->cap);
}
