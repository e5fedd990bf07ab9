/*===- DumpFormat.h - The LWP dump file layout -------------------*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The dump file the runtimes write and lwp-report reads: a versioned,
 * little-endian binary file, specified in docs/dump-format.md. This header is
 * plain C (C99) so that the freestanding Hexagon runtime, the host runtime and
 * the C++ reader share one definition.
 *
 * Layout of version 4, in order (every part starts 8-byte aligned):
 *   lwp_dump_header                      80 bytes (64 in version 1)
 *   image entries  x num_images          lwp_dump_image + build ID + name,
 *                                        padded to 8 bytes
 *   module entries x num_modules         lwp_dump_module, 24 bytes (v2 only)
 *   region figures x num_ids             v2: lwp_dump_region, 64 bytes: exact
 *                                        count, inclusive and self cycles of
 *                                        every execution; v1: uint64_t count
 *   thread blocks  x num_threads         v2: lwp_dump_thread (48 bytes), v1:
 *                                        its first 16 bytes; then num_records
 *                                        records of record_size bytes; then
 *                                        (v4) num_nodes calling-context
 *                                        nodes, lwp_dump_node, 32 bytes each
 *   lwp_dump_trailer                     8 bytes (v3, v4): the checksum of
 *                                        every byte before it
 *
 * Version 3 is version 4 without calling-context nodes (the thread's
 * num_nodes reserved, 0); version 2 is version 3 without the trailer (and
 * with the module's map_hash reserved); readers read versions 1 to 4.
 *
 * Region IDs in a version 2 dump are program-wide indices that the runtime
 * gave each region slot when its module registered (MapFormat.h); ID 0
 * is never a region (probes of a module that has not registered count
 * there). The module table says which IDs belong to which module's map.
 */
#ifndef LWP_RUNTIME_DUMPFORMAT_H
#define LWP_RUNTIME_DUMPFORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The 8 bytes a dump starts with: "LWPDUMP" and a NUL. */
#define LWP_DUMP_MAGIC "LWPDUMP"
#define LWP_DUMP_MAGIC_SIZE 8
/** Format version written by the runtimes. Readers read 1 to 4. */
#define LWP_DUMP_VERSION 4u

/** The checksum (versions 3 and 4): the bytes before the trailer are cut into blocks of
 *  this many bytes (the last one shorter); the checksum is the XXH64 (seed
 *  0) of the XXH64 (seed 0) of each block, as 8 little-endian bytes each, in
 *  order. Blocks let a reader verify in parallel and in bounded memory. */
#define LWP_DUMP_CHECKSUM_BLOCK (1u << 20)

/** Bit 31 of a record's ID word: set for an end probe, clear for a start.
 *  Bits 0-30 hold the region ID (0 to 2^31-1). */
#define LWP_ID_END_BIT 0x80000000u
#define LWP_ID_MASK 0x7fffffffu

/** lwp_dump_header.flags: the region table holds exact cycles (total, self,
 *  nested, children, outer, unwound) besides the counts, and the thread
 *  headers the top-level figures. Without it a reader has counts only. */
#define LWP_DUMP_FLAG_FIGURES 1u
/** lwp_dump_header.flags: some executions were not counted (the runtime
 *  could not allocate a thread's profile state; their probes are in
 *  `dropped`): counts and cycles are lower bounds, not exact. */
#define LWP_DUMP_FLAG_LOST 2u
/** lwp_dump_header.flags (v4): every cycle figure of the dump (records,
 *  region table, thread headers, calling-context nodes) is in compensated
 *  time: the runtime took the probes' own time out of the counter where it
 *  ran, on the thread that ran it (docs/report.md, "Overhead correction"),
 *  so that an instance's figure is corrected for every probe executed
 *  inside it, recorded or not. probe_pair_cost and probe_nested_cost then
 *  hold what a reader still subtracts (0: nothing). */
#define LWP_DUMP_FLAG_COMPENSATED 4u

/** Target that wrote the dump (lwp_dump_header.target). */
enum lwp_dump_target {
  LWP_TARGET_X86_64 = 1,
  LWP_TARGET_AARCH64 = 2,
  LWP_TARGET_HEXAGON = 3,
};

