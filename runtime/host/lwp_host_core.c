/*===- lwp_host_core.c - How every copy of the runtime finds the core ----===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * One runtime per process, however many copies the executable and the
 * shared objects carry: each copy carries an ELF note (name "LWP", type 1,
 * lwp_host.c) whose 4-byte descriptor holds the offset from the descriptor
 * to that copy's `struct lwp_core`; every copy uses the core of the first
 * image, in the dynamic linker's load order, that has a compatible one. The
 * public entry points (lwp/Runtime/lwp_runtime.h) call that core.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lwp_host_internal.h"

#include "lwp/Runtime/lwp_runtime.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

const uint8_t *lwp_find_image_note(const struct dl_phdr_info *Info,
                                   const char Name[4], uint32_t Type,
                                   uint32_t *DescSize) {
  for (int I = 0; I != Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) *P = &Info->dlpi_phdr[I];
    if (P->p_type != PT_NOTE)
      continue;
    const uint8_t *Note = (const uint8_t *)(Info->dlpi_addr + P->p_vaddr);
    const uint8_t *End = Note + P->p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const ElfW(Nhdr) *H = (const ElfW(Nhdr) *)Note;
      const uint8_t *NameP = Note + sizeof(*H);
      const uint8_t *Desc = NameP + ((H->n_namesz + 3) & ~3u);
      if (Desc > End || Desc + H->n_descsz > End)
        break;
      if (H->n_type == Type && H->n_namesz == 4 &&
          memcmp(NameP, Name, 4) == 0) {
        *DescSize = H->n_descsz;
        return Desc;
      }
      Note = Desc + ((H->n_descsz + 3) & ~3u);
    }
  }
  return NULL;
}

static struct lwp_core *Core;

struct CoreSearch {
  struct lwp_core *Found;
  int FoundInOwnImage;
};

/* True when \p Info's image holds this file's code. */
static int isOwnImage(const struct dl_phdr_info *Info) {
  uintptr_t Self = (uintptr_t)&lwp_get_core;
  for (int I = 0; I != Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) *P = &Info->dlpi_phdr[I];
    uintptr_t Start = Info->dlpi_addr + P->p_vaddr;
    if (P->p_type == PT_LOAD && Self >= Start && Self - Start < P->p_memsz)
      return 1;
  }
  return 0;
}

static int findCoreInImage(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  struct CoreSearch *Search = Data;
  uint32_t DescSize;
  const uint8_t *Desc = lwp_find_image_note(Info, "LWP", 1, &DescSize);
  if (!Desc || DescSize != 4)
    return 0;
  int32_t Offset;
  memcpy(&Offset, Desc, 4);
  struct lwp_core *C = (struct lwp_core *)(Desc + Offset);
  if (C->magic != LWP_CORE_MAGIC || C->abi != LWP_CORE_ABI)
    return 0;
  Search->Found = C;
  Search->FoundInOwnImage = isOwnImage(Info);
  return 1;
}

/* A core that profiles nothing, for an image whose note cannot be found
 * (never seen: every copy carries one). */
static struct lwp_thread_state *nullSlow(struct lwp_thread_state *S,
                                         uint32_t Id) {
  (void)S;
  (void)Id;
  return NULL;
}
static void nullRegister(void *Blob) { (void)Blob; }
static int nullDump(const char *Path) {
  (void)Path;
  return -1;
}
static void nullReset(void) {}
static uint64_t nullCap(void) { return 0; }
static struct lwp_core NullCore = {LWP_CORE_MAGIC, LWP_CORE_ABI, nullSlow,
                                   nullRegister,   nullDump,     nullReset,
                                   nullCap};

struct lwp_core *lwp_get_core(void) {
  struct lwp_core *C = __atomic_load_n(&Core, __ATOMIC_ACQUIRE);
  if (C)
    return C;
  struct CoreSearch Search = {NULL, 0};
  dl_iterate_phdr(findCoreInImage, &Search);
  C = Search.Found ? Search.Found : &NullCore;
  if (Search.FoundInOwnImage) {
    Dl_info Info;
    if (dladdr((void *)&lwp_get_core, &Info) && Info.dli_fname &&
        *Info.dli_fname)
      dlopen(Info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  }
  lwp_cap = C->cap();
  __atomic_store_n(&Core, C, __ATOMIC_RELEASE);
  return C;
}

/* The entry points every copy exports call the core. */

__attribute__((visibility("default"))) void __lwp_register_module(void *Blob) {
  lwp_get_core()->register_module(Blob);
}

int lwp_dump(const char *Path) { return lwp_get_core()->dump(Path); }

void lwp_reset(void) { lwp_get_core()->reset(); }
