/*===- lwp_hexagon.h - Freestanding Hexagon runtime helpers ------*- C -*-===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * What test and demo programs linked with liblwp_hexagon.a (and
 * lwp_hexagon_crt0.o) may use besides lwp_dump / lwp_reset
 * (lwp/Runtime/lwp_runtime.h): printf-free output to file descriptors, exit,
 * the counter readers and the libc subset the start-up provides (memcpy,
 * memset, memmove, memcmp, strlen, expf, malloc, calloc, realloc, free,
 * aligned_alloc, posix_memalign; declared here because the freestanding
 * target has no C library headers).
 *
 * Module registration (__lwp_register_module) is declared in
 * lwp/Runtime/MapFormat.h; exit, _exit, environ and the exit hooks in
 * lwp_hexagon_process.h (included).
 *
 * Only for the freestanding qemu-hexagon environment: a static, single-thread
 * Linux user program started by lwp_hexagon_crt0.o.
 */
#ifndef LWP_RUNTIME_HEXAGON_H
#define LWP_RUNTIME_HEXAGON_H

#include "lwp_hexagon_process.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the NUL-terminated string \p s to file descriptor \p fd (1 stdout,
 *  2 stderr). Errors are ignored. */
void lwp_hex_puts(int fd, const char *s);

/** Writes \p value in decimal (with a leading '-' when negative) to \p fd. */
void lwp_hex_put_dec(int fd, int64_t value);

/** Writes \p value in decimal to \p fd. */
void lwp_hex_put_udec(int fd, uint64_t value);

/** Writes \p value as "0x" and lower-case hex digits, no leading zeros. */
void lwp_hex_put_hex(int fd, uint64_t value);

/** Writes the one character \p c to \p fd. */
void lwp_hex_put_char(int fd, char c);

/** Writes the dump as exit does ($LWP_OUTPUT, default "lwp.dump"; an empty
 *  LWP_OUTPUT writes none), once per process (later calls do nothing); on
 *  failure prints "lwp: cannot write the dump to PATH" on stderr. The
 *  runtime registers it at start-up as an exit hook (lwp_hexagon_process.h)
 *  for exit, after the atexit handlers, the destructors and the C library's
 *  stdio clean-up, and for a signal that ends the process (abort). */
void lwp_hex_dump_at_exit(void);

/** The counter the handlers record (enum lwp_dump_counter): 3
 *  (LWP_COUNTER_PCYCLES) when UPCYCLE moves, else 4 (QEMU packets).
 *  Decided once at start-up. */
unsigned lwp_hex_counter_kind(void);

/** The current value of that counter (UPCYCLE, or QEMU's c20 zero-extended). */
uint64_t lwp_hex_read_counter(void);

/** UPCYCLE (c15:14); 0 under QEMU 7.2. */
uint64_t lwp_hex_read_upcycle(void);

/** QEMU's packet counter c20 (reserved on hardware: call it only when
 *  lwp_hex_counter_kind() == 4). */
uint64_t lwp_hex_read_c20(void);

/** The counter ticks of one empty start/end probe pair as read, calibrated
 *  at start-up without compensation (the dump header's probe_pair_cost
 *  with LWP_COMPENSATE=0; a compensated dump holds what is left of it,
 *  0 under QEMU). */
uint32_t lwp_hex_probe_pair_cost(void);

/** The counter ticks an empty pair nested in a region adds to that region
 *  as read, calibrated at start-up without compensation (the dump header's
 *  probe_nested_cost with LWP_COMPENSATE=0). */
uint32_t lwp_hex_probe_nested_cost(void);

/** The counter ticks one probe takes (its call packet and handler) that the
 *  replay takes out of every later counter value: half the nested pair
 *  cost (6 QEMU packets); 0 with LWP_COMPENSATE=0. */
uint32_t lwp_hex_probe_cost(void);

/** Instances open now on the shadow stack (0 outside every region; starts
 *  that found the stack full are not on it). */
uint32_t lwp_hex_stack_depth(void);

/** Exact executions of region \p id so far (start probes seen), looked up
 *  through the module table; 0 for an ID no registered module has (ID 0,
 *  IDs at or above lwp_hex_num_ids()). */
uint64_t lwp_hex_count(uint32_t id);

/** The ID the next registered region would get: one more than the largest
 *  region ID so far (1 before any module registered; the dump's num_ids). */
uint32_t lwp_hex_num_ids(void);

/** Modules registered so far (__lwp_register_module calls that gave IDs). */
uint32_t lwp_hex_num_modules(void);

/** Records not stored so far (cap reached, buffer full; every probe of a
 *  slot whose module did not register but a first end probe), exactly. */
uint64_t lwp_hex_dropped(void);

/** Records stored so far. */
uint32_t lwp_hex_num_records(void);

/** For tests: counts \p n more dropped records, as if \p n probes had been
 *  dropped (they count as probes inside the instances open now); the fold
 *  the handlers do once every 2^30 drops then comes sooner. */
void lwp_hex_skip_drops(uint32_t n);

/** For tests: the drops until the drop count reaches the next multiple of
 *  2^30 (the end probe that drops next after it does the fold). */
uint32_t lwp_hex_drops_before_fold(void);

/* From lwp_hexagon_string.c, lwp_hexagon_libm.c and lwp_hexagon_malloc.c
 * (archive members of their own), or from the C library (newlib's, in
 * build/lib/hexagon-libc) when libc.a and libm.a are linked before
 * liblwp_hexagon.a. */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
/** e^x with a relative error below 2e-7 (lwp_hexagon_libm.c); what
 *  llvm.exp.f32 (math.exp, softmax) lowers to. */
float expf(float x);

/** Without the C library: a bump allocator over a static arena
 *  (-DLWP_HEAP_BYTES, default 64 MiB): free() releases nothing; allocation
 *  failure returns NULL. With it: newlib's malloc over brk. lwp_dump called
 *  with instances open takes 192 bytes per open instance from it (a copy of
 *  the slots and the calling-context node their virtual close changes),
 *  once per new maximum depth. */
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void free(void *p);
void *aligned_alloc(size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LWP_RUNTIME_HEXAGON_H */
