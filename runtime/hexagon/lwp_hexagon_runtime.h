/*===- lwp_hexagon_runtime.h - Setting the Hexagon runtime up -----*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What the start-up (lwp_hexagon_start.c) hands the runtime
 * (lwp_hexagon_runtime.c) before the program's constructors run. Internal.
 *
 * The handlers (lwp_handler.S) call the runtime when their journal is full
 * (lwp_hex_journal_full), so the runtime does not call the handlers' file:
 * the calibration pairs, which are there, come in here as pointers from the
 * start-up, which calls both (docs/hexagon-runtime.md, "Layers"); the
 * runtime reads the counter with lwp_hexagon_counter.S.
 */
#ifndef LWP_RUNTIME_HEXAGON_RUNTIME_H
#define LWP_RUNTIME_HEXAGON_RUNTIME_H

#include <stdint.h>

/** The runtime's settings, read from the environment by the start-up. */
struct lwp_hex_config {
  /** argv[0] of the process, "" when there is none (the dump's image
   *  name). */
  const char *program_name;
  /** The dump written at exit ($LWP_OUTPUT, default "lwp.dump"); NULL or
   *  "": none. */
  const char *output_path;
  /** The counter the handlers record (enum lwp_dump_counter:
   *  LWP_COUNTER_PCYCLES or LWP_COUNTER_QEMU_PACKETS; the start-up rewrote
   *  the handlers' reads for the second). */
  unsigned counter;
  /** One empty start/end pair of calibration slot 0
   *  (lwp_hex_empty_pair). */
  void (*empty_pair)(void);
  /** An empty pair of calibration slot 1 inside one of slot 0
   *  (lwp_hex_nested_pair). */
  void (*nested_pair)(void);
  /** Nonzero: every journal event through the C replay
   *  (LWP_HEXAGON_REPLAY=general, tests only); 0: lwp_replay.S's common
   *  path first. */
  int general_replay;
  /** Probes journaled between two replays ($LWP_HEXAGON_JOURNAL), in
   *  [1, 2^LWP_JOURNAL_LOG2]. */
  uint32_t journal_events;
  /** Records kept per region ($LWP_CAP, default LWP_CAP), in
   *  [0, 2^31 - 1]. */
  uint32_t cap;
  /** Nodes the calling-context tree may hold, the root included
   *  ($LWP_CCT_NODES), in [1, LWP_CCT_NODES]. */
  uint32_t cct_nodes;
  /** Nonzero: figures in compensated time, each probe's cost taken out
   *  ($LWP_COMPENSATE, default 1); 0: the counter as read, less the
   *  replays. */
  int compensate;
};

/** Sets the runtime up with \p config, once, before any probe of the program
 *  runs: registers the dump at exit with the exit hooks
 *  (lwp_hexagon_process.h: at exit and before a signal ends the process),
 *  calibrates the probe pair costs with the calibration pairs (then, with
 *  compensation, the cost of one probe and what is left of the pair costs
 *  once it is taken out) and empties the state for the cap. */
void lwp_hex_init(const struct lwp_hex_config *config);

#endif /* LWP_RUNTIME_HEXAGON_RUNTIME_H */
