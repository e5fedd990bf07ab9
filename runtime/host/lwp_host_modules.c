/*===- lwp_host_modules.c - Module registration and images ---------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Every instrumented module registers its map blob from a constructor
 * (__lwp_register_module); its slots get program-wide IDs, and the module
 * is remembered with its image (path, load bias, GNU build ID), so that the
 * dump names it even after dlclose.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include "../common/lwp_dump_writer.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct lwp_image_info *lwp_images;
uint32_t lwp_num_images;
struct lwp_dump_module *lwp_modules;
uint32_t lwp_num_modules;
uint32_t lwp_next_id = 1;

static uint32_t ImagesCapacity, ModulesCapacity;

/** Fills \p Image with the image that contains \p Address. */
struct ImageSearch {
  uintptr_t Address;
  int Found;
  struct lwp_image_info Image;
};

static int findImage(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  struct ImageSearch *Search = Data;
  int Contains = 0;
  for (int I = 0; I != Info->dlpi_phnum && !Contains; ++I) {
    const ElfW(Phdr) *P = &Info->dlpi_phdr[I];
    uintptr_t Start = Info->dlpi_addr + P->p_vaddr;
    Contains = P->p_type == PT_LOAD && Search->Address >= Start &&
               Search->Address - Start < P->p_memsz;
  }
  if (!Contains)
    return 0;
  Search->Found = 1;
  Search->Image.LoadBias = Info->dlpi_addr;
  const char *Name = Info->dlpi_name;
  char ExePath[4096];
  if (!Name || !*Name) {
    /* The main program: dl_iterate_phdr gives no name. */
    ssize_t N = readlink("/proc/self/exe", ExePath, sizeof(ExePath) - 1);
    ExePath[N > 0 ? N : 0] = '\0';
    Name = ExePath;
  }
  size_t NameSize = strlen(Name) + 1;
  Search->Image.Name = lwp_state_alloc(NameSize);
  if (Search->Image.Name)
    memcpy(Search->Image.Name, Name, NameSize);
  uint32_t IdSize;
  const uint8_t *Id =
      lwp_find_image_note(Info, "GNU", NT_GNU_BUILD_ID, &IdSize);
  if (Id) {
    Search->Image.BuildId = lwp_state_alloc(IdSize ? IdSize : 1);
    if (Search->Image.BuildId) {
      memcpy(Search->Image.BuildId, Id, IdSize);
      Search->Image.BuildIdSize = IdSize;
    }
  }
  return 1;
}

/* The same image (same load bias and path) is listed once. */
uint32_t lwp_image_of(const void *Address) {
  struct ImageSearch Search;
  memset(&Search, 0, sizeof(Search));
  Search.Address = (uintptr_t)Address;
  dl_iterate_phdr(findImage, &Search);
  if (!Search.Found || !Search.Image.Name)
    return UINT32_MAX;
  for (uint32_t I = 0; I != lwp_num_images; ++I)
    if (lwp_images[I].LoadBias == Search.Image.LoadBias &&
        strcmp(lwp_images[I].Name, Search.Image.Name) == 0) {
      lwp_state_free(Search.Image.Name);
      lwp_state_free(Search.Image.BuildId);
      return I;
    }
  if (lwp_num_images == ImagesCapacity) {
    uint32_t New = ImagesCapacity ? 2 * ImagesCapacity : 8;
    struct lwp_image_info *P = lwp_state_grow(
        lwp_images, ImagesCapacity * sizeof(*P), New * sizeof(*P));
    if (!P) {
      lwp_state_free(Search.Image.Name);
      lwp_state_free(Search.Image.BuildId);
      return UINT32_MAX;
    }
    lwp_images = P;
    ImagesCapacity = New;
  }
  lwp_images[lwp_num_images] = Search.Image;
  return lwp_num_images++;
}

void lwp_modules_register(void *Blob) {
  const struct lwp_map_blob_header *H = Blob;
  if (!H || memcmp(H->magic, LWP_MAP_MAGIC, LWP_MAP_MAGIC_SIZE) != 0 ||
      H->version < LWP_MAP_BLOB_MIN_VERSION ||
      H->version > LWP_MAP_BLOB_VERSION || H->slots_offset % 16 != 0 ||
      (uint64_t)H->slots_offset +
              (uint64_t)sizeof(struct lwp_slot) * H->num_regions >
          H->size) {
    fprintf(stderr,
            "lwp: ignoring a module whose map blob at %p is not a "
            "version %u-%u LWP map (built by another LWP?)\n",
            Blob, LWP_MAP_BLOB_MIN_VERSION, LWP_MAP_BLOB_VERSION);
    return;
  }
  struct lwp_slot *Slots = (struct lwp_slot *)((char *)Blob + H->slots_offset);
  if (H->num_regions == 0)
    return;
  pthread_mutex_lock(&lwp_lock);
  if (Slots[0].index != 0) { /* registered already */
    pthread_mutex_unlock(&lwp_lock);
    return;
  }
  uint32_t Image = lwp_image_of(Blob);
  if (Image == UINT32_MAX || lwp_next_id > UINT32_MAX / 2 - H->num_regions) {
    pthread_mutex_unlock(&lwp_lock);
    fprintf(stderr,
            "lwp: cannot register the module at %p (no image or out "
            "of memory); its probes are dropped\n",
            Blob);
    return;
  }
  if (lwp_num_modules == ModulesCapacity) {
    uint32_t New = ModulesCapacity ? 2 * ModulesCapacity : 64;
    struct lwp_dump_module *P = lwp_state_grow(
        lwp_modules, ModulesCapacity * sizeof(*P), New * sizeof(*P));
    if (!P) {
      pthread_mutex_unlock(&lwp_lock);
      fprintf(stderr, "lwp: out of memory registering a module; its probes "
                      "are dropped\n");
      return;
    }
    lwp_modules = P;
    ModulesCapacity = New;
  }
  struct lwp_dump_module *M = &lwp_modules[lwp_num_modules++];
  M->blob_vaddr = (uint64_t)(uintptr_t)Blob - lwp_images[Image].LoadBias;
  M->image = Image;
  M->first_id = lwp_next_id;
  M->num_regions = H->num_regions;
  /* Before the slots get their IDs: the hash covers the bytes before them,
   * as in the file. */
  M->map_hash = lwp_map_hash(Blob);
  for (uint32_t I = 0; I != H->num_regions; ++I)
    Slots[I].index = lwp_next_id + I;
  __atomic_store_n(&lwp_next_id, lwp_next_id + H->num_regions,
                   __ATOMIC_RELEASE);
  lwp_state_persist_modules(lwp_images, lwp_num_images, lwp_modules,
                            lwp_num_modules, lwp_next_id);
  pthread_mutex_unlock(&lwp_lock);
}
