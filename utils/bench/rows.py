#!/usr/bin/env python3
"""The rows of docs/performance.md's table, collected from the benchmarks.

A benchmark reports a figure with emit() (Python) or `rows.py add` (shell):
one JSON line appended to the file that $BENCH_ROWS names (nothing when it is
unset). `rows.py table FILE` prints the machine and the table in the format
of docs/performance.md: one row a figure, min / median / max over the runs,
the reference measured in the same run, and the command. Given the rows of
several sessions (run-all.sh --rows FILE, one file a session), it pools each
figure's runs across them: min / median / max over every run, the `runs`
cell "N (S sessions)", the reference and the figure's name (its measured
parts, such as "59.6% of cycles") from the last session that has it. Pooling
sessions run at different times puts the machine's drift between sessions
(other tenants of a shared VM) into the spread, which one session's runs
do not see.

  rows.py add FILE FIGURE UNIT VALUES REFERENCE COMMAND   (VALUES: a,b,c)
  rows.py table FILE [FILE...]
  rows.py compare DOC.md RERUN.md

`compare` checks a rerun against the table of record: for every figure in
both (matched by name, the measured parts of a name, "59.6% of cycles" and
"max RSS 64 MB", left out), whether the rerun's median lies within the
table's min..max, and if not by how much (percent of the nearer bound;
points for a figure in percent).
RERUN.md is run-all.sh's output (or any file holding its table). Prints
one line a figure and a count; exits 0 either way.
"""
import json
import os
import platform
import re
import statistics
import subprocess
import sys


def emit(figure, unit, values, reference, command, path=None):
    """Appends one row: \\p values are the figure's runs (one value for a
    deterministic figure), \\p reference the same run's baseline (text)."""
    path = path or os.environ.get("BENCH_ROWS")
    if not path:
        return
    with open(path, "a") as f:
        f.write(json.dumps({"figure": figure, "unit": unit,
                            "values": [float(v) for v in values],
                            "reference": reference,
                            "command": command}) + "\n")


def fmt(v):
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 100:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3f" % v


def machine():
    """One line: CPU model, cores, memory, kernel (lscpu, /proc)."""
    model, cpus = "?", os.cpu_count()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Model name":
                model = value.strip()
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = "%.0f GiB" % (kb / 2**20)
    except (OSError, ValueError, IndexError):
        pass
    return "%s, %s cores, %s, Linux %s" % (model, cpus, mem,
                                           platform.release())


def figure_key(figure):
    """A figure's name without its measured parts (they change run to run)."""
    key = re.sub(r"[0-9.]+% of cycles", "#% of cycles", figure)
    return re.sub(r"max RSS [0-9.]+ MB", "max RSS # MB", key)


def pooled(paths):
    """The rows of the session files \p paths, in the first-seen order, each
    figure's values pooled; adds "sessions" (how many files had it). Returns
    the rows and the files' session lines (commit, date, load)."""
    rows, order, sessions = {}, [], []
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                if "session" in r:  # run-all.sh's line about the session
                    sessions.append(r["session"])
                    continue
                key = figure_key(r["figure"])
                if key not in rows:
                    order.append(key)
                    rows[key] = dict(r, values=[], sessions=0)
                row = rows[key]
                row.update(figure=r["figure"], reference=r["reference"])
                row["values"] += r["values"]
                row["sessions"] += 1
    return [rows[k] for k in order], sessions


def table(paths):
    rows, sessions = pooled(paths)
    if len(paths) > 1:
        for i, line in enumerate(sessions, 1):
            print("Session %d: %s  " % (i, line))
    print("Machine: " + machine())
    print()
    print("| figure | min | median | max | unit | runs | reference (same run) "
          "| command |")
    print("|---|---:|---:|---:|---|---:|---|---|")
    for r in rows:
        v = r["values"]
        if v:
            lo, med, hi = fmt(min(v)), fmt(statistics.median(v)), fmt(max(v))
        else:
            lo = med = hi = "not measured"
        runs = "%d" % len(v)
        if len(paths) > 1:
            n = r["sessions"]
            runs += " (%d session%s)" % (n, "" if n == 1 else "s")
        print("| %s | %s | %s | %s | %s | %s | %s | `%s` |" % (
            r["figure"], lo, med, hi, r["unit"], runs, r["reference"],
            r["command"]))


def read_table(path):
    """The rows of the markdown table in \p path: {key: (figure, min,
    median, max, unit)}, the key being the figure without its measured
    parts; rows whose figures are not numbers are skipped."""
    rows = {}
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 8 or not line.startswith("| "):
                continue
            try:
                lo, med, hi = (float(c) for c in cells[1:4])
            except ValueError:
                continue
            rows[figure_key(cells[0])] = (cells[0], lo, med, hi, cells[4])
    return rows


def compare(doc, rerun):
    old, new = read_table(doc), read_table(rerun)
    inside = 0
    both = [k for k in new if k in old]
    for key in both:
        figure, lo, _, hi, unit = old[key]
        med = new[key][2]
        if lo <= med <= hi:
            inside += 1
            verdict = "inside"
        else:
            bound = lo if med < lo else hi
            if unit == "%":  # percentages: the distance in points
                verdict = "outside by %+.2f points" % (med - bound)
            elif bound:
                verdict = "outside by %+.1f%%" % (
                    100.0 * (med - bound) / abs(bound))
            else:
                verdict = "outside (bound 0)"
        print("%s: rerun median %s %s, table %s..%s: %s" % (
            new[key][0], fmt(med), unit, fmt(lo), fmt(hi), verdict))
    print("%d of %d figures inside the table's spread" % (inside, len(both)))
    for key in old:
        if key not in new:
            print("not in the rerun: " + old[key][0])


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 8 and sys.argv[1] == "add":
        _, _, path, figure, unit, values, ref, command = sys.argv
        vals = [v for v in values.split(",") if v]
        emit(figure, unit, vals, ref, command, path)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
