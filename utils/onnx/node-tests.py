#!/usr/bin/env python3
# ===- node-tests.py - ONNX's backend node tests through lwp-run ----------=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
"""node-tests.py: ONNX's backend node tests (Debian's libonnx-testdata)
through utils/lwp-run, on the host or under qemu-hexagon (docs/onnx.md).

  node-tests.py [--target host|hexagon] [--jobs N] [--filter REGEX]
                [--json OUT.json] [--timeout S] [--work DIR]
  node-tests.py --update-doc docs/onnx.md HOST.json [HEXAGON.json]

Each test folder (DATA/test_*/) holds model.onnx and test_data_set_0 with
input_K.pb and output_K.pb (onnx.TensorProto). The models are read once with
Debian's python3-onnx (/usr/bin/python3): their operators, opset, graph
inputs and outputs and element types. A test runs when every operator of its
model is one lwp-import-onnx imports (--list-operators) and no graph input,
output, initializer or constant has a type the importer refuses (float16,
bfloat16, string, complex; sequences, maps, optionals); otherwise it is
SKIP with the reason. Without python3-onnx every test is tried and the
importer's refusals (unsupported operator, refused type) are the SKIPs.

A test runs as

  lwp-run --target=T DATA/TEST/model.onnx --input NAME=input_K.pb ... --out DIR

(graph input K, the initializers left out, takes input_K.pb). When the
import fails because an input sets a shape (Reshape's shape, Slice's starts,
Resize's scales ...: "... known at import"), the test runs again with every
input but the first (a single input: that one) as --constant-input
NAME=input_K.pb (an initializer at import); its PASS line names them. Each
output OUT/outputs/NAME.npy is compared with output_K.pb (converted with
lwp-import-onnx --convert-tensor): same dtype and shape, integers and bools
equal, floats within |got - expected| <= atol + rtol * |expected| (NaN where
NaN is expected, infinities equal). One line per test (PASS, FAIL with the
first error line, SKIP with the reason), in the tests' order, then a table
per operator; the exit status is 1 when a test failed.

A test counts for its operator: the model's one operator besides Constant;
a test NAME_expanded (the operator's function body, several operators)
counts for the operator of test NAME, as "OP (expanded)".

--json writes every test's result and the per-operator table; --update-doc
rewrites the conformance table of docs/onnx.md (between its
<!-- node-tests: begin --> and <!-- node-tests: end --> lines) from the
JSON of a host run and, optionally, of a Hexagon run.

The script uses the standard library only (and utils/onnx/lwp_onnx.py to
read .npy files); /usr/bin/python3 with onnx reads the models.
"""

import argparse
import concurrent.futures
import datetime
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DATA = "/usr/share/libonnx-testdata/data/node"
SYSTEM_PYTHON = "/usr/bin/python3"
# Element types lwp-import-onnx refuses (ONNX TensorProto.DataType names).
REFUSED_TYPES = ("FLOAT16", "BFLOAT16", "STRING", "COMPLEX64", "COMPLEX128",
                 "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
                 "FLOAT8E5M2FNUZ", "UINT4", "INT4")
# The importer's messages for what it does not take: SKIP, not FAIL.
IMPORTER_SKIPS = [
    (re.compile(r"unsupported operator (\S+)"),
     lambda m: "unsupported operator %s" % m.group(1)),
    (re.compile(r"operator domain '([^']*)' is not supported"),
     lambda m: "operator domain %s" % m.group(1)),
    (re.compile(r"opset 0 of the default domain"),
     lambda m: "no ai.onnx operator (other domains)"),
    (re.compile(r"input '[^']*' is not a tensor"),
     lambda m: "sequence or map input"),
    (re.compile(r"has element type (\w+), which the importer does not take"),
     lambda m: "type %s (the importer refuses it)" % m.group(1)),
    (re.compile(r"\b(FLOAT16|BFLOAT16|STRING|COMPLEX64|COMPLEX128) is not "
                r"supported"),
     lambda m: "type %s (the importer refuses it)" % m.group(1)),
]

# A failure to start a tool while a build relinks it.
BUSY_TOOL = re.compile(r"(Permission denied|Text file busy|No such file or "
                       r"directory): '[^']*/bin/[^'/]*'|cannot run ")

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lwp_onnx  # noqa: E402  (.npy files, output file names)


# The models, read with python3-onnx ----------------------------------- #

