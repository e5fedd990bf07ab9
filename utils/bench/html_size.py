#!/usr/bin/env python3
"""Size of lwp-report's HTML page (--format=html): for the CNN example
(37 regions, run on the host through utils/lwp-run) and for a synthetic
program of 10,000 regions.

Usage: html_size.py BUILD_DIR [REGIONS]
BUILD_DIR: an LWP build (its bin/lwp-report, and what lwp-run needs).
REGIONS default 10000. Environment: LWP_REPORT, another lwp-report to
measure (default BUILD_DIR/bin/lwp-report).

The synthetic program: REGIONS / 10 functions, each a function region
with an outermost loop that holds four loops of depth 1, each holding one
loop of depth 2 that runs three times per entry (18 recorded instances per
function: 18,000 for 10,000 regions), written as a version 1 dump by
test/Report/Inputs/mkdump.py with its map as JSON (--map-json).

Prints per page: its bytes; the embedded data's bytes (base64), the zlib
stream's, the JSON's before compression; the rest (template, styles,
script); and, for comparison, the same report as --format=json and the
Chrome trace.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))


def sizes(label, page_path, json_path, trace_path):
    page = open(page_path, encoding="utf-8").read()
    m = re.search(r'id="lwp-data" data-encoding="([^"]*)">([^<]*)<', page)
    data = m.group(2)
    raw = base64.b64decode(data)
    text = zlib.decompress(raw) if m.group(1) == "zlib+base64" else raw
    print("%s: page %d bytes: data %d bytes base64 (zlib %d bytes, JSON %d "
          "bytes), template+styles+script %d bytes; --format=json %d bytes, "
          "chrome-trace %d bytes" % (
              label, len(page.encode()), len(data), len(raw), len(text),
              len(page.encode()) - len(data), os.path.getsize(json_path),
              os.path.getsize(trace_path)))


def report(lwp_report, inputs, out_base):
    for fmt, ext in (("html", ".html"), ("json", ".json"),
                     ("chrome-trace", ".trace.json")):
        subprocess.run([lwp_report] + inputs +
                       ["--format=" + fmt, "-o", out_base + ext], check=True)
    return out_base + ".html", out_base + ".json", out_base + ".trace.json"


def synthetic(tmp, regions):
    entries, spec = [], ["header num_ids=%d cap=100" % regions, "count 0 0",
                         "thread 1"]
    counts, t = {}, 0
    functions = regions // 10
    for f in range(functions):
        base = f * 10
        name = "kernel_%d" % f
        entries.append(dict(id=base, kind="function", function=name,
                            depth=None, height=None, parent=None,
                            file="model.c", line=10 * f + 1, column=1))
        entries.append(dict(id=base + 1, kind="loop", function=name, depth=0,
                            height=2, parent=base, file="model.c",
                            line=10 * f + 2, column=3))
        for k in range(4):
            outer, inner = base + 2 + 2 * k, base + 3 + 2 * k
            entries.append(dict(id=outer, kind="loop", function=name, depth=1,
                                height=1, parent=base + 1, file="model.c",
                                line=10 * f + 3 + k, column=5))
            entries.append(dict(id=inner, kind="loop", function=name, depth=2,
                                height=0, parent=outer, file="model.c",
                                line=10 * f + 3 + k, column=7))
        ev = [("start", base), ("start", base + 1)]
        for k in range(4):
            ev.append(("start", base + 2 + 2 * k))
            for _ in range(3):
                ev += [("start", base + 3 + 2 * k), ("end", base + 3 + 2 * k)]
            ev.append(("end", base + 2 + 2 * k))
        ev += [("end", base + 1), ("end", base)]
        for kind, ident in ev:
            t += 7 + (ident * 13) % 50
            spec.append("%s %d %d" % (kind, ident, t))
            if kind == "start":
                counts[ident] = counts.get(ident, 0) + 1
    spec[1:2] = ["count %d %d" % kv for kv in sorted(counts.items())]
    map_path = os.path.join(tmp, "big.map.json")
    json.dump({"version": 1, "regions": entries}, open(map_path, "w"))
    spec_path = os.path.join(tmp, "big.spec")
    open(spec_path, "w").write("\n".join(spec) + "\n")
    dump = os.path.join(tmp, "big.dump")
    subprocess.run([sys.executable, os.path.join(
        ROOT, "test", "Report", "Inputs", "mkdump.py"), spec_path, dump],
        check=True)
    return map_path, dump


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    regions = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    lwp_report = os.environ.get("LWP_REPORT",
                                os.path.join(build, "bin", "lwp-report"))
    with tempfile.TemporaryDirectory(prefix="lwp-html-size-") as tmp:
        cnn = os.path.join(tmp, "cnn")
        subprocess.run([sys.executable, os.path.join(ROOT, "utils", "lwp-run"),
                        "--build-dir", build, "-max-loop-depth=1", "--out", cnn,
                        os.path.join(ROOT, "examples", "cnn", "cnn.mlir"),
                        "--driver", os.path.join(ROOT, "examples", "cnn",
                                                 "main.c")],
                       check=True, stdout=subprocess.DEVNULL)
        sizes("CNN, 37 regions (host)", *report(
            lwp_report, [os.path.join(cnn, "cnn"), os.path.join(cnn, "cnn.dump")],
            os.path.join(tmp, "cnn-report")))
        map_path, dump = synthetic(tmp, regions)
        sizes("synthetic, %d regions" % regions, *report(
            lwp_report, ["--map-json=" + map_path, dump],
            os.path.join(tmp, "big")))


if __name__ == "__main__":
    main()
