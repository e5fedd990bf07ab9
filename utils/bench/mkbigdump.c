/*===- mkbigdump.c - Synthetic LWP dumps and XRay logs of N records --------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Writes the inputs of the report-throughput benchmark (streamed through a
 * 1 MiB stdio buffer, so any size fits in constant memory):
 *
 *   mkbigdump lwp N OUT.dump OUT.map.json [RECSIZE]
 *     an LWP dump (docs/dump-format.md, version 1, x86-64, TSC, one thread)
 *     of N records (N rounded down to a multiple of 8) of RECSIZE bytes (24,
 *     the host layout, or 16), and the JSON map (lwp-report --map-json) of
 *     its 64 regions: 16 functions, each with a loop nest of depth 0..2.
 *     Records: repeated instances of "f { L0 { L1 { L2 } } }" over the 16
 *     functions, properly nested, cycles increasing; cap = 2^32-1 so nothing
 *     is extrapolated and every record is matched. Counts are exact.
 *
 *   mkbigdump lwp2 N OUT.dump OUT.map.json
 *     the same records as a runtime wrote them before issue 21: version 2,
 *     24-byte records with each instance's depth (1: the function), the
 *     exact figures of every region (totals, self, nested, children, outer)
 *     and the thread's top-level figures, all computed from the records.
 *
 *   mkbigdump lwp3 N OUT.dump OUT.map.json
 *     the same as a runtime writes it today: version 3, version 2 and the
 *     checksum of every byte (lwp_dump_hasher of runtime/common, which this
 *     file is built with: see the build line below).
 *
 *   mkbigdump tvm N OUT.json LOAD F0 F1 ... F15
 *     Apache TVM's lwp.json of N entries (N rounded down to a multiple of
 *     8), laid out as TVM's runtime writes it (prof_utils.cc: one member a
 *     line, then 5000 loop_counts): the same nests as the lwp mode, IDs
 *     4f..4f+3 for function f, entries of function f at return addresses
 *     LOAD + Ff + 4 + 4 x (position in the nest), Ff the address of f's
 *     symbol in the model .so (at least 32 bytes long). TVM's
 *     post-processor and lwp-report --tvm-json both read it.
 *
 *   mkbigdump xray N OUT.log FUNC_A FUNC_B
 *     an LLVM XRay basic-mode ("naive") log, version 3, of N events: N/4
 *     instances of "enter A, enter B, exit B, exit A" (function IDs of the
 *     binary given to llvm-xray -instr_map), 32-byte header + 32-byte
 *     records, the layout xray-basic writes (checked against a real log).
 *
 * Build: clang-22 -O2 -Iinclude -Iruntime/common -o mkbigdump
 *        utils/bench/mkbigdump.c runtime/common/lwp_dump_writer.c
 */
#include "lwp_dump_writer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FUNCS = 16, DEPTH = 3, REGIONS = FUNCS * (DEPTH + 1) };

/* The checksum of a version 3 dump, while one is written. */
static struct lwp_dump_hasher *Hashing;

static void put(FILE *F, const void *P, size_t N) {
  if (Hashing)
    lwp_dump_hasher_update(Hashing, P, N);
  if (fwrite(P, 1, N, F) != N) {
    perror("mkbigdump: write");
    exit(1);
  }
}
static void u16(FILE *F, uint16_t V) { put(F, &V, 2); }
static void u32(FILE *F, uint32_t V) { put(F, &V, 4); }
static void u64(FILE *F, uint64_t V) { put(F, &V, 8); }

/* The records of instance I of the nest: the 2 * (DEPTH + 1) counter values
 * (starts outermost first, then ends innermost first) continue *Cycles. */
static void nest(uint64_t *Cycles, uint32_t *Rng, uint64_t Out[2 * (DEPTH + 1)]) {
  for (int K = 0; K != 2 * (DEPTH + 1); ++K) {
    *Rng = *Rng * 1664525u + 1013904223u;
    *Cycles += 10 + (*Rng >> 24);
    Out[K] = *Cycles;
  }
}

