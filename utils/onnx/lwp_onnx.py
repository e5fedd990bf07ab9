# ===- lwp_onnx.py - lwp-run's ONNX helpers: .npy, inputs, C driver ------=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
"""What utils/lwp-run needs for ONNX models (docs/user-guide.md, "ONNX
models"), with the standard library only (lwp-run runs under whatever
python3 comes first on PATH):

- .npy files: read (versions 1.0-3.0, either byte order, C order) and write
  (version 1.0, little-endian, C order, the header padded to 64 bytes, as
  numpy's np.save writes them);
- the importer's signature (lwp-import-onnx --signature) and the checks of
  --input files against it;
- the deterministic inputs used without --input;
- the C driver that reads the inputs, calls the model once through its C
  interface and writes and prints its outputs;
- the comparison of outputs with onnxruntime's.
"""

import ast
import json
import math
import os
import re
import struct

# numpy dtype name -> (npy descr, element size, struct format character or
# None for raw bytes). bool elements are one byte.
DTYPES = {
    "float32": ("<f4", 4, "f"),
    "float64": ("<f8", 8, "d"),
    "float16": ("<f2", 2, "e"),
    "int64": ("<i8", 8, "q"),
    "int32": ("<i4", 4, "i"),
    "int16": ("<i2", 2, "h"),
    "int8": ("|i1", 1, "b"),
    "uint64": ("<u8", 8, "Q"),
    "uint32": ("<u4", 4, "I"),
    "uint16": ("<u2", 2, "H"),
    "uint8": ("|u1", 1, "B"),
    "bool": ("|b1", 1, "B"),
}
FLOATS = ("float32", "float64", "float16")


class OnnxError(Exception):
    """A failure, its message one line."""


def sanitize(name):
    """A graph input's or output's file name: every character outside
    [A-Za-z0-9._-] replaced by '_'."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def file_names(names):
    """The file name (without .npy) of each of NAMES: sanitized, and made
    unique with '_2', '_3' ... when two names sanitize alike."""
    seen, out = set(), []
    for name in names:
        base = sanitize(name) or "_"
        if base in (".", ".."):
            base = base.replace(".", "_")
        candidate, n = base, 1
        while candidate in seen:
            n += 1
            candidate = "%s_%d" % (base, n)
        seen.add(candidate)
        out.append(candidate)
    return out


def shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


# .npy ------------------------------------------------------------------- #

class Array:
    """An array read from or for a .npy file: dtype name, shape, the data's
    bytes (little-endian, C order)."""

    def __init__(self, dtype, shape, data):
        self.dtype, self.shape, self.data = dtype, list(shape), data

    def values(self):
        """The elements as Python numbers."""
        fmt = DTYPES[self.dtype][2]
        return struct.unpack("<%d%s" % (count(self.shape), fmt), self.data)


def read_npy(path):
    """Reads the .npy file PATH into an Array (big-endian data and Fortran
    order converted)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise OnnxError("cannot read %s: %s" % (path, e.strerror))

    def bad(why):
        return OnnxError("%s: not a .npy file lwp-run reads (%s)" % (path, why))

    if raw[:6] != b"\x93NUMPY" or len(raw) < 10:
        raise bad("no \\x93NUMPY magic")
    major = raw[6]
    if major == 1:
        (length,), start = struct.unpack("<H", raw[8:10]), 10
    elif major in (2, 3):
        if len(raw) < 12:
            raise bad("truncated header")
        (length,), start = struct.unpack("<I", raw[8:12]), 12
    else:
        raise bad("version %d" % major)
    if start + length > len(raw):
        raise bad("truncated header")
    try:
        header = ast.literal_eval(raw[start:start + length].decode("latin-1"))
        descr, fortran, shape = (header["descr"], header["fortran_order"],
                                 tuple(header["shape"]))
    except (ValueError, SyntaxError, KeyError, TypeError):
        raise bad("header %r" % raw[start:start + length][:80])
    if not isinstance(descr, str) or len(descr) != 3 or \
            descr[0] not in "<>=|":
        raise bad("dtype %r" % (descr,))
    dtype = next((n for n, d in DTYPES.items() if d[0][1:] == descr[1:]),
                 None)
    if dtype is None:
        raise bad("dtype '%s'" % descr)
    if not all(isinstance(d, int) and d >= 0 for d in shape):
        raise bad("shape %r" % (shape,))
    size = DTYPES[dtype][1]
    data = raw[start + length:]
    if len(data) != count(shape) * size:
        raise bad("%d data bytes, its shape %s takes %d" %
                  (len(data), shape_text(shape), count(shape) * size))
    if descr[0] == ">" and size > 1:
        data = b"".join(data[i:i + size][::-1]
                        for i in range(0, len(data), size))
    if fortran and sum(1 for d in shape if d != 1) > 1:
        data = fortran_to_c(data, shape, size)
    return Array(dtype, shape, data)


