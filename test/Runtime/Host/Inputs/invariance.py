"""Checks that a region's cycles do not depend on how much else is
instrumented (issue 30): runs a program built with every function and loop
instrumented and the same program with one function alone instrumented,
alternately, and compares that function's cycles in the two profiles.

  invariance.py [--report LWP_REPORT] --function NAME [--runs N]
      [--max-ratio R] [--min-ratio R] [--raw]
      ALL_BINARY ALONE_BINARY [-- PROGRAM_ARGS...]

Each binary runs N times (default 7), alternately, each run writing its own
dump; the function's figure of a build is the median over its runs. Not the
smallest: the runtime's estimate of the probes it does not measure errs
both ways from run to run (its start-up calibration moves with the
machine's state), and the smallest picks the run that took out the most.
Prints both figures and their ratio, then "invariance ok" when min-ratio
<= ratio <= max-ratio (defaults 0.5 and 1.5), else "invariance FAILED"
(exit status 0 either way: FileCheck decides). --raw: ALL_BINARY runs without compensation (LWP_COMPENSATE=0)
and its report without correction, to show what the check catches.
LWP_REPORT defaults to lwp-report on PATH.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def cycles(report, binary, dump, function, extra):
    out = subprocess.run([report, binary, dump, "--format=json"] + extra,
                         capture_output=True, text=True, check=True).stdout
    for row in json.loads(out)["regions"]:
        if row.get("kind") == "function" and row.get("function") == function:
            return row["cycles"]
    sys.exit("invariance.py: no function region '%s' in %s" % (function, dump))


def main(argv):
    args = argv[1:]
    opts = {"--runs": "7", "--max-ratio": "1.5", "--min-ratio": "0.5"}
    raw = False
    report, function = "lwp-report", None
    while args and args[0].startswith("--") and args[0] != "--":
        name = args.pop(0)
        if name == "--raw":
            raw = True
            continue
        value = args.pop(0)
        if name == "--report":
            report = value
        elif name == "--function":
            function = value
        elif name in opts:
            opts[name] = value
        else:
            sys.exit("invariance.py: unknown option " + name)
    if not report or not function or len(args) < 2:
        sys.exit(__doc__)
    all_bin, alone_bin = args[0], args[1]
    prog_args = args[3:] if len(args) > 2 and args[2] == "--" else args[2:]
    figures = {"all": [], "alone": []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(int(opts["--runs"])):
            for label, binary in (("all", all_bin), ("alone", alone_bin)):
                dump = os.path.join(tmp, "%s.%d.dump" % (label, run))
                env = dict(os.environ, LWP_OUTPUT=dump)
                extra = []
                if label == "all" and raw:
                    env["LWP_COMPENSATE"] = "0"
                    extra = ["--no-overhead-correction"]
                subprocess.run([binary] + prog_args, env=env, check=True,
                               stdout=subprocess.DEVNULL)
                figures[label].append(cycles(report, binary, dump, function,
                                             extra))
    median = {k: statistics.median(v) for k, v in figures.items()}
    ratio = (median["all"] / median["alone"] if median["alone"]
             else float("inf"))
    print("%s: %d cycles with everything instrumented, %d alone, ratio %.2f"
          % (function, median["all"], median["alone"], ratio))
    ok = float(opts["--min-ratio"]) <= ratio <= float(opts["--max-ratio"])
    print("invariance ok" if ok else "invariance FAILED")


if __name__ == "__main__":
    main(sys.argv)