static int lwp(uint64_t N, const char *Out, const char *Map, unsigned RecSize,
               unsigned Version) {
  /* One instance of a function nest: 2 * (DEPTH + 1) = 8 records. */
  uint64_t Instances = N / (2 * (DEPTH + 1));
  FILE *F = fopen(Out, "wb");
  if (!F) {
    perror(Out);
    return 1;
  }
  setvbuf(F, NULL, _IOFBF, 1 << 20);
  /* Versions 2 and 3: the exact figures come first, so a dry run of the records
   * computes them (the records are a pure function of the instance number). */
  uint64_t Total[REGIONS] = {0}, Self[REGIONS] = {0}, TopCycles = 0;
  if (Version >= 2) {
    uint64_t Cycles = 1000, C[2 * (DEPTH + 1)];
    uint32_t Rng = 12345;
    for (uint64_t I = 0; I != Instances; ++I) {
      unsigned Base = (unsigned)(I % FUNCS) * (DEPTH + 1);
      nest(&Cycles, &Rng, C);
      for (int L = 0; L <= DEPTH; ++L) {
        uint64_t Incl = C[2 * (DEPTH + 1) - 1 - L] - C[L];
        uint64_t Child =
            L < DEPTH ? C[2 * (DEPTH + 1) - 2 - L] - C[L + 1] : 0;
        Total[Base + L] += Incl;
        Self[Base + L] += Incl - Child;
        if (L == 0)
          TopCycles += Incl;
      }
    }
  }
  struct lwp_dump_hasher Hash;
  lwp_dump_hasher_init(&Hash);
  if (Version >= 3)
    Hashing = &Hash;
  put(F, "LWPDUMP", 8);
  u32(F, Version);
  u32(F, Version >= 2 ? 80 : 64); /* header_size */
  u16(F, 1);           /* x86-64 */
  u16(F, 1);           /* TSC */
  u32(F, RecSize);
  u64(F, 2500000000u); /* counter_hz */
  /* Version 2: ID 0 is never a region (the runtime's IDs start at 1), so
   * region r has ID r + 1 there and the table an empty entry 0. */
  unsigned IdBase = Version >= 2;
  u32(F, REGIONS + IdBase); /* num_ids */
  u32(F, UINT32_MAX);  /* cap */
  u64(F, 0);           /* dropped */
  u32(F, 0);           /* num_images */
  u32(F, 1);           /* num_threads */
  u32(F, 0);           /* probe_pair_cost */
  u32(F, 0);           /* probe_nested_cost */
  if (Version >= 2) {
    u32(F, 0); /* num_modules */
    u32(F, 1); /* flags: LWP_DUMP_FLAG_FIGURES */
    u64(F, 4321); /* process_id */
  }
  if (IdBase)
    for (int K = 0; K != 8; ++K)
      u64(F, 0);
  for (unsigned Id = 0; Id != REGIONS; ++Id) { /* counts (v1), regions (v2) */
    unsigned L = Id % (DEPTH + 1);
    uint64_t Count =
        Instances / FUNCS + ((Id / (DEPTH + 1)) < Instances % FUNCS);
    u64(F, Count);
    if (Version >= 2) {
      u64(F, Total[Id]);
      u64(F, Self[Id]);
      u64(F, Count * 2 * (DEPTH - L)); /* nested */
      u64(F, L < DEPTH ? Count : 0);   /* children */
      u64(F, Count);                   /* outer */
      u64(F, 0);                       /* unwound */
      u64(F, 0);
    }
  }
  u64(F, 1234);                              /* thread id */
  u64(F, Instances * 2 * (DEPTH + 1));       /* num_records */
  if (Version >= 2) {
    u64(F, TopCycles);
    u64(F, Instances);
    u64(F, Instances * 2 * DEPTH); /* top_nested */
    u64(F, 0);
  }
  uint64_t Cycles = 1000, C[2 * (DEPTH + 1)];
  uint32_t Rng = 12345;
  for (uint64_t I = 0; I != Instances; ++I) {
    unsigned Base = (unsigned)(I % FUNCS) * (DEPTH + 1);
    nest(&Cycles, &Rng, C);
    for (int Pass = 0; Pass != 2; ++Pass)
      for (int L = 0; L <= DEPTH; ++L) {
        unsigned Id = Pass == 0 ? Base + L : Base + DEPTH - L;
        uint32_t Word = (Id + IdBase) | (Pass ? 0x80000000u : 0);
        uint64_t Counter = C[Pass * (DEPTH + 1) + L];
        if (RecSize == 24) {
          u64(F, 0x401000 + Id * 16 + Pass * 8); /* site */
          u32(F, Word);
          /* depth (v2): 1 for the function, as the runtime counts */
          u32(F, Version >= 2 ? (unsigned)(Id - Base) + 1 : 0);
        } else {
          u32(F, 0x401000 + Id * 16 + Pass * 8);
          u32(F, Word);
        }
        u64(F, Counter);
      }
  }
  if (Hashing) {
    Hashing = NULL;
    u64(F, lwp_dump_hasher_final(&Hash)); /* lwp_dump_trailer */
  }
  if (fclose(F)) {
    perror(Out);
    return 1;
  }
  FILE *M = fopen(Map, "w");
  if (!M) {
    perror(Map);
    return 1;
  }
  fprintf(M, "{\"version\": 1, \"regions\": [\n");
  for (unsigned Id = 0; Id != REGIONS; ++Id) {
    unsigned Fn = Id / (DEPTH + 1), L = Id % (DEPTH + 1);
    if (L == 0)
      fprintf(M, "{\"id\": %u, \"kind\": \"function\", \"function\": \"f%u\", "
                 "\"depth\": null, \"height\": null, \"parent\": null, "
                 "\"file\": \"big.c\", \"line\": %u, \"column\": 1}",
              Id + IdBase, Fn, Id + 1);
    else
      fprintf(M, "{\"id\": %u, \"kind\": \"loop\", \"function\": \"f%u\", "
                 "\"depth\": %u, \"height\": %u, \"parent\": %u, "
                 "\"file\": \"big.c\", \"line\": %u, \"column\": 3}",
              Id + IdBase, Fn, L - 1, DEPTH - L, Id - 1 + IdBase, Id + 1);
    fprintf(M, Id + 1 == REGIONS ? "\n" : ",\n");
  }
  fprintf(M, "]}\n");
  fclose(M);
  return 0;
}

