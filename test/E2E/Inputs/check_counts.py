#!/usr/bin/env python3
"""Checks an lwp-report CSV against exact region counts.

  check_counts.py REPORT.csv ID=COUNT... [--cap N]

Every region that ran must be listed with its exact count; a listed region
with COUNT 0 must not have run. Also checks what holds for every report:
self cycles are never negative, a region's inclusive cycles never exceed
its parent's, and samples = min(count, cap). Prints "counts ok: N regions".
"""
import csv
import sys


def main(argv):
    path, cap, expected = argv[0], 100, {}
    args = iter(argv[1:])
    for a in args:
        if a == "--cap":
            cap = int(next(args))
            continue
        rid, count = a.split("=")
        expected[int(rid)] = int(count)
    with open(path, newline="") as f:
        rows = {int(r["id"]): r for r in csv.DictReader(f)}
    errors = []
    for rid, r in sorted(rows.items()):
        count = int(r["count"])
        where = "region %d (%s %s, depth %s)" % (rid, r["kind"], r["function"],
                                                 r["depth"] or "-")
        if rid not in expected:
            errors.append("%s ran %d times; not expected to run" % (where, count))
        elif expected[rid] != count:
            errors.append("%s: count %d, expected %d" % (where, count,
                                                          expected[rid]))
        if float(r["self"]) < 0:
            errors.append("%s: negative self cycles %s" % (where, r["self"]))
        if int(r["samples"]) != min(count, cap):
            errors.append("%s: %s samples of %d executions (cap %d)" %
                          (where, r["samples"], count, cap))
        parent = r["parent"]
        if parent:
            p = rows.get(int(parent))
            if p is None:
                errors.append("%s ran outside its parent %s" % (where, parent))
            elif float(r["cycles"]) > float(p["cycles"]):
                errors.append("%s: %s cycles, more than its parent %s's %s" %
                              (where, r["cycles"], parent, p["cycles"]))
    for rid, count in sorted(expected.items()):
        if count and rid not in rows:
            errors.append("region %d did not run; expected %d" % (rid, count))
    for e in errors:
        print("error: " + e)
    if errors:
        return 1
    print("counts ok: %d regions" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
