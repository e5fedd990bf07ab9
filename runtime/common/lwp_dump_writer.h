/*===- lwp_dump_writer.h - Serialise a dump (docs/dump-format.md) -*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The one dump writer of every runtime (host and freestanding Hexagon). It
 * uses no libc: bytes go out through a caller-supplied write function, so the
 * Hexagon start-up code can pass its syscall wrapper and the host runtime
 * write(2). Little-endian targets only (x86-64, AArch64, Hexagon).
 */
#ifndef LWP_RUNTIME_DUMP_WRITER_H
#define LWP_RUNTIME_DUMP_WRITER_H

#include "lwp/Runtime/DumpFormat.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes \p size bytes; returns 0 on success, non-zero on failure. */
typedef int (*lwp_write_fn)(void *ctx, const void *data, uint64_t size);

/** One image as the writer sees it. */
struct lwp_image_view {
  uint64_t load_bias;
  const uint8_t *build_id; /**< build_id_size bytes, may be null if 0 */
  uint32_t build_id_size;
  const char *name; /**< name_size bytes, no NUL needed */
  uint32_t name_size;
};

/** One thread's records: num_records records of header.record_size bytes,
 *  its top-level figures (struct lwp_dump_thread) and its calling-context
 *  tree: num_nodes nodes, each starting with a struct lwp_dump_node (written
 *  as it is), node_stride bytes apart (a runtime keeps its links to
 *  children after the 32 bytes the dump takes). */
struct lwp_thread_view {
  uint64_t thread_id;
  const void *records;
  uint64_t num_records;
  uint64_t top_cycles;
  uint64_t top_instances;
  uint64_t top_nested;
  const void *nodes;    /**< null when num_nodes is 0 */
  uint64_t num_nodes;   /**< 0: the thread kept no tree */
  uint32_t node_stride; /**< bytes from one node to the next (>= 32) */
};

/** A record as a 32-bit runtime keeps it in memory (Hexagon's replay), 32
 *  bytes (a power of two, so that the record count is an address shift):
 *  the writer writes it as a struct lwp_record64 (24 bytes) with its raw ID
 *  word mapped through lwp_dump_view.map_id_word. */
struct lwp_record_mem32 {
  uint32_t site;      /**< +0: return address of the probe call */
  uint32_t id_word;   /**< +4: raw ID word (map_id_word maps it) */
  uint32_t depth;     /**< +8: as lwp_record64.depth */
  uint32_t reserved;  /**< +12 */
  uint64_t cycles;    /**< +16: counter value */
  uint64_t reserved2; /**< +24 */
};

/** Maps a 32-bit record's raw ID word (as a handler stored it) to the ID
 *  word of the dump (docs/dump-format.md). */
typedef uint32_t (*lwp_id_word_fn)(uint32_t raw);

/** Everything a dump holds. header.magic, version, header_size, num_images,
 *  num_modules and num_threads are filled in by the writer; the rest by the
 *  caller. The region table has header.num_ids entries, given either as an
 *  array (regions) or through a callback (region_at, for runtimes that keep
 *  the figures elsewhere, e.g. in the slots): exactly one is non-null. With
 *  map_id_word set, the records are struct lwp_record_mem32, written as
 *  24-byte lwp_record64 records (header.record_size must be 24) with their ID
 *  words mapped through it (in chunks, the source records unchanged). */
struct lwp_dump_view {
  struct lwp_dump_header header;
  const struct lwp_image_view *images;
  uint32_t num_images;
  const struct lwp_dump_module *modules;
  uint32_t num_modules;
  lwp_id_word_fn map_id_word;
  const struct lwp_dump_region *regions;
  /** Fills \p out with the figures of region \p id. */
  void (*region_at)(void *ctx, uint32_t id, struct lwp_dump_region *out);
  void *region_ctx;
  const struct lwp_thread_view *threads;
  uint32_t num_threads;
};

/** Serialises \p view through \p write, as a version 4 dump: the parts,
 *  then the checksum of every byte written (lwp_dump_trailer). Returns 0 on
 *  success, -1 when a write fails or the view is inconsistent (no or two
 *  region tables, a record size other than 16 or 24, a node stride below
 *  32 bytes). */
int lwp_write_dump(const struct lwp_dump_view *view, lwp_write_fn write,
                   void *ctx);

/** XXH64 (seed 0) of a stream of bytes, fed in pieces of any size. */
struct lwp_xxh64 {
  uint64_t acc[4];   /**< the four lanes */
  uint64_t total;    /**< bytes fed */
  uint8_t buf[32];   /**< the start of a 32-byte stripe not yet complete */
  uint32_t buffered; /**< bytes in buf */
};

/** The checksum of a version 3 dump (LWP_DUMP_CHECKSUM_BLOCK), computed as
 *  the bytes go out: for writers of dumps other than lwp_write_dump (test
 *  and benchmark tools). */
struct lwp_dump_hasher {
  struct lwp_xxh64 block; /**< the block being fed */
  struct lwp_xxh64 fold;  /**< the hashes of the blocks done */
  uint64_t in_block;      /**< bytes of the block being fed */
};

/** XXH64 (seed 0) of the \p size bytes at \p data, the same value as
 *  llvm::xxHash64: the runtimes hash each module's map blob before its slots
 *  for lwp_dump_module.map_hash. */
uint64_t lwp_xxh64(const void *data, uint64_t size);

/** The map hash of a registered module (lwp_dump_module.map_hash): the low
 *  32 bits of lwp_xxh64 of the blob's bytes before its slots; 0 for a blob
 *  of version 1 (no slots in the file, as lwp-report computes it). */
uint32_t lwp_map_hash(const void *blob);

/** Starts a checksum. */
void lwp_dump_hasher_init(struct lwp_dump_hasher *h);
/** Feeds the next \p size bytes of the dump. */
void lwp_dump_hasher_update(struct lwp_dump_hasher *h, const void *data,
                            uint64_t size);
/** The checksum of the bytes fed (at least one), for lwp_dump_trailer;
 *  \p h is spent. */
uint64_t lwp_dump_hasher_final(struct lwp_dump_hasher *h);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LWP_RUNTIME_DUMP_WRITER_H */
