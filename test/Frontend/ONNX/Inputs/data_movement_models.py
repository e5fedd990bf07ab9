#!/usr/bin/python3
# ===- data_movement_models.py - The data movement operators' test models -=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
"""Writes the models of data-movement.test, data-movement-errors.test and
convtranspose.test into the folder given:

  /usr/bin/python3 data_movement_models.py test/Frontend/ONNX/Inputs

Needs Debian's python3-onnx and python3-numpy. The models are in the
checkout; this script is how they were made (fixed seed).

The data is a graph input (known only at run time); the parameters that
decide shapes (starts, pads, scales ...) are initializers, as the importer
needs them. error-dm-*.onnx are models the importer refuses with one line.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

RNG = np.random.default_rng(20260128)
F32 = np.float32
I64 = np.int64


def value(name, shape, elem=TP.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def save(folder, name, nodes, inputs, outputs, inits=(), opset=13,
         infer=True):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              [numpy_helper.from_array(np.asarray(a), n)
                               for n, a in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("",
                                                                    opset)])
    m.producer_name = "data_movement_models.py"
    if infer:
        m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(folder, name + ".onnx"))


def node(op, inputs, outputs, **attrs):
    return helper.make_node(op, inputs, outputs, name=op.lower(), **attrs)


def main(folder):
    # Slice with negative steps: a strided extract_slice, then a reversing
    # generic.
    save(folder, "dm-slice-steps",
         [node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
         [value("x", [4, 5, 6])], [value("y", None)],
         [("starts", np.array([-1, 100, 1], I64)),
          ("ends", np.array([-100, 0, 5], I64)),
          ("axes", np.array([0, 1, 2], I64)),
          ("steps", np.array([-1, -2, 2], I64))])
    # Split by the split input (opset 13) and by equal parts.
    save(folder, "dm-split",
         [node("Split", ["x", "split"], ["a", "b", "c"], axis=1)],
         [value("x", [2, 6])], [value("a", None), value("b", None),
                                value("c", None)],
         [("split", np.array([1, 3, 2], I64))])
    # Gather of unknown indices on axis 1 (negative ones wrap).
    save(folder, "dm-gather",
         [node("Gather", ["x", "i"], ["y"], axis=1)],
         [value("x", [3, 4]), value("i", [2, 2], TP.INT64)],
         [value("y", None)])
    # Shape -> Gather -> Reshape: the Gather folds at import.
    save(folder, "dm-gather-fold",
         [node("Shape", ["x"], ["s"]),
          node("Gather", ["s", "perm"], ["t"], axis=0),
          node("Reshape", ["x", "t"], ["y"])],
         [value("x", [3, 4, 5])], [value("y", [5, 3, 4])],
         [("perm", np.array([2, 0, 1], I64))])
    save(folder, "dm-pad-constant",
         [node("Pad", ["x", "pads", "v"], ["y"], mode="constant")],
         [value("x", [3, 4])], [value("y", None)],
         [("pads", np.array([1, -1, 0, 2], I64)), ("v", np.array(2.5, F32))])
    save(folder, "dm-pad-reflect",
         [node("Pad", ["x", "pads"], ["y"], mode="reflect")],
         [value("x", [3, 4])], [value("y", None)],
         [("pads", np.array([0, 2, 0, 1], I64))])
    save(folder, "dm-pad-edge",
         [node("Pad", ["x", "pads"], ["y"], mode="edge")],
         [value("x", [3, 4], TP.INT32)], [value("y", None, TP.INT32)],
         [("pads", np.array([1, 0, 0, 0], I64))])
    save(folder, "dm-expand",
         [node("Expand", ["x", "shape"], ["y"])],
         [value("x", [3, 1])], [value("y", None)],
         [("shape", np.array([2, 1, 4], I64))])
    save(folder, "dm-tile",
         [node("Tile", ["x", "repeats"], ["y"])],
         [value("x", [2, 3])], [value("y", None)],
         [("repeats", np.array([2, 3], I64))])
    # Bilinear on the last two axes (the first two are the identity).
    save(folder, "dm-resize-linear",
         [node("Resize", ["x", "", "scales"], ["y"], mode="linear")],
         [value("x", [1, 1, 2, 2])], [value("y", None)],
         [("scales", np.array([1, 1, 2, 1.5], F32))])
    save(folder, "dm-resize-nearest",
         [node("Resize", ["x", "", "", "sizes"], ["y"], mode="nearest",
               coordinate_transformation_mode="asymmetric",
               nearest_mode="floor")],
         [value("x", [1, 1, 2, 2])], [value("y", None)],
         [("sizes", np.array([1, 1, 4, 3], I64))])
    # Upsample at opset 9: the version converter makes it a Resize.
    save(folder, "dm-upsample",
         [node("Upsample", ["x", "scales"], ["y"], mode="nearest")],
         [value("x", [1, 1, 2, 2])], [value("y", [1, 1, 4, 6])],
         [("scales", np.array([1, 1, 2, 3], F32))], opset=9)

    # ConvTranspose: stride 1 (one generic), strides 2 and 1 with a group,
    # a bias and pads (two phases).
    save(folder, "ct-stride1",
         [node("ConvTranspose", ["x", "w"], ["y"])],
         [value("x", [1, 2, 3, 3])], [value("y", None)],
         [("w", RNG.standard_normal((2, 3, 2, 2)).astype(F32))])
    save(folder, "ct-strided",
         [node("ConvTranspose", ["x", "w", "b"], ["y"], group=2,
               strides=[2, 1], pads=[1, 0, 0, 1], output_padding=[1, 0])],
         [value("x", [1, 4, 3, 3])], [value("y", None)],
         [("w", RNG.standard_normal((4, 1, 3, 2)).astype(F32)),
          ("b", RNG.standard_normal(2).astype(F32))])

    # Refused.
    save(folder, "error-dm-slice-starts",
         [node("Slice", ["x", "starts", "ends"], ["y"])],
         [value("x", [4, 5]), value("starts", [1], TP.INT64)],
         [value("y", [2, 5])], [("ends", np.array([3], I64))], infer=False)
    save(folder, "error-dm-pad-mode",
         [node("Pad", ["x", "pads"], ["y"], mode="wrap")],
         [value("x", [3, 4])], [value("y", [3, 6])],
         [("pads", np.array([0, 1, 0, 1], I64))], infer=False)
    save(folder, "error-dm-gather-index",
         [node("Gather", ["x", "i"], ["y"], axis=0)],
         [value("x", [3, 4])], [value("y", [2, 4])],
         [("i", np.array([1, -4], I64))])
    save(folder, "error-dm-resize-mode",
         [node("Resize", ["x", "", "scales"], ["y"], mode="nearest",
               nearest_mode="round_half_even")],
         [value("x", [1, 1, 2, 2])], [value("y", [1, 1, 4, 4])],
         [("scales", np.array([1, 1, 2, 2], F32))])
    save(folder, "error-dm-convtranspose-autopad",
         [node("ConvTranspose", ["x", "w"], ["y"], auto_pad="SAME")],
         [value("x", [1, 1, 3, 3])], [value("y", [1, 1, 5, 5])],
         [("w", np.ones((1, 1, 3, 3), F32))], infer=False)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
