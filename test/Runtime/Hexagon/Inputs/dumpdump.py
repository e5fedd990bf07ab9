#!/usr/bin/env python3
"""Prints an LWP dump (docs/dump-format.md) as stable text for FileCheck.

usage: dumpdump.py DUMP [--records] [--nonzero-counts] [--pairs]
                        [--from-records] [--figures-only] [--nodes]
                        [--check-nodes]

Reads versions 1 to 4 (version 3: version 2 and an 8-byte checksum at the
end, which lwp-report verifies; version 4: version 3 with calling-context
nodes after each thread's records). Output, one item a line:
  header <field>=<value> ...          every header field (process_id only as
                                      "pid=0" or "pid=set": it varies)
  image bias=.. build_id=<hex|-> name=..
  module <i> image=.. blob=<hex> first_id=.. num_regions=..   (version 2)
  count <id> <n>                      IDs with a non-zero count (all IDs
                                      when --nonzero-counts is not given
                                      and num_ids <= 16)
  region <id> total=.. self=.. nested=.. children=.. outer=.. unwound=..
                                      the exact figures of the same IDs
                                      (version 2 with the figures flag)
  thread <tid> records=<n> top_cycles=.. top_instances=.. top_nested=..
                                      (the top-level figures: version 2
                                      with the figures flag)
  record <i> <S|E> id=<id> site=<hex> cycles=<n>   (with --records)
  pair id=<id> delta=<end - start>                 (with --pairs: each end
                                      matched with the open start of its ID)
  summary id=<id> starts=<n> ends=<n>
  node <i> path=<id>/<id>/.. count=.. cycles=.. self=.. folded=..  (with
                                      --nodes, version 4: each node of the
                                      thread's calling-context tree, its
                                      path of region IDs from the root (the
                                      root's path is "-"), self = cycles
                                      minus its children's, "folded=" only
                                      on a node with LWP_NODE_FOLDED)

--from-records prints the region and thread figures computed from the
records instead of the dump's tables (a run that recorded every probe:
no drop; each end closes the innermost open instance of its ID, and
instances above it are closed there as unwound), in the same format, so
that the two can be compared with diff. --figures-only prints only the
counts, the region lines and "thread <tid> top_cycles=.. top_instances=..
top_nested=.." (no record count). --check-nodes checks the tree (version 4):
each parent index below its child's, no two children of a node with the
same ID, the root (ID 0) holding the thread's top-level instances and
cycles, no node's children above it in cycles, and, per region, the counts
of its nodes no greater than the region's count; it prints "nodes ok <n>"
or one "dumpdump: error: .." line and exits 1.
Exits 1 with one error line on a malformed file.
"""
import struct
import sys

HEADER = struct.Struct("<8sIIHHIQIIQIIII")
HEADER_V2 = struct.Struct("<IIQ")  # num_modules, flags, process_id
IMAGE = struct.Struct("<QII")
MODULE = struct.Struct("<QIIII")
THREAD = struct.Struct("<QQ")
THREAD_V2 = struct.Struct("<QQQQQQ")
NODE = struct.Struct("<IIQQII")
NODE_FOLDED = 1
REGION = struct.Struct("<QQQQQQQQ")
END_BIT = 0x80000000
FLAG_FIGURES = 1
MASK64 = (1 << 64) - 1


def fail(msg):
    print("dumpdump: error: " + msg)
    sys.exit(1)


def figures_from_records(records):
    """Region and top-level figures of one thread's records [(word, cycles)],
    as the runtimes keep them (docs/dump-format.md, "Regions")."""
    regions = {}
    top = [0, 0, 0]  # cycles, instances, nested

    def reg(rid):
        return regions.setdefault(rid, [0] * 7)  # count total self nested
        # children outer unwound

    stack = []  # [id, start, child cycles, children, index of start record]

    def close(pos, cycles, unwound):
        rid, start, child, children, first = stack.pop()
        incl = cycles - start
        # Probes inside: the records strictly between its start and now (its
        # end record's position, or the probe that closed it).
        nested = pos - first - 1
        r = reg(rid)
        r[2] += incl - child
        r[4] += children
        r[6] += unwound
        if not any(f[0] == rid for f in stack):
            r[1] += incl
            r[3] += nested
            r[5] += 1
        if stack:
            stack[-1][2] += incl
            stack[-1][3] += 1
        else:
            top[0] += incl
            top[1] += 1
            top[2] += nested

    for pos, (word, cycles) in enumerate(records):
        rid = word & ~END_BIT
        if word & END_BIT:
            if any(f[0] == rid for f in stack):
                while stack[-1][0] != rid:
                    close(pos, cycles, 1)
                close(pos, cycles, 0)
        else:
            reg(rid)[0] += 1
            stack.append([rid, cycles, 0, 0, pos])
    end = len(records)
    last = records[-1][1] if records else 0
    while stack:
        close(end, last, 1)
    return regions, top


