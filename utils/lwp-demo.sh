#!/usr/bin/env bash
# The main job on the bundled example: builds LWP, then profiles the CNN block
# of examples/cnn/cnn.mlir (conv2d + bias + ReLU, max-pool, dense, softmax)
# at -stats-level=70 -max-loop-depth=1, once on this machine (x86-64, TSC
# cycles) and once for Hexagon under qemu-hexagon (packets: this QEMU has no
# running UPCYCLE), each checked against an uninstrumented build, and prints
# both per-loop cycle tables, then the two offline HTML reports' paths. Dumps,
# CSV, Chrome traces and HTML pages go to out/.
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

echo
echo "== HTML reports (one self-contained file each; open offline in a browser)"
for target in host hexagon; do
  printf "%-9s %s\n" "$target:" "$root/out/cnn-$target/cnn.html"
done
