/*===- lwp_dump_writer.c - Serialise a dump (docs/dump-format.md) --------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "lwp_dump_writer.h"

#include "lwp/Runtime/MapFormat.h"

/*===----------------------------------------------------------------------===*
 * The checksum: XXH64 (the reference algorithm, seed 0, as llvm::xxHash64),
 * fed in pieces, over blocks of LWP_DUMP_CHECKSUM_BLOCK bytes
 *===----------------------------------------------------------------------===*/

#define XXH_P1 0x9E3779B185EBCA87ull
#define XXH_P2 0xC2B2AE3D27D4EB4Full
#define XXH_P3 0x165667B19E3779F9ull
#define XXH_P4 0x85EBCA77C2B2AE63ull
#define XXH_P5 0x27D4EB2F165667C5ull

static uint64_t rotl64(uint64_t X, unsigned R) {
  return (X << R) | (X >> (64 - R));
}

/* Little-endian loads (every target of LWP is little-endian); the builtin
 * needs no libc for a constant size. */
static uint64_t load64(const uint8_t *P) {
  uint64_t V;
  __builtin_memcpy(&V, P, sizeof(V));
  return V;
}

static uint32_t load32(const uint8_t *P) {
  uint32_t V;
  __builtin_memcpy(&V, P, sizeof(V));
  return V;
}

static uint64_t xxhRound(uint64_t Acc, uint64_t Input) {
  Acc += Input * XXH_P2;
  return rotl64(Acc, 31) * XXH_P1;
}

static uint64_t xxhMerge(uint64_t Acc, uint64_t Lane) {
  Acc ^= xxhRound(0, Lane);
  return Acc * XXH_P1 + XXH_P4;
}

static void xxhInit(struct lwp_xxh64 *S) {
  S->acc[0] = XXH_P1 + XXH_P2;
  S->acc[1] = XXH_P2;
  S->acc[2] = 0;
  S->acc[3] = 0 - XXH_P1;
  S->total = 0;
  S->buffered = 0;
}

static void xxhStripe(uint64_t *Acc, const uint8_t *P) {
  Acc[0] = xxhRound(Acc[0], load64(P));
  Acc[1] = xxhRound(Acc[1], load64(P + 8));
  Acc[2] = xxhRound(Acc[2], load64(P + 16));
  Acc[3] = xxhRound(Acc[3], load64(P + 24));
}

/* The stripes of [P, P + N) (N a multiple of 32) into \p Acc. The lanes
 * stay in locals for the whole run: through Acc, every byte store could
 * alias them, so each round would store its lane and the four lanes could
 * not overlap. With P 8-byte aligned (records and the view's arrays are),
 * the words are read whole: a byte-aligned memcpy becomes eight byte loads
 * on targets without unaligned loads (Hexagon). The dump writer checksums
 * every record: on Hexagon this took the dump from about 58 to about 33
 * packets a record (docs/hexagon-runtime.md, "Run time (issue 23)"). */
static void xxhStripes(uint64_t *Acc, const uint8_t *P, uint64_t N) {
  uint64_t A[4] = {Acc[0], Acc[1], Acc[2], Acc[3]};
  if (((uintptr_t)P & 7) == 0) {
    /* An aligned 64-bit word that may alias anything (the bytes are
     * records, headers and regions). */
    typedef uint64_t __attribute__((may_alias, aligned(8))) AlignedWord;
    const AlignedWord *W = (const AlignedWord *)(const void *)P;
    for (; N; W += 4, N -= 32)
      for (unsigned I = 0; I != 4; ++I)
        A[I] = xxhRound(A[I], W[I]);
  } else {
    for (; N; P += 32, N -= 32)
      xxhStripe(A, P);
  }
  for (unsigned I = 0; I != 4; ++I)
    Acc[I] = A[I];
}

static void xxhUpdate(struct lwp_xxh64 *S, const uint8_t *P, uint64_t N) {
  S->total += N;
  if (S->buffered) {
    while (N && S->buffered < sizeof(S->buf)) {
      S->buf[S->buffered++] = *P++;
      --N;
    }
    if (S->buffered < sizeof(S->buf))
      return;
    xxhStripe(S->acc, S->buf);
    S->buffered = 0;
  }
  uint64_t Whole = N & ~(uint64_t)31;
  xxhStripes(S->acc, P, Whole);
  P += Whole;
  N -= Whole;
  while (N--)
    S->buf[S->buffered++] = *P++;
}

