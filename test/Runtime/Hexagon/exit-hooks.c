// The exit hooks of the process layer (lwp_hexagon_process.h, issue 31):
// the runtime's dump is the first hook (registered at start-up, for exit and
// for signals); the program's hooks run latest first, each once, a hook that
// calls exit goes on with the ones left, the table holds 8. With the
// argument "signal", lwp_hex_run_exit_hooks(LWP_HEX_AT_SIGNAL) (what the C
// library's _kill runs before abort's signal) runs the signal hooks alone:
// the dump is written there, not again at exit, and the room they leave is
// taken again.
//
// RUN: %hexagon_cc -c %s -o %t.o
// RUN: %hexagon_link %t.o -o %t.elf
// RUN: rm -f %t.dump %t.sig.dump
// RUN: env LWP_OUTPUT=%t.dump sh -c '%qemu_hexagon %t.elf; echo status $?' | FileCheck %s
// RUN: %dumpdump %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: env LWP_OUTPUT=%t.sig.dump sh -c '%qemu_hexagon %t.elf signal; echo status $?' | FileCheck %s --check-prefix=SIG
// RUN: %dumpdump %t.sig.dump | FileCheck %s --check-prefix=DUMP
// (The signal variant runs the region again after the signal hooks: its
// dump, written by them, still counts 1.)
//
// CHECK:      invalid: -1 -1 -1
// CHECK-NEXT: room 3
// CHECK-NEXT: main returns 3
// CHECK-NEXT: F
// CHECK-NEXT: F
// CHECK-NEXT: F
// CHECK-NEXT: C calls exit(9)
// CHECK-NEXT: B
// CHECK-NEXT: A
// CHECK-NEXT: status 9
//
// SIG:      invalid: -1 -1 -1
// SIG-NEXT: room 3
// SIG-NEXT: S
// SIG-NEXT: B
// SIG-NEXT: after the signal hooks: dump written
// SIG-NEXT: D registered 0
// SIG-NEXT: main returns 3
// SIG-NEXT: D
// SIG-NEXT: F
// SIG-NEXT: F
// SIG-NEXT: F
// SIG-NEXT: C calls exit(9)
// SIG-NEXT: A
// SIG-NEXT: status 9
//
// DUMP:     count 1 1
// DUMP-NOT: count
#include "lwp_hexagon.h"
#include "lwp_hexagon_test_module.h"

LWP_TEST_MODULE(Module, 1)
#define PROBE(Kind, K) LWP_TEST_PROBE(Kind, &Module.Slots[(K) - 1])

static void say(const char *S) {
  lwp_hex_puts(1, S);
  lwp_hex_puts(1, "\n");
}

static void hookA(void) { say("A"); }
static void hookB(void) { say("B"); }
static void hookS(void) { say("S"); }
static void hookD(void) { say("D"); }
static void hookF(void) { say("F"); }
static void hookC(void) {
  say("C calls exit(9)");
  exit(9);
}

__attribute__((noinline)) static void region(void) {
  volatile int Frame = 0;
  PROBE(start, 1);
  PROBE(end, 1);
  (void)Frame;
}

int main(int Argc, char **Argv) {
  region();
  lwp_hex_puts(1, "invalid: ");
  lwp_hex_put_dec(1, lwp_hex_exit_hook(0, LWP_HEX_AT_EXIT));
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_dec(1, lwp_hex_exit_hook(hookA, 0));
  lwp_hex_put_char(1, ' ');
  lwp_hex_put_dec(1, lwp_hex_exit_hook(hookA, 4));
  lwp_hex_put_char(1, '\n');
  lwp_hex_exit_hook(hookA, LWP_HEX_AT_EXIT);
  lwp_hex_exit_hook(hookB, LWP_HEX_AT_EXIT | LWP_HEX_AT_SIGNAL);
  lwp_hex_exit_hook(hookS, LWP_HEX_AT_SIGNAL);
  lwp_hex_exit_hook(hookC, LWP_HEX_AT_EXIT);
  // The dump and the four above: room for three more.
  int Room = 0;
  while (!lwp_hex_exit_hook(hookF, LWP_HEX_AT_EXIT))
    ++Room;
  lwp_hex_puts(1, "room ");
  lwp_hex_put_dec(1, Room);
  lwp_hex_put_char(1, '\n');
  if (Argc > 1 && Argv[1][0] == 's') {
    lwp_hex_run_exit_hooks(LWP_HEX_AT_SIGNAL);
    // The dump was written by the signal hooks: not this second execution.
    region();
    say("after the signal hooks: dump written");
    lwp_hex_puts(1, "D registered ");
    lwp_hex_put_dec(1, lwp_hex_exit_hook(hookD, LWP_HEX_AT_EXIT));
    lwp_hex_put_char(1, '\n');
  }
  say("main returns 3");
  return 3;
}
