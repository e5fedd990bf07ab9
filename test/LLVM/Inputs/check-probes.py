#!/usr/bin/env python3
"""Checks that the LWP probes of textual LLVM IR are balanced on every path.

For each defined function, walks the CFG from the entry block with the stack
of open regions: __lwp_probe_start(i32 N) pushes N, __lwp_probe_end(i32 N)
must pop N. Every block must be reached with one and the same stack, every
`ret`/`resume` must leave it empty, `unreachable` may leave anything. Every
probe call must be `notail`. Prints one line per function:

  <function>: balanced ids=[...]      (sorted)

and, on the first error, `error: <function>: ...` with exit code 1. With
--ids-from-map, also checks that the probed IDs are exactly the IDs of the
!lwp.instrumentation_map rows.
"""

import re
import sys

PROBE = re.compile(r"(\w*)\s*call void @__lwp_probe_(start|end)\(i32 (\d+)\)")
LABEL = re.compile(r"^([-\w.$]+|\"[^\"]+\"):")
SUCC = re.compile(r"label %([-\w.$]+|\"[^\"]+\")")
DEFINE = re.compile(r"^define .*@([-\w.$]+|\"[^\"]+\")\(")
MAP_ID = re.compile(r'\\22id\\22:(\d+)')


def parse(text):
    """Returns {function: [(block, [lines])]} in order."""
    functions = {}
    current = None
    for line in text.splitlines():
        if current is None:
            m = DEFINE.match(line)
            if m:
                current = m.group(1)
                functions[current] = [("<entry>", [])]
            continue
        if line.startswith("}"):
            current = None
            continue
        m = LABEL.match(line)
        if m:
            blocks = functions[current]
            if blocks[-1][0] == "<entry>" and not blocks[-1][1]:
                blocks.pop()
            blocks.append((m.group(1), []))
            continue
        stripped = line.split(";", 1)[0].strip() if "!\"" not in line else line.strip()
        if stripped:
            functions[current][-1][1].append(stripped)
    return functions


def check_function(name, blocks):
    by_name = {b: lines for b, lines in blocks}
    entry = blocks[0][0]
    seen = {}
    ids = []
    work = [(entry, ())]
    while work:
        block, stack = work.pop()
        if block in seen:
            if seen[block] != stack:
                return "block %s reached with open regions %s and %s" % (
                    block, list(seen[block]), list(stack)), ids
            continue
        seen[block] = stack
        lines = by_name.get(block)
        if lines is None:
            return "unknown block %s" % block, ids
        st = list(stack)
        succs = []
        terminator = ""
        for line in lines:
            for m in PROBE.finditer(line):
                tail, kind, rid = m.group(1), m.group(2), int(m.group(3))
                if tail != "notail":
                    return "probe %s %d in %s is not notail" % (kind, rid,
                                                                block), ids
                if rid not in ids:
                    ids.append(rid)
                if kind == "start":
                    st.append(rid)
                elif not st or st[-1] != rid:
                    return "end %d in %s does not match open regions %s" % (
                        rid, block, st), ids
                else:
                    st.pop()
            succs += SUCC.findall(line)
            terminator = line
        if re.match(r"(ret|resume)\b", terminator) and st:
            return "%s leaves regions %s open" % (block, st), ids
        for s in reversed(succs):
            work.append((s, tuple(st)))
    return None, ids


def main(argv):
    path = [a for a in argv if not a.startswith("--")]
    text = open(path[0]).read() if path and path[0] != "-" else sys.stdin.read()
    all_ids = []
    status = 0
    for name, blocks in parse(text).items():
        err, ids = check_function(name, blocks)
        if err:
            print("error: %s: %s" % (name, err))
            status = 1
            continue
        print("%s: balanced ids=%s" % (name, sorted(ids)))
        all_ids += ids
    if "--ids-from-map" in argv:
        map_ids = [int(i) for i in MAP_ID.findall(text)]
        if sorted(map_ids) != sorted(all_ids):
            print("error: probed IDs %s != map IDs %s" % (sorted(all_ids),
                                                          sorted(map_ids)))
            status = 1
        else:
            print("map: %d regions, all probed" % len(map_ids))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