def node_paths(nodes):
    """The path of region IDs of each node ("-" for the root)."""
    paths = []
    for i, (nid, parent, _, _, _, _) in enumerate(nodes):
        if i == 0:
            paths.append("-")
        else:
            up = paths[parent]
            paths.append(("" if up == "-" else up + "/") + str(nid))
    return paths


def print_nodes(nodes):
    paths = node_paths(nodes)
    child = [0] * len(nodes)
    for i, (_, parent, _, cycles, _, _) in enumerate(nodes):
        if i:
            child[parent] += cycles
    for i, (nid, parent, count, cycles, flags, folded) in enumerate(nodes):
        print("node %d path=%s count=%d cycles=%d self=%d%s" %
              (i, paths[i], count, cycles, cycles - child[i],
               " folded=%d" % folded if flags & NODE_FOLDED else ""))


def check_nodes(nodes, top_cycles, top_instances, table):
    """Checks the calling-context tree's rules (docs/dump-format.md)."""
    if not nodes:
        fail("no nodes")
    if nodes[0][0] != 0 or nodes[0][1] != 0:
        fail("node 0 is not the root")
    if nodes[0][2] != top_instances or nodes[0][3] != top_cycles:
        fail("root count=%d cycles=%d, thread top_instances=%d "
             "top_cycles=%d" % (nodes[0][2], nodes[0][3], top_instances,
                                top_cycles))
    seen = set()
    child = [0] * len(nodes)
    counts = {}
    for i, (nid, parent, count, cycles, flags, folded) in enumerate(nodes):
        if bool(flags & NODE_FOLDED) != bool(folded):
            fail("node %d: flags %d with folded=%d" % (i, flags, folded))
        if not i:
            continue
        if parent >= i:
            fail("node %d: parent %d not below it" % (i, parent))
        if nid == 0:
            fail("node %d: ID 0" % i)
        if (parent, nid) in seen:
            fail("node %d: a second child %d of node %d" % (i, nid, parent))
        seen.add((parent, nid))
        child[parent] += cycles
        counts[nid] = counts.get(nid, 0) + count
    for i, n in enumerate(nodes):
        if child[i] > n[3]:
            fail("node %d: children's cycles %d above its %d" %
                 (i, child[i], n[3]))
    for nid, c in counts.items():
        if nid < len(table) and c > table[nid][0]:
            fail("region %d: nodes count %d above its count %d" %
                 (nid, c, table[nid][0]))
    print("nodes ok %d" % len(nodes))


