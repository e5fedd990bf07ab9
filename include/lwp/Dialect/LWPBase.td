//===- LWPBase.td - The lwp dialect, its enums and attributes -*- tablegen -*-//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef LWP_DIALECT_LWPBASE_TD
#define LWP_DIALECT_LWPBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def LWP_Dialect : Dialect {
  let name = "lwp";
  let cppNamespace = "::lwp";
  let summary = "Lightweight loop-level profiling: region probes and the "
                "instrumentation map";
  let description = [{
    The `lwp` dialect marks profiled regions (function bodies and loops) with
    a pair of probes, `lwp.probe_start` and `lwp.probe_end`, that carry the
    region's ID. The `lwp-instrument` pass inserts them and attaches the
    instrumentation map to the module as `lwp.instrumentation_map`, an array
    of `#lwp.region` attributes. A target lowering (convert-lwp-to-llvm)
    later turns every probe into a call of that target's handler.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute that holds the instrumentation map: an
    /// ArrayAttr of RegionInfoAttr in ID order.
    static constexpr ::llvm::StringLiteral getInstrumentationMapAttrName() {
      return ::llvm::StringLiteral("lwp.instrumentation_map");
    }
    /// Name of the module attribute that holds lwp-instrument's
    /// lwp-instruction-threshold (an i32; absent when 0).
    static constexpr ::llvm::StringLiteral getInstructionThresholdAttrName() {
      return ::llvm::StringLiteral("lwp.instruction_threshold");
    }
    /// Name of the module attribute that counts the functions whose region
    /// lwp-instruction-threshold skipped (an i32; with the threshold).
    static constexpr ::llvm::StringLiteral getSmallFunctionsAttrName() {
      return ::llvm::StringLiteral("lwp.small_functions");
    }
  }];
}

// The region kind is lwp::RegionKind (include/lwp/Instrument/
// InstrumentationMap.h), shared with the LLVM pass and the report; it is
// parsed and printed as the keyword `function` or `loop`.
def LWP_RegionKindParameter : AttrParameter<"::lwp::RegionKind",
                                            "kind of a profiled region">;

def LWP_RegionKindAttr : AttrDef<LWP_Dialect, "RegionKind"> {
  let mnemonic = "kind";
  let summary = "kind of a profiled region: function, loop or operator";
  let parameters = (ins LWP_RegionKindParameter:$value);
  let assemblyFormat = "`<` $value `>`";
  let returnType = "::lwp::RegionKind";
  let convertFromStorage = "$_self.getValue()";
  let constBuilderCall = "::lwp::RegionKindAttr::get($_builder.getContext(), $0)";
}

def LWP_RegionInfoAttr : AttrDef<LWP_Dialect, "RegionInfo"> {
  let mnemonic = "region";
  let summary = "one row of the instrumentation map";
  let description = [{
    Describes the region whose probes carry `id`: its kind, the enclosing
    function's symbol name, its loop depth and height (absent for a function
    region), the ID of the nearest enclosing instrumented region (absent at
    the top), its source location (file, 1-based line and column; an empty
    file when unknown) and, for MLIR operators, `op` (the structured op of an
    operator region, or of the operator a loop belongs to), `op_name` (the
    model's name for it), `ops` (the labels of every operator it holds,
    joined with ',') and, for an operator region whose frontend computed
    them, its work per execution: `flops`, `bytes_read` and `bytes_written`
    (absent when unknown). The fields are those of lwp::RegionEntry
    (include/lwp/Instrument/InstrumentationMap.h).

    Example:
    ```mlir
    #lwp.region<id = 3, kind = loop, function = "conv", depth = 1,
                height = 2, parent = 2, file = "model.mlir", line = 12,
                column = 5>
    ```
  }];
  let parameters = (ins
    "uint32_t":$id,
    LWP_RegionKindParameter:$kind,
    StringRefParameter<"enclosing function">:$function,
    OptionalParameter<"std::optional<uint32_t>">:$depth,
    OptionalParameter<"std::optional<uint32_t>">:$height,
    OptionalParameter<"std::optional<uint32_t>">:$parent,
    StringRefParameter<"source file", "\"\"">:$file,
    DefaultValuedParameter<"uint32_t", "0">:$line,
    DefaultValuedParameter<"uint32_t", "0">:$column,
    StringRefParameter<"structured op (operator regions and their loops)",
                       "\"\"">:$op,
    StringRefParameter<"the model's name for the operator", "\"\"">:$op_name,
    StringRefParameter<"operators held, labels joined with ','",
                       "\"\"">:$ops,
    OptionalParameter<"std::optional<int64_t>",
                      "operations per execution">:$flops,
    OptionalParameter<"std::optional<int64_t>",
                      "bytes read per execution">:$bytes_read,
    OptionalParameter<"std::optional<int64_t>",
                      "bytes written per execution">:$bytes_written
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // LWP_DIALECT_LWPBASE_TD
