#!/usr/bin/python3
# ===- quantization_models.py - The quantized operators' test models ------=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
"""Writes the models of quantization.test and quantization-run.test (one
node each, opset 13, or 10 for the operators that start there) into the
folder given, and prints each model's expected output as the ONNX spec
computes it (numpy, float32 where the spec says float), flattened, as the
run test checks it.

  /usr/bin/python3 quantization_models.py test/Frontend/ONNX/Inputs

Needs Debian's python3-onnx and python3-numpy. The models are in the
checkout; this script is how they were made (fixed seed).

Run models (q-run-*.onnx) take every tensor from initializers, so that
@main_graph has no arguments; the import models (q-import-*.onnx) take the
scales and zero points as graph inputs, known only at run time; the error
models (q-error-*.onnx) give shapes the importer refuses.
"""

import itertools
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

RNG = np.random.default_rng(20260128)
F32 = np.float32
TYPES = {np.dtype(np.uint8): TP.UINT8, np.dtype(np.int8): TP.INT8,
         np.dtype(np.int32): TP.INT32, np.dtype(np.float32): TP.FLOAT}


def qrange(dt):
    return (0, 255) if dt == np.uint8 else (-128, 127)


def q(dt, shape):
    lo, hi = qrange(dt)
    return RNG.integers(lo, hi + 1, size=shape).astype(dt)


def scale(lo, hi, shape=()):
    return np.asarray(RNG.uniform(lo, hi, shape), F32).reshape(shape)


def model(op, inputs, output, attrs=None, given=(), opset=13):
    """One node of \\p op; \\p inputs (name, array or None for an omitted
    optional input) are initializers but for the names in \\p given, which
    are graph inputs."""
    names = [n if a is not None else "" for n, a in inputs]
    while names and not names[-1]:
        names.pop()
    node = helper.make_node(op, names, [output[0]], name=op.lower(),
                            **(attrs or {}))
    graph_in = [helper.make_tensor_value_info(n, TYPES[a.dtype], a.shape)
                for n, a in inputs if a is not None and n in given]
    inits = [numpy_helper.from_array(a, n) for n, a in inputs
             if a is not None and n not in given]
    out = helper.make_tensor_value_info(output[0], TYPES[output[1].dtype],
                                        output[1].shape)
    m = helper.make_model(
        helper.make_graph([node], op.lower(), graph_in, [out], inits),
        opset_imports=[helper.make_opsetid("", opset)],
        producer_name="quantization_models.py")
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m


def requantize(acc, mult, zp, dt):
    lo, hi = qrange(dt)
    v = np.rint(acc.astype(F32) * mult.astype(F32)) + np.asarray(zp).astype(F32)
    return np.clip(v, lo, hi).astype(dt)


def conv(x, w, xzp, wzp, group, strides, dilations, pads):
    """ConvInteger's i32 result (int64 arithmetic, no overflow here)."""
    n, c, *_ = x.shape
    m, cg, *kernel = w.shape
    k = len(kernel)
    xi = np.pad(x.astype(np.int64) - np.int64(xzp),
                [(0, 0), (0, 0)] + [(pads[i], pads[k + i]) for i in range(k)])
    wi = w.astype(np.int64) - np.asarray(wzp, np.int64).reshape(
        [-1] + [1] * (k + 1))
    out_sizes = [(xi.shape[2 + i] - (kernel[i] - 1) * dilations[i] - 1) //
                 strides[i] + 1 for i in range(k)]
    out = np.zeros([n, m] + out_sizes, np.int64)
    mg = m // group
    for o in itertools.product(*map(range, out_sizes)):
        for kk in itertools.product(*map(range, kernel)):
            at = tuple(o[i] * strides[i] + kk[i] * dilations[i]
                       for i in range(k))
            xs = xi[(slice(None), slice(None)) + at]
            for g in range(group):
                wg = wi[(slice(g * mg, (g + 1) * mg), slice(None)) + kk]
                out[(slice(None), slice(g * mg, (g + 1) * mg)) + o] += \
                    xs[:, g * cg:(g + 1) * cg] @ wg.T
    return out.astype(np.int32)


