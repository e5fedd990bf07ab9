// Without a target option, the module's llvm.target_triple decides.
// RUN: lwp-opt %s --convert-lwp-to-llvm | FileCheck %s
// RUN: sed 's/hexagon-unknown-linux-musl/riscv64-unknown-linux-gnu/' %s | not lwp-opt --convert-lwp-to-llvm 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: llvm.inline_asm has_side_effects "{ r28 = r31; r14 = ##$0; call __lwp_probe_start }"
// BAD: error: convert-lwp-to-llvm: unsupported LWP target triple 'riscv64-unknown-linux-gnu' (supported: hexagon, x86_64, aarch64)
module attributes {llvm.target_triple = "hexagon-unknown-linux-musl", lwp.instrumentation_map = [
  #lwp.region<id = 0, kind = function, function = "f", file = "f.c", line = 1, column = 1>]} {
  func.func @f() {
    lwp.probe_start function 0
    lwp.probe_end function 0
    return
  }
}