/** What the cycle field of a record counts (lwp_dump_header.counter). */
enum lwp_dump_counter {
  LWP_COUNTER_TSC = 1,         /**< x86-64 time-stamp counter (rdtsc) */
  LWP_COUNTER_CNTVCT = 2,      /**< AArch64 virtual counter (cntvct_el0) */
  LWP_COUNTER_PCYCLES = 3,     /**< Hexagon UPCYCLE processor cycles */
  LWP_COUNTER_QEMU_PACKETS = 4 /**< QEMU's Hexagon packet counter (c20) */
};

/** File header, 80 bytes (version 1: the first 64 bytes, no module table). */
struct lwp_dump_header {
  char magic[LWP_DUMP_MAGIC_SIZE]; /**<  0: LWP_DUMP_MAGIC */
  uint32_t version;                /**<  8: LWP_DUMP_VERSION */
  uint32_t header_size;            /**< 12: sizeof(lwp_dump_header): 80
                                             (64 in version 1) */
  uint16_t target;                 /**< 16: enum lwp_dump_target */
  uint16_t counter;                /**< 18: enum lwp_dump_counter */
  uint32_t record_size;     /**< 20: 16 (lwp_record32) or 24 (lwp_record64) */
  uint64_t counter_hz;      /**< 24: counter ticks per second; 0 when unknown */
  uint32_t num_ids;         /**< 32: entries of the region table */
  uint32_t cap;             /**< 36: records kept per ID (start and end each) */
  uint64_t dropped;         /**< 40: records not stored (cap reached, buffer
                                     full, or ID >= num_ids) */
  uint32_t num_images;      /**< 48: image entries that follow */
  uint32_t num_threads;     /**< 52: thread blocks after the counts */
  uint32_t probe_pair_cost; /**< 56: counter ticks between the start and end
                                     records of an empty region (what a
                                     region's own probes add), calibrated at
                                     start-up; 0 unknown */
  uint32_t probe_nested_cost; /**< 60: counter ticks an empty probe pair
                                       nested in a region adds to that region
                                       (both handlers, whole); 0 unknown */
  uint32_t num_modules; /**< 64: module entries after the images (v2) */
  uint32_t flags;       /**< 68: LWP_DUMP_FLAG_* */
  uint64_t process_id;  /**< 72: ID of the process that wrote the dump */
};

/** One registered module (one lwp_map blob with its slots), 24 bytes: its
 *  regions have the IDs first_id .. first_id + num_regions - 1, in the order
 *  of the blob's entries. */
struct lwp_dump_module {
  uint64_t blob_vaddr;  /**< address of the blob minus its image's load_bias:
                             the blob's virtual address in the ELF file */
  uint32_t image;       /**< index of its image in the image table */
  uint32_t first_id;    /**< program-wide ID of the blob's entry 0 */
  uint32_t num_regions; /**< entries (and slots) of the blob */
  union {
    /** v3: the low 32 bits of the XXH64 (seed 0) of the blob's bytes before
     *  its slots (header, entries, strings: the same in memory as in the
     *  file), for a reader to tell a rebuilt binary; 0 not recorded. */
    uint32_t map_hash;
    uint32_t reserved; /**< its version 2 name: 0 */
  };
};

/** One loaded image (executable or shared object), 16 bytes, followed by
 *  build_id_size bytes of GNU build ID and name_size bytes of path (no NUL),
 *  then zero padding to a multiple of 8 bytes. */
struct lwp_dump_image {
  uint64_t load_bias;     /**< address the image's vaddr 0 is mapped at
                               (dl_iterate_phdr's dlpi_addr; 0 if static) */
  uint32_t build_id_size; /**< bytes of build ID (0 when none) */
  uint32_t name_size;     /**< bytes of path */
};

/** Exact figures of one region ID, summed over threads, 64 bytes (v2).
 *  Cycles are in the counter unit, raw (no overhead subtracted). The runtime
 *  keeps a stack of open instances per thread: an end probe closes its
 *  instance; instances left open by longjmp, an exception or exit are closed
 *  at the next probe of an enclosing function on that thread (one whose stack
 *  pointer is above theirs), or at the dump. */
