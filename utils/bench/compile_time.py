#!/usr/bin/env python3
"""Compile-time share of LWP's passes.

Usage: compile_time.py LWP_LLVM_PLUGIN LWP_OPT MODEL.mlir [RUNS]

LLVM: a generated C file of 600 functions (each a 3-deep matmul-like nest and
a guarded stencil loop; 4 loop regions per function at max-loop-depth=1) is
compiled to bitcode with clang -O0 -Xclang -disable-O0-optnone, then
  opt -load-pass-plugin=LWPLLVMPlugin.so -O2 -stats-level=70
      -max-loop-depth=1 -time-passes big.bc -o /dev/null
is run RUNS times (default 3). Share = the pass's time / the "Total" of the
pass-execution table (user+system column), median over the runs.

MLIR: the bundled model (examples/model/conv_matmul.mlir) as it is, and the
model replicated 100 times with renamed symbols (a larger module), through
  lwp-opt --lwp-linalg-to-loops
          --lwp-instrument="stats-level=70 max-loop-depth=1"
          --lwp-to-llvm=target=x86_64 -mlir-timing
Share = LWPInstrument (and ConvertLWPToLLVM) / Total (wall), median over the
runs. Target (issue 7): lwp-instrument <= 2%.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rows  # noqa: E402


def gen_c(path, n=600):
    with open(path, "w") as out:
        for i in range(n):
            out.write("""
void k%d(int n, float *restrict a, const float *restrict b,
         const float *restrict c) {
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      float s = 0;
      for (int z = 0; z < n; ++z) s += b[x*n+z] * c[z*n+y] + %d.0f;
      a[x*n+y] = s > 0 ? s : -s;
    }
  for (int x = 1; x < n - 1; ++x)
    if (a[x] > %d) a[x] = (a[x-1] + a[x+1]) * 0.5f;
}
""" % (i, i, i))


def llvm_share(plugin, tmp, runs):
    c = os.path.join(tmp, "big.c")
    bc = os.path.join(tmp, "big.bc")
    gen_c(c)
    subprocess.run(["clang-22", "-O0", "-Xclang", "-disable-O0-optnone",
                    "-emit-llvm", "-c", c, "-o", bc], check=True)
    shares = {"lwp::LWPInstrumentPass": [], "lwp::LWPLowerPass": []}
    totals = []
    for _ in range(runs):
        err = subprocess.run(["opt-22", "-load-pass-plugin=" + plugin, "-O2",
                              "-stats-level=70", "-max-loop-depth=1",
                              "-time-passes", bc, "-o", os.devnull],
                             check=True, capture_output=True,
                             text=True).stderr
        # The pass-execution table: the one whose rows hold LWP's passes.
        table = err[err.index("Pass execution timing report"):]
        table = table[:table.index("Analysis execution timing report")] \
            if "Analysis execution timing report" in table else table
        total = float(re.search(r"^\s+\S+ \(100.0%\)\s+\S+ \(100.0%\)\s+"
                                r"(\S+) \(100.0%\).*Total$", table, re.M)[1])
        totals.append(total)
        for name in shares:
            m = re.search(r"^\s+\S+ \(.*?\)\s+\S+ \(.*?\)\s+(\S+) \(.*?\).*"
                          + re.escape(name) + r"$", table, re.M)
            shares[name].append(float(m[1]) / total * 100 if m else 0.0)
    return totals, shares


def mlir_share(lwp_opt, model, runs):
    cmd = [lwp_opt, model, "--lwp-linalg-to-loops",
           "--lwp-instrument=stats-level=70 max-loop-depth=1",
           "--lwp-to-llvm=target=x86_64", "-mlir-timing", "-o", os.devnull]
    res = {"LWPInstrument": [], "ConvertLWPToLLVM": []}
    totals = []
    for _ in range(runs):
        err = subprocess.run(cmd, check=True, capture_output=True,
                             text=True).stderr
        # One column (wall) or two (user+system, wall) when they differ:
        # the last column, wall time, as the LLVM table's.
        def wall(name):
            for line in err.splitlines():
                if line.rstrip().endswith("  " + name):
                    cols = re.findall(r"(\S+) \(\s*[\d.]+%\)", line)
                    if cols:
                        return float(cols[-1])
            return None
        total = wall("Total")
        totals.append(total)
        for name in res:
            t = wall(name)
            res[name].append(t / total * 100 if t is not None else 0.0)
    return totals, res


def replicate(model, out, copies=100):
    text = open(model).read()
    names = sorted(set(re.findall(r"func\.func @(\w+)", text)))
    with open(out, "w") as f:
        for i in range(copies):
            t = text
            for n in names:
                t = re.sub(r"@%s\b" % n, "@%s_%d" % (n, i), t)
            f.write(t + "\n")


def main():
    plugin, lwp_opt, model = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    print("method: median of %d runs; share = pass time / total of the "
          "timing report" % runs)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = "utils/bench/compile_time.py PLUGIN lwp-opt MODEL %d" % runs
        totals, runs_sh = llvm_share(plugin, tmp, runs)
        total = statistics.median(totals)
        sh = {k: statistics.median(v) for k, v in runs_sh.items()}
        print("opt -O2, generated module of 600 functions (a 3-deep nest "
              "and a loop each): total %.3f s" % total)
        for k, v in sh.items():
            print("  %-28s %6.2f%%" % (k, v))
            rows.emit("compile time: %s share of opt -O2 -stats-level=70 "
                      "(600 functions)" % k.replace("lwp::", ""), "%",
                      runs_sh[k], "opt -O2 total %.3f s (median)" % total,
                      cmd)
        worst = sh["lwp::LWPInstrumentPass"]
        big = os.path.join(tmp, "model100.mlir")
        replicate(model, big)
        for name, path in (("bundled model", model),
                           ("model x100 (renamed copies)", big)):
            totals, runs_sh = mlir_share(lwp_opt, path, runs)
            total = statistics.median(totals)
            sh = {k: statistics.median(v) for k, v in runs_sh.items()}
            print("lwp-opt pipeline, %s: total %.4f s" % (name, total))
            for k, v in sh.items():
                print("  %-28s %6.2f%%" % (k, v))
                rows.emit("compile time: %s share of the lwp-opt pipeline, %s"
                          % (k, name), "%", runs_sh[k],
                          "pipeline total %.4f s (median)" % total, cmd)
            worst = max(worst, sh["LWPInstrument"])
        print("target lwp-instrument <= 2%%: worst %.2f%% -> %s" % (
            worst, "met" if worst <= 2 else "MISSED"))


if __name__ == "__main__":
    main()
