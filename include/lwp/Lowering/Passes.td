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

def LegalizeMaskSelect : Pass<"lwp-legalize-mask-select",
                              "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "Give selects of i1 vectors a vector condition (a Hexagon "
                "backend crash)";
  let description = [{
    Rewrites `llvm.select %c, %a, %b` whose condition is one `i1` and whose
    values are vectors of `i1` (masks: lowering a multi-dimensional
    `vector.create_mask`, as masked vectorization leaves, makes them), or
    arrays of them, into selects on the condition splat to the vectors'
    width (element by element for arrays). LLVM 22's Hexagon
    instruction selection crashes on the scalar-condition form (`select i1
    %c, <8 x i1> %a, <8 x i1> zeroinitializer` is enough, and so is one of
    `[4 x <8 x i1>]`); the splat form
    computes the same and selects on every target. Runs in `lwp-to-llvm`
    after the conversion to the LLVM dialect.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // LWP_LOWERING_PASSES_TD
