/*===- lwp_hexagon_start.c - Start-up of a Hexagon program ----------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * lwp_hex_start, called by _start (lwp_crt0.S): reads the environment
 * (LWP_OUTPUT, LWP_HEXAGON_COUNTER, LWP_HEXAGON_REPLAY, LWP_HEXAGON_JOURNAL,
 * LWP_CAP, LWP_CCT_NODES, LWP_COMPENSATE), chooses the counter and rewrites the
 * handlers' counter reads for it, sets the runtime up with these settings and
 * the handlers' calibration pairs (lwp_hex_init), runs the program's
 * constructors, calls main and exits with its status.
 *
 * The top layer (docs/hexagon-runtime.md, "Layers"): it calls the handlers
 * (lwp_handler.S), the runtime (lwp_hexagon_runtime.c) and the process's
 * end (lwp_hexagon_process.c); none of them calls it.
 */
#include "lwp/Runtime/DumpFormat.h"
#include "lwp_hexagon.h"
#include "lwp_hexagon_process.h"
#include "lwp_hexagon_runtime.h"
#include "lwp_hexagon_syscall.h"

#include <stddef.h>
#include <stdint.h>

#ifndef LWP_CAP
#define LWP_CAP 100
#endif
/* Nodes of the calling-context tree (lwp_hexagon_runtime.c). */
#ifndef LWP_CCT_NODES
#define LWP_CCT_NODES 16384
#endif
/* log2 of the events the journal holds (lwp_hexagon_runtime.c). */
#ifndef LWP_JOURNAL_LOG2
#define LWP_JOURNAL_LOG2 12
#endif

/* lwp_handler.S: the calibration pairs and the packets of the handlers
 * whose first word reads the counter. */
void lwp_hex_empty_pair(void);
void lwp_hex_nested_pair(void);
extern uint32_t lwp_hex_start_counter_packet[];
extern uint32_t lwp_hex_end_counter_packet[];
extern uint32_t lwp_hex_resume_counter_packet[];

/* Rewrites the handlers' counter read, r15:14 = c15:14, as r14 = c20 (QEMU's
 * packet counter; the high word then holds the site, which the runtime's
 * replay drops):
 * the same instruction class and slot, the word's parse bits kept. Returns
 * 0 on success, -1 when a word is not the expected one or the text cannot
 * be made writable. */
static int patchCounterReads(void) {
  enum {
    Upcycle = 0x680e000eu, /* r15:14 = c15:14, parse bits cleared */
    C20 = 0x6a14000eu,     /* r14 = c20 */
    ParseBits = 0xc000u
  };
  uint32_t *Words[3] = {lwp_hex_start_counter_packet,
                        lwp_hex_end_counter_packet,
                        lwp_hex_resume_counter_packet};
  uintptr_t First = UINTPTR_MAX, Last = 0;
  for (unsigned I = 0; I != 3; ++I) {
    if ((*Words[I] & ~ParseBits) != Upcycle)
      return -1;
    uintptr_t W = (uintptr_t)Words[I];
    First = W < First ? W : First;
    Last = W > Last ? W : Last;
  }
  /* The page size is the target's (QEMU's Hexagon Linux: 64 KiB). */
  uintptr_t Lo = 0, Size = 0;
  for (uintptr_t Page = 4096; Page <= 65536 && !Size; Page <<= 2) {
    Lo = First & ~(Page - 1);
    Size = ((Last + 4 + Page - 1) & ~(Page - 1)) - Lo;
    if (lwp_hex_syscall4(LwpSysMprotect, (long)Lo, (long)Size, 7 /* rwx */, 0) <
        0)
      Size = 0;
  }
  if (!Size)
    return -1;
  /* Before any probe runs; QEMU retranslates code it sees written, so no
   * cache maintenance (hardware, whose UPCYCLE moves, never gets here). */
  for (unsigned I = 0; I != 3; ++I)
    *Words[I] = C20 | (*Words[I] & ParseBits);
  lwp_hex_syscall4(LwpSysMprotect, (long)Lo, (long)Size, 5 /* r-x */, 0);
  return 0;
}

/* Chooses UPCYCLE when it moves, else QEMU's packet counter. */
static uint32_t chooseCounter(void) {
  uint64_t A = lwp_hex_read_upcycle();
  for (volatile unsigned I = 0; I != 1000; ++I)
    ;
  uint64_t B = lwp_hex_read_upcycle();
  return B != A ? LWP_COUNTER_PCYCLES : LWP_COUNTER_QEMU_PACKETS;
}

/* The value of environment variable \p Name, or NULL. */
static const char *getEnv(const char *Name) {
  size_t Len = strlen(Name);
  for (char **E = environ; E && *E; ++E)
    if (!memcmp(*E, Name, Len) && (*E)[Len] == '=')
      return *E + Len + 1;
  return NULL;
}

/* Parses environment variable \p Name (value \p S) as a decimal integer in
 * [\p Min, \p Max]; unset or empty gives \p Default, anything else one
 * warning line (the host runtime's wording) and \p Default. */
