#!/usr/bin/env python3
"""Runs a benchmark program several times and gives min / median / max of
every figure it prints, so that a rerun can confirm a figure (single runs on
this shared machine do not reproduce).

Usage: repeat.py N CMD [ARGS...]
Figures are the lines "LABEL  NUMBER UNIT ..." that CMD prints (e.g.
probe_cost_x86: "probe pair, recording (warm)   49.8 ticks  ratio 1.00x");
a "ratio R.RRx" on the line is summarized too. The environment is passed on
(LWP_* variables).
"""
import os
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"^(\S.*?)\s{2,}([-\d.]+) (\w+)(?:.*?ratio ([\d.]+)x)?")


def main():
    n, cmd = int(sys.argv[1]), sys.argv[2:]
    figures, order = {}, []
    for _ in range(n):
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        for line in out.stdout.splitlines():
            m = LINE.match(line)
            if not m:
                continue
            label, value, unit, ratio = m.groups()
            if label not in figures:
                figures[label] = (unit, [], [])
                order.append(label)
            figures[label][1].append(float(value))
            if ratio:
                figures[label][2].append(float(ratio))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import rows
    # The reference of the table's rows: the bare counter read of the same
    # runs (probe_cost_x86's "rdtsc" lines).
    ref = [l for l in order if "rdtsc" in l]
    reference = ("%s %.1f %s (median)" % (
        ref[0], statistics.median(figures[ref[0]][1]), figures[ref[0]][0])
        if ref else "-")
    name = os.path.basename(cmd[0])
    for label in order:
        unit, values, _ = figures[label]
        if label not in ref:
            rows.emit("probe cost (%s): %s" % (name, label), unit, values,
                      reference, "utils/bench/repeat.py %d %s" % (n, name))
    print("%d runs of %s: min / median / max" % (n, " ".join(cmd)))
    for label in order:
        unit, values, ratios = figures[label]
        text = "%-36s %8.1f %8.1f %8.1f %s" % (
            label, min(values), statistics.median(values), max(values), unit)
        if ratios:
            text += "   ratio %.2f / %.2f / %.2fx" % (
                min(ratios), statistics.median(ratios), max(ratios))
        print(text)


if __name__ == "__main__":
    main()
