#!/usr/bin/env python3
"""Figures that do not depend on how much is instrumented (issue 30):
main's cycles with everything instrumented against main alone.

  invariance.py [options] [PROGRAM.c ...] [-- PROGRAM_ARGS ...]

PROGRAMs default to utils/bench/treeinterp.c and utils/bench/callheavy.c.
For every program and target (--targets, default host,hexagon,aarch64; a
target whose emulator or sysroot is missing is skipped with a note) it
builds the program with utils/lwp-run (-O2) in three ways:

  (b) alone   -stats-level=70 -lwp-function-filter='^main$' (main and its
              outermost loop only), with --check-output: lwp-run also builds
              the uninstrumented program ("plain") and checks that both
              print the same
  (a) all70   -stats-level=70 -max-loop-depth=1: every function, loops to
              depth 1 (the issue's configuration)
  (a) all100  -stats-level=100: every function and every loop

then runs each build again directly (natively, under qemu-hexagon or
qemu-aarch64): compensated (the runtime's default) and raw
(LWP_COMPENSATE=0, reported with --no-overhead-correction), and reads main's
inclusive cycles (its function region) from `lwp-report --format=json`.
Host and AArch64 runs are repeated --runs times (default 3), interleaved
(plain, alone, all70, all100, then the raw runs), and each figure is the
median over the rounds; Hexagon counts QEMU's packets, which are
deterministic, so it runs once (lwp-run's own run is the compensated one).
Every instrumented run's stdout must equal the plain program's.

Printed, one row per program, target and (a) variant:
  unit              the dump's counter (TSC, packets under QEMU's
                    Hexagon, the AArch64 virtual counter)
  main(a), main(b)  main's inclusive cycles (compensated), median
  a/b               their ratio (1.00: the figure does not depend on how
                    much else is instrumented)
  rounds            host/AArch64: the smallest and largest per-round ratio
  raw a/b           the same from raw dumps (no compensation, no correction)
  probes            probes the (a) run executed (2 x the regions' counts)
  plain s, (a) s    CPU seconds (user + system, median) of the plain and
                    the (a) program's runs; under QEMU the emulator's
  figures           ok, or UNRELIABLE when a profile of the row's (a) or
                    (b) builds marks main implausible or has instances
                    unwound or ends unmatched (the runtime lost the
                    nesting); the reasons are listed below the table

Options:
  --targets LIST     comma-separated: host, hexagon, aarch64
  --variants LIST    comma-separated: all70, all100 (default both)
  --runs N           host/AArch64 rounds (default 3)
  -D [TARGET:]NAME[=VALUE]
                     a macro for every compile (repeatable); with TARGET:
                     for that target only, e.g. -D hexagon:TREE_SCALE=20
                     (packets do not need long runs; the default scale of
                     treeinterp.c runs about 4 minutes under qemu-hexagon
                     with every function instrumented)
  --build-dir DIR    LWP build (default: <repo>/build)
  --out DIR          where builds, dumps and logs go (default: a new
                     folder under /tmp, kept and named at the end)
  --timeout SECONDS  limit of each build and run (default 1800)

Exit status 0 when every build and run succeeded; otherwise the failed
ones are listed with their command and the tail of their output, and the
exit status is 1.
"""
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LWP_RUN = os.path.join(REPO, "utils", "lwp-run")
DEFAULT_PROGRAMS = [os.path.join(HERE, "treeinterp.c"),
                    os.path.join(HERE, "callheavy.c")]
AARCH64_SYSROOT = "/usr/aarch64-linux-gnu"  # as utils/lwp-run
TARGETS = ("host", "hexagon", "aarch64")
VARIANTS = {
    "all70": ["--stats-level=70", "--max-loop-depth=1"],
    "all100": ["--stats-level=100"],
}
ALONE = ["--stats-level=70", "--lwp-option", "lwp-function-filter=^main$",
         "--check-output"]


class Failure(Exception):
    """A build or run that failed: its command and the tail of its output."""


def tail(text, lines=15):
    rows = text.decode(errors="replace").rstrip().splitlines() \
        if isinstance(text, bytes) else text.rstrip().splitlines()
    return "\n".join("    | " + r for r in rows[-lines:])


