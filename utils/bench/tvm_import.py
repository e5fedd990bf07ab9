#!/usr/bin/env python3
"""TVM import speed and memory: lwp-report --tvm-json on synthetic lwp.json
files of 1M and 10M entries, side by side with Apache TVM's own
post-processor when its path is given.

Usage: tvm_import.py MKBIGDUMP LWP_REPORT [SIZES] [TVM_SCRIPT]
MKBIGDUMP: utils/bench/mkbigdump.c built (its "tvm" mode writes the files).
SIZES default "1000000,10000000". TVM_SCRIPT: the path of
python/tvm/contrib/hexagon/profiling/process_lwp_data.py from an apache/tvm
checkout (not part of LWP; skipped when absent or "-"). It wants
$HEXAGON_TOOLCHAIN/bin/hexagon-nm, here llvm-nm-22, and a simulator run log
naming the load address; both are made in the temporary directory.
Environment: BENCH_RUNS (runs per tool and size, default 5), BENCH_TVM_RUNS
(runs of TVM's script, default 3: 10M entries take a minute and ~4 GB).

Method: a model .so of 16 functions (clang-22 -shared) is the binary; each
input is written once, the page cache warmed by one untimed run of each tool,
then every run is timed (perf_counter, and wait4 for the CPU time and
memory): wall seconds (min / median / max), user + system CPU seconds
(median: on a shared machine the wall time includes waiting for a core;
above the wall time when lwp-report's two threads overlap), maximum
resident set size (max over runs). entries/s = entries / median
wall seconds. LWP: --format=csv to /dev/null (import, map inference, the
whole analysis); TVM: its CSV report.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

from benchtime import timed
import rows

FUNCS = 16
LOAD = 0x40000


def model(tmp):
    src = os.path.join(tmp, "model.c")
    with open(src, "w") as f:
        for i in range(FUNCS):
            f.write("int f%d(volatile int *a, int n) {\n"
                    "  int s = %d;\n"
                    "  for (int i = 0; i < n; ++i) s += a[i] * %d + (s >> 3);\n"
                    "  for (int i = 0; i < n; ++i) a[i] ^= s + i;\n"
                    "  return s;\n}\n" % (i, i, i + 3))
    so = os.path.join(tmp, "model.so")
    subprocess.run(["clang-22", "-O1", "-fPIC", "-shared", "-o", so, src],
                   check=True)
    nm = subprocess.run(["llvm-nm-22", "--print-size", "--defined-only", so],
                        capture_output=True, text=True, check=True).stdout
    addrs = {}
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 4 and re.fullmatch(r"f\d+", parts[3]):
            if int(parts[1], 16) < 48:
                sys.exit("tvm_import: f%s is shorter than 48 bytes" % parts[3])
            addrs[parts[3]] = int(parts[0], 16)
    return so, [addrs["f%d" % i] for i in range(FUNCS)]


def row(tool, n, walls, cpus, rss):
    med = statistics.median(walls)
    print("%-22s %11d %5d %7.3f %8.3f %7.3f %12.4g %8.3f %9.0f MB" % (
        tool, n, len(walls), min(walls), med, max(walls), n / med,
        statistics.median(cpus), rss / 1024))
    return n / med


def main():
    mk, report = sys.argv[1], sys.argv[2]
    sizes = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else
                              "1000000,10000000").split(",")]
    script = sys.argv[4] if len(sys.argv) > 4 else "-"
    if script != "-" and not os.path.exists(script):
        print("TVM script %s not found: TVM's figures skipped" % script)
        script = "-"
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    tvm_runs = int(os.environ.get("BENCH_TVM_RUNS", "3"))
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) \
            as tmp:
        so, addrs = model(tmp)
        env = dict(os.environ)
        if script != "-":
            os.makedirs(os.path.join(tmp, "tc", "bin"))
            os.symlink(subprocess.run(["which", "llvm-nm-22"],
                                      capture_output=True, text=True,
                                      check=True).stdout.strip(),
                       os.path.join(tmp, "tc", "bin", "hexagon-nm"))
            env["HEXAGON_TOOLCHAIN"] = os.path.join(tmp, "tc")
            with open(os.path.join(tmp, "stdout.txt"), "w") as f:
                f.write("Model loaded: 0x%x:\n" % LOAD)
        print("method: %d timed runs per tool and size (TVM's script: %d) "
              "after one warm-up; wall seconds min/median/max, max RSS" %
              (runs, tvm_runs))
        print("%-22s %11s %5s %7s %8s %7s %12s %8s %12s" % (
            "tool", "entries", "runs", "min s", "median s", "max s",
            "entries/s", "cpu s", "max RSS"))
        for n in sizes:
            js = os.path.join(tmp, "lwp.json")
            subprocess.run([mk, "tvm", str(n), js, hex(LOAD)] +
                           [hex(a) for a in addrs], check=True)
            size = os.path.getsize(js)
            cmd = [report, "--tvm-json=" + js, "--load-address=%#x" % LOAD,
                   so, "--format=csv", "-o", os.devnull]
            subprocess.run(cmd, check=True)
            walls, cpus, rss = [], [], 0
            for _ in range(runs):
                w, u, sy, r = timed(cmd)
                c = u + sy
                walls.append(w)
                cpus.append(c)
                rss = max(rss, r)
            lwp = row("lwp-report --tvm-json", n, walls, cpus, rss)
            lwp_walls = walls
            if script != "-":
                out = os.path.join(tmp, "tvm.csv")
                tcmd = ["python3", script, "--lwp-json", js, "--serial-num",
                        "simulator", "--test-so", so, "--run-log",
                        os.path.join(tmp, "stdout.txt"), "--lwp-out", out]
                subprocess.run(tcmd, check=True, env=env,
                               stdout=subprocess.DEVNULL)
                walls, cpus, rss = [], [], 0
                for _ in range(tvm_runs):
                    w, u, sy, r = timed(tcmd, env)
                    c = u + sy
                    walls.append(w)
                    cpus.append(c)
                    rss = max(rss, r)
                tvm = row("TVM process_lwp_data", n, walls, cpus, rss)
                print("%-22s %11d  lwp-report / TVM: %.1fx entries/s "
                      "(file %.0f MB)" % ("ratio", n, lwp / tvm, size / 1e6))
                ref = "TVM process_lwp_data.py %.3f s (median of %d)" % (
                    n / tvm, tvm_runs)
            else:
                ref = "TVM's script not run (TVM_LWP_SCRIPT unset)"
            rows.emit("TVM import: lwp-report --tvm-json, %dM entries" %
                      (n // 1000000), "s", lwp_walls, ref,
                      "utils/bench/tvm_import.py mkbigdump lwp-report %d"
                      % n)
            os.unlink(js)


if __name__ == "__main__":
    main()
