"""Writes the small ONNX models of test/Frontend/ONNX into OUTDIR.

Usage: /usr/bin/python3 make_models.py OUTDIR

Debian's python3 with python3-onnx and python3-numpy (utils/setup.sh): the
models are made with onnx.helper at test time, so that what each one holds
is written here. Models that must fail the ONNX checker or go beyond the
importer's bounds are serialized as they are (no check).
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)


def tensor(name, dims):
    return h.make_tensor_value_info(name, T.FLOAT, dims)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = h.make_graph(nodes, name, inputs, outputs,
                         initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    model.ir_version = 7
    with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


# Two named nodes, opset 9 (converted to 13 at import), a batch dimension
# the model leaves open: y = x @ w + b.
save("two-node",
     [h.make_node("MatMul", ["x", "w"], ["xw"], name="mm"),
      h.make_node("Add", ["xw", "b"], ["y"], name="bias")],
     [tensor("x", ["batch", 3])], [tensor("y", ["batch", 4])],
     [const("w", np.arange(12, dtype=np.float32).reshape(3, 4)),
      const("b", np.ones(4, dtype=np.float32))], opset=9)

# Conv with its weights (36 floats: a dense_resource blob) and bias as
# initializers: x [1,2,5,5], w [2,2,3,3], pads 1, strides 2 -> y [1,2,3,3].
save("conv-weights",
     [h.make_node("Conv", ["x", "w", "b"], ["y"], name="conv1",
                  pads=[1, 1, 1, 1], strides=[2, 2])],
     [tensor("x", [1, 2, 5, 5])], [tensor("y", [1, 2, 3, 3])],
     [const("w", np.arange(36, dtype=np.float32).reshape(2, 2, 3, 3)),
      const("b", np.array([1, 2], dtype=np.float32))])

# Fails the checker: Cast without its required attribute 'to'.
save("checker-fails", [h.make_node("Cast", ["x"], ["y"], name="cast")],
     [tensor("x", [2])], [tensor("y", [2])])

# An operator the importer does not take, after one it takes (opset 11).
save("unsupported",
     [h.make_node("Relu", ["x"], ["r"], name="first"),
      h.make_node("Unique", ["r"], ["y"], name="dedup")],
     [tensor("x", [4])], [tensor("y", [None])], opset=11)

# Add of float and double: ONNX's type constraint (one T) broken.
save("add-mixed-types", [h.make_node("Add", ["a", "b"], ["y"], name="add")],
     [tensor("a", [2]), h.make_tensor_value_info("b", T.DOUBLE, [2])],
     [tensor("y", [2])])

# A dimension name holding a newline and a tab.
save("newline-dim", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [tensor("x", ["a\nb\tc"])], [tensor("y", ["a\nb\tc"])])

# Opset 18, past the importer's 17.
save("opset-18", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [tensor("x", [4])], [tensor("y", [4])], opset=18)

# An initializer that declares 10^12 elements and holds 4.
w = T()
w.name = "w"
w.data_type = T.FLOAT
w.dims.extend([1000000, 1000000])
w.raw_data = bytes(16)
save("huge-initializer", [h.make_node("Relu", ["w"], ["y"], name="relu")],
     [], [tensor("y", [1000000, 1000000])], [w])

# A graph input of 2^96 elements.
save("huge-input", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [tensor("x", [1 << 32] * 3)], [tensor("y", [1 << 32] * 3)])

# ConstantOfShape of 2^60 elements.
save("constantofshape-huge",
     [h.make_node("ConstantOfShape", ["s"], ["y"], name="fill")],
     [], [tensor("y", [1 << 20] * 3)],
     [const("s", np.array([1 << 20] * 3, dtype=np.int64))])

# Reshape of 6 elements to 2^62.
save("reshape-huge",
     [h.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
     [tensor("x", [2, 3])], [tensor("y", [1 << 31, 1 << 31])],
     [const("s", np.array([1 << 31, 1 << 31], dtype=np.int64))])

# Conv with strides 0: libonnx's shape inference divides by them.
save("conv-stride-0",
     [h.make_node("Conv", ["x", "w"], ["y"], name="conv", strides=[0, 0])],
     [tensor("x", [1, 1, 3, 3])], [tensor("y", [1, 1, 2, 2])],
     [const("w", np.ones((1, 1, 2, 2), dtype=np.float32))])

# Conv whose weights have rank 4 and input rank 2: libonnx's shape
# inference reads past its dilations (onnx/onnx#8036): a null pointer here.
save("conv-rank-mismatch", [h.make_node("Conv", ["x", "w"], ["y"], name="conv")],
     [tensor("x", [1, 1])], [tensor("y", [1, 1, 2, 2])],
     [const("w", np.ones((1, 1, 2, 2), dtype=np.float32))])

# Conv whose kernel is larger than its input.
save("conv-big-kernel",
     [h.make_node("Conv", ["x", "w"], ["y"], name="conv")],
     [tensor("x", [1, 1, 3, 3])], [tensor("y", ["n", "c", "h", "w"])],
     [const("w", np.ones((1, 1, 5, 5), dtype=np.float32))])

# A malformed tensor file: 2x3 floats with 4 values.
t = T()
t.name = "x"
t.data_type = T.FLOAT
t.dims.extend([2, 3])
t.float_data.extend([1.0, 2.0, 3.0, 4.0])
with open(os.path.join(OUT, "short-tensor.pb"), "wb") as f:
    f.write(t.SerializeToString())