def main():
    folder = sys.argv[1]
    expected = {}

    def save(name, m, y=None):
        onnx.save(m, os.path.join(folder, name + ".onnx"))
        if y is not None:
            expected[name] = y

    # QuantizeLinear to int8 per axis (the last), with ties to even.
    x = (RNG.standard_normal((2, 3, 4)) * 60).astype(F32)
    x.flat[:8] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1000, -1000]
    s = scale(0.5, 2, (4,))
    s[:2] = 1
    z = q(np.int8, (4,))
    z[:2] = 0
    y = np.clip(np.rint(x / s) + z.astype(F32), -128, 127).astype(np.int8)
    save("q-run-quantize-axis", model("QuantizeLinear", [
        ("x", x), ("s", s), ("z", z)], ("y", y), {"axis": -1}), y)

    # DequantizeLinear of int32 (no zero point), per tensor.
    x = RNG.integers(-100000, 100000, (3, 5)).astype(np.int32)
    s = scale(0.001, 0.01)
    y = (x.astype(F32) * s).astype(F32)
    save("q-run-dequantize-int32", model("DequantizeLinear", [
        ("x", x), ("s", s)], ("y", y)), y)

    # QLinearConv, int8: two groups, strides, dilations, asymmetric pads,
    # per-channel w_scale and w_zero_point, bias.
    x = q(np.int8, (1, 4, 7, 6))
    w = q(np.int8, (4, 2, 3, 2))
    xz, wz = q(np.int8, ()), q(np.int8, (4,))
    xs, ws, ys = scale(0.01, 0.03), scale(0.001, 0.004, (4,)), scale(0.03, 0.06)
    yz = np.asarray(3, np.int8)
    bias = RNG.integers(-2000, 2000, (4,)).astype(np.int32)
    attrs = {"group": 2, "strides": [2, 1], "dilations": [1, 2],
             "pads": [1, 0, 0, 2]}
    acc = conv(x, w, xz, wz, 2, [2, 1], [1, 2], [1, 0, 0, 2])
    acc = acc + bias.reshape(1, 4, 1, 1)
    mult = ((xs * ws).astype(F32) / ys).astype(F32).reshape(1, 4, 1, 1)
    y = requantize(acc, mult, yz, np.int8)
    save("q-run-qlinearconv-groups", model("QLinearConv", [
        ("x", x), ("xs", xs), ("xz", xz), ("w", w), ("ws", ws), ("wz", wz),
        ("ys", ys), ("yz", yz), ("B", bias)], ("y", y), attrs, opset=10), y)

    # QLinearConv, uint8 input and int8 weights, SAME_UPPER, one spatial
    # dimension, per-tensor parameters.
    x = q(np.uint8, (1, 3, 9))
    w = q(np.int8, (2, 3, 4))
    xz, wz = q(np.uint8, ()), np.int8(0)
    xs, ws, ys = scale(0.01, 0.03), scale(0.001, 0.004), scale(0.05, 0.1)
    yz = q(np.uint8, ())
    acc = conv(x, w, xz, wz, 1, [2], [1], [1, 2])
    y = requantize(acc, ((xs * ws).astype(F32) / ys).astype(F32), yz,
                   np.uint8)
    save("q-run-qlinearconv-same", model("QLinearConv", [
        ("x", x), ("xs", xs), ("xz", xz), ("w", w), ("ws", ws),
        ("wz", np.asarray(wz)), ("ys", ys), ("yz", yz)], ("y", y),
        {"auto_pad": "SAME_UPPER", "strides": [2]}, opset=10), y)

    # ConvInteger, int8, per-channel w_zero_point, pads, no x_zero_point.
    x = q(np.int8, (1, 2, 4, 4))
    w = q(np.int8, (3, 2, 2, 2))
    wz = q(np.int8, (3,))
    y = conv(x, w, 0, wz, 1, [1, 1], [1, 1], [1, 1, 0, 0])
    save("q-run-convinteger", model("ConvInteger", [
        ("x", x), ("w", w), ("xz", None), ("wz", wz)], ("y", y),
        {"pads": [1, 1, 0, 0]}, opset=10), y)

    # MatMulInteger: batches broadcast, a_zero_point per row, b_zero_point
    # per column.
    a = q(np.uint8, (2, 3, 4))
    b = q(np.int8, (4, 5))
    az, bz = q(np.uint8, (2, 3, 1)), q(np.int8, (5,))
    y = np.matmul(a.astype(np.int64) - az, b.astype(np.int64) - bz).astype(
        np.int32)
    save("q-run-matmulinteger", model("MatMulInteger", [
        ("a", a), ("b", b), ("az", az), ("bz", bz)], ("y", y), opset=10), y)

    # QLinearMatMul: int8 a with per-row scale and zero point ([M]), uint8
    # b per column, int8 y.
    a = q(np.int8, (3, 6))
    b = q(np.uint8, (6, 4))
    as_, az = scale(0.01, 0.02, (3,)), q(np.int8, (3,))
    bs, bz = scale(0.01, 0.02, (4,)), q(np.uint8, (4,))
    ys, yz = scale(0.2, 0.4), np.asarray(-5, np.int8)
    acc = np.matmul(a.astype(np.int64) - az.reshape(3, 1).astype(np.int64),
                    b.astype(np.int64) - bz.astype(np.int64))
    mult = ((as_.reshape(3, 1) * bs).astype(F32) / ys).astype(F32)
    y = requantize(acc, mult, yz, np.int8)
    save("q-run-qlinearmatmul", model("QLinearMatMul", [
        ("a", a), ("as", as_), ("az", az), ("b", b), ("bs", bs), ("bz", bz),
        ("ys", ys), ("yz", yz)], ("y", y), opset=10), y)

    # Import models: parameters known at run time only.
    x = q(np.uint8, (1, 2, 5, 5))
    w = q(np.uint8, (4, 1, 3, 3))
    save("q-import-qlinearconv-inputs", model("QLinearConv", [
        ("x", x), ("xs", scale(0.1, 0.2)), ("xz", q(np.uint8, ())),
        ("w", w), ("ws", scale(0.1, 0.2, (4,))), ("wz", q(np.uint8, (4,))),
        ("ys", scale(0.1, 0.2)), ("yz", q(np.uint8, ()))],
        ("y", np.zeros((1, 4, 5, 5), np.uint8)), {"group": 2, "pads": [1] * 4},
        given=("x", "xs", "xz", "ws", "wz", "ys", "yz"), opset=10))
    save("q-import-quantize-default-zp", model("QuantizeLinear", [
        ("x", np.zeros((2, 3), F32)), ("s", scale(0.1, 0.2))],
        ("y", np.zeros((2, 3), np.uint8)), given=("x", "s")))
    save("q-import-dequantize-axis", model("DequantizeLinear", [
        ("x", q(np.int8, (2, 3))), ("s", scale(0.1, 0.2, (3,))),
        ("z", q(np.int8, (3,)))], ("y", np.zeros((2, 3), F32)),
        {"axis": 1}, given=("x", "s", "z")))
    save("q-import-matmulinteger-1d", model("MatMulInteger", [
        ("a", q(np.int8, (4,))), ("b", q(np.int8, (2, 4, 3)))],
        ("y", np.zeros((2, 3), np.int32)), given=("a", "b"), opset=10))

    # Refused shapes.
    save("q-error-qlinearconv-xscale", model("QLinearConv", [
        ("x", q(np.uint8, (1, 2, 3, 3))), ("xs", scale(0.1, 0.2, (2,))),
        ("xz", q(np.uint8, (2,))), ("w", q(np.uint8, (2, 2, 1, 1))),
        ("ws", scale(0.1, 0.2)), ("wz", q(np.uint8, ())),
        ("ys", scale(0.1, 0.2)), ("yz", q(np.uint8, ()))],
        ("y", np.zeros((1, 2, 3, 3), np.uint8)), given=("x",), opset=10))
    save("q-error-quantize-axis", model("QuantizeLinear", [
        ("x", np.zeros((2, 3), F32)), ("s", scale(0.1, 0.2, (2,))),
        ("z", q(np.int8, (2,)))], ("y", np.zeros((2, 3), np.int8)),
        given=("x",)))
    save("q-error-matmulinteger-zp", model("MatMulInteger", [
        ("a", q(np.int8, (2, 3))), ("b", q(np.int8, (3, 4))),
        ("az", q(np.int8, (3,)))], ("y", np.zeros((2, 4), np.int32)),
        given=("a", "b"), opset=10))

    for name, y in expected.items():
        flat = y.flatten()
        text = " ".join(("%.9g" % v) if y.dtype == F32 else str(int(v))
                        for v in flat)
        print("%s: %s %s %s" % (name, y.dtype, list(y.shape), text))


if __name__ == "__main__":
    main()
