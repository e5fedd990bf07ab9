//===- Passes.td - LWP MLIR frontend passes -------------------*- tablegen -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// Passes that take MLIR as frontends and upstream tests write it: modules
// that carry a transform schedule, and entry functions written for
// mlir-runner.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_FRONTEND_PASSES_TD
#define LWP_FRONTEND_PASSES_TD

include "mlir/Pass/PassBase.td"

def LWPTransformSchedule : Pass<"lwp-transform-schedule", "::mlir::ModuleOp"> {
  let summary = "Apply the module's transform schedule, then erase it";
  let description = [{
    Upstream tests and frontends tile, fuse and vectorize with a transform
    schedule carried in the payload module: a `transform.named_sequence
    @__transform_main` at module level (the module marked
    `transform.with_named_sequence`) or in a nested module so marked. With
    `apply` (the default) the schedule's entry point runs with the transform
    interpreter on the module, as `-transform-interpreter` does; a failing
    transform is an error at its line of the input. Then every
    transform-dialect op at module level, the nested modules that held only
    the schedule and the `transform.with_named_sequence` attribute are
    erased, so that the module lowers to LLVM IR. With `apply=false` the
    schedule is erased without running.

    A module without transform ops is left unchanged; one with transform
    ops but no entry point named `entry-point` is, with `apply`, a warning
    (the schedule is erased unapplied).
  }];
  let options = [
    Option<"apply", "apply", "bool", "true",
           "run the schedule before erasing it (false: erase it only)">,
    Option<"entryPoint", "entry-point", "std::string", "\"__transform_main\"",
           "name of the schedule's entry named sequence">,
  ];
}

def LWPRunnerEntry : Pass<"lwp-runner-entry", "::mlir::ModuleOp"> {
  let summary = "Make an mlir-runner entry function the program's C main";
  let description = [{
    `mlir-runner` runs an entry function (`-e NAME`, default `main`) that
    takes no arguments and returns nothing, or an i32, i64 or f32 result
    that it prints. A native program needs a C `main` with an exit status.
    This pass gives the module that:

    - `func.func @main()` returning nothing returns i32 0;
    - an entry returning i32, i64 or f32 prints its result as mlir-runner
      does (`printI64` / `printF32`, then `printNewline`, from the runner
      utilities) and the program exits 0;
    - an entry of another name is called from a new `func.func @main() ->
      i32` that does the same.

    A module without the entry function is left unchanged (with several
    modules, one holds it). Errors: an entry with arguments or another
    result type, a `@main` beside an entry of another name, an entry
    `@main` that the module calls.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "the entry function (mlir-runner's -e)">,
  ];
}

def LWPLowerPackUnpack : Pass<"lwp-lower-pack-unpack"> {
  let summary = "Lower linalg.pack and linalg.unpack to ops bufferization "
                "takes";
  let description = [{
    Data-tiling frontends relayout tensors with `linalg.pack` and
    `linalg.unpack`, which one-shot bufferization does not take ("op was not
    bufferized"). This pass rewrites each, on tensors, as upstream's
    `transform.structured.lower_pack` / `lower_unpack` do
    (`linalg::lowerPack`, `linalg::lowerUnPack`): a pack becomes
    `tensor.pad`, `tensor.expand_shape` and `linalg.transpose` (or one
    `tensor.insert_slice` when it only pads), an unpack `linalg.transpose`,
    `tensor.collapse_shape` and `tensor.extract_slice`. The new ops take
    the location of the op they replace, and so its operator tag
    (lwp-mark-operators): their loops are labeled by the pack or unpack the
    user wrote. A pack or unpack that cannot be lowered (dynamic tile
    sizes, say) is left for bufferization to reject at its line.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // LWP_FRONTEND_PASSES_TD
