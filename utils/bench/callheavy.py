#!/usr/bin/env python3
"""Slowdown of a call-heavy program under LWP, by -lwp-instruction-threshold,
and the coverage each threshold gives up (issue 23).

Usage: callheavy.py BUILD_DIR [RUNS [THRESHOLDS [SCALE]]]
  RUNS        rounds (default 5)
  THRESHOLDS  comma-separated (default 0,20,50,200)
  SCALE       callheavy's argument (default 4)

Builds utils/bench/callheavy.c with clang -O2 uninstrumented (the reference)
and once per threshold with the LWP plugin at -stats-level=70
-max-loop-depth=1 (the configuration of the issue's measurement) and
-lwp-instruction-threshold=T, linked with the host runtime.

Method: RUNS rounds; each round runs the reference and every variant once,
interleaved, so that the machine's other load hits them alike. A run's
figure is its CPU time (user + system, from wait4: the machine is shared, so
wall time measures the neighbours too); a variant's slowdown in a round is
its CPU time over the reference's in the same round. Printed: min / median /
max over the rounds.

Coverage lost at T: the functions whose region T skipped (the map's
small_functions; their names: function regions of the threshold-0 map that
the threshold-T map lacks) and their share of the program's cycles, from one
profile of the threshold-0 build (sum of the skipped functions' self cycles
over the sum of every region's self cycles; the threshold-0 profile carries
the probes' own cost, so the share is an upper bound).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchtime import timed  # noqa: E402
import rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CC = os.environ.get("CC", "clang-22")


def build(tmp, lib, threshold):
    src = os.path.join(HERE, "callheavy.c")
    if threshold is None:
        exe = os.path.join(tmp, "plain")
        subprocess.run([CC, "-O2", "-gline-tables-only", "-o", exe, src],
                       check=True)
        return exe, None
    exe = os.path.join(tmp, "t%d" % threshold)
    mapf = exe + ".map.json"
    subprocess.run([CC, "-O2", "-gline-tables-only", "-fpass-plugin=" + os.path.join(
        lib, "LWPLLVMPlugin.so"), "-mllvm", "-stats-level=70",
        "-mllvm", "-max-loop-depth=1",
        "-mllvm", "-lwp-instruction-threshold=%d" % threshold,
        "-mllvm", "-lwp-map-file=" + mapf, "-o", exe, src,
        os.path.join(lib, "liblwp_host.a"), "-lpthread"], check=True)
    return exe, json.load(open(mapf))


def functions(m):
    return {r["function"] for r in m["regions"] if r["kind"] == "function"}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build_dir = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    thresholds = [int(t) for t in (sys.argv[3] if len(sys.argv) > 3
                                   else "0,20,50,200").split(",")]
    scale = sys.argv[4] if len(sys.argv) > 4 else "4"
    if 0 not in thresholds:
        thresholds.insert(0, 0)
    lib = os.path.join(build_dir, "lib")
    report = os.path.join(build_dir, "bin", "lwp-report")
    tmp = tempfile.mkdtemp(prefix="lwp-callheavy.")
    try:
        plain, _ = build(tmp, lib, None)
        variants = {t: build(tmp, lib, t) for t in thresholds}
        env = dict(os.environ, LWP_OUTPUT="")
        ref = subprocess.run([plain, scale], capture_output=True, text=True,
                             check=True).stdout
        for t, (exe, _) in variants.items():
            out = subprocess.run([exe, scale], capture_output=True, text=True,
                                 env=env, check=True).stdout
            if out != ref:
                sys.exit("callheavy: threshold %d prints %r, the reference %r"
                         % (t, out, ref))
        cpu = {t: [] for t in [None] + thresholds}
        for _ in range(runs):
            for t in [None] + thresholds:
                exe = plain if t is None else variants[t][0]
                _, user, system, _ = timed([exe, scale], env)
                cpu[t].append(user + system)
        # One profile of the threshold-0 build: self cycles per function.
        dump = os.path.join(tmp, "t0.dump")
        subprocess.run([variants[0][0], scale], env=dict(env, LWP_OUTPUT=dump),
                       check=True, capture_output=True)
        prof = json.loads(subprocess.run(
            [report, variants[0][0], dump, "--format=json"], check=True,
            capture_output=True, text=True).stdout)
        self_by_fn, total = {}, 0.0
        for r in prof["regions"]:
            total += r["self"]
            if r["kind"] == "function":
                self_by_fn[r["function"]] = (self_by_fn.get(r["function"], 0)
                                             + r["self"])
    finally:
        shutil.rmtree(tmp)

    cmd = "utils/bench/callheavy.py BUILD %d %s %s" % (
        runs, ",".join(map(str, thresholds)), scale)
    all_fns = functions(variants[0][1])
    print("callheavy %s: %d rounds, CPU time (user+sys), -O2, LWP "
          "-stats-level=70 -max-loop-depth=1" % (scale, runs))
    b = cpu[None]
    print("%-34s %8.3f %8.3f %8.3f s" % ("uninstrumented (reference)",
                                         min(b), statistics.median(b), max(b)))
    refs = "uninstrumented %.3f s (median)" % statistics.median(b)
    print("%-34s %8s %8s %8s   %s" % ("threshold", "min", "median", "max",
                                      "functions skipped, share of cycles"))
    for t in thresholds:
        slow = [c / p for c, p in zip(cpu[t], b)]
        m = variants[t][1]
        small = m.get("small_functions", 0)
        skipped = sorted(all_fns - functions(m))
        share = sum(self_by_fn.get(f, 0) for f in skipped) / total * 100
        print("%-34s %7.2fx %7.2fx %7.2fx   %d of %d, %.1f%%%s" % (
            "-lwp-instruction-threshold=%d" % t, min(slow),
            statistics.median(slow), max(slow), small, len(all_fns), share,
            (" (" + " ".join(skipped) + ")") if skipped else ""))
        rows.emit("callheavy slowdown, -lwp-instruction-threshold=%d "
                  "(%d of %d functions skipped, %.1f%% of cycles)"
                  % (t, small, len(all_fns), share), "x", slow, refs, cmd)


if __name__ == "__main__":
    main()
