//===- Passes.td - LWP MLIR passes ----------------------------*- tablegen -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_INSTRUMENT_PASSES_TD
#define LWP_INSTRUMENT_PASSES_TD

include "mlir/Pass/PassBase.td"

def LWPInstrument : Pass<"lwp-instrument", "::mlir::ModuleOp"> {
  let summary = "Wrap functions and loops in lwp profile probes";
  let description = [{
    Finds every function that lowers to code (func.func, llvm.func; not
    transform.named_sequence and other symbol-only ops) and every loop (any
    op with LoopLikeOpInterface:
    scf.for, scf.while, scf.parallel, scf.forall, affine.for,
    affine.parallel, wherever it is nested), computes each loop's depth and
    height, selects regions by the options below (the one selection policy
    shared with the LLVM pass), gives each selected region a dense,
    deterministic module-local ID (0, 1, ...), and wraps it in `lwp.probe_start` /
    `lwp.probe_end`: a function region at entry and before every return, a
    loop region right before and right after its loop op. Loops nested in
    parallel loops are instrumented like any other (with a threaded
    lowering, each thread records its own instances). From stats level 70,
    every operator that lwp-mark-operators tagged before the lowering gets
    an operator region around the ops it became, and every region lists the
    operators it holds.

    With `lwp-instruction-threshold=N` (after XRay's
    -fxray-instruction-threshold), a function whose body holds fewer than N
    ops (every op nested in it, terminators included) and no selected loop
    gets no function region; the module then also carries
    `lwp.instruction_threshold` and `lwp.small_functions` (the number
    skipped), which the lowering writes into the map blob.

    The instrumentation map is attached to the module as
    `lwp.instrumentation_map` and, with `map-file`, written as JSON
    (docs/instrumentation-map.md). Below stats level 40 the IR is left as
    it is. A module that already carries a map is refused.
  }];
  let dependentDialects = ["::lwp::LWPDialect"];
  let options = [
    Option<"statsLevel", "stats-level", "int", "70",
           "< 40 nothing; >= 40 function regions; >= 70 loop regions by "
           "max-loop-depth and lwp-min-loop-height; >= 100 every loop with "
           "height >= lwp-min-loop-height">,
    Option<"maxLoopDepth", "max-loop-depth", "unsigned", "0",
           "Deepest loop depth instrumented (0: outermost loops only)">,
    Option<"minLoopHeight", "lwp-min-loop-height", "unsigned", "0",
           "Skip loops whose height is below this (1 keeps probes out of "
           "innermost loops)">,
    Option<"instrumentSiblings", "lwp-instrument-siblings", "bool", "false",
           "Also instrument loops deeper than max-loop-depth that have "
           "siblings">,
    Option<"noFunctionRegions", "lwp-no-function-regions", "bool", "false",
           "Instrument loops only, no function regions">,
    Option<"functionFilter", "lwp-function-filter", "std::string", "",
           "Instrument only functions whose name matches this regex">,
    Option<"instructionThreshold", "lwp-instruction-threshold", "unsigned",
           "0",
           "No function region for functions with fewer ops in their body "
           "than this that hold no selected loop (0: every function)">,
    Option<"mapFile", "map-file", "std::string", "",
           "Write the instrumentation map as JSON to this path ('-' for "
           "stdout)">,
  ];
}

def LWPMarkOperators : Pass<"lwp-mark-operators", "::mlir::ModuleOp"> {
  let summary = "Tag structured ops so that their loops are known after "
                "lowering";
  let description = [{
    Run before linalg is lowered (lwp-opt and lwp-run put it first when the
    profiler flags are given). Gives every structured operator (every linalg
    named or generic op, and every op that carries the `lwp.operator`
    attribute: a string names it, a unit attribute does not) a location
    that carries an operator tag: the op's name, its instance in the module
    and the model's name for it (the `lwp.operator` string, else the first
    NameLoc in its location). The ops of its body get the tag too, marked as
    body ops. Bufferization, the lowering to loops, tiling and fusion keep
    locations, so lwp-instrument later finds which loops each operator
    became (operator regions) and which operators each nest holds. Nothing
    else changes; running it twice tags nothing twice.
  }];
}

def LWPPrintMap : Pass<"lwp-print-map", "::mlir::ModuleOp"> {
  let summary = "Print the module's instrumentation map as a table";
  let description = [{
    Prints the `lwp.instrumentation_map` of the module to stdout, one region
    a row: ID, kind, function, depth, height, parent ID and source location
    ("-" where a value is absent). The IR is not changed.
  }];
  let dependentDialects = ["::lwp::LWPDialect"];
}

#endif // LWP_INSTRUMENT_PASSES_TD