static int tvm(uint64_t N, const char *Out, uint64_t Load,
               const uint64_t *Funcs) {
  uint64_t Instances = N / (2 * (DEPTH + 1));
  FILE *F = fopen(Out, "w");
  if (!F) {
    perror(Out);
    return 1;
  }
  setvbuf(F, NULL, _IOFBF, 1 << 20);
  fprintf(F, "{\n\t\"entries\":[\n");
  uint64_t Cycles = 1000;
  uint32_t Rng = 12345;
  for (uint64_t I = 0; I != Instances; ++I) {
    unsigned Fn = (unsigned)(I % FUNCS), Base = Fn * (DEPTH + 1);
    for (int Pass = 0; Pass != 2; ++Pass)
      for (int L = 0; L <= DEPTH; ++L) {
        int Level = Pass == 0 ? L : DEPTH - L;
        Rng = Rng * 1664525u + 1013904223u;
        Cycles += 10 + (Rng >> 24);
        fprintf(F,
                "\t{\n\t\t\"ret\":%llu,\n\t\t\"id\":%u,\n\t\t\"cyc\":%llu\n"
                "\t}%s",
                (unsigned long long)(Load + Funcs[Fn] + 4 + 4 * Level +
                                     16 * Pass),
                Base + Level, (unsigned long long)Cycles,
                I + 1 == Instances && Pass == 1 && L == DEPTH ? "\n" : ",\n");
      }
  }
  fprintf(F, "\t],\n\n\t\"loop_counts\":[\n");
  for (unsigned Id = 0; Id != 5000; ++Id) {
    uint64_t Count = 0;
    if (Id < REGIONS)
      Count = Instances / FUNCS + ((Id / (DEPTH + 1)) < Instances % FUNCS);
    fprintf(F, "\t\t%llu%s", (unsigned long long)Count,
            Id + 1 == 5000 ? "\n" : ",\n");
  }
  fprintf(F, "\t]\n}\n");
  return fclose(F) ? 1 : 0;
}