# Run by /usr/bin/python3: reads the test folders named on stdin (one JSON
# list), prints one JSON object per folder.
CATALOG = r'''
import json, os, sys
import onnx
from onnx import TensorProto

REFUSED = set(sys.argv[1].split(","))

def tname(t):
    try:
        return TensorProto.DataType.Name(t)
    except ValueError:
        return str(t)

def kind(tp):
    w = tp.WhichOneof("value")
    return w or "none"

def walk(graph, ops, types):
    for init in graph.initializer:
        types.add(tname(init.data_type))
    for n in graph.node:
        ops.append([n.domain, n.op_type])
        for a in n.attribute:
            if a.HasField("t"):
                types.add(tname(a.t.data_type))
            for t in a.tensors:
                types.add(tname(t.data_type))
            if a.HasField("g"):
                walk(a.g, ops, types)
            for g in a.graphs:
                walk(g, ops, types)

def value(v):
    k = kind(v.type)
    if k != "tensor_type":
        return {"name": v.name, "kind": k.replace("_type", "")}
    tt = v.type.tensor_type
    dims = None
    if tt.HasField("shape"):
        dims = [d.dim_value if d.HasField("dim_value") else None
                for d in tt.shape.dim]
    return {"name": v.name, "kind": "tensor", "type": tname(tt.elem_type),
            "dims": dims}

def pb_name(path):
    t = TensorProto()
    try:
        with open(path, "rb") as f:
            t.ParseFromString(f.read())
    except Exception:
        return None
    return t.name or None

out = []
for folder in json.load(sys.stdin):
    rec = {"folder": folder}
    try:
        m = onnx.load(os.path.join(folder, "model.onnx"))
    except Exception as e:
        rec["error"] = "cannot load model.onnx: %s" % str(e).splitlines()[0]
        out.append(rec)
        continue
    ops, types = [], set()
    walk(m.graph, ops, types)
    init = set(i.name for i in m.graph.initializer)
    rec["ops"] = ops
    rec["opsets"] = {(o.domain or "ai.onnx"): o.version
                     for o in m.opset_import}
    rec["inputs"] = [value(v) for v in m.graph.input if v.name not in init]
    rec["outputs"] = [value(v) for v in m.graph.output]
    for v in rec["inputs"] + rec["outputs"]:
        if v["kind"] != "tensor":
            types.add(v["kind"])
        else:
            types.add(v["type"])
    rec["refused"] = sorted(t for t in types
                            if t in REFUSED or t in ("sequence", "map",
                                                     "optional",
                                                     "sparse_tensor"))
    data = os.path.join(folder, "test_data_set_0")
    k, names = 0, []
    while os.path.exists(os.path.join(data, "input_%d.pb" % k)):
        names.append(pb_name(os.path.join(data, "input_%d.pb" % k)))
        k += 1
    rec["input_pbs"] = names
    k = 0
    while os.path.exists(os.path.join(data, "output_%d.pb" % k)):
        k += 1
    rec["output_pbs"] = k
    out.append(rec)
json.dump(out, sys.stdout)
'''


