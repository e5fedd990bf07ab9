#!/usr/bin/env python3
"""Writes a large version 2 dump (24-byte records with depth, as the host
runtime writes them, no exact figures so that the report's cycles come from
the records) and the figures a walk of its records must give, for the test
of the walk in several parts (lwp-report --jobs).

Regions: 1 f and 2 its loop, 3 g and 4 its loop. Instance i runs f (even i)
or g (odd i) with its loop inside: 4 records. The 40 instances around the
middle, where the walk is cut in two, lose both ends (a longjmp): the next
instance's start, at depth 1, closes them (repaired). One end without a start
(depth 2, region 4) follows instance n/2 + 1001. Cycles are a pure function
of i.

Usage: mkwalkdump.py INSTANCES OUT.dump OUT.expected
OUT.expected: one line per region, "id,count,samples,repaired,cycles,min,max"
as lwp-report --format=csv prints those columns (cycles with one decimal).
"""
import struct
import sys


def main(n, out_path, expected_path):
    left_open = set(range(n // 2 - 20, n // 2 + 20))
    unmatched = n // 2 + 1001
    records = bytearray()
    rec = struct.Struct("<QIIQ")
    counts = {r: 0 for r in (1, 2, 3, 4)}
    inst = {r: [] for r in (1, 2, 3, 4)}  # (cycles, repaired)
    pending = []  # (region, start) left open
    c = 1000
    nrec = 0

    def put(region, end, depth, cycles):
        nonlocal nrec
        records.extend(rec.pack(0x401000 + region * 16 + end * 8,
                                region | (0x80000000 if end else 0), depth,
                                cycles))
        nrec += 1

    for i in range(n):
        fn = 1 if i % 2 == 0 else 3
        start = c
        # A start at depth 1 closes what was left open, at its counter.
        for region, s in pending:
            inst[region].append((start - s, 1))
        pending = []
        put(fn, 0, 1, start)
        loop_start = start + 3
        put(fn + 1, 0, 2, loop_start)
        counts[fn] += 1
        counts[fn + 1] += 1
        loop_end = loop_start + 10 + (i * 7919) % 97
        end = loop_end + 5 + i % 3
        if i in left_open:
            pending = [(fn + 1, loop_start), (fn, start)]
        else:
            put(fn + 1, 1, 2, loop_end)
            put(fn, 1, 1, end)
            inst[fn + 1].append((loop_end - loop_start, 0))
            inst[fn].append((end - start, 0))
        if i == unmatched:
            put(4, 1, 2, end + 1)
        c = end + 20
    last = c - 20 + (1 if n - 1 == unmatched else 0)
    for region, s in pending:  # closed at the last record
        inst[region].append((last - s, 1))

    out = bytearray()
    out += struct.pack("<8sIIHHIQIIQIIIIIIQ", b"LWPDUMP\0", 2, 80, 1, 1, 24,
                       0, 5, 0xffffffff, 0, 0, 1, 0, 0, 0, 0, 4321)
    for region in range(5):
        out += struct.pack("<8Q", counts.get(region, 0), 0, 0, 0, 0, 0, 0, 0)
    out += struct.pack("<6Q", 77, nrec, 0, 0, 0, 0)
    out += records
    with open(out_path, "wb") as f:
        f.write(out)
    with open(expected_path, "w") as f:
        for region in (1, 2, 3, 4):
            cyc = [x for x, _ in inst[region]]
            f.write("%d,%d,%d,%d,%.1f,%d,%d\n" % (
                region, counts[region], len(cyc),
                sum(r for _, r in inst[region]), sum(cyc), min(cyc),
                max(cyc)))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
