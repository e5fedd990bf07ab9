//===- Passes.td - LWP MLIR lowering passes -------------------*- tablegen -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_LOWERING_PASSES_TD
#define LWP_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLWPToLLVM : Pass<"convert-lwp-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower lwp probes to the target's handler calls and emit the "
                "instrumentation map section";
  let description = [{
    Replaces every `lwp.probe_start` / `lwp.probe_end` by the cheapest call of
    the target's handler (docs/probe-form.md):

    - `hexagon`: `llvm.hexagon.instrprof.custom(ptr @"__lwp_probe_start",
      i32 id)` (or `__lwp_probe_end`), one packet `{ r0 = #id; call handler }`.
    - `x86_64`, `aarch64`: `llvm.call preserve_allcc @__lwp_probe_start(i32
      id)`, never a tail call, declared `nounwind willreturn` with memory
      effects on inaccessible memory only.

    The module's `lwp.instrumentation_map` becomes a hidden constant in the
    allocated ELF section `lwp_map` (docs/instrumentation-map.md), which the
    linker concatenates across modules and `strip` keeps, listed in
    `@llvm.compiler.used` so that LTO keeps it too; the attribute is removed. Use it beside the standard to-LLVM passes, before or after them.
    Without `target`, the module's `llvm.target_triple` decides; any other
    target is one error that names the supported ones.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"target", "target", "std::string", "",
           "hexagon, x86_64 or aarch64 (default: from llvm.target_triple)">,
  ];
}

#endif // LWP_LOWERING_PASSES_TD
