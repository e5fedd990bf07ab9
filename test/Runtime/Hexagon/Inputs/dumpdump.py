#!/usr/bin/env python3
"""Prints an LWP dump (docs/dump-format.md) as stable text for FileCheck.

usage: dumpdump.py DUMP [--records] [--nonzero-counts] [--pairs]

Reads versions 1 and 2. Output, one item a line:
  header <field>=<value> ...          every header field (process_id only as
                                      "pid=0" or "pid=set": it varies)
  image bias=.. build_id=<hex|-> name=..
  module <i> image=.. blob=<hex> first_id=.. num_regions=..   (version 2)
  count <id> <n>                      IDs with a non-zero count (all IDs
                                      when --nonzero-counts is not given
                                      and num_ids <= 16)
  thread <tid> records=<n>
  record <i> <S|E> id=<id> site=<hex> cycles=<n>   (with --records)
  pair id=<id> delta=<end - start>                 (with --pairs: each end
                                      matched with the open start of its ID)
  summary id=<id> starts=<n> ends=<n>
Exits 1 with one error line on a malformed file.
"""
import struct
import sys

HEADER = struct.Struct("<8sIIHHIQIIQIIII")
HEADER_V2 = struct.Struct("<IIQ")  # num_modules, flags, process_id
IMAGE = struct.Struct("<QII")
MODULE = struct.Struct("<QIIII")
THREAD = struct.Struct("<QQ")
END_BIT = 0x80000000


def fail(msg):
    print("dumpdump: error: " + msg)
    sys.exit(1)


def main(argv):
    if len(argv) < 2:
        fail("usage: dumpdump.py DUMP [--records] [--nonzero-counts] [--pairs]")
    path = argv[1]
    opts = set(argv[2:])
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER.size:
        fail("file shorter than the header")
    (magic, version, header_size, target, counter, record_size, counter_hz,
     num_ids, cap, dropped, num_images, num_threads, pair_cost,
     nested_cost) = HEADER.unpack_from(data, 0)
    if magic != b"LWPDUMP\0":
        fail("bad magic")
    num_modules, flags, process_id = 0, 0, 0
    if version == 2:
        if header_size != 80 or len(data) < 80:
            fail("bad version 2 header size %d" % header_size)
        num_modules, flags, process_id = HEADER_V2.unpack_from(
            data, HEADER.size)
    elif version != 1 or header_size != 64:
        fail("bad version %d / header size %d" % (version, header_size))
    print("header version=%d header_size=%d target=%d counter=%d "
          "record_size=%d counter_hz=%d" % (version, header_size, target,
                                            counter, record_size, counter_hz))
    print("header num_ids=%d cap=%d dropped=%d num_images=%d num_threads=%d "
          "probe_pair_cost=%d probe_nested_cost=%d" % (num_ids, cap, dropped,
                                              num_images, num_threads,
                                              pair_cost, nested_cost))
    if version == 2:
        print("header num_modules=%d flags=%d pid=%s" %
              (num_modules, flags, "set" if process_id else "0"))
    off = header_size

    def need(n):
        if off + n > len(data):
            fail("truncated at offset %d" % off)

    for _ in range(num_images):
        need(IMAGE.size)
        bias, bid_size, name_size = IMAGE.unpack_from(data, off)
        off += IMAGE.size
        need(bid_size + name_size)
        bid = data[off:off + bid_size]
        name = data[off + bid_size:off + bid_size + name_size]
        off += (bid_size + name_size + 7) & ~7
        print("image bias=%d build_id=%s name=%s" %
              (bias, bid.hex() if bid else "-", name.decode("utf-8", "replace")))
    for i in range(num_modules):
        need(MODULE.size)
        blob, image, first_id, num_regions, _ = MODULE.unpack_from(data, off)
        off += MODULE.size
        print("module %d image=%d blob=%x first_id=%d num_regions=%d" %
              (i, image, blob, first_id, num_regions))
    # Version 2: 64-byte region figures (the count first) and 48-byte thread
    # headers; version 1: 8-byte counts and 16-byte thread headers.
    region_size = 64 if version == 2 else 8
    need(region_size * num_ids)
    counts = [struct.unpack_from("<Q", data, off + region_size * i)[0]
              for i in range(num_ids)]
    off += region_size * num_ids
    for i, c in enumerate(counts):
        if c or ("--nonzero-counts" not in opts and num_ids <= 16):
            print("count %d %d" % (i, c))
    if record_size == 16:
        rec = struct.Struct("<IIQ")
    elif record_size == 24:
        rec = struct.Struct("<QIIQ")
    else:
        fail("bad record size %d" % record_size)
    starts, ends = {}, {}
    for _ in range(num_threads):
        need(THREAD.size)
        tid, n = THREAD.unpack_from(data, off)
        off += THREAD.size if version == 1 else 48
        need(n * record_size)
        print("thread %d records=%d" % (tid, n))
        open_starts = {}
        for i in range(n):
            fields = rec.unpack_from(data, off + i * record_size)
            if record_size == 16:
                site, word, cycles = fields
            else:
                site, word, _, cycles = fields
            rid = word & ~END_BIT
            is_end = bool(word & END_BIT)
            (ends if is_end else starts)[rid] = (ends if is_end else starts).get(rid, 0) + 1
            if "--records" in opts:
                print("record %d %s id=%d site=%x cycles=%d" %
                      (i, "E" if is_end else "S", rid, site, cycles))
            if "--pairs" in opts:
                if is_end:
                    stack = open_starts.get(rid)
                    if stack:
                        print("pair id=%d delta=%d" % (rid, cycles - stack.pop()))
                else:
                    open_starts.setdefault(rid, []).append(cycles)
        off += n * record_size
    for rid in sorted(set(starts) | set(ends)):
        print("summary id=%d starts=%d ends=%d" %
              (rid, starts.get(rid, 0), ends.get(rid, 0)))
    if off != len(data):
        fail("%d trailing bytes" % (len(data) - off))


if __name__ == "__main__":
    main(sys.argv)