def run(cmd, env=None, timeout=None, what=""):
    """Runs CMD; returns (stdout bytes, CPU seconds of the child). A
    non-zero status or a timeout is a Failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure("%s: timed out after %s s:\n  %s" % (
            what, timeout, " ".join(shlex.quote(c) for c in cmd)))
    except OSError as e:
        raise Failure("%s: cannot run %s: %s" % (what, cmd[0], e))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    if proc.returncode:
        raise Failure("%s: exit status %d:\n  %s\n%s" % (
            what, proc.returncode, " ".join(shlex.quote(c) for c in cmd),
            tail(proc.stderr + proc.stdout)))
    return proc.stdout, cpu


def available(target):
    if target == "hexagon":
        return shutil.which("qemu-hexagon") is not None
    if target == "aarch64":
        return (shutil.which("qemu-aarch64") is not None and
                os.path.isdir(AARCH64_SYSROOT))
    return True


def runner(target):
    if target == "hexagon":
        return [shutil.which("qemu-hexagon")]
    if target == "aarch64":
        return [shutil.which("qemu-aarch64"), "-L", AARCH64_SYSROOT]
    return []


class Bench:
    def __init__(self, opts):
        self.o = opts
        self.report = os.path.join(opts.build_dir, "bin", "lwp-report")
        self.units = {}  # "program target" -> the dump's counter

    def build(self, src, target, variant, flags, defines):
        """lwp-run's build and first run of one variant; returns its output
        folder (NAME, NAME.dump, NAME.out; NAME.plain with --check-output)."""
        name = os.path.splitext(os.path.basename(src))[0]
        out = os.path.join(self.o.out, "%s-%s-%s" % (name, target, variant))
        cmd = [sys.executable, LWP_RUN, "--target=" + target, "-O", "2",
               "--build-dir", self.o.build_dir, "--timeout",
               str(self.o.timeout), "--name", name, "--out", out] + flags
        for d in defines:
            cmd += ["-D", d]
        cmd.append(src)
        if self.o.program_args:
            cmd += ["--"] + self.o.program_args
        print("  build %-7s %s" % (variant, " ".join(
            shlex.quote(c) for c in cmd[2:])), flush=True)
        os.makedirs(out, exist_ok=True)
        log = os.path.join(out, "invariance-lwp-run.log")
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT,
                                  timeout=self.o.timeout * 4)
        except subprocess.TimeoutExpired:
            raise Failure("%s %s %s: lwp-run timed out" % (name, target,
                                                            variant))
        with open(log, "wb") as f:
            f.write(proc.stdout)
        if proc.returncode:
            raise Failure("%s %s %s: lwp-run failed (exit status %d; %s):\n"
                          "  %s\n%s" % (name, target, variant,
                                        proc.returncode, log,
                                        " ".join(shlex.quote(c) for c in cmd),
                                        tail(proc.stdout)))
        return out, name

    def figures(self, exe, dump, raw, what):
        """Main's inclusive cycles, the probes executed and what makes the
        figures unreliable (main implausible, instances unwound or ends
        unmatched: the runtime lost the nesting), from DUMP."""
        cmd = [self.report, exe, dump, "--format=json"] + (
            ["--no-overhead-correction"] if raw else [])
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=self.o.timeout)
        if proc.returncode:
            raise Failure("%s: lwp-report: exit status %d:\n  %s\n%s" % (
                what, proc.returncode, " ".join(shlex.quote(c) for c in cmd),
                tail(proc.stderr)))
        data = json.loads(proc.stdout)
        mains = [r for r in data["regions"] if r.get("kind") == "function"
                 and r.get("function") == "main"]
        if not mains:
            raise Failure("%s: no function region 'main' in %s" % (what,
                                                                    dump))
        probes = 2 * sum(r["count"] for r in data["regions"])
        self.units[what.split(" round")[0]] = data["dump"].get("counter", "?")
        flags = set()
        for m in mains:
            if m.get("implausible"):
                flags.add("main implausible (%s)" % m["implausible"])
        unwound = sum(r.get("unwound", 0) for r in data["regions"])
        if unwound:
            flags.add("unwound instances")
        if data["dump"].get("unmatched_ends"):
            flags.add("unmatched ends")
        return sum(r["cycles"] for r in mains), probes, flags

    def execute(self, exe, target, dump, raw, expect, what):
        env = dict(os.environ, LWP_OUTPUT=dump)
        env.pop("LWP_CAP", None)
        if raw:
            env["LWP_COMPENSATE"] = "0"
        else:
            env.pop("LWP_COMPENSATE", None)
        cmd = runner(target) + [exe] + self.o.program_args
        out, cpu = run(cmd, env=env, timeout=self.o.timeout, what=what)
        if expect is not None and out != expect:
            raise Failure("%s: prints %r, the plain program %r" % (
                what, out[-200:], expect[-200:]))
        return cpu

    def measure(self, src, target):
        """One program on one target: returns the table's rows."""
        defines = [d.split(":", 1)[1] for d in self.o.defines
                   if ":" in d and d.split(":", 1)[0] == target]
        defines = [d for d in self.o.defines if ":" not in d] + defines
        print("%s on %s%s" % (os.path.basename(src), target,
                              (" (-D " + " -D ".join(defines) + ")")
                              if defines else ""), flush=True)
        builds = {"alone": self.build(src, target, "alone", ALONE, defines)}
        for v in self.o.variants:
            builds[v] = self.build(src, target, v, VARIANTS[v], defines)
        out, name = builds["alone"]
        plain = os.path.join(out, name + ".plain")
        with open(os.path.join(out, name + ".out.plain"), "rb") as f:
            expect = f.read()
        labels = ["alone"] + self.o.variants
        exe = {v: os.path.join(builds[v][0], name) for v in labels}
        comp = {v: [] for v in labels}
        raw = {v: [] for v in labels}
        cpu = {v: [] for v in ["plain"] + labels}
        probes = {}
        flags = {v: set() for v in labels}
        deterministic = target == "hexagon"
        rounds = 1 if deterministic else self.o.runs
        for r in range(rounds):
            what = "%s %s round %d" % (name, target, r + 1)
            cpu["plain"].append(self.execute(plain, target, os.path.join(
                out, "plain.dump"), False, expect, what + " plain"))
            for v in labels:
                w = "%s %s" % (what, v)
                if deterministic:
                    # lwp-run's own run: packets are the same on every run.
                    dump = os.path.join(builds[v][0], name + ".dump")
                else:
                    dump = os.path.join(builds[v][0], "r%d.dump" % r)
                    cpu[v].append(self.execute(exe[v], target, dump, False,
                                               expect, w))
                cycles, probes[v], f = self.figures(exe[v], dump, False, w)
                flags[v] |= f
                comp[v].append(cycles)
            for v in labels:
                w = "%s %s raw" % (what, v)
                dump = os.path.join(builds[v][0], "raw%d.dump" % r)
                c = self.execute(exe[v], target, dump, True, expect, w)
                if deterministic:
                    cpu[v].append(c)
                cycles, _, f = self.figures(exe[v], dump, True, w)
                raw[v].append(cycles)
                flags[v] |= f
        med = statistics.median
        rows = []
        b, braw = med(comp["alone"]), med(raw["alone"])
        for v in self.o.variants:
            per_round = [x / y for x, y in zip(comp[v], comp["alone"]) if y]
            rows.append({
                "program": name, "target": target, "variant": v,
                "unit": self.units.get("%s %s" % (name, target), "?"),
                "a": med(comp[v]), "b": b,
                "ratio": med(comp[v]) / b if b else float("inf"),
                "lo": min(per_round) if per_round else float("nan"),
                "hi": max(per_round) if per_round else float("nan"),
                "rounds": rounds,
                "raw": med(raw[v]) / braw if braw else float("inf"),
                "probes": probes[v], "plain_s": med(cpu["plain"]),
                "a_s": med(cpu[v]), "defines": " ".join(defines),
                "flags": ["(a) " + f for f in sorted(flags[v])] +
                         ["(b) " + f for f in sorted(flags["alone"])]})
        return rows


