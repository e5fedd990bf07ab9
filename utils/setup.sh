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
#   libc6-dev-arm64-cross                    AArch64 C headers (the AArch64 runtime build)
#   libclang-rt-22-dev                       libFuzzer, sanitizers, XRay runtime (fuzz, bench)
#   libomp-22-dev                            OpenMP runtime (parallel loops on threads, lwp-run --openmp)
#   time                                     /usr/bin/time -v (utils/bench peak memory)
#   libsimdjson-dev                          simdjson 3: the TVM lwp.json import (lwp-report --tvm-json)
#   newlib-source                            newlib's source tarball: the Hexagon C library
#                                            (runtime/hexagon/libc, built by the build)
#   csmith libcsmith-dev creduce             random differential testing (utils/lwp-csmith,
#                                            test/E2E/csmith.test): csmith, its headers, creduce
#   chromium                                 headless browser for the HTML report's tests
#                                            (lwp-report --format=html, test/Report/HTML)
set -euo pipefail

PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
          qemu-user cmake ninja-build g++ python3 libgtest-dev zlib1g-dev libzstd-dev libedit-dev
          libcurl4-openssl-dev libxml2-dev libffi-dev libc6-dev-arm64-cross
          libclang-rt-22-dev libomp-22-dev time newlib-source libsimdjson-dev
          csmith libcsmith-dev creduce chromium)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: error: run as root to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