def main(argv):
    if len(argv) < 2:
        fail("usage: dumpdump.py DUMP [--records] [--nonzero-counts] "
             "[--pairs] [--from-records] [--figures-only]")
    path = argv[1]
    opts = set(argv[2:])
    quiet = "--figures-only" in opts
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
    if version in (2, 3, 4):
        if header_size != 80 or len(data) < 80:
            fail("bad version %d header size %d" % (version, header_size))
        num_modules, flags, process_id = HEADER_V2.unpack_from(
            data, HEADER.size)
    elif version != 1 or header_size != 64:
        fail("bad version %d / header size %d" % (version, header_size))
    figures = version >= 2 and (flags & FLAG_FIGURES)
    if not quiet:
        print("header version=%d header_size=%d target=%d counter=%d "
              "record_size=%d counter_hz=%d" %
              (version, header_size, target, counter, record_size,
               counter_hz))
        print("header num_ids=%d cap=%d dropped=%d num_images=%d "
              "num_threads=%d probe_pair_cost=%d probe_nested_cost=%d" %
              (num_ids, cap, dropped, num_images, num_threads, pair_cost,
               nested_cost))
        if version >= 2:
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
        if not quiet:
            print("image bias=%d build_id=%s name=%s" %
                  (bias, bid.hex() if bid else "-",
                   name.decode("utf-8", "replace")))
    for i in range(num_modules):
        need(MODULE.size)
        blob, image, first_id, num_regions, _ = MODULE.unpack_from(data, off)
        off += MODULE.size
        if not quiet:
            print("module %d image=%d blob=%x first_id=%d num_regions=%d" %
                  (i, image, blob, first_id, num_regions))
    # Version 2: 64-byte region figures (the count first) and 48-byte thread
    # headers; version 1: 8-byte counts and 16-byte thread headers.
    region_size = REGION.size if version >= 2 else 8
    need(region_size * num_ids)
    table = []
    for i in range(num_ids):
        if version >= 2:
            table.append(REGION.unpack_from(data, off + region_size * i))
        else:
            table.append(struct.unpack_from("<Q", data, off + 8 * i) + (0,) * 7)
    off += region_size * num_ids
    if record_size == 16:
        rec = struct.Struct("<IIQ")
    elif record_size == 24:
        rec = struct.Struct("<QIIQ")
    else:
        fail("bad record size %d" % record_size)
    threads = []
    for _ in range(num_threads):
        need(THREAD.size)
        if version >= 2:
            need(THREAD_V2.size)
            tid, n, top_cycles, top_instances, top_nested, num_nodes = \
                THREAD_V2.unpack_from(data, off)
            if version < 4:
                num_nodes = 0
            off += THREAD_V2.size
        else:
            tid, n = THREAD.unpack_from(data, off)
            top_cycles = top_instances = top_nested = num_nodes = 0
            off += THREAD.size
        need(n * record_size)
        records = []
        for i in range(n):
            fields = rec.unpack_from(data, off + i * record_size)
            if record_size == 16:
                site, word, cycles = fields
            else:
                site, word, _, cycles = fields
            records.append((site, word, cycles))
        off += n * record_size
        need(num_nodes * NODE.size)
        nodes = [NODE.unpack_from(data, off + i * NODE.size)
                 for i in range(num_nodes)]
        off += num_nodes * NODE.size
        threads.append((tid, n, top_cycles, top_instances, top_nested,
                        records, nodes))
    trailer = 8 if version >= 3 else 0  # the checksum
    if off + trailer != len(data):
        fail("%d trailing bytes" % (len(data) - off - trailer))

    from_records = "--from-records" in opts
    if from_records:
        computed = {}
        tops = []
        for t in threads:
            regs, top = figures_from_records([(w, c) for _, w, c in t[5]])
            for rid, r in regs.items():
                acc = computed.setdefault(rid, [0] * 7)
                for k in range(7):
                    acc[k] += r[k]
            tops.append(top)
        table = [(computed.get(i, [0] * 7)[0],) +
                 tuple(computed.get(i, [0] * 7)[1:]) + (0,)
                 for i in range(num_ids)]
    for i, r in enumerate(table):
        c = r[0]
        if c or ("--nonzero-counts" not in opts and num_ids <= 16):
            print("count %d %d" % (i, c))
    if figures or from_records:
        for i, r in enumerate(table):
            if r[0] or ("--nonzero-counts" not in opts and num_ids <= 16):
                print("region %d total=%d self=%d nested=%d children=%d "
                      "outer=%d unwound=%d" % ((i,) + tuple(
                          v & MASK64 for v in r[1:7])))
    starts, ends = {}, {}
    for k, (tid, n, top_cycles, top_instances, top_nested,
            records, nodes) in enumerate(threads):
        if from_records:
            top_cycles, top_instances, top_nested = tops[k]
        if quiet:
            print("thread %d top_cycles=%d top_instances=%d top_nested=%d" %
                  (tid, top_cycles, top_instances, top_nested))
        elif figures or from_records:
            print("thread %d records=%d top_cycles=%d top_instances=%d "
                  "top_nested=%d" % (tid, n, top_cycles, top_instances,
                                     top_nested))
        elif not quiet:
            print("thread %d records=%d" % (tid, n))
        if "--check-nodes" in opts:
            check_nodes(nodes, top_cycles, top_instances, table)
        if "--nodes" in opts:
            print_nodes(nodes)
        if quiet:
            continue
        open_starts = {}
        for i, (site, word, cycles) in enumerate(records):
            rid = word & ~END_BIT
            is_end = bool(word & END_BIT)
            (ends if is_end else starts)[rid] = \
                (ends if is_end else starts).get(rid, 0) + 1
            if "--records" in opts:
                print("record %d %s id=%d site=%x cycles=%d" %
                      (i, "E" if is_end else "S", rid, site, cycles))
            if "--pairs" in opts:
                if is_end:
                    stack = open_starts.get(rid)
                    if stack:
                        print("pair id=%d delta=%d" %
                              (rid, cycles - stack.pop()))
                else:
                    open_starts.setdefault(rid, []).append(cycles)
    if not quiet:
        for rid in sorted(set(starts) | set(ends)):
            print("summary id=%d starts=%d ends=%d" %
                  (rid, starts.get(rid, 0), ends.get(rid, 0)))


if __name__ == "__main__":
    main(sys.argv)
