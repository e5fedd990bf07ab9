/*===- hexagon_journey.c - Packets a probe costs the whole run ------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Benchmark (not a test) of utils/bench/hexagon_probe_cost.sh: the run time a
 * probe costs on Hexagon, the whole journey (handler, the journal's replays,
 * the folds, the dump), against an uninstrumented twin of the same source.
 * Built twice from this file: with the LWP pass plugin at -stats-level=40
 * (function regions) and -DLWP_JOURNEY_INSTRUMENTED, and without either.
 * Both read QEMU's packet counter c20 around the workload; the instrumented
 * build also writes its dump (lwp_dump) inside the measured span, so the
 * difference of the two spans is everything the probes cost.
 *
 *   qemu-hexagon hexagon_journey WORKLOAD CALLS [nodump]
 *     WORKLOAD: flat   a one-add function, one region a call (2 probes)
 *               nested a function that calls a one-add function (4 probes)
 *               deep   a chain of 8 functions, the last one adds (16 probes)
 *     nodump: no dump in the span (the journal is replayed)
 *     prints "span <packets>" and "probes <probes in the span>"; the
 *     instrumented build also "in_region <packets of 4 pairs>" (the handler
 *     and the call packet, as test/Runtime/Hexagon/packets.c measures it).
 *
 * Run with LWP_OUTPUT= (the instrumented build then writes its dump to
 * the path -DLWP_JOURNEY_DUMP, default "journey.dump", inside the span, and
 * none at exit).
 */
#include "lwp/Runtime/lwp_runtime.h"
#include "lwp_hexagon.h"

#ifdef LWP_JOURNEY_INSTRUMENTED
#include "lwp_hexagon_measure.h"
#ifndef LWP_JOURNEY_DUMP
#define LWP_JOURNEY_DUMP "journey.dump"
#endif
#endif

#define NOINLINE __attribute__((noinline))

NOINLINE int add1(int X) { return X + 1; }

NOINLINE int outer(int X) { return add1(X) ^ 1; }

NOINLINE int deep1(int X) { return X + 1; }
NOINLINE int deep2(int X) { return deep1(X) + 1; }
NOINLINE int deep3(int X) { return deep2(X) + 1; }
NOINLINE int deep4(int X) { return deep3(X) + 1; }
NOINLINE int deep5(int X) { return deep4(X) + 1; }
NOINLINE int deep6(int X) { return deep5(X) + 1; }
NOINLINE int deep7(int X) { return deep6(X) + 1; }
NOINLINE int deep8(int X) { return deep7(X) + 1; }

static volatile int Sink;

static int equals(const char *A, const char *B) {
  while (*A && *A == *B)
    ++A, ++B;
  return *A == *B;
}

static unsigned parse(const char *S) {
  unsigned V = 0;
  for (; *S >= '0' && *S <= '9'; ++S)
    V = V * 10 + (unsigned)(*S - '0');
  return V;
}

int main(int Argc, char **Argv) {
  if (Argc < 3 || Argc > 4 || lwp_hex_counter_kind() != 4) {
    lwp_hex_puts(2, "usage: qemu-hexagon hexagon_journey flat|nested|deep "
                    "CALLS [nodump] (needs QEMU's packet counter)\n");
    return 1;
  }
  unsigned Calls = parse(Argv[2]);
  unsigned Probes;
  int (*Fn)(int);
  if (equals(Argv[1], "flat"))
    Fn = add1, Probes = 2;
  else if (equals(Argv[1], "nested"))
    Fn = outer, Probes = 4;
  else if (equals(Argv[1], "deep"))
    Fn = deep8, Probes = 16;
  else {
    lwp_hex_puts(2, "hexagon_journey: unknown workload\n");
    return 1;
  }
  /* The calls through a volatile pointer: the same call in both builds. */
  int (*volatile Call)(int) = Fn;
  int (*F)(int) = Call;
  unsigned Before = (unsigned)lwp_hex_read_c20();
  int X = 0;
  for (unsigned I = 0; I != Calls; ++I)
    X = F(X);
#ifdef LWP_JOURNEY_INSTRUMENTED
  /* nodump: the span ends before the dump (lwp_hex_num_records replays
   * what the journal holds). */
  if (Argc == 4)
    Sink = (int)lwp_hex_num_records();
  else if (lwp_dump(LWP_JOURNEY_DUMP) != 0)
    lwp_hex_puts(2, "hexagon_journey: cannot write the dump\n");
#endif
  unsigned After = (unsigned)lwp_hex_read_c20();
  Sink = X;
  lwp_hex_puts(1, "span ");
  lwp_hex_put_udec(1, After - Before);
  lwp_hex_puts(1, "\nprobes ");
  lwp_hex_put_udec(1, (uint64_t)Calls * Probes);
  lwp_hex_put_char(1, '\n');
#ifdef LWP_JOURNEY_INSTRUMENTED
  /* The handler inside the measured region: 4 pairs, the least of 8 runs
   * (a run whose probe fills the journal pays the replay). */
  unsigned Base = LWP_MEASURE(""), Best = ~0u;
  for (int I = 0; I != 8; ++I) {
    unsigned P = LWP_MEASURE(LWP_START(1) LWP_END(1) LWP_START(1) LWP_END(1)
                                 LWP_START(1) LWP_END(1) LWP_START(1)
                                     LWP_END(1)) -
                 Base;
    Best = P < Best ? P : Best;
  }
  lwp_hex_puts(1, "in_region ");
  lwp_hex_put_udec(1, Best);
  lwp_hex_put_char(1, '\n');
#endif
  return 0;
}