def catalog_models(folders):
    """{folder: record} from CATALOG, or None when /usr/bin/python3 cannot
    import onnx."""
    try:
        probe = subprocess.run([SYSTEM_PYTHON, "-c", "import onnx"],
                               capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if probe.returncode:
        return None
    done = subprocess.run([SYSTEM_PYTHON, "-c", CATALOG,
                           ",".join(REFUSED_TYPES)],
                          input=json.dumps(folders).encode(),
                          capture_output=True)
    if done.returncode:
        sys.exit("node-tests: error: reading the models with %s and onnx "
                 "failed:\n%s" % (SYSTEM_PYTHON,
                                  done.stderr.decode(errors="replace")))
    return {r["folder"]: r for r in json.loads(done.stdout)}


class Test:
    def __init__(self, name, folder):
        self.name, self.folder = name, folder
        self.record = None      # the catalog's, when python3-onnx is there
        self.operator = None    # the operator the test counts for
        self.expanded = False
        self.opset = None
        self.status = None      # PASS, FAIL, SKIP
        # The inputs given as --constant-input (known at import), if any.
        self.constant = []
        self.reason = ""
        self.seconds = 0.0

    def row(self):
        return self.operator + (" (expanded)" if self.expanded else "")

    def ops(self):
        return sorted(set(op for _, op in self.record["ops"])) \
            if self.record and "ops" in self.record else []


def main_operator(ops):
    """The operator a one-node (or Constant + one operator) model tests."""
    names = [op for _, op in ops]
    rest = [n for n in names if n != "Constant"] or names
    return rest[0] if rest else "?"


def classify(tests, supported):
    """Sets each test's operator, opset and, for the tests that do not run,
    SKIP and its reason (from the catalog)."""
    by_name = {t.name: t for t in tests}
    for t in tests:
        r = t.record
        if r is None:
            continue
        if "error" in r:
            t.operator, t.status, t.reason = "?", "SKIP", r["error"]
            continue
        t.opset = r["opsets"].get("ai.onnx")
        t.operator = main_operator(r["ops"])
    for t in tests:
        if t.record is None or "error" in t.record:
            continue
        base = by_name.get(t.name[:-len("_expanded")]) \
            if t.name.endswith("_expanded") else None
        if base is not None and base.operator:
            t.operator, t.expanded = base.operator, True
        r = t.record
        domains = sorted(set(d for d, _ in r["ops"]
                             if d not in ("", "ai.onnx")))
        missing = sorted(set(op for d, op in r["ops"]
                             if d in ("", "ai.onnx") and op not in supported))
        if domains:
            t.status, t.reason = "SKIP", "operator domain " + ", ".join(
                domains)
        elif missing:
            t.status, t.reason = "SKIP", "unsupported operator%s %s" % (
                "s" if len(missing) > 1 else "", ", ".join(missing))
        elif r["refused"]:
            t.status, t.reason = "SKIP", "type%s %s (the importer refuses " \
                "it)" % ("s" if len(r["refused"]) > 1 else "",
                         ", ".join(r["refused"]))
        elif r["output_pbs"] != len(r["outputs"]):
            t.status, t.reason = "SKIP", "%d outputs, %d output_K.pb" % (
                len(r["outputs"]), r["output_pbs"])


# Running one test ------------------------------------------------------- #

class Runner:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build_dir)
        self.importer = os.path.join(self.build, "bin", "lwp-import-onnx")
        self.lwp_run = os.path.join(ROOT, "utils", "lwp-run")
        self.lock = threading.Lock()
        self.procs = set()
        self.stopped = False

    def command(self, cmd, timeout):
        """Runs CMD in its own session (ended with everything it started
        on timeout); returns (status or None on timeout, stdout, stderr)."""
        for attempt in range(10):
            if self.stopped:
                raise TestFailure("interrupted")
            try:
                proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE,
                                        start_new_session=True)
                break
            except OSError as e:
                # A tool being relinked by a build (ETXTBSY, EACCES): again
                # a little later.
                if attempt == 9:
                    raise TestFailure("cannot run %s: %s" % (
                        os.path.basename(cmd[0]), e.strerror))
                time.sleep(3)
        with self.lock:
            self.procs.add(proc)
        try:
            out, err = proc.communicate(timeout=timeout)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            kill_tree(proc.pid)
            out, err = proc.communicate()
            status = None
        finally:
            with self.lock:
                self.procs.discard(proc)
        return (status, out.decode(errors="replace"),
                err.decode(errors="replace"))

    def stop(self):
        with self.lock:
            self.stopped = True
            for proc in self.procs:
                kill_tree(proc.pid)

    def input_names(self, t, out):
        """The graph inputs, in order, for input_0.pb, input_1.pb ...; and
        the --input-shape options of the dynamic ones."""
        data = os.path.join(t.folder, "test_data_set_0")
        pbs = []
        while os.path.exists(os.path.join(data, "input_%d.pb" % len(pbs))):
            pbs.append(os.path.join(data, "input_%d.pb" % len(pbs)))
        if t.record is not None:
            inputs = t.record["inputs"]
            names = [v["name"] for v in inputs]
            if len(names) != len(pbs):
                # Fewer files than inputs (optional ones left out): the
                # files' own names say which.
                names = t.record["input_pbs"]
                if None in names:
                    raise TestFailure("%d graph inputs, %d input_K.pb "
                                      "without names" % (len(inputs),
                                                         len(pbs)))
        else:
            # Without python3-onnx: the importer's signature and listing
            # (the operator), or its refusal.
            sig = os.path.join(out, "probe.signature.json")
            listing = os.path.join(out, "probe.onnx.txt")
            status, _, err = self.command(
                [self.importer, os.path.join(t.folder, "model.onnx"),
                 "-o", os.devnull, "--signature", sig, "--node-listing",
                 listing], self.args.timeout)
            if status != 0:
                why = (first_error(err) or "lwp-import-onnx failed (exit %s)"
                       % status).replace(t.folder + os.sep, "")
                m = re.search(r"\((\w+), opset (\d+)\)", why)
                if m:
                    t.operator, t.opset = m.group(1), int(m.group(2))
                skip_if_refused(why)
                raise TestFailure("import model.onnx: " + why)
            t.operator = listed_operator(listing)
            with open(sig) as f:
                names = [i["name"] for i in json.load(f)["inputs"]]
            if len(names) != len(pbs):
                raise TestFailure("%d graph inputs, %d input_K.pb" % (
                    len(names), len(pbs)))
        return list(zip(names, pbs))

    def run(self, t):
        start = time.time()
        out = os.path.join(self.args.work, t.name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        try:
            for attempt in range(4):
                try:
                    self.run_test(t, out)
                    break
                except TestFailure as e:
                    # A tool of the build folder being relinked (a build
                    # at the same time): the test again a little later.
                    if attempt == 3 or not BUSY_TOOL.search(str(e)):
                        raise
                    time.sleep(10)
            t.status = "PASS"
        except TestSkip as e:
            t.status, t.reason = "SKIP", str(e)
        except TestFailure as e:
            t.status, t.reason = "FAIL", str(e)
        except Exception as e:  # a bug here must not end the whole run
            t.status, t.reason = "FAIL", "node-tests: %s: %s" % (
                type(e).__name__, e)
        t.seconds = time.time() - start
        if t.status == "PASS" and not self.args.keep:
            shutil.rmtree(out, ignore_errors=True)
        return t

    def run_test(self, t, out):
        t.constant = []
        pairs = self.input_names(t, out)
        model = os.path.join(t.folder, "model.onnx")
        run_dir = os.path.join(out, "run")
        cmd = [sys.executable, self.lwp_run, "--build-dir", self.build,
               "--target=" + self.args.target, model, "--out", run_dir]
        for name, pb in pairs:
            cmd += ["--input", "%s=%s" % (name, pb)]
        if t.record is not None:
            # Dynamic dimensions: the input file's (read by the importer).
            for v in t.record["inputs"]:
                if v.get("dims") is None or None in v["dims"]:
                    pb = dict(pairs).get(v["name"])
                    if pb:
                        array = self.convert(pb, os.path.join(
                            out, "input-%s.npy" % lwp_onnx.sanitize(
                                v["name"])))
                        cmd += ["--input-shape", "%s=%s" % (
                            v["name"], ",".join(str(d) for d in
                                                array.shape))]
        status, stdout, stderr = self.command(cmd, self.args.timeout)
        if status and pairs and re.search(
                r"known at import|needs a known|must be a known", stderr):
            # An input that sets a shape (Reshape's shape, Slice's starts,
            # Resize's scales ...): the node tests give it as an input, LWP
            # needs it at import. Once more with every input but the
            # first (with one input, that one: ConstantOfShape's shape)
            # known at import (lwp-run --constant-input).
            constant = pairs[1:] if len(pairs) > 1 else pairs
            given = ["%s=%s" % (n, pb) for n, pb in constant]
            kept = []
            for i, c in enumerate(cmd):
                if c in given or (c == "--input" and i + 1 < len(cmd) and
                                  cmd[i + 1] in given):
                    continue
                kept.append(c)
            cmd = kept
            for name, pb in constant:
                cmd += ["--constant-input", "%s=%s" % (name, pb)]
            t.constant = [name for name, _ in constant]
            status, stdout, stderr = self.command(cmd, self.args.timeout)
        with open(os.path.join(out, "lwp-run.out"), "w") as f:
            f.write(stdout)
        with open(os.path.join(out, "lwp-run.err"), "w") as f:
            f.write(stderr)
        stage = ""
        for line in stdout.splitlines():
            m = re.match(r"\[lwp-run\] \((\d+/\d+)\) (.*)", line)
            if m:
                stage = m.group(2).split(" (")[0].split(",")[0]
        if status is None:
            raise TestFailure("timed out after %g s (--timeout), in stage "
                              "'%s'" % (self.args.timeout, stage))
        if status != 0:
            why = first_error(stderr) or "lwp-run failed (exit %d)" % status
            why = why.replace(t.folder + os.sep, "")
            skip_if_refused(why)
            raise TestFailure("%s: %s" % (stage, why) if stage else why)
        sig_path = os.path.join(run_dir, "model.signature.json")
        try:
            sig = lwp_onnx.Signature(sig_path)
            with open(sig_path) as f:
                model_opset = json.load(f).get("model_opset")
        except (lwp_onnx.OnnxError, OSError, ValueError) as e:
            raise TestFailure("the signature: %s" % e)
        if not t.opset:
            t.opset = model_opset
        data = os.path.join(t.folder, "test_data_set_0")
        problems = []
        for k, (name, file) in enumerate((o.name, o.file)
                                         for o in sig.outputs):
            pb = os.path.join(data, "output_%d.pb" % k)
            if not os.path.exists(pb):
                raise TestFailure("output %s: no output_%d.pb" % (name, k))
            expected = self.convert(pb, os.path.join(
                out, "expected-%s.npy" % file))
            got_path = os.path.join(run_dir, "outputs", file + ".npy")
            try:
                got = lwp_onnx.read_npy(got_path)
            except lwp_onnx.OnnxError as e:
                raise TestFailure("output %s: %s" % (name, e))
            problem = compare(got, expected, self.args.rtol, self.args.atol)
            if problem:
                problems.append("output %s: %s" % (name, problem))
        if problems:
            raise TestFailure("; ".join(problems))

    def convert(self, pb, npy):
        status, _, err = self.command(
            [self.importer, "--convert-tensor", pb, "-o", npy],
            self.args.timeout)
        if status != 0:
            raise TestFailure("lwp-import-onnx --convert-tensor %s: %s" % (
                os.path.basename(pb), first_error(err) or "exit %s" % status))
        try:
            return lwp_onnx.read_npy(npy)
        except lwp_onnx.OnnxError as e:
            raise TestFailure(str(e))


def kill_tree(pid):
    """Ends process PID and every process it started (lwp-run starts each
    command in a session of its own), by their ids."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo.extend(children.get(p, []))
    for p in tree:
        try:
            os.kill(p, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def skip_if_refused(why):
    """TestSkip when WHY is the importer's refusal of an operator or a type
    (the importer's first error line)."""
    if why.startswith("lwp-import-onnx"):
        for pattern, text in IMPORTER_SKIPS:
            m = pattern.search(why)
            if m:
                raise TestSkip(text(m))


class Terminated(Exception):
    pass


class TestFailure(Exception):
    pass


class TestSkip(Exception):
    pass


def first_error(stderr):
    """The line of lwp-run's (or a tool's) stderr that says what failed: the
    failing tool's first error line, else lwp-run's own."""
    lines = [l.rstrip() for l in stderr.splitlines() if l.strip()]
    if not lines:
        return ""
    if any(l.startswith("Traceback (most recent call last):") for l in lines):
        # lwp-run itself failed: its exception.
        return "lwp-run: " + lines[-1].strip()
    m = re.match(r"\[lwp-run\] error: command failed \(exit (-?\d+)\):$",
                 lines[0])
    if m:
        tool = lines[1].split()[0] if len(lines) > 1 else "?"
        tool = os.path.basename(tool)
        if tool == "qemu-hexagon" and len(lines) > 1:
            tool = "qemu-hexagon " + os.path.basename(lines[1].split()[1])
        rest = lines[2:]
        for line in rest:
            if re.search(r"\berror\b|Assertion|failed|Error", line):
                return line.strip() if line.startswith(tool) \
                    else "%s: %s" % (tool, line.strip())
        if rest:
            return "%s: %s" % (tool, rest[0].strip())
        return "%s exited with status %s" % (tool, m.group(1))
    for line in lines:
        if line.startswith("[lwp-run] error: "):
            return line[len("[lwp-run] error: "):]
    return lines[0]


# Comparing outputs ------------------------------------------------------ #

def compare(got, expected, rtol, atol):
    """None when GOT (an lwp_onnx.Array) matches EXPECTED, else why not."""
    if got.dtype != expected.dtype or list(got.shape) != \
            list(expected.shape):
        return "%s %s, expected %s %s" % (
            got.dtype, lwp_onnx.shape_text(got.shape), expected.dtype,
            lwp_onnx.shape_text(expected.shape))
    if got.data == expected.data:
        return None
    a, b = got.values(), expected.values()
    floats = got.dtype in lwp_onnx.FLOATS
    bad, worst, worst_at = 0, -1.0, 0
    for i, (x, y) in enumerate(zip(a, b)):
        if floats:
            if math.isnan(y):
                ok = math.isnan(x)
                err = 0.0 if ok else math.inf
            elif math.isinf(y) or math.isinf(x) or math.isnan(x):
                ok = x == y
                err = 0.0 if ok else math.inf
            else:
                err = abs(x - y)
                ok = err <= atol + rtol * abs(y)
                err = err / (atol + rtol * abs(y))
        else:
            ok = x == y
            err = 0.0 if ok else abs(float(x) - float(y)) + 1
        if not ok:
            bad += 1
            if err > worst:
                worst, worst_at = err, i
    if not bad:
        return None
    index, rest = [], worst_at
    for d in reversed(got.shape):
        index.append(rest % d if d else 0)
        rest = rest // d if d else 0
    index.reverse()
    return "%d of %d elements differ (at [%s]: %s, expected %s)" % (
        bad, len(b), ",".join(str(i) for i in index), fmt(a[worst_at]),
        fmt(b[worst_at]))


def fmt(v):
    return ("%.7g" % v) if isinstance(v, float) else str(v)


# The per-operator table -------------------------------------------------- #

def operator_table(tests, supported):
    """{row: {opsets, passed, failed, skipped, supported}}, rows as
    Test.row()."""
    table = {}
    for t in tests:
        row = table.setdefault(t.row(), {
            "opsets": [], "passed": 0, "failed": 0, "skipped": 0,
            "supported": t.operator in supported, "failures": [],
            "skips": {}})
        if t.opset and t.opset not in row["opsets"]:
            row["opsets"].append(t.opset)
            row["opsets"].sort()
        if t.status == "PASS":
            row["passed"] += 1
            if t.constant:
                row["constant"] = row.get("constant", 0) + 1
        elif t.status == "FAIL":
            row["failed"] += 1
            row["failures"].append({"test": t.name, "reason": t.reason})
        else:
            row["skipped"] += 1
            row["skips"][t.reason] = row["skips"].get(t.reason, 0) + 1
    return table


def print_summary(tests, table, target):
    rows = sorted(table)
    width = max([len(r) for r in rows] + [8])
    print()
    print("%-*s  %-12s  %6s  %6s  %7s" % (width, "operator", "opsets",
                                          "passed", "failed", "skipped"))
    for r in rows:
        e = table[r]
        if not (e["passed"] or e["failed"]) and not e["supported"]:
            continue
        print("%-*s  %-12s  %6d  %6d  %7d" % (
            width, r, ",".join(str(o) for o in e["opsets"]) or "-",
            e["passed"], e["failed"], e["skipped"]))
    counts = {s: sum(1 for t in tests if t.status == s)
              for s in ("PASS", "FAIL", "SKIP")}
    print()
    print("%s: %d tests, %d passed, %d failed, %d skipped" % (
        target, len(tests), counts["PASS"], counts["FAIL"], counts["SKIP"]))


# docs/onnx.md's table ---------------------------------------------------- #

BEGIN = "<!-- node-tests: begin -->"
END = "<!-- node-tests: end -->"


def short(reason, limit=110):
    reason = re.sub(r"\s+", " ", reason).replace("|", "\\|")
    return reason if len(reason) <= limit else reason[:limit - 3] + "..."


def gap_text(reason):
    """A failure's reason as the table shows it: without the importer's
    prefix and the node's name."""
    reason = re.sub(r"^import model\.onnx: lwp-import-onnx: error: ",
                    "import: ", reason)
    reason = re.sub(r"node '[^']*' \(\w+, opset \d+\): ", "", reason)
    reason = reason.replace("model.onnx: ", "")
    return short(reason)


def names_text(tests, limit=4):
    shown = ", ".join(tests[:limit])
    return shown + (" and %d more" % (len(tests) - limit)
                    if len(tests) > limit else "")


def doc_table(host, hexagon):
    """The conformance table (Markdown) from the JSON of a host run and of a
    Hexagon run (or None)."""
    runs = [r for r in (host, hexagon) if r]
    supported = set(host["supported"])
    rows = set(host["operators"]) | (set(hexagon["operators"]) if hexagon
                                     else set())
    if not host["filter"]:
        rows |= supported

    def ran(run, r):
        e = run["operators"].get(r) if run else None
        return bool(e and (e["passed"] or e["failed"]))

    def cell(run, r):
        if not ran(run, r):
            return "-"
        e = run["operators"][r]
        return "%d/%d" % (e["passed"], e["passed"] + e["failed"])

    lines = [
        "| operator | opsets | host | hexagon | skipped | known gaps |",
        "|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r.lower(), r)):
        if not (r in supported or any(ran(run, r) for run in runs)):
            continue
        e = host["operators"].get(r, {"opsets": [], "skipped": 0,
                                      "failures": [], "skips": {}})
        # Failures grouped by their reason: the tests and targets.
        groups = {}
        for run in runs:
            for f in run["operators"].get(r, {}).get("failures", []):
                g = groups.setdefault(gap_text(f["reason"]), {})
                g.setdefault(f["test"], []).append(run["target"])
        gaps = []
        for reason, tests in sorted(groups.items(),
                                    key=lambda g: (-len(g[1]), g[0])):
            targets = sorted(set("+".join(t) for t in tests.values()))
            gaps.append("%s (%s): %s" % (names_text(sorted(tests)),
                                         ", ".join(targets), reason))
        constant = max(run["operators"].get(r, {}).get("constant", 0)
                       for run in runs)
        if constant:
            gaps.append("%d passed with shape-setting inputs known at import "
                        "(--constant-input)" % constant)
        for reason, n in sorted(e["skips"].items()):
            gaps.append("%d skipped: %s" % (n, short(reason, 80)))
        if r not in host["operators"]:
            gaps.append("no node test")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            r, ", ".join(str(o) for o in e["opsets"]) or "-",
            cell(host, r), cell(hexagon, r), e["skipped"] or "",
            "<br>".join(gaps)))

    def total(run, s):
        return sum(1 for t in run["tests"] if t["status"] == s)

    lines.append("")
    for run in runs:
        lines.append(
            "%s: %d tests, %d passed, %d failed, %d skipped (run %s at "
            "LWP %s%s)." % (
                run["target"], len(run["tests"]), total(run, "PASS"),
                total(run, "FAIL"), total(run, "SKIP"), run["date"],
                run["commit"], ", --filter '%s'" % run["filter"]
                if run["filter"] else ""))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def update_doc(doc, results):
    runs = []
    for path in results:
        with open(path) as f:
            runs.append(json.load(f))
    host = next((r for r in runs if r["target"] == "host"), None)
    hexagon = next((r for r in runs if r["target"] == "hexagon"), None)
    if host is None:
        sys.exit("node-tests: error: --update-doc needs a host run's JSON")
    with open(doc) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit("node-tests: error: %s has no '%s' ... '%s' lines" % (
            doc, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, "w") as f:
        f.write(head + BEGIN + "\n" + doc_table(host, hexagon) + END + tail)
    print("node-tests: wrote the table of %s" % doc)


# Main ------------------------------------------------------------------- #

def git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True,
                              timeout=30).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def main(argv):
    p = argparse.ArgumentParser(
        description="ONNX's backend node tests (libonnx-testdata) through "
        "utils/lwp-run, compared with their expected outputs.")
    p.add_argument("--target", choices=("host", "hexagon"), default="host")
    p.add_argument("--jobs", "-j", type=int, default=2,
                   help="tests run at once (default: 2)")
    p.add_argument("--filter", default="", metavar="REGEX",
                   help="only the tests whose name (test_...) matches REGEX "
                   "(re.search)")
    p.add_argument("--json", metavar="OUT",
                   help="write the results and the per-operator table")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds for one test's lwp-run (default: 600)")
    p.add_argument("--rtol", type=float, default=1e-3,
                   help="float outputs: relative tolerance (default: 1e-3)")
    p.add_argument("--atol", type=float, default=1e-4,
                   help="float outputs: absolute tolerance (default: 1e-4)")
    p.add_argument("--data", default=DATA,
                   help="the node tests' folder (default: %s)" % DATA)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--work", metavar="DIR",
                   help="each test's lwp-run output goes to DIR/TEST (kept "
                   "for failures; default: a temporary folder, removed)")
    p.add_argument("--keep", action="store_true",
                   help="keep the passing tests' folders too")
    p.add_argument("--resume", metavar="PREV.json",
                   help="take the PASS and SKIP results of the tests "
                   "PREV.json (an earlier --json of this target) holds, run "
                   "the others (its failures, and tests it lacks)")
    p.add_argument("--update-doc", metavar="DOC",
                   help="rewrite DOC's conformance table from the JSON "
                   "files given as arguments (a host run's, optionally a "
                   "Hexagon run's) and exit")
    p.add_argument("results", nargs="*", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.update_doc:
        if not args.results:
            p.error("--update-doc needs the JSON of a host run")
        update_doc(args.update_doc, args.results)
        return 0
    if args.results:
        p.error("unexpected arguments: %s" % " ".join(args.results))
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    try:
        pattern = re.compile(args.filter)
    except re.error as e:
        p.error("--filter: %s" % e)

    if not os.path.isdir(args.data):
        sys.exit("node-tests: error: no node tests in %s (install Debian's "
                 "libonnx-testdata: utils/setup.sh)" % args.data)
    importer = os.path.join(args.build_dir, "bin", "lwp-import-onnx")
    listed = subprocess.run([importer, "--list-operators"],
                            capture_output=True, text=True)
    if listed.returncode:
        sys.exit("node-tests: error: %s --list-operators failed: %s" % (
            importer, listed.stderr.strip()))
    supported = set(listed.stdout.split())

    names = sorted(n for n in os.listdir(args.data) if
                   n.startswith("test_") and
                   os.path.exists(os.path.join(args.data, n, "model.onnx")))
    # The tests chosen, and for NAME_expanded also NAME (its operator).
    chosen = set(n for n in names if pattern.search(n))
    chosen |= set(n[:-len("_expanded")] for n in chosen
                  if n.endswith("_expanded")) & set(names)
    tests = [Test(n, os.path.join(args.data, n)) for n in names
             if n in chosen]
    records = catalog_models([t.folder for t in tests])
    if records is None:
        print("node-tests: %s cannot import onnx (python3-onnx): every test "
              "is tried, the importer's refusals are the SKIPs" %
              SYSTEM_PYTHON, file=sys.stderr)
    for t in tests:
        t.record = records.get(t.folder) if records else None
    classify(tests, supported)
    tests = [t for t in tests if pattern.search(t.name)]
    if not tests:
        sys.exit("node-tests: error: no test matches --filter '%s'" %
                 args.filter)

    if args.resume:
        with open(args.resume) as f:
            prev = json.load(f)
        if prev.get("target") != args.target:
            sys.exit("node-tests: error: --resume %s is a %s run, not %s" % (
                args.resume, prev.get("target"), args.target))
        done = {r["name"]: r for r in prev["tests"]
                if r["status"] in ("PASS", "SKIP")}
        for t in tests:
            if t.status is None and t.name in done:
                r = done[t.name]
                t.status, t.reason = r["status"], r["reason"]
                t.seconds = r.get("seconds", 0.0)
                t.constant = r.get("constant_inputs", [])
                t.opset = t.opset or r.get("opset")
                t.operator = t.operator or r.get("operator")

    temporary = args.work is None
    if temporary:
        args.work = tempfile.mkdtemp(prefix="lwp-node-tests-")
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    runner = Runner(args)
    started = time.time()

    def terminate(signum, frame):
        raise Terminated()

    signal.signal(signal.SIGTERM, terminate)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    futures = [pool.submit(runner.run, t) if t.status is None else None
               for t in tests]
    try:
        for t, fut in zip(tests, futures):
            if fut is not None:
                fut.result()
            if t.operator is None:
                t.operator = "?"
            what = t.row()
            line = "%s %s [%s]" % (t.status, t.name, what)
            if t.status == "PASS":
                line += " %.1fs" % t.seconds
                if t.constant:
                    line += " (--constant-input %s)" % ",".join(t.constant)
            else:
                line += ": " + t.reason
            print(line, flush=True)
    except (KeyboardInterrupt, Terminated):
        runner.stop()
        pool.shutdown(wait=False, cancel_futures=True)
        print("node-tests: interrupted", file=sys.stderr)
        return 130
    pool.shutdown()
    table = operator_table(tests, supported)
    print_summary(tests, table, args.target)
    print("%s: %.0f s with --jobs %d%s" % (
        args.target, time.time() - started, args.jobs,
        "" if temporary or not any(t.status == "FAIL" for t in tests)
        else "; failing tests' files in %s" % args.work))
    if args.json:
        result = {
            "target": args.target, "data": args.data, "filter": args.filter,
            "rtol": args.rtol, "atol": args.atol, "commit": git_commit(),
            "date": datetime.date.today().isoformat(),
            "supported": sorted(supported),
            "tests": [{"name": t.name, "operator": t.operator,
                       "expanded": t.expanded, "opset": t.opset,
                       "ops": t.ops(), "status": t.status,
                       "constant_inputs": t.constant,
                       "reason": t.reason, "seconds": round(t.seconds, 2)}
                      for t in tests],
            "operators": table}
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write("\n")
    if temporary:
        shutil.rmtree(args.work, ignore_errors=True)
    return 1 if any(t.status == "FAIL" for t in tests) else 0


def listed_operator(path):
    """The operator of a node listing (lwp-import-onnx --node-listing)."""
    try:
        with open(path) as f:
            ops = [l.split()[0] for l in f if l.strip()]
    except OSError:
        return None
    return main_operator([("", op) for op in ops])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
