#!/usr/bin/env python3
"""Writes a TVM lwp.json of N nests (4 entries each: start 0, start 1, end 1,
end 0) laid out as TVM's runtime writes it (one member a line), big enough
for lwp-report's two-thread window parse, and the CSV columns
id,count,samples,cycles the report must give.

Usage: mktvmjson.py N ADDR OUT.json EXPECTED [MODE]
ADDR: the function's address in the model (hex); the file's return
addresses are 0x40000 + ADDR + 4 (start) and + 8 (end). MODE: "plain",
"odd" (entry N of the middle has an extra member and the next one keys in
another order and spelling: the windows holding them go to the scanner),
"nocounts" (no loop_counts: two passes), "bad" (a syntax error in the last
entry; EXPECTED gets its line and column).
"""
import sys

n, addr, out, expected = (int(sys.argv[1]), int(sys.argv[2], 16),
                          sys.argv[3], sys.argv[4])
mode = sys.argv[5] if len(sys.argv) > 5 else "plain"
start, end = 0x40000 + addr + 4, 0x40000 + addr + 8
lines = ['{', '\t"entries":[']
cyc = 1000
total = {0: 0, 1: 0}
entries = []
for i in range(n):
    c0 = cyc
    c1 = cyc + 5
    c1e = c1 + 10 + i % 7
    c0e = c1e + 3
    cyc = c0e + 20
    total[0] += c0e - c0
    total[1] += c1e - c1
    entries += [(start, 0, c0), (start, 1, c1), (end, 1, c1e), (end, 0, c0e)]
odd = 2 * n if mode == "odd" else -1
for k, (ret, ident, c) in enumerate(entries):
    sep = "," if k + 1 != len(entries) else ""
    if k == odd:
        body = '\t\t"ret":%d,\n\t\t"id":%d,\n\t\t"cyc":%d,\n\t\t"note":[1]' % (
            ret, ident, c)
    elif k == odd + 1:
        body = '\t\t"cyc":%d,\n\t\t"\\u0069d":%d,\n\t\t"ret":%d' % (c, ident,
                                                                     ret)
    elif mode == "bad" and k + 1 == len(entries):
        body = '\t\t"ret":%d,\n\t\t"id":%d,\n\t\t"cyc":%dx' % (ret, ident, c)
    else:
        body = '\t\t"ret":%d,\n\t\t"id":%d,\n\t\t"cyc":%d' % (ret, ident, c)
    lines.append('\t{\n' + body + '\n\t}' + sep)
counts = "" if mode == "nocounts" else \
    ',\n\n\t"loop_counts":[\n\t\t%d,\n\t\t%d\n\t]' % (n, n)
text = "\n".join(lines) + "\n\t]" + counts + "\n}\n"
with open(out, "w") as f:
    f.write(text)
with open(expected, "w") as f:
    if mode == "bad":
        pos = text.rindex("x\n\t}")
        line = text.count("\n", 0, pos) + 1
        col = pos - text.rindex("\n", 0, pos)
        f.write("line %d, column %d\n" % (line, col))
    else:
        for ident in (0, 1):
            f.write("%d,%d,%d,%.1f\n" % (ident, n, n, total[ident]))
