#!/usr/bin/env python3
"""The rows of docs/performance.md's table, collected from the benchmarks.

A benchmark reports a figure with emit() (Python) or `rows.py add` (shell):
one JSON line appended to the file that $BENCH_ROWS names (nothing when it is
unset). `rows.py table FILE` prints the machine and the table in the format
of docs/performance.md: one row a figure, min / median / max over the runs,
the reference measured in the same run, and the command.

  rows.py add FILE FIGURE UNIT VALUES REFERENCE COMMAND   (VALUES: a,b,c)
  rows.py table FILE
"""
import json
import os
import platform
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


def table(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
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
        print("| %s | %s | %s | %s | %s | %d | %s | `%s` |" % (
            r["figure"], lo, med, hi, r["unit"], len(v), r["reference"],
            r["command"]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    elif len(sys.argv) == 8 and sys.argv[1] == "add":
        _, _, path, figure, unit, values, ref, command = sys.argv
        vals = [v for v in values.split(",") if v]
        emit(figure, unit, vals, ref, command, path)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
