#!/usr/bin/env python3
"""Writes an LWP dump (docs/dump-format.md) from a small text description, so
that report tests can use dumps whose right answers are known in advance.

Lines (blank lines and '#' comments ignored):
  header key=value ...   target=1 counter=1 record_size=24 counter_hz=0
                         num_ids=16 cap=100 dropped=0 probe_pair_cost=0
  image bias=0x1000 build_id=abcd name=prog
  count ID N
  thread TID
  start ID CYCLES [SITE]
  end ID CYCLES [SITE]
Usage: mkdump.py SPEC OUT
"""
import struct
import sys

MAGIC = b"LWPDUMP\0"


def main(spec_path, out_path):
    header = dict(target=1, counter=1, record_size=24, counter_hz=0,
                  num_ids=16, cap=100, dropped=0, probe_pair_cost=0,
                  version=1)
    images, counts, threads = [], {}, []
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
        elif kind == "thread":
            threads.append((int(args[0]), []))
        elif kind in ("start", "end"):
            ident, cycles = int(args[0]), int(args[1])
            site = int(args[2], 0) if len(args) > 2 else 0
            word = ident | (0x80000000 if kind == "end" else 0)
            threads[-1][1].append((site, word, cycles))
        else:
            sys.exit("mkdump.py: unknown line: " + raw)
    out = bytearray()
    out += struct.pack("<8sIIHHIQIIQIIII", MAGIC, header["version"], 64,
                       header["target"], header["counter"],
                       header["record_size"], header["counter_hz"],
                       header["num_ids"], header["cap"], header["dropped"],
                       len(images), len(threads), header["probe_pair_cost"], 0)
    for bias, build_id, name in images:
        out += struct.pack("<QII", bias, len(build_id), len(name))
        payload = build_id + name
        out += payload + b"\0" * (-len(payload) % 8)
    for i in range(header["num_ids"]):
        out += struct.pack("<Q", counts.get(i, 0))
    for tid, records in threads:
        out += struct.pack("<QQ", tid, len(records))
        for site, word, cycles in records:
            if header["record_size"] == 16:
                out += struct.pack("<IIQ", site, word, cycles)
            else:
                out += struct.pack("<QIIQ", site, word, 0, cycles)
    open(out_path, "wb").write(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
