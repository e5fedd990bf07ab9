"""Checks the figures of an lwp-report JSON file (figures.test).

  check_figures.py REPORT.json [--counts FUNC:KIND:DEPTH=N ...]
      [--raw RAW.txt] [--trace TRACE.json] [--brackets OUT.txt]
      [--below-brackets OUT.txt] [--share FUNC<PCT | --share FUNC>PCT ...]

Always: 0 <= self <= cycles; a region never longer than its map parent;
shares <= 100%. --brackets (lines "bracket FUNC CYCLES" a program printed,
a run without compensation, LWP_COMPENSATE=0, the report run with
--no-overhead-correction): each function's cycles within 1% of the
program's own bracket of its calls, never above it. --below-brackets (a
compensated run): each function's cycles above 0 and not above its
bracket. --counts: exact counts of the named regions. --raw (lwp-report --raw
of the same dump, written with every instance recorded and the report run
with --no-overhead-correction): each region's cycles equal the sum of its
recorded instances (end - start, paired per thread). --trace: every event of
a Chrome trace lies inside the events it overlaps (proper nesting per
thread). --share: a function region's share of the program is below or
above PCT percent. Prints "figures ok".
"""
import json
import re
import sys


def main(argv):
    rows = json.load(open(argv[0]))["regions"]
    by_id = {r["id"]: r for r in rows}
    errors = []
    for r in rows:
        where = "%s %s (ID %d)" % (r["function"], r["kind"], r["id"])
        if r["self"] < -1e-6:
            errors.append("%s: self %s below 0" % (where, r["self"]))
        if r["self"] > r["cycles"] + 1e-6:
            errors.append("%s: self %s > cycles %s" % (where, r["self"],
                                                       r["cycles"]))
        if r["share"] is None:
            errors.append("%s: implausible figures (the report gives no "
                          "share)" % where)
        elif r["share"] > 100.0 + 1e-6:
            errors.append("%s: share %.1f%% above 100%%" % (where, r["share"]))
        p = by_id.get(r["parent"]) if r["parent"] is not None else None
        if p is not None and r["cycles"] > p["cycles"] + 1e-6:
            errors.append("%s: %s cycles, more than its parent's %s" %
                          (where, r["cycles"], p["cycles"]))
    args = iter(argv[1:])
    for a in args:
        if a == "--counts":
            continue
        if a == "--raw":
            sums, stacks = {}, {}
            tid = None
            for line in open(next(args)):
                m = re.match(r"thread \d+: tid (\d+)", line)
                if m:
                    tid = m.group(1)
                    stacks[tid] = []
                    continue
                m = re.match(r"\s+(start|end)\s+(\d+)\s+site \S+\s+cycles (\d+)",
                             line)
                if not m:
                    continue
                kind, rid, cyc = m.group(1), int(m.group(2)), int(m.group(3))
                if kind == "start":
                    stacks[tid].append((rid, cyc))
                else:
                    sid, start = stacks[tid].pop()
                    assert sid == rid, (sid, rid)
                    sums[rid] = sums.get(rid, 0) + cyc - start
            for rid, total in sums.items():
                if abs(by_id[rid]["cycles"] - total) > 1e-6:
                    errors.append("region %d: %s cycles, recorded instances "
                                  "sum to %d" % (rid, by_id[rid]["cycles"],
                                                 total))
            continue
        if a in ("--brackets", "--below-brackets"):
            below = a == "--below-brackets"
            for line in open(next(args)):
                m = re.match(r"bracket (\S+) (\d+)$", line.strip())
                if not m:
                    continue
                func, bracket = m.group(1), int(m.group(2))
                match = [r for r in rows if r["function"] == func and
                         r["kind"] == "function"]
                if len(match) != 1:
                    errors.append("bracket %s: no function row" % func)
                    continue
                cycles = match[0]["cycles"]
                off = (cycles - bracket) / bracket
                if not (0 < cycles <= bracket if below else -0.01 <= off <= 0):
                    errors.append("%s: %s cycles, the program's bracket %d "
                                  "(%+.3f%%)" % (func, cycles, bracket,
                                                 100 * off))
            continue
        if a == "--trace":
            events = [e for e in json.load(open(next(args)))["traceEvents"]
                      if e.get("ph") == "X"]
            per_thread = {}
            for e in events:
                per_thread.setdefault(e["tid"], []).append(
                    (e["ts"], -e["dur"], e["ts"] + e["dur"], e["name"]))
            for tid, evs in per_thread.items():
                evs.sort()
                open_ = []
                for ts, _, end, name in evs:
                    while open_ and open_[-1][0] <= ts + 1e-9:
                        open_.pop()
                    if open_ and end > open_[-1][0] + 1e-9:
                        errors.append("trace: %s [%f, %f] leaves %s ending "
                                      "at %f" % (name, ts, end, open_[-1][1],
                                                 open_[-1][0]))
                    open_.append((end, name))
            continue
        if a == "--share":
            # FUNC<PCT or FUNC>PCT: the function region's share of the
            # program, in percent.
            m = re.match(r"(\w+)([<>])([\d.]+)$", next(args))
            func, op, pct = m.group(1), m.group(2), float(m.group(3))
            match = [r for r in rows if r["function"] == func and
                     r["kind"] == "function"]
            share = match[0]["share"] if len(match) == 1 else None
            if share is None or (share >= pct if op == "<" else share <= pct):
                errors.append("%s: share %s%%, expected %s %s%%" %
                              (func, share, op, pct))
            continue
        func, kind, depth_count = a.split(":")
        depth, count = depth_count.split("=")
        match = [r for r in rows if r["function"] == func and r["kind"] == kind
                 and str(r["depth"] if r["depth"] is not None else "-") ==
                 depth]
        if len(match) != 1 or match[0]["count"] != int(count):
            errors.append("%s: expected count %s, got %s" %
                          (a, count, [m["count"] for m in match]))
    if errors:
        print("\n".join(errors))
        sys.exit(1)
    print("figures ok")


if __name__ == "__main__":
    main(sys.argv[1:])
