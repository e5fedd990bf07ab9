//===- LWPOps.td - lwp probe operations -----------------------*- tablegen -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_DIALECT_LWPOPS_TD
#define LWP_DIALECT_LWPOPS_TD

include "lwp/Dialect/LWPBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Probes read and write a resource of their own (the profile buffers), so no
// canonicalization, CSE, DCE, hoisting or sinking deletes, merges or moves
// them, while they claim no effect on the program's memory.
def LWP_ProbeResource : Resource<"::lwp::ProbeResource">;
defvar LWP_ProbeEffects =
    MemoryEffects<[MemRead<LWP_ProbeResource>, MemWrite<LWP_ProbeResource>]>;

class LWP_ProbeOp<string mnemonic>
    : Op<LWP_Dialect, mnemonic, [LWP_ProbeEffects]> {
  let arguments = (ins LWP_RegionKindAttr:$kind,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$id);
  let assemblyFormat = "custom<ProbeKind>($kind) $id attr-dict";
  let hasVerifier = 1;
}

def LWP_ProbeStartOp : LWP_ProbeOp<"probe_start"> {
  let summary = "start probe of a profiled region";
  let description = [{
    Marks the start of the region with ID `id` (0 to 2^31-1; bit 31 of the
    handler's ID word is left to the target lowering). A loop region's start
    stands right before its loop op, and its `lwp.probe_end` follows in the
    same block with every probe pair between them properly nested. An
    operator region's probes bracket, in the same way, the ops that one
    structured op (e.g. `linalg.matmul`) was lowered to. A function
    region's start stands in the entry block of the function body.

    ```mlir
    lwp.probe_start loop 3
    scf.for %i = %c0 to %c8 step %c1 { ... }
    lwp.probe_end loop 3
    ```
  }];
}

def LWP_ProbeEndOp : LWP_ProbeOp<"probe_end"> {
  let summary = "end probe of a profiled region";
  let description = [{
    Marks the end of the region with ID `id`. A loop or operator region's
    end follows its `lwp.probe_start` in the same block, properly nested. A function region's
    end stands in a block of the function body that ends in a return.
  }];
}

#endif // LWP_DIALECT_LWPOPS_TD
