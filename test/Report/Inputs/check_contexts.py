"""Checks the calling contexts and per-instance figures of lwp-report outputs
(contexts.test, contexts-dump.test, overhead-clamp.test).

  check_contexts.py REPORT.json [PATH=COUNT ...] [--folded N] [--no-sum]
                    [--sum-within PCT]
                    [--trace TRACE.json] [--page PAGE.html] [--stacks FILE]

Prints "contexts ok" when: the contexts' self cycles add up to the table's
top-level cycles exactly (within PCT percent with --sum-within PCT; not
at all with --no-sum); no region's per-instance
figure (min, median, p90, max) exceeds its cycles (as the table rounds
them); each PATH (region labels
joined by ';') has COUNT instances; with --folded N, N paths are flagged
folded; with --trace, no Chrome trace event's cycles exceed its region's
cycles, and the events marked "clamped" are of regions marked
instances_clamped; with --page (an HTML report), the same for its
timeline, and its icicle stacks add up to the top-level cycles (within
PCT percent with --sum-within); with
--stacks (folded stacks), their counts add up to the top-level cycles.
Else one line per failure.
"""
import base64
import json
import re
import sys
import zlib

report = json.load(open(sys.argv[1]))
errors = []
contexts = report.get("contexts", [])
top = report["dump"]["top_level_cycles"]
regions = {r["id"]: r for r in report["regions"]}
args = sys.argv[2:]


def shown(cycles):
    """Cycles as the table shows them (rounded half up, as llround)."""
    return int(cycles + 0.5)


within = None
if "--sum-within" in args:
    within = float(args[args.index("--sum-within") + 1])
if "--no-sum" not in args:
    total = sum(c["self"] for c in contexts)
    if within is None and total != top:
        errors.append("contexts add up to %d, the top-level cycles are %s"
                      % (total, top))
    if within is not None and abs(total - top) > top * within / 100:
        errors.append("contexts add up to %d, more than %s%% from the "
                      "top-level cycles %s" % (total, within, top))
for r in report["regions"]:
    for key in ("min", "median", "p90", "max"):
        if r["cycles"] is not None and r[key] > shown(r["cycles"]):
            errors.append("%s %s: %s %d above its cycles %d"
                          % (r["function"], r["kind"], key, r[key],
                             r["cycles"]))


def check_instance(where, ident, cycles, clamped):
    r = regions.get(ident)
    if r is None or r["cycles"] is None:
        return
    if cycles > shown(r["cycles"]):
        errors.append("%s: an instance of %d with %d cycles, above its "
                      "region's %s" % (where, ident, cycles, r["cycles"]))
    if clamped and not r["instances_clamped"]:
        errors.append("%s: an instance of %d marked clamped, its region not"
                      % (where, ident))


by_path = {";".join(c["path"]): c for c in contexts}
while args:
    a = args.pop(0)
    if a == "--no-sum":
        continue
    if a == "--sum-within":
        args.pop(0)
        continue
    if a == "--folded":
        want = int(args.pop(0))
        got = sum(1 for c in contexts if c["folded"])
        if got != want:
            errors.append("%d folded paths, expected %d" % (got, want))
        continue
    if a == "--trace":
        for e in json.load(open(args.pop(0)))["traceEvents"]:
            if e["ph"] == "X":
                check_instance("trace", e["args"]["id"], e["args"]["cycles"],
                               e["args"].get("clamped", False))
        continue
    if a == "--page":
        page = open(args.pop(0), encoding="utf-8").read()
        m = re.search(r'data-encoding="([^"]*)">([^<]*)</script>', page)
        raw = base64.b64decode(m.group(2))
        data = json.loads(zlib.decompress(raw)
                          if m.group(1) == "zlib+base64" else raw)
        tl = data["timeline"]
        n = tl.get("fields", 6)
        rows = tl["instances"]
        for i in range(0, len(rows), n):
            check_instance("timeline", rows[i + 1], rows[i + 4],
                           n > 6 and rows[i + 6] == 1)
        total = sum(s[1] for s in data["stacks"])
        if abs(total - top) > (top * within / 100 if within else 0):
            errors.append("the page's stacks add up to %d, the top-level "
                          "cycles are %s" % (total, top))
        continue
    if a == "--stacks":
        total = sum(int(line.rsplit(" ", 1)[1])
                    for line in open(args.pop(0)) if line.strip())
        if total != top:
            errors.append("the folded stacks add up to %d, the top-level "
                          "cycles are %s" % (total, top))
        continue
    path, count = a.rsplit("=", 1)
    c = by_path.get(path)
    if not c or c["count"] != int(count):
        errors.append("path %s: %s instances, expected %s"
                      % (path, c["count"] if c else "no such path", count))
print("\n".join(errors) if errors else "contexts ok")