def parse(argv):
    class O:
        pass
    o = O()
    o.targets = list(TARGETS)
    o.variants = list(VARIANTS)
    o.runs = 3
    o.defines = []
    o.build_dir = os.path.join(REPO, "build")
    o.out = None
    o.timeout = 1800
    o.program_args = []
    o.programs = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--":
            o.program_args = args
            break
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        if a.startswith("-D") and len(a) > 2:
            o.defines.append(a[2:])
            continue
        if a.startswith("--") and "=" in a:
            a, value = a.split("=", 1)
            args.insert(0, value)
        if a in ("--targets", "--variants", "--runs", "-D", "--build-dir",
                 "--out", "--timeout"):
            if not args:
                sys.exit("invariance.py: %s needs a value" % a)
            value = args.pop(0)
            if a == "--targets":
                o.targets = [t for t in value.split(",") if t]
                bad = [t for t in o.targets if t not in TARGETS]
                if bad:
                    sys.exit("invariance.py: unknown target %s (known: %s)"
                             % (",".join(bad), ", ".join(TARGETS)))
            elif a == "--variants":
                o.variants = [v for v in value.split(",") if v]
                bad = [v for v in o.variants if v not in VARIANTS]
                if bad or not o.variants:
                    sys.exit("invariance.py: unknown variant %s (known: %s)"
                             % (",".join(bad), ", ".join(VARIANTS)))
            elif a == "--runs":
                o.runs = max(1, int(value))
            elif a == "-D":
                o.defines.append(value)
            elif a == "--build-dir":
                o.build_dir = os.path.abspath(value)
            elif a == "--out":
                o.out = os.path.abspath(value)
            elif a == "--timeout":
                o.timeout = float(value)
            continue
        if a.startswith("-"):
            sys.exit("invariance.py: unknown option %s (--help)" % a)
        o.programs.append(os.path.abspath(a))
    for d in o.defines:
        if ":" in d and d.split(":", 1)[0] not in TARGETS:
            sys.exit("invariance.py: -D %s: unknown target %s" % (
                d, d.split(":", 1)[0]))
    o.programs = o.programs or DEFAULT_PROGRAMS
    for p in o.programs:
        if not os.path.isfile(p):
            sys.exit("invariance.py: no such program: %s" % p)
    if not os.path.isfile(os.path.join(o.build_dir, "bin", "lwp-report")):
        sys.exit("invariance.py: no %s/bin/lwp-report: build LWP first "
                 "(utils/build.sh) or give --build-dir" % o.build_dir)
    return o


