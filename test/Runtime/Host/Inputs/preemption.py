"""Checks that time a thread waits for a CPU leaves its figures: runs a
program pinned to one CPU, alone and beside a busy process pinned to the
same CPU (which takes about half of it), and compares a function's cycles.

  preemption.py [--report LWP_REPORT] --function NAME [--runs N]
      [--blocked NAME --blocked-seconds S] BINARY [-- PROGRAM_ARGS...]

Three builds of figures, each the median of N runs (default 3), the runs
interleaved: alone; contended (the runtime takes the time the thread was
preempted out, the default); contended with LWP_PREEMPTION=0 (the time is
kept). Prints the three figures and the contended ones' ratios to alone,
then "preemption taken out ok" when 0.8 <= contended/alone <= 1.25, else
"... FAILED", and "preemption kept ok" when kept/alone >= 1.5 (the check
above would catch a runtime that kept it), else "... FAILED". Exit status
0 either way: FileCheck decides. With --blocked, also "blocked time kept
ok" when that function, which blocks (sleeps) rather than computes, reads
at least S seconds of the counter in every contended run, else "...
FAILED". LWP_REPORT defaults to lwp-report on PATH.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

BUSY = "import os\nos.sched_setaffinity(0, {%d})\nwhile True:\n    pass\n"


def profile(report, binary, dump):
    out = subprocess.run([report, binary, dump, "--format=json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def cycles(profile, function):
    for row in profile["regions"]:
        if row.get("kind") == "function" and row.get("function") == function:
            return row["cycles"]
    sys.exit("preemption.py: no function region '%s'" % function)


def main(argv):
    args = argv[1:]
    report, function, runs = "lwp-report", None, 3
    blocked, blocked_seconds = None, 0.0
    while args and args[0].startswith("--") and args[0] != "--":
        name, value = args.pop(0), args.pop(0)
        if name == "--report":
            report = value
        elif name == "--function":
            function = value
        elif name == "--runs":
            runs = int(value)
        elif name == "--blocked":
            blocked = value
        elif name == "--blocked-seconds":
            blocked_seconds = float(value)
        else:
            sys.exit("preemption.py: unknown option " + name)
    if not function or not args:
        sys.exit(__doc__)
    binary = args[0]
    prog_args = args[2:] if len(args) > 1 and args[1] == "--" else args[1:]
    cpu = min(os.sched_getaffinity(0))
    pin = lambda: os.sched_setaffinity(0, {cpu})
    figures = {"alone": [], "contended": [], "kept": []}
    blocked_ok = True
    with tempfile.TemporaryDirectory() as tmp:
        def run(label, n, extra_env):
            dump = os.path.join(tmp, "%s.%d.dump" % (label, n))
            env = dict(os.environ, LWP_OUTPUT=dump, **extra_env)
            subprocess.run([binary] + prog_args, env=env, check=True,
                           stdout=subprocess.DEVNULL, preexec_fn=pin)
            p = profile(report, binary, dump)
            figures[label].append(cycles(p, function))
            if blocked and label == "contended":
                seconds = cycles(p, blocked) / p["dump"]["counter_hz"]
                print("%s: %.3f s beside a busy process" % (blocked, seconds))
                return seconds >= blocked_seconds
            return True

        for n in range(runs):
            run("alone", n, {})
        busy = subprocess.Popen([sys.executable, "-c", BUSY % cpu])
        try:
            for n in range(runs):
                blocked_ok = run("contended", n, {}) and blocked_ok
                run("kept", n, {"LWP_PREEMPTION": "0"})
        finally:
            busy.kill()
            busy.wait()
    m = {k: statistics.median(v) for k, v in figures.items()}
    taken, kept = m["contended"] / m["alone"], m["kept"] / m["alone"]
    print("%s: %d cycles alone, %d beside a busy process (ratio %.2f), %d "
          "with LWP_PREEMPTION=0 (ratio %.2f)"
          % (function, m["alone"], m["contended"], taken, m["kept"], kept))
    print("preemption taken out " + ("ok" if 0.8 <= taken <= 1.25
                                     else "FAILED"))
    print("preemption kept " + ("ok" if kept >= 1.5 else "FAILED"))
    if blocked:
        print("blocked time kept " + ("ok" if blocked_ok else "FAILED"))


if __name__ == "__main__":
    main(sys.argv)