struct lwp_dump_region {
  uint64_t count;    /**<  0: executions (start probes) */
  uint64_t total;    /**<  8: inclusive cycles of the outermost instances: a
                                region nested in itself counts once (as
                                perf's children column does) */
  uint64_t self;     /**< 16: cycles of every instance minus those of its
                                direct instrumented children */
  uint64_t nested;   /**< 24: probes (start and end probes of instances of
                                any region) that ran inside the outermost
                                instances: 2 a nested instance, 1 for one
                                left without its end probe */
  uint64_t children; /**< 32: direct child instances of every instance */
  uint64_t outer;    /**< 40: outermost instances (count minus instances
                                nested in the same region) */
  uint64_t unwound;  /**< 48: instances closed without their end probe */
  uint64_t reserved; /**< 56: 0 */
};

/** Header of one thread's records, 48 bytes (v2; version 1: the first 16
 *  bytes). The top-level figures are those of the instances that ran inside
 *  no other instance on the thread: the thread's profiled time. */
struct lwp_dump_thread {
  uint64_t thread_id;     /**<  0: OS thread ID (gettid); 0 on Hexagon */
  uint64_t num_records;   /**<  8: records that follow, in execution order */
  uint64_t top_cycles;    /**< 16: inclusive cycles of top-level instances */
  uint64_t top_instances; /**< 24: top-level instances */
  uint64_t top_nested;    /**< 32: probes inside top-level instances (as
                                   lwp_dump_region.nested) */
  uint64_t num_nodes;     /**< 40: v4: calling-context nodes after the
                                   records (0: the thread kept no tree);
                                   v2, v3: reserved, 0 */
};

/** lwp_dump_node.flags: instances whose path had no node left (the node
 *  budget, LWP_CCT_NODES, was spent) were folded into this node, the
 *  deepest of their path that has one: they are in its cycles and in no
 *  child's, so its self cycles (cycles minus the children's) hold them. */
#define LWP_NODE_FOLDED 1u

/** One node of a thread's calling-context tree (v4), 32 bytes: the exact
 *  figures of one path of regions, root to this node, as HPCToolkit and
 *  LLVM's contextual profiles keep them. Node 0 is the thread's root (ID 0,
 *  parent 0; its count and cycles are the thread's top-level instances and
 *  cycles); every other node's parent has a smaller index, and no two
 *  children of a node have the same ID. A region nested in itself has a
 *  node at each level. The children's cycles never exceed their parent's;
 *  cycles minus the children's are the path's self cycles. */
struct lwp_dump_node {
  uint32_t id;     /**<  0: region ID (0: the root) */
  uint32_t parent; /**<  4: index of the parent node in this thread's
                              table */
  uint64_t count;  /**<  8: instances of the region on this path */
  uint64_t cycles; /**< 16: their inclusive cycles (counter unit) */
  uint32_t flags;  /**< 24: LWP_NODE_* */
  uint32_t folded; /**< 28: instances folded into it (LWP_NODE_FOLDED),
                              saturating at 2^32-1 */
};

/** A record of a 32-bit target (Hexagon), 16 bytes. */
struct lwp_record32 {
  uint32_t site;    /**< return address of the probe call */
  uint32_t id_word; /**< region ID | LWP_ID_END_BIT for an end probe */
  uint64_t cycles;  /**< counter value (header.counter) */
};

/** A record of a 64-bit target (x86-64, AArch64), 24 bytes. */
struct lwp_record64 {
  uint64_t site;    /**< return address of the probe call */
  uint32_t id_word; /**< region ID | LWP_ID_END_BIT for an end probe */
  uint32_t depth;   /**< v2: the instance's position on the thread's stack of
                         open instances (1: outermost), counted after the
                         instances left without their end probe were closed;
                         0 unknown (version 1) */
  uint64_t cycles;  /**< counter value (header.counter) */
};

/** The end of a version 3 or 4 dump, 8 bytes, right after the last thread. */
struct lwp_dump_trailer {
  uint64_t checksum; /**< of every byte before the trailer, in blocks of
                          LWP_DUMP_CHECKSUM_BLOCK (see there) */
};

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LWP_RUNTIME_DUMPFORMAT_H */
