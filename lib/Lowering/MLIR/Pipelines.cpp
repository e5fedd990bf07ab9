//===- Pipelines.cpp - LWP's named MLIR pass pipelines --------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#include "lwp/Lowering/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct ToLLVMOptions : public PassPipelineOptions<ToLLVMOptions> {
  Option<std::string> Target{
      *this, "target",
      llvm::cl::desc("hexagon, x86_64 or aarch64 (default: from "
                     "llvm.target_triple)"),
      llvm::cl::init("")};
  Option<bool> OpenMP{
      *this, "openmp",
      llvm::cl::desc("Run scf.parallel loops on OpenMP threads "
                     "(convert-scf-to-openmp; link with -fopenmp)"),
      llvm::cl::init(false)};
};

struct ToLoopsOptions : public PassPipelineOptions<ToLoopsOptions> {
  Option<bool> Parallel{
      *this, "parallel",
      llvm::cl::desc("Parallel iterators become scf.parallel loops "
                     "(convert-linalg-to-parallel-loops)"),
      llvm::cl::init(false)};
  Option<bool> ApplyTransforms{
      *this, "apply-transforms",
      llvm::cl::desc("Run the module's transform schedule before erasing it "
                     "(lwp-transform-schedule; false: erase it only)"),
      llvm::cl::init(true)};
  Option<std::string> TransformEntry{
      *this, "transform-entry",
      llvm::cl::desc("The schedule's entry point (a transform.named_sequence; "
                     "default __transform_main)"),
      llvm::cl::init("__transform_main")};
};

/// Appends the textual pipeline \p Text to \p PM; false (with the parser's
/// message on stderr) when a pass in it is not registered.
bool append(OpPassManager &PM, StringRef Text) {
  return succeeded(parsePassPipeline(Text, PM, llvm::errs()));
}
} // namespace

void lwp::registerLWPPipelines() {
  PassPipelineRegistration<ToLoopsOptions>(
      "lwp-linalg-to-loops",
      "Apply and erase the transform schedule, lower TOSA and elementwise "
      "tensor arithmetic to linalg, bufferize (function boundaries, identity "
      "layouts) and lower linalg to scf loops",
      [](OpPassManager &PM, const ToLoopsOptions &Options) {
        // TOSA as frontends emit it, through upstream's own pipelines; ops
        // keep the location, and so the operator tag, of the op they come
        // from. Elementwise arithmetic on tensors becomes linalg.generic,
        // which one-shot bufferization handles, and so do pack and unpack
        // once lowered.
        append(PM, std::string("lwp-transform-schedule{apply=") +
                       (Options.ApplyTransforms ? "true" : "false") +
                       " entry-point=" + Options.TransformEntry +
                       "},tosa-to-linalg-pipeline,func.func(tosa-to-arith,"
                       "tosa-to-tensor,convert-elementwise-to-linalg,"
                       "lwp-lower-pack-unpack),"
                       "one-shot-bufferize{bufferize-function-"
                       "boundaries function-boundary-type-conversion="
                       "identity-layout-map}," +
                       (Options.Parallel ? "convert-linalg-to-parallel-loops"
                                         : "convert-linalg-to-loops") +
                       ",canonicalize");
      });
  PassPipelineRegistration<ToLLVMOptions>(
      "lwp-to-llvm",
      "Lower lwp probes for a target and everything else to the LLVM dialect",
      [](OpPassManager &PM, const ToLLVMOptions &Options) {
        std::string Lower = "convert-lwp-to-llvm";
        if (!Options.Target.empty())
          Lower += "{target=" + Options.Target + "}";
        // With OpenMP, each scf.parallel body becomes an outlined region
        // inside memref.alloca_scope, which must be lowered before its scf
        // loops become blocks (the scope holds one block).
        std::string Parallel = Options.OpenMP
                                   ? ",scf-forall-to-parallel,convert-scf-to-"
                                     "openmp,finalize-memref-to-llvm"
                                   : "";
        // vector.print (upstream tests print with it) becomes loops and
        // calls of the runner utilities (printF32, printOpen ...). Math ops
        // that convert-to-llvm leaves (no LLVM intrinsic: math.erf from
        // ONNX's Erf) become calls of the C library (erff: libm on the
        // host, newlib on Hexagon), and those calls LLVM calls. Masked
        // vector ops (vector.mask, which a transform schedule's
        // vectorize with vector_sizes leaves) become masked transfers
        // and selects first (lower-vector-mask, and the masked reductions
        // of a matmul lower-vector-multi-reduction, as upstream's masked
        // vectorization tests run them); the selects of masks that then
        // remain get a vector condition (lwp-legalize-mask-select: LLVM
        // 22's Hexagon backend crashes on a scalar one).
        append(PM, "func.func(lower-vector-mask,lower-vector-multi-reduction)," + Lower +
                       ",expand-strided-metadata,lower-affine" + Parallel +
                       ",convert-vector-to-scf,convert-scf-to-cf,"
                       "convert-vector-to-llvm,convert-to-llvm,"
                       "convert-math-to-libm,convert-to-llvm,"
                       "reconcile-unrealized-casts,"
                       "llvm.func(lwp-legalize-mask-select)");
      });
}