static int xray(uint64_t N, const char *Out, int32_t A, int32_t B) {
  FILE *F = fopen(Out, "wb");
  if (!F) {
    perror(Out);
    return 1;
  }
  setvbuf(F, NULL, _IOFBF, 1 << 20);
  /* XRayFileHeader: version 3, type 0 (naive), ConstantTSC | NonstopTSC,
   * cycle frequency, 16 bytes of free-form data. */
  u16(F, 3);
  u16(F, 0);
  u32(F, 3);
  u64(F, 1000000000u);
  char Pad[16];
  memset(Pad, 0, sizeof(Pad));
  put(F, Pad, 16);
  uint64_t Tsc = 1000;
  int32_t Ids[4] = {A, B, B, A};
  uint8_t Types[4] = {0, 0, 1, 1}; /* entry, entry, exit, exit */
  for (uint64_t I = 0; I != N / 4 * 4; ++I) {
    /* XRayRecord: u16 record type 0, u8 cpu, u8 type, i32 function ID,
     * u64 TSC, u32 thread ID, u32 process ID, 8 bytes padding. */
    u16(F, 0);
    uint8_t Cpu = 0, Ty = Types[I % 4];
    put(F, &Cpu, 1);
    put(F, &Ty, 1);
    u32(F, (uint32_t)Ids[I % 4]);
    Tsc += 17 + (I % 7);
    u64(F, Tsc);
    u32(F, 1234);
    u32(F, 1234);
    u64(F, 0);
  }
  return fclose(F) ? 1 : 0;
}

int main(int Argc, char **Argv) {
  if (Argc >= 5 && !strcmp(Argv[1], "lwp"))
    return lwp(strtoull(Argv[2], 0, 10), Argv[3], Argv[4],
               Argc > 5 ? (unsigned)atoi(Argv[5]) : 24, 1);
  if (Argc == 5 && !strcmp(Argv[1], "lwp2"))
    return lwp(strtoull(Argv[2], 0, 10), Argv[3], Argv[4], 24, 2);
  if (Argc == 5 && !strcmp(Argv[1], "lwp3"))
    return lwp(strtoull(Argv[2], 0, 10), Argv[3], Argv[4], 24, 3);
  if (Argc == 6 && !strcmp(Argv[1], "xray"))
    return xray(strtoull(Argv[2], 0, 10), Argv[3], atoi(Argv[4]),
                atoi(Argv[5]));
  if (Argc == 5 + FUNCS && !strcmp(Argv[1], "tvm")) {
    uint64_t Funcs[FUNCS];
    for (int I = 0; I != FUNCS; ++I)
      Funcs[I] = strtoull(Argv[5 + I], 0, 0);
    return tvm(strtoull(Argv[2], 0, 10), Argv[3], strtoull(Argv[4], 0, 0),
               Funcs);
  }
  fprintf(stderr, "usage: mkbigdump lwp N OUT.dump OUT.map.json [24|16]\n"
                  "       mkbigdump lwp2 N OUT.dump OUT.map.json\n"
                  "       mkbigdump lwp3 N OUT.dump OUT.map.json\n"
                  "       mkbigdump tvm N OUT.json LOAD F0 .. F15\n"
                  "       mkbigdump xray N OUT.log FUNC_A FUNC_B\n");
  return 2;
}
