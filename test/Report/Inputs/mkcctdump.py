#!/usr/bin/env python3
"""Writes an LWP dump of version 2, 3 or 4 (docs/dump-format.md) from a
program's execution, computing what a runtime keeps as it runs: counts,
exact figures, thread top-level figures, records up to the cap, and (version
4) each thread's calling-context tree within a node budget. Report tests
then check figures known in advance against the report's.

Lines (blank lines and '#' comments ignored):
  header key=value ...  version=4 cap=100 num_ids=16 target=1 counter=1
                        counter_hz=0 probe_pair_cost=0 probe_nested_cost=0
                        compensated=0 (1: LWP_DUMP_FLAG_COMPENSATED)
  thread TID [base=1000] [budget=65536] [notree]
  ID OFFSET DURATION [xN/STEP]
      an instance of region ID, indented two spaces per level under the
      instance it runs in; OFFSET from the start of that instance (of the
      thread's base for a top-level one), in counter ticks; xN/STEP: N
      instances (with everything under them), each STEP ticks after the
      previous one.

The counter values are written as given: a compensated dump (compensated=1)
holds the times the program would have without the probes; an
uncompensated one holds raw times and the calibrated costs of the header.
The runtime's rules (docs/dump-format.md): per-thread counts and cap (a start
is recorded while its count is at most the cap, an end when its start was);
a region nested in itself counts in total once (outermost instances); the
tree has a node per path of regions, the root (node 0) included in the
budget; an instance whose path needs a node past the budget folds into the
deepest node its path has (flagged, counted in its folded once for each
outermost folded instance) and adds to no node, nor do the instances inside
it.
Usage: mkcctdump.py SPEC OUT
"""
import struct
import sys

import dumpsum

MAGIC = b"LWPDUMP\0"
FLAG_FIGURES, FLAG_COMPENSATED, NODE_FOLDED = 1, 4, 1


class Instance:
    def __init__(self, ident, start, end):
        self.id, self.start, self.end, self.children = ident, start, end, []


def expand(templates, origin):
    """The instances of templates [(id, offset, duration, n, step, kids)]
    whose offsets count from origin, in time order."""
    out = []
    for ident, offset, duration, n, step, kids in templates:
        for k in range(n):
            start = origin + offset + k * step
            inst = Instance(ident, start, start + duration)
            inst.children = expand(kids, start)
            out.append(inst)
    out.sort(key=lambda i: i.start)
    return out


def parse(path):
    header = dict(version=4, cap=100, num_ids=16, target=1, counter=1,
                  counter_hz=0, probe_pair_cost=0, probe_nested_cost=0,
                  compensated=0)
    threads = []
    for raw in open(path):
        text = raw.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        words = text.split()
        if words[0] == "header":
            for a in words[1:]:
                k, v = a.split("=")
                header[k] = int(v, 0)
            continue
        if words[0] == "thread":
            opts = dict(a.split("=") if "=" in a else (a, "1")
                        for a in words[2:])
            threads.append(dict(tid=int(words[1], 0),
                                base=int(opts.get("base", "1000"), 0),
                                budget=int(opts.get("budget", "65536"), 0),
                                tree="notree" not in opts,
                                stack=[(-1, [])]))
            continue
        level = (len(text) - len(text.lstrip(" "))) // 2
        ident, offset, duration = (int(w, 0) for w in words[:3])
        n, step = 1, 0
        if len(words) > 3:
            n, step = (int(w, 0) for w in words[3][1:].split("/"))
        stack = threads[-1]["stack"]
        while stack[-1][0] >= level:
            stack.pop()
        node = (ident, offset, duration, n, step, [])
        stack[-1][1].append(node)
        stack.append((level, node[5]))
    return header, threads


def main(spec, out_path):
    header, threads = parse(spec)
    num_ids, cap, version = header["num_ids"], header["cap"], header["version"]
    # count, total, self, nested, children, outer, unwound
    figures = [[0] * 7 for _ in range(num_ids)]
    dropped = 0
    blocks = []
    for t in threads:
        roots = expand(t["stack"][0][1], t["base"])
        counts = [0] * num_ids
        records = []
        top = [0, 0, 0]  # cycles, instances, nested probes
        nodes = [[0, 0, 0, 0, 0, 0]]  # id, parent, count, cycles, flags, folded
        index = {(): 0}

        def size(inst):
            return 1 + sum(size(c) for c in inst.children)

        def walk(inst, open_ids, path, node):
            """node: the instance's node, None when it folded."""
            nonlocal dropped
            counts[inst.id] += 1
            figures[inst.id][0] += 1
            recorded = counts[inst.id] <= cap
            depth = len(open_ids) + 1
            if recorded:
                records.append((inst.id, depth, inst.start))
            else:
                dropped += 1
            for c in inst.children:
                cpath = path + (c.id,)
                cnode = None
                if node is not None:
                    if cpath in index:
                        cnode = index[cpath]
                    elif len(nodes) < t["budget"]:
                        cnode = index[cpath] = len(nodes)
                        nodes.append([c.id, node, 0, 0, 0, 0])
                    else:  # folds into the deepest node of its path
                        nodes[node][4] |= NODE_FOLDED
                        nodes[node][5] += 1
                    if cnode is not None:
                        nodes[cnode][2] += 1
                walk(c, open_ids + [inst.id], cpath, cnode)
            duration = inst.end - inst.start
            if node is not None:
                nodes[node][3] += duration
            f = figures[inst.id]
            f[2] += duration - sum(c.end - c.start for c in inst.children)
            f[4] += len(inst.children)
            if inst.id not in open_ids:
                f[1] += duration
                f[3] += 2 * (size(inst) - 1)
                f[5] += 1
            if recorded:
                records.append((inst.id | 0x80000000, depth, inst.end))
            else:
                dropped += 1

        for r in roots:
            path = (r.id,)
            node = None
            if path in index:
                node = index[path]
            elif len(nodes) < t["budget"]:
                node = index[path] = len(nodes)
                nodes.append([r.id, 0, 0, 0, 0, 0])
            else:
                nodes[0][4] |= NODE_FOLDED
                nodes[0][5] += 1
            if node is not None:
                nodes[node][2] += 1
            walk(r, [], path, node)
            top[0] += r.end - r.start
            top[1] += 1
            top[2] += 2 * (size(r) - 1)
        nodes[0][2], nodes[0][3] = top[1], top[0]
        if version < 4 or not t["tree"]:
            nodes = []
        blocks.append((t["tid"], records, top, nodes))

    flags = FLAG_FIGURES | (FLAG_COMPENSATED if header["compensated"] else 0)
    out = bytearray()
    out += struct.pack("<8sIIHHIQIIQIIIIIIQ", MAGIC, version, 80,
                       header["target"], header["counter"], 24,
                       header["counter_hz"], num_ids, cap, dropped, 0,
                       len(blocks), header["probe_pair_cost"],
                       header["probe_nested_cost"], 0, flags, 4242)
    for f in figures:
        out += struct.pack("<8Q", *(f + [0]))
    for tid, records, top, nodes in blocks:
        out += struct.pack("<6Q", tid, len(records), *top, len(nodes))
        for word, depth, cycles in records:
            out += struct.pack("<QIIQ", 0, word, depth, cycles)
        for n in nodes:
            out += struct.pack("<IIQQII", *n)
    if version >= 3:
        out += struct.pack("<Q", dumpsum.checksum(bytes(out)))
    open(out_path, "wb").write(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
