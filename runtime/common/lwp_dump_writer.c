/*===- lwp_dump_writer.c - Serialise a dump (docs/dump-format.md) --------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "lwp_dump_writer.h"

static const uint8_t Zeros[8];

/* Writes the zero bytes that pad \p size up to a multiple of 8. */
static int writePadding(lwp_write_fn write, void *ctx, uint64_t size) {
  uint64_t Pad = (8 - (size & 7)) & 7;
  return Pad ? write(ctx, Zeros, Pad) : 0;
}

int lwp_write_dump(const struct lwp_dump_view *view, lwp_write_fn write,
                   void *ctx) {
  if (!view || !write || !view->regions == !view->region_at)
    return -1;
  uint32_t RecordSize = view->header.record_size;
  if (RecordSize != sizeof(struct lwp_record32) &&
      RecordSize != sizeof(struct lwp_record64))
    return -1;

  struct lwp_dump_header H = view->header;
  for (unsigned I = 0; I != LWP_DUMP_MAGIC_SIZE; ++I)
    H.magic[I] = LWP_DUMP_MAGIC[I]; /* includes the NUL */
  H.version = LWP_DUMP_VERSION;
  H.header_size = sizeof(struct lwp_dump_header);
  H.num_images = view->num_images;
  H.num_threads = view->num_threads;
  H.num_modules = view->num_modules;
  if (write(ctx, &H, sizeof(H)))
    return -1;

  for (uint32_t I = 0; I != view->num_images; ++I) {
    const struct lwp_image_view *Img = &view->images[I];
    struct lwp_dump_image E;
    E.load_bias = Img->load_bias;
    E.build_id_size = Img->build_id_size;
    E.name_size = Img->name_size;
    if (write(ctx, &E, sizeof(E)))
      return -1;
    if (Img->build_id_size && write(ctx, Img->build_id, Img->build_id_size))
      return -1;
    if (Img->name_size && write(ctx, Img->name, Img->name_size))
      return -1;
    if (writePadding(write, ctx, (uint64_t)Img->build_id_size + Img->name_size))
      return -1;
  }

  if (view->num_modules &&
      write(ctx, view->modules,
            (uint64_t)view->num_modules * sizeof(struct lwp_dump_module)))
    return -1;

  if (view->regions) {
    if (H.num_ids &&
        write(ctx, view->regions,
              (uint64_t)H.num_ids * sizeof(struct lwp_dump_region)))
      return -1;
  } else {
    /* Region by region from the callback, in chunks, without a heap. */
    struct lwp_dump_region Chunk[16];
    for (uint32_t I = 0; I < H.num_ids;) {
      uint32_t N = 0;
      for (; N != 16 && I < H.num_ids; ++N, ++I)
        view->region_at(view->region_ctx, I, &Chunk[N]);
      if (write(ctx, Chunk, (uint64_t)N * sizeof(struct lwp_dump_region)))
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
    TH.reserved = 0;
    if (write(ctx, &TH, sizeof(TH)))
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
        if (write(ctx, Chunk, (uint64_t)N * sizeof(struct lwp_record64)))
          return -1;
      }
    } else if (T->num_records &&
               write(ctx, T->records, T->num_records * (uint64_t)RecordSize)) {
      return -1;
    }
  }
  return 0;
}
