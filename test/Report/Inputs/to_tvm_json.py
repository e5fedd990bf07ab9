#!/usr/bin/env python3
"""Rewrites an LWP dump as Apache TVM's lwp.json ({"entries": [{"ret", "id",
"cyc"}], "loop_counts": [...]}) with the return addresses moved to a model
loaded at LOAD (the dump's first image is taken as the model), for the TVM
import test. Usage: to_tvm_json.py DUMP LOAD OUT"""
import json
import struct
import sys


def main(path, load, out):
    d = open(path, "rb").read()
    (version, header_size) = struct.unpack_from("<II", d, 8)
    (rec_size, _hz, num_ids, _cap, _drop, n_img, n_thr) = struct.unpack_from(
        "<IQIIQII", d, 20)
    n_mod = struct.unpack_from("<I", d, 64)[0] if version >= 2 else 0
    pos = header_size
    bias = None
    for _ in range(n_img):
        b, ids, names = struct.unpack_from("<QII", d, pos)
        bias = b if bias is None else bias
        pos += 16 + (ids + names + 7) // 8 * 8
    pos += 24 * n_mod  # version 2: the module table
    # Version 2: 64-byte region figures (count first) and 48-byte thread
    # headers; version 1: 8-byte counts and 16-byte thread headers.
    region_size, thread_size = (64, 48) if version >= 2 else (8, 16)
    counts = [struct.unpack_from("<Q", d, pos + region_size * i)[0]
              for i in range(num_ids)]
    pos += region_size * num_ids
    entries = []
    for _ in range(n_thr):
        _tid, n = struct.unpack_from("<QQ", d, pos)
        pos += thread_size
        for _ in range(n):
            if rec_size == 24:
                site, word, _r, cyc = struct.unpack_from("<QIIQ", d, pos)
            else:
                site, word, cyc = struct.unpack_from("<IIQ", d, pos)
            pos += rec_size
            entries.append({"ret": site - bias + load,
                            "id": word & 0x7fffffff, "cyc": cyc})
    last = max([i for i, c in enumerate(counts) if c] + [0])
    json.dump({"entries": entries, "loop_counts": counts[:last + 1]},
              open(out, "w"))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2], 0), sys.argv[3])
