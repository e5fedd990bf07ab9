/*===- MapFormat.h - The per-module map blob and its region slots -*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What each instrumented module carries in the binary (docs/
 * instrumentation-map.md, "In the binary"): one global in the writable
 * section "lwp_map", 16-byte aligned, that holds the module's map blob
 * followed by one slot per region. The linker concatenates the globals of
 * every module of an image; nothing is shared between modules, so modules and
 * images need no coordination (the design of LLVM's profile runtime, whose
 * per-module counters and descriptors live in sections the linker
 * concatenates).
 *
 * Layout of one blob (little-endian):
 *   lwp_map_blob_header                       32 bytes
 *   entries  x num_regions                    48 bytes each (below)
 *   lwp_map_blob_summary                      8 bytes, version 4 only
 *   work table (version 4, may be empty)      lwp_map_blob_work_header, then
 *                                             lwp_map_blob_work x num_work
 *   string table                              NUL-terminated strings
 *   zero padding to slots_offset (16-aligned)
 *   slots    x num_regions                    lwp_slot, 64 bytes each
 *
 * Entry (48 bytes): u32 local ID (= its index in the blob), u8 kind
 * (0 function, 1 loop, 2 operator), u8 flags (1: depth/height valid,
 * 2: parent valid, 4: operator valid), u16 0, u32 depth, u32 height,
 * u32 parent (local ID), u32 function name (string offset), u32 file name
 * (string offset), u32 line, u32 column, u32 operator (string offset),
 * u32 operator's name in the model (string offset), u32 operators held
 * (string offset; op names joined with ','; "" for none). Version 2 blobs
 * had 40-byte entries, ending after the column.
 *
 * A probe passes the address of its region's slot to the handler. Each
 * module's constructor calls __lwp_register_module with its blob; the
 * runtime gives every slot a program-wide index (its dump ID).
 */
#ifndef LWP_RUNTIME_MAPFORMAT_H
#define LWP_RUNTIME_MAPFORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The 8 bytes a blob starts with. */
#define LWP_MAP_MAGIC "LWPMAP\0"
#define LWP_MAP_MAGIC_SIZE 8
/** Latest blob version: 4 (header word 28 gives the offset of the module
 *  summary, written for modules built with -lwp-instruction-threshold).
 *  Version 3 (word 28 reserved, 0) and 2 (40-byte entries) have the same
 *  header and slots; runtimes
 *  register versions LWP_MAP_BLOB_MIN_VERSION..LWP_MAP_BLOB_VERSION (version
 *  1 blobs had no slots and global IDs). */
#define LWP_MAP_BLOB_VERSION 4u
#define LWP_MAP_BLOB_MIN_VERSION 2u
/** Name of the section (a C identifier, so that the linker defines
 *  __start_lwp_map and __stop_lwp_map). */
#define LWP_MAP_SECTION "lwp_map"

/** Header of a blob, 32 bytes. */
struct lwp_map_blob_header {
  char magic[LWP_MAP_MAGIC_SIZE]; /**<  0: LWP_MAP_MAGIC */
  uint32_t version;               /**<  8: LWP_MAP_BLOB_VERSION */
  uint32_t size;                  /**< 12: bytes of the blob, slots included */
  uint32_t num_regions;           /**< 16: entries, and slots */
  uint32_t strings;               /**< 20: offset of the string table */
  uint32_t slots_offset;          /**< 24: offset of slot 0, a multiple of 16 */
  uint32_t summary;               /**< 28: version 4: offset of the
                                         lwp_map_blob_summary, 0 for none;
                                         before: reserved, 0 */
};

/** Version 4: what the module's -lwp-instruction-threshold left out, 8
 *  bytes after the entries, before the strings. Runtimes do not read it;
 *  lwp-report prints "N small functions not instrumented". The bytes from
 *  its end to the string table are the work table (none when there are
 *  none): written for modules whose operators carry work figures (then
 *  with a summary of 0 small functions and threshold 0 if there is no
 *  threshold). */
struct lwp_map_blob_summary {
  uint32_t small_functions;       /**< 0: function regions the threshold
                                        skipped */
  uint32_t instruction_threshold; /**< 4: the threshold */
};

/** Version 4: the work table's header, right after the summary. */
struct lwp_map_blob_work_header {
  uint32_t num_work; /**< 0: records that follow */
  uint32_t reserved; /**< 4: 0 */
};

/** Flags of a work record: which figures are known. */
#define LWP_MAP_WORK_FLOPS 1u
#define LWP_MAP_WORK_BYTES_READ 2u
#define LWP_MAP_WORK_BYTES_WRITTEN 4u

/** One operator region's work per execution, from the frontend (its
 *  operator tag), 32 bytes; one record per region that has a figure, in
 *  region order. A figure whose flag is clear is unknown and 0. Figures are
 *  at most INT64_MAX. Runtimes do not read it. */
struct lwp_map_blob_work {
  uint32_t region;        /**<  0: local ID of the region */
  uint32_t flags;         /**<  4: LWP_MAP_WORK_* */
  uint64_t flops;         /**<  8: operations (a multiply-add counts 2) */
  uint64_t bytes_read;    /**< 16: bytes of the operands read */
  uint64_t bytes_written; /**< 24: bytes of the results written */
};

/** The run-time state of one region, 64 bytes, zero in the file. The runtime
 *  writes index at registration. The host runtime keeps the other figures
 *  per thread (struct lwp_region_acc) and uses only index; the single-thread
 *  Hexagon handlers keep the region's figures here, in the encoding that
 *  docs/hexagon-runtime.md ("Slots") specifies (e.g. bit 31 of index marks an
 *  open instance there) and that the Hexagon dump turns into
 *  lwp_dump_region. Cycles are in the dump's counter unit. */
struct lwp_slot {
  uint32_t index;    /**<  0: program-wide region ID; 0 until registered */
  int32_t bias;      /**<  4: Hexagon: count - cap (+ 2^29 x overflow) */
  uint32_t overflow; /**<  8: Hexagon: units of 2^29 executions moved out of
                                bias */
  uint32_t open;     /**< 12: Hexagon runtime's use */
  uint64_t total;    /**< 16: Hexagon: inclusive cycles of the outermost
                                instances */
  uint64_t self;     /**< 24: Hexagon runtime's use (self cycles, encoded) */
  uint64_t nested;   /**< 32: Hexagon runtime's use (probes inside) */
  uint64_t children; /**< 40: Hexagon: direct child instances */
  uint32_t outer;    /**< 48: Hexagon runtime's use */
  uint32_t unwound;  /**< 52: Hexagon: instances closed without their end
                                probe (longjmp, exception, exit) */
  uint64_t reserved; /**< 56: Hexagon runtime's use */
};

/** Registers the module whose blob starts at \p blob: gives its slots their
 *  program-wide IDs. Every runtime defines it; each instrumented module calls
 *  it from a constructor (priority 1) before any of its probes can run.
 *  Registering a blob twice is harmless. */
void __lwp_register_module(void *blob);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LWP_RUNTIME_MAPFORMAT_H */
