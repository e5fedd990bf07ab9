"""Exits 0 when the .npy file NPY holds the tensor of the TensorProto file PB
(same dtype, shape and elements), else prints the difference and exits 1.

Usage: /usr/bin/python3 npy_equals_pb.py NPY PB   (numpy and onnx)
"""

import sys

import numpy as np
import onnx
from onnx import numpy_helper

npy, pb = sys.argv[1], sys.argv[2]
got = np.load(npy)
proto = onnx.TensorProto()
with open(pb, "rb") as f:
    proto.ParseFromString(f.read())
want = numpy_helper.to_array(proto)
if got.dtype != want.dtype or got.shape != want.shape or \
        not np.array_equal(got, want):
    print("%s: %s %s, %s: %s %s" % (npy, got.dtype, got.shape, pb,
                                    want.dtype, want.shape))
    sys.exit(1)
print("%s: %s %s equal" % (npy, got.dtype, list(got.shape)))
