#!/usr/bin/env python3
"""Writes an LWP dump (docs/dump-format.md) from a small text description, so
that report tests can use dumps whose right answers are known in advance.

Lines (blank lines and '#' comments ignored):
  header key=value ...   target=1 counter=1 record_size=24 counter_hz=0
                         num_ids=16 cap=100 dropped=0 probe_pair_cost=0
  image bias=0x1000 build_id=abcd name=prog
  count ID N
  figures ID COUNT TOTAL SELF NESTED CHILDREN OUTER UNWOUND   (version=2)
  thread TID [TOP_CYCLES TOP_INSTANCES TOP_NESTED]             (version 2)
  start ID CYCLES [SITE]
  end ID CYCLES [SITE]
The version is 1 unless the header says version=2, or version=3 (version 2
and the checksum at the end, dumpsum.py).
Usage: mkdump.py SPEC OUT
"""
import struct
import sys

import dumpsum

MAGIC = b"LWPDUMP\0"


def main(spec_path, out_path):
    header = dict(target=1, counter=1, record_size=24, counter_hz=0,
                  num_ids=16, cap=100, dropped=0, probe_pair_cost=0,
                  version=1)
    images, counts, threads, figures = [], {}, [], {}
    for raw in open(spec_path):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        kind, args = line[0], line[1:]
        if kind == "header":
            for a in args:
                k, v = a.split("=")
                header[k] = int(v, 0)
        elif kind == "image":
            d = dict(a.split("=") for a in args)
            images.append((int(d.get("bias", "0"), 0),
                           bytes.fromhex(d.get("build_id", "")),
                           d.get("name", "").encode()))
        elif kind == "count":
            counts[int(args[0])] = int(args[1])
        elif kind == "figures":
            figures[int(args[0])] = [int(a, 0) for a in args[1:8]]
            counts[int(args[0])] = int(args[1], 0)
        elif kind == "thread":
            threads.append((int(args[0]), [], [int(a, 0) for a in args[1:4]]))
        elif kind in ("start", "end"):
            ident, cycles = int(args[0]), int(args[1])
            site = int(args[2], 0) if len(args) > 2 else 0
            word = ident | (0x80000000 if kind == "end" else 0)
            threads[-1][1].append((site, word, cycles))
        else:
            sys.exit("mkdump.py: unknown line: " + raw)
    v2 = header["version"] >= 2
    out = bytearray()
    out += struct.pack("<8sIIHHIQIIQIIII", MAGIC, header["version"],
                       80 if v2 else 64,
                       header["target"], header["counter"],
                       header["record_size"], header["counter_hz"],
                       header["num_ids"], header["cap"], header["dropped"],
                       len(images), len(threads), header["probe_pair_cost"], 0)
    if v2:  # no modules; the figures flag when a figures line was given
        out += struct.pack("<IIQ", 0, 1 if figures else 0, 1234)
    for bias, build_id, name in images:
        out += struct.pack("<QII", bias, len(build_id), len(name))
        payload = build_id + name
        out += payload + b"\0" * (-len(payload) % 8)
    for i in range(header["num_ids"]):
        if v2:
            f = figures.get(i, [counts.get(i, 0)] + [0] * 6)
            out += struct.pack("<8Q", *(f + [0]))
        else:
            out += struct.pack("<Q", counts.get(i, 0))
    for tid, records, top in threads:
        out += struct.pack("<QQ", tid, len(records))
        if v2:
            out += struct.pack("<4Q", *((top + [0, 0, 0])[:3] + [0]))
        for site, word, cycles in records:
            if header["record_size"] == 16:
                out += struct.pack("<IIQ", site, word, cycles)
            else:
                out += struct.pack("<QIIQ", site, word, 0, cycles)
    if header["version"] >= 3:
        out += struct.pack("<Q", dumpsum.checksum(bytes(out)))
    open(out_path, "wb").write(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