static uint32_t parseEnvNumber(const char *Name, const char *S, uint32_t Min,
                               uint32_t Max, uint32_t Default) {
  if (!S || !*S)
    return Default;
  uint64_t V = 0;
  const char *P = S;
  for (; *P >= '0' && *P <= '9' && V <= Max; ++P)
    V = V * 10 + (uint64_t)(*P - '0');
  if (!*P && V >= Min && V <= Max)
    return (uint32_t)V;
  lwp_hex_puts(2, "lwp: ignoring ");
  lwp_hex_puts(2, Name);
  lwp_hex_puts(2, "='");
  lwp_hex_puts(2, S);
  lwp_hex_puts(2, "': not an integer in [");
  lwp_hex_put_udec(2, Min);
  lwp_hex_puts(2, ", ");
  lwp_hex_put_udec(2, Max);
  lwp_hex_puts(2, "]; using ");
  lwp_hex_put_udec(2, Default);
  lwp_hex_puts(2, "\n");
  return Default;
}

/*===----------------------------------------------------------------------===*
 * Constructors of the program
 *===----------------------------------------------------------------------===*/

/* An entry of .preinit_array / .init_array, called as glibc does (musl
 * passes nothing; functions that take no argument ignore them). */
typedef void (*InitFn)(int Argc, char **Argv, char **Envp);

/* Bounds of the arrays; ld.lld defines them in a static link when they are
 * referenced (both equal when the array is empty or absent). */
extern const InitFn __preinit_array_start[]
    __attribute__((weak, visibility("hidden")));
extern const InitFn __preinit_array_end[]
    __attribute__((weak, visibility("hidden")));
extern const InitFn __init_array_start[]
    __attribute__((weak, visibility("hidden")));
extern const InitFn __init_array_end[]
    __attribute__((weak, visibility("hidden")));

/* Runs .preinit_array, then .init_array, in order (the linker sorted
 * .init_array by priority: instrumented modules register from priority 1). */
static void runConstructors(int Argc, char **Argv, char **Envp) {
  for (const InitFn *F = __preinit_array_start; F < __preinit_array_end; ++F)
    (*F)(Argc, Argv, Envp);
  for (const InitFn *F = __init_array_start; F < __init_array_end; ++F)
    (*F)(Argc, Argv, Envp);
}

/*===----------------------------------------------------------------------===*
 * Start-up
 *===----------------------------------------------------------------------===*/

int main(int Argc, char **Argv, char **Envp);

/** Called by _start (lwp_crt0.S) with the initial stack's argc, argv and
 *  envp; does not return (exit with main's status). */
_Noreturn void lwp_hex_start(int Argc, char **Argv, char **Envp);
_Noreturn void lwp_hex_start(int Argc, char **Argv, char **Envp) {
  environ = Envp;
  struct lwp_hex_config Config;
  Config.program_name = Argc > 0 && Argv[0] ? Argv[0] : "";
  const char *Out = getEnv("LWP_OUTPUT");
  Config.output_path = Out ? Out : "lwp.dump";
  unsigned Counter = chooseCounter();
  /* Tests force UPCYCLE under QEMU (it then records 0) to run the handlers'
   * hardware path; nothing forces c20, which is reserved on hardware. */
  const char *Force = getEnv("LWP_HEXAGON_COUNTER");
  if (Force && !memcmp(Force, "upcycle", 8))
    Counter = LWP_COUNTER_PCYCLES;
  if (Counter == LWP_COUNTER_QEMU_PACKETS && patchCounterReads()) {
    lwp_hex_puts(2, "lwp: cannot make the handlers read QEMU's packet "
                    "counter; recording UPCYCLE (0 under QEMU)\n");
    Counter = LWP_COUNTER_PCYCLES;
  }
  Config.counter = Counter;
  Config.empty_pair = lwp_hex_empty_pair;
  Config.nested_pair = lwp_hex_nested_pair;
  /* The replay's common path in assembly unless LWP_HEXAGON_REPLAY=general
   * (test mode: the C replay only; the figures are the same). */
  const char *Replay = getEnv("LWP_HEXAGON_REPLAY");
  Config.general_replay = Replay && !memcmp(Replay, "general", 8);
  if (!Config.general_replay && Replay && *Replay && memcmp(Replay, "fast", 5))
    lwp_hex_puts(2, "lwp: ignoring LWP_HEXAGON_REPLAY: not 'fast' or "
                    "'general'; using fast\n");
  Config.journal_events =
      parseEnvNumber("LWP_HEXAGON_JOURNAL", getEnv("LWP_HEXAGON_JOURNAL"), 1,
                     1u << LWP_JOURNAL_LOG2, 1u << LWP_JOURNAL_LOG2);
  Config.cap =
      parseEnvNumber("LWP_CAP", getEnv("LWP_CAP"), 0, 0x7fffffffu, LWP_CAP);
  Config.cct_nodes = parseEnvNumber("LWP_CCT_NODES", getEnv("LWP_CCT_NODES"), 1,
                                    LWP_CCT_NODES, LWP_CCT_NODES);
  Config.compensate =
      (int)parseEnvNumber("LWP_COMPENSATE", getEnv("LWP_COMPENSATE"), 0, 1, 1);
  lwp_hex_init(&Config);
  runConstructors(Argc, Argv, Envp);
  exit(main(Argc, Argv, Envp));
}
