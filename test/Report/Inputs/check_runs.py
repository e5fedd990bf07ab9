#!/usr/bin/env python3
"""Checks lwp-report's JSON over several runs (docs/report.md, "Several runs").

  check_runs.py RUNS.json [--single A.json B.json ...] [--zero-spread]
                [--equal-counts]

Every region: one value per run for cycles, self and share; min <= mean <= max,
min and max the extremes of the values, mean their average and stddev their
sample standard deviation. --single: the JSON of each dump reported alone, in
run order: each run's value is that report's cycles / self and its count lies
in [min, max]. --zero-spread: min == mean == max and stddev 0 exactly (a
deterministic counter). --equal-counts: every region's count equal in every
run. Prints "OK <regions> regions, <runs> runs" or the first problem.
"""
import json
import math
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main(argv):
    runs = json.load(open(argv[1]))
    args = argv[2:]
    single = []
    zero = "--zero-spread" in args
    equal = "--equal-counts" in args
    if "--single" in args:
        i = args.index("--single") + 1
        while i < len(args) and not args[i].startswith("--"):
            single.append(json.load(open(args[i])))
            i += 1
    n = len(runs["runs"])
    if n < 2:
        fail("%d runs" % n)
    if single and len(single) != n:
        fail("%d single reports for %d runs" % (len(single), n))
    if not runs["regions"]:
        fail("no regions")
    for r in runs["regions"]:
        name = "%s:%s:%s" % (r["function"], r["kind"], r["depth"])
        for field in ("cycles", "self", "share"):
            s = r[field]
            v = s["runs"]
            if len(v) != n:
                fail("%s %s: %d values for %d runs" % (name, field, len(v), n))
            if not (s["min"] <= s["mean"] <= s["max"]):
                fail("%s %s: min %r mean %r max %r" %
                     (name, field, s["min"], s["mean"], s["max"]))
            if s["min"] != min(v) or s["max"] != max(v):
                fail("%s %s: min/max %r/%r, values %r" %
                     (name, field, s["min"], s["max"], v))
            mean = sum(v) / n
            if not math.isclose(s["mean"], mean, rel_tol=1e-9, abs_tol=1e-9):
                fail("%s %s: mean %r, values give %r" %
                     (name, field, s["mean"], mean))
            sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
            if not math.isclose(s["stddev"], sd, rel_tol=1e-6, abs_tol=1e-6):
                fail("%s %s: stddev %r, values give %r" %
                     (name, field, s["stddev"], sd))
            if zero and (s["stddev"] != 0 or s["min"] != s["max"] or
                         s["mean"] != s["min"]):
                fail("%s %s: spread %r..%r sd %r, expected none" %
                     (name, field, s["min"], s["max"], s["stddev"]))
        c = r["count"]
        if c["equal"] != (c["min"] == c["max"]):
            fail("%s: count %r" % (name, c))
        if equal and not c["equal"]:
            fail("%s: counts differ %r" % (name, c))
        for i, one in enumerate(single):
            rows = [x for x in one["regions"] if x["id"] == r["id"]]
            cyc = rows[0]["cycles"] if rows else 0
            slf = rows[0]["self"] if rows else 0
            cnt = rows[0]["count"] if rows else 0
            if not math.isclose(r["cycles"]["runs"][i], cyc, rel_tol=1e-12):
                fail("%s run %d: cycles %r, alone %r" %
                     (name, i, r["cycles"]["runs"][i], cyc))
            if not math.isclose(r["self"]["runs"][i], slf, rel_tol=1e-12):
                fail("%s run %d: self %r, alone %r" %
                     (name, i, r["self"]["runs"][i], slf))
            if not (c["min"] <= cnt <= c["max"]):
                fail("%s run %d: count %d outside %r" % (name, i, cnt, c))
    print("OK %d regions, %d runs" % (len(runs["regions"]), n))


if __name__ == "__main__":
    main(sys.argv)