static uint64_t xxhDigest(const struct lwp_xxh64 *S) {
  uint64_t H;
  if (S->total >= 32) {
    H = rotl64(S->acc[0], 1) + rotl64(S->acc[1], 7) + rotl64(S->acc[2], 12) +
        rotl64(S->acc[3], 18);
    for (unsigned I = 0; I != 4; ++I)
      H = xxhMerge(H, S->acc[I]);
  } else {
    H = XXH_P5; /* the seed, 0, + P5 */
  }
  H += S->total;
  const uint8_t *P = S->buf;
  uint32_t N = S->buffered;
  for (; N >= 8; P += 8, N -= 8) {
    H ^= xxhRound(0, load64(P));
    H = rotl64(H, 27) * XXH_P1 + XXH_P4;
  }
  if (N >= 4) {
    H ^= (uint64_t)load32(P) * XXH_P1;
    H = rotl64(H, 23) * XXH_P2 + XXH_P3;
    P += 4;
    N -= 4;
  }
  while (N--) {
    H ^= (uint64_t)*P++ * XXH_P5;
    H = rotl64(H, 11) * XXH_P1;
  }
  H ^= H >> 33;
  H *= XXH_P2;
  H ^= H >> 29;
  H *= XXH_P3;
  H ^= H >> 32;
  return H;
}

/* Ends the block being fed: its hash goes to the fold. */
static void foldBlock(struct lwp_dump_hasher *H) {
  uint64_t Digest = xxhDigest(&H->block);
  uint8_t Bytes[8];
  for (unsigned I = 0; I != 8; ++I)
    Bytes[I] = (uint8_t)(Digest >> (8 * I));
  xxhUpdate(&H->fold, Bytes, sizeof(Bytes));
  xxhInit(&H->block);
  H->in_block = 0;
}

uint64_t lwp_xxh64(const void *data, uint64_t size) {
  struct lwp_xxh64 S;
  xxhInit(&S);
  xxhUpdate(&S, (const uint8_t *)data, size);
  return xxhDigest(&S);
}

uint32_t lwp_map_hash(const void *blob) {
  const struct lwp_map_blob_header *H = blob;
  if (H->version < 2)
    return 0;
  return (uint32_t)lwp_xxh64(blob, H->slots_offset);
}

void lwp_dump_hasher_init(struct lwp_dump_hasher *h) {
  xxhInit(&h->block);
  xxhInit(&h->fold);
  h->in_block = 0;
}

void lwp_dump_hasher_update(struct lwp_dump_hasher *h, const void *data,
                            uint64_t size) {
  const uint8_t *P = data;
  while (size) {
    uint64_t Room = LWP_DUMP_CHECKSUM_BLOCK - h->in_block;
    uint64_t N = size < Room ? size : Room;
    xxhUpdate(&h->block, P, N);
    h->in_block += N;
    P += N;
    size -= N;
    if (h->in_block == LWP_DUMP_CHECKSUM_BLOCK)
      foldBlock(h);
  }
}

uint64_t lwp_dump_hasher_final(struct lwp_dump_hasher *h) {
  if (h->in_block)
    foldBlock(h);
  return xxhDigest(&h->fold);
}

/*===----------------------------------------------------------------------===*
 * The dump
 *===----------------------------------------------------------------------===*/

/* Where the bytes go: the caller's write function, and the checksum. */
struct Output {
  lwp_write_fn Write;
  void *Ctx;
  struct lwp_dump_hasher Hash;
};

static int put(struct Output *O, const void *Data, uint64_t Size) {
  lwp_dump_hasher_update(&O->Hash, Data, Size);
  return O->Write(O->Ctx, Data, Size);
}

static const uint8_t Zeros[8];

/* Writes the zero bytes that pad \p size up to a multiple of 8. */
static int writePadding(struct Output *O, uint64_t size) {
  uint64_t Pad = (8 - (size & 7)) & 7;
  return Pad ? put(O, Zeros, Pad) : 0;
}