def fmt_ratio(x):
    return "%.3f" % x if x == x and x != float("inf") else "-"


def main(argv):
    o = parse(argv)
    if o.out is None:
        o.out = tempfile.mkdtemp(prefix="lwp-invariance.")
    os.makedirs(o.out, exist_ok=True)
    bench = Bench(o)
    rows, failures, skipped = [], [], []
    start = time.time()
    for target in o.targets:
        if not available(target):
            skipped.append(target)
            continue
        for src in o.programs:
            try:
                rows += bench.measure(src, target)
            except Failure as e:
                print("  FAILED: %s" % str(e).splitlines()[0], flush=True)
                failures.append(str(e))
    print()
    print("main's inclusive cycles: (a) every function and loop "
          "instrumented, (b) main alone")
    print("(-lwp-function-filter='^main$'); compensated figures, raw = "
          "LWP_COMPENSATE=0 + --no-overhead-correction;")
    print("host/AArch64: median of %d rounds (a/b's smallest..largest per "
          "round in 'rounds'); Hexagon: QEMU packets, one run." % o.runs)
    head = ("program", "target", "(a)", "unit", "main(a)", "main(b)", "a/b",
            "rounds", "raw a/b", "probes(a)", "plain s", "(a) s", "defines", "figures")
    table = [head]
    for r in rows:
        table.append((r["program"], r["target"], r["variant"], r["unit"],
                      "%.0f" % r["a"], "%.0f" % r["b"], fmt_ratio(r["ratio"]),
                      "-" if r["target"] == "hexagon" else "%s..%s" % (
                          fmt_ratio(r["lo"]), fmt_ratio(r["hi"])),
                      fmt_ratio(r["raw"]), str(r["probes"]),
                      "%.2f" % r["plain_s"], "%.2f" % r["a_s"],
                      r["defines"] or "-",
                      "UNRELIABLE*" if r["flags"] else "ok"))
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    left = {0, 1, 2, 3, 12, 13}
    for row in table:
        print("  ".join(c.ljust(w) if i in left else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    for r in rows:
        if r["flags"]:
            print("* %s %s %s: %s" % (r["program"], r["target"], r["variant"],
                                      "; ".join(r["flags"])))
    for t in skipped:
        print("skipped %s: %s not found" % (t, {
            "hexagon": "qemu-hexagon",
            "aarch64": "qemu-aarch64 or " + AARCH64_SYSROOT}[t]))
    print("builds, dumps and logs: %s (%.0f s)" % (o.out, time.time() - start))
    if failures:
        print("\n%d failed:" % len(failures))
        for f in failures:
            print("- " + f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
