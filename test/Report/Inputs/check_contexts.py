"""Checks the calling contexts of an lwp-report JSON file (contexts.test).

  check_contexts.py REPORT.json [PATH=COUNT ...] [--folded N] [--no-sum]

Prints "contexts ok" when: the contexts' self cycles add up to the table's
top-level cycles exactly (not with --no-sum: a dump without compensation
has raw trees, which the report does not correct); no region's per-instance figure (min, median, p90,
max) exceeds its cycles; each PATH (region labels joined by ';') has COUNT
instances; and, with --folded N, N paths are flagged folded. Else one line
per failure.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
errors = []
contexts = report.get("contexts", [])
top = report["dump"]["top_level_cycles"]
total = sum(c["self"] for c in contexts)
if total != top and "--no-sum" not in sys.argv:
    errors.append("contexts add up to %d, the top-level cycles are %s"
                  % (total, top))
for r in report["regions"]:
    for key in ("min", "median", "p90", "max"):
        if r["cycles"] is not None and r[key] > r["cycles"]:
            errors.append("%s %s: %s %d above its cycles %d"
                          % (r["function"], r["kind"], key, r[key],
                             r["cycles"]))
by_path = {";".join(c["path"]): c for c in contexts}
args = sys.argv[2:]
while args:
    a = args.pop(0)
    if a == "--no-sum":
        continue
    if a == "--folded":
        want = int(args.pop(0))
        got = sum(1 for c in contexts if c["folded"])
        if got != want:
            errors.append("%d folded paths, expected %d" % (got, want))
        continue
    path, count = a.rsplit("=", 1)
    c = by_path.get(path)
    if not c or c["count"] != int(count):
        errors.append("path %s: %s instances, expected %s"
                      % (path, c["count"] if c else "no such path", count))
print("\n".join(errors) if errors else "contexts ok")