int lwp_write_dump(const struct lwp_dump_view *view, lwp_write_fn write,
                   void *ctx) {
  if (!view || !write || !view->regions == !view->region_at)
    return -1;
  uint32_t RecordSize = view->header.record_size;
  if (RecordSize != sizeof(struct lwp_record32) &&
      RecordSize != sizeof(struct lwp_record64))
    return -1;

  struct Output O;
  O.Write = write;
  O.Ctx = ctx;
  lwp_dump_hasher_init(&O.Hash);

  struct lwp_dump_header H = view->header;
  for (unsigned I = 0; I != LWP_DUMP_MAGIC_SIZE; ++I)
    H.magic[I] = LWP_DUMP_MAGIC[I]; /* includes the NUL */
  H.version = LWP_DUMP_VERSION;
  H.header_size = sizeof(struct lwp_dump_header);
  H.num_images = view->num_images;
  H.num_threads = view->num_threads;
  H.num_modules = view->num_modules;
  if (put(&O, &H, sizeof(H)))
    return -1;

  for (uint32_t I = 0; I != view->num_images; ++I) {
    const struct lwp_image_view *Img = &view->images[I];
    struct lwp_dump_image E;
    E.load_bias = Img->load_bias;
    E.build_id_size = Img->build_id_size;
    E.name_size = Img->name_size;
    if (put(&O, &E, sizeof(E)))
      return -1;
    if (Img->build_id_size && put(&O, Img->build_id, Img->build_id_size))
      return -1;
    if (Img->name_size && put(&O, Img->name, Img->name_size))
      return -1;
    if (writePadding(&O, (uint64_t)Img->build_id_size + Img->name_size))
      return -1;
  }

  if (view->num_modules &&
      put(&O, view->modules,
          (uint64_t)view->num_modules * sizeof(struct lwp_dump_module)))
    return -1;

  if (view->regions) {
    if (H.num_ids && put(&O, view->regions,
                         (uint64_t)H.num_ids * sizeof(struct lwp_dump_region)))
      return -1;
  } else {
    /* Region by region from the callback, in chunks, without a heap. */
    struct lwp_dump_region Chunk[16];
    for (uint32_t I = 0; I < H.num_ids;) {
      uint32_t N = 0;
      for (; N != 16 && I < H.num_ids; ++N, ++I)
        view->region_at(view->region_ctx, I, &Chunk[N]);
      if (put(&O, Chunk, (uint64_t)N * sizeof(struct lwp_dump_region)))
        return -1;
    }
  }

  for (uint32_t I = 0; I != view->num_threads; ++I) {
    const struct lwp_thread_view *T = &view->threads[I];
    struct lwp_dump_thread TH;
    TH.thread_id = T->thread_id;
    TH.num_records = T->num_records;
    TH.top_cycles = T->top_cycles;
    TH.top_instances = T->top_instances;
    TH.top_nested = T->top_nested;
    TH.num_nodes = T->nodes ? T->num_nodes : 0;
    if (TH.num_nodes && T->node_stride < sizeof(struct lwp_dump_node))
      return -1;
    if (put(&O, &TH, sizeof(TH)))
      return -1;
    if (view->map_id_word) {
      /* Convert the records in chunks, without a heap. */
      if (RecordSize != sizeof(struct lwp_record64))
        return -1;
      struct lwp_record64 Chunk[32];
      const struct lwp_record_mem32 *R = T->records;
      for (uint64_t I = 0; I < T->num_records;) {
        uint32_t N = 0;
        for (; N != 32 && I < T->num_records; ++N, ++I) {
          Chunk[N].site = R[I].site;
          Chunk[N].id_word = view->map_id_word(R[I].id_word);
          Chunk[N].depth = R[I].depth;
          Chunk[N].cycles = R[I].cycles;
        }
        if (put(&O, Chunk, (uint64_t)N * sizeof(struct lwp_record64)))
          return -1;
      }
    } else if (T->num_records &&
               put(&O, T->records, T->num_records * (uint64_t)RecordSize)) {
      return -1;
    }
    if (TH.num_nodes && T->node_stride == sizeof(struct lwp_dump_node)) {
      if (put(&O, T->nodes, TH.num_nodes * sizeof(struct lwp_dump_node)))
        return -1;
    } else {
      /* In chunks, the links a runtime keeps after each node left out. */
      struct lwp_dump_node Chunk[32];
      const char *Node = T->nodes;
      for (uint64_t K = 0; K < TH.num_nodes;) {
        uint32_t N = 0;
        for (; N != 32 && K < TH.num_nodes; ++N, ++K, Node += T->node_stride)
          Chunk[N] = *(const struct lwp_dump_node *)(const void *)Node;
        if (put(&O, Chunk, (uint64_t)N * sizeof(struct lwp_dump_node)))
          return -1;
      }
    }
  }

  struct lwp_dump_trailer T;
  T.checksum = lwp_dump_hasher_final(&O.Hash);
  return write(ctx, &T, sizeof(T)) ? -1 : 0;
}