def fortran_to_c(data, shape, size):
    n, rank = count(shape), len(shape)
    out = bytearray(len(data))
    index = [0] * rank
    for c in range(n):
        # c walks C order; the Fortran offset of the same index.
        f, stride = 0, 1
        for d in range(rank):
            f += index[d] * stride
            stride *= shape[d]
        out[c * size:(c + 1) * size] = data[f * size:(f + 1) * size]
        for d in reversed(range(rank)):
            index[d] += 1
            if index[d] < shape[d]:
                break
            index[d] = 0
    return bytes(out)


def npy_header(dtype, shape):
    """The header of a version 1.0 .npy file, as np.save writes it."""
    dims = "(%d,)" % shape[0] if len(shape) == 1 else \
        "(" + ", ".join(str(d) for d in shape) + ")"
    text = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        DTYPES[dtype][0], dims)
    total = -(-(10 + len(text) + 1) // 64) * 64
    text += " " * (total - 10 - len(text) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + \
        text.encode("latin-1")


def write_npy(path, array):
    with open(path, "wb") as f:
        f.write(npy_header(array.dtype, array.shape))
        f.write(array.data)


# The signature --------------------------------------------------------- #

class Tensor:
    """A graph input or output of the signature."""

    def __init__(self, entry, where, index):
        try:
            self.name = entry["name"]
            self.dtype = entry["dtype"]
            self.shape = list(entry["shape"])
        except (KeyError, TypeError):
            raise OnnxError("%s %d of the signature lacks name, dtype or "
                            "shape" % (where, index))
        if not isinstance(self.name, str):
            raise OnnxError("%s %d of the signature: name %r" %
                            (where, index, self.name))
        if self.dtype not in DTYPES:
            raise OnnxError("%s %s: dtype %s is not one lwp-run handles (%s)"
                            % (where, self.name, self.dtype,
                               ", ".join(DTYPES)))
        # A dimension the signature leaves open: None, a negative number or
        # a symbol's name.
        self.static = all(isinstance(d, int) and d >= 0 for d in self.shape)
        self.file = None

    def shape_text(self):
        return "[" + ",".join(str(d) if isinstance(d, int) and d >= 0
                              else "?" for d in self.shape) + "]"


class Signature:
    def __init__(self, path):
        try:
            with open(path) as f:
                sig = json.load(f)
        except OSError as e:
            raise OnnxError("cannot read the signature %s: %s" %
                            (path, e.strerror))
        except ValueError as e:
            raise OnnxError("the signature %s is not JSON: %s" % (path, e))
        self.entry = sig.get("entry", "main_graph")
        if not isinstance(self.entry, str) or \
                not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", self.entry):
            raise OnnxError("the signature's entry %r is not a C name" %
                            (self.entry,))
        self.inputs = [Tensor(e, "input", i)
                       for i, e in enumerate(sig.get("inputs", []))]
        self.outputs = [Tensor(e, "output", i)
                        for i, e in enumerate(sig.get("outputs", []))]
        if not self.outputs:
            raise OnnxError("the signature %s lists no output" % path)
        for tensors in (self.inputs, self.outputs):
            for t, name in zip(tensors, file_names(t.name for t in tensors)):
                t.file = name


# Inputs ---------------------------------------------------------------- #

def generated_input(tensor, k):
    """The deterministic input of graph input number K (from 0): element i
    (C order) is ((i * 2654435761 + 17 * k) mod 2001 - 1000) / 1000 for
    floating-point types, i mod 3 for integers, i mod 2 for bool."""
    n = count(tensor.shape)
    fmt = DTYPES[tensor.dtype][2]
    if tensor.dtype in FLOATS:
        values = [((i * 2654435761 + 17 * k) % 2001 - 1000) / 1000.0
                  for i in range(n)]
    elif tensor.dtype == "bool":
        values = [i % 2 for i in range(n)]
    else:
        values = [i % 3 for i in range(n)]
    return Array(tensor.dtype, tensor.shape,
                 struct.pack("<%d%s" % (n, fmt), *values))


def check_input(tensor, array, given):
    """Raises an OnnxError when ARRAY (read from GIVEN) does not fit the
    graph input TENSOR."""
    if array.dtype != tensor.dtype or len(array.shape) != len(tensor.shape) \
            or any(isinstance(d, int) and d >= 0 and d != g
                   for d, g in zip(tensor.shape, array.shape)):
        raise OnnxError(
            "input %s: the model takes %s %s, %s holds %s %s" %
            (tensor.name, tensor.dtype, tensor.shape_text(), given,
             array.dtype, shape_text(array.shape)))


# Comparison ------------------------------------------------------------ #

def compare(reference, result):
    """(largest absolute error, largest absolute reference value, their
    ratio) over the elements; a NaN where the other has none, or an
    infinity the other does not have, is an infinite error."""
    err, top = 0.0, 0.0
    for r, x in zip(reference.values(), result.values()):
        if isinstance(r, float):
            if math.isnan(r) or math.isnan(x):
                if not (math.isnan(r) and math.isnan(x)):
                    err = math.inf
                continue
            if math.isinf(r) or math.isinf(x):
                if r != x:
                    err = math.inf
                else:
                    top = math.inf
                continue
        top = max(top, abs(r))
        err = max(err, abs(x - r))
    if err == 0:
        rel = 0.0
    elif top == 0 or math.isinf(err):
        rel = math.inf
    else:
        rel = err / top
    return err, top, rel


# The C driver ---------------------------------------------------------- #

def c_string(text):
    out = '"'
    for b in text.encode("utf-8"):
        c = chr(b)
        if c in '"\\':
            out += "\\" + c
        elif 32 <= b < 127 and c != "?":
            out += c
        else:
            out += "\\%03o" % b
    return out + '"'


def driver_source(sig, model):
    """The C driver of the signature SIG (MODEL names the model in its
    comment): main(argc, argv) with argv[1] the inputs' folder and argv[2]
    the outputs' folder."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "npy_driver.h")) as f:
        runtime = f.read()
    lines = []
    emit = lines.append
    emit("/* The driver lwp-run generated for %s (do not edit: lwp-run "
         "writes it" % model.replace("*/", "* /"))
    emit(" * again on every run). Reads each graph input from "
         "INPUTS/NAME.npy, calls")
    emit(" * _mlir_ciface_%s once, writes each graph output to "
         "OUTPUTS/NAME.npy" % sig.entry)
    emit(" * and prints one line per output: name, dtype, shape and the "
         "FNV-1a hash")
    emit(" * of its bytes. Usage: driver INPUTS OUTPUTS. */")
    emit(runtime)
    ranks = sorted(set(len(t.shape) for t in sig.inputs + sig.outputs))
    for r in ranks:
        emit("typedef struct {")
        emit("  void *allocated;")
        emit("  void *aligned;")
        emit("  int64_t offset;")
        if r:
            emit("  int64_t sizes[%d];" % r)
            emit("  int64_t strides[%d];" % r)
        emit("} Memref%d;" % r)
        emit("")
    if len(sig.outputs) == 1:
        result = "Memref%d" % len(sig.outputs[0].shape)
    else:
        emit("typedef struct {")
        for i, t in enumerate(sig.outputs):
            emit("  Memref%d out%d; /* %s */" % (len(t.shape), i,
                                                 t.name.replace("*/", "* /")))
        emit("} Results;")
        emit("")
        result = "Results"
    params = ["%s *result" % result] + [
        "Memref%d *in%d" % (len(t.shape), i) for i, t in enumerate(sig.inputs)]
    emit("void _mlir_ciface_%s(%s);" % (sig.entry, ", ".join(params)))
    emit("")

    def tensor_table(name, tensors):
        for i, t in enumerate(tensors):
            dims = ", ".join(str(d) if isinstance(d, int) and d >= 0 else "-1"
                             for d in t.shape) or "0"
            emit("static const int64_t %sShape%d[] = {%s};" % (name, i, dims))
        emit("static const NpyTensor %ss[] = {" % name)
        for i, t in enumerate(tensors):
            emit("    {%s, %s, \"%s\", \"%s\", %d, %d, %sShape%d}," % (
                c_string(t.name), c_string(t.file), t.dtype,
                DTYPES[t.dtype][0], DTYPES[t.dtype][1], len(t.shape),
                name, i))
        if not tensors:
            emit("    {0, 0, 0, 0, 0, 0, 0},")
        emit("};")
        emit("")

    tensor_table("Input", sig.inputs)
    tensor_table("Output", sig.outputs)
    emit("int main(int argc, char **argv) {")
    emit("  if (argc != 3) {")
    emit("    fprintf(stderr, \"usage: %s INPUTS OUTPUTS (folders)\\n\", "
         "argv[0]);")
    emit("    return 2;")
    emit("  }")
    for i, t in enumerate(sig.inputs):
        emit("  Memref%d in%d;" % (len(t.shape), i))
        emit("  if (npyLoad(argv[1], &Inputs[%d], &in%d))" % (i, i))
        emit("    return 1;")
    emit("  %s result;" % result)
    emit("  _mlir_ciface_%s(%s);" % (
        sig.entry, ", ".join(["&result"] + ["&in%d" % i
                                            for i in range(len(sig.inputs))])))
    if len(sig.outputs) == 1:
        emit("  if (npyStore(argv[2], &Outputs[0], &result))")
        emit("    return 1;")
    else:
        for i in range(len(sig.outputs)):
            emit("  if (npyStore(argv[2], &Outputs[%d], &result.out%d))" %
                 (i, i))
            emit("    return 1;")
    emit("  return 0;")
    emit("}")
    return "\n".join(lines) + "\n"
