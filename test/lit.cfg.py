# -*- Python -*-
# lit configuration of the LWP test suites.

import os
import platform

import lit.formats
from lit.llvm import llvm_config

config.name = "LWP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".ll", ".c", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.lwp_obj_root, "test")

llvm_config.use_default_substitutions()
# Our tools first, then LLVM 22's (FileCheck, not, opt, clang, llc, mlir-opt).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.lwp_tools_dir, append_path=True)

config.substitutions.append(("%lwp_src_root", config.lwp_src_root))
config.substitutions.append(("%python", "python3"))
config.substitutions.append(
    ("%lwp_mlir_plugin", os.path.join(config.lwp_lib_dir, "LWPMLIRPlugin.so")))
config.substitutions.append(
    ("%lwp_llvm_plugin", os.path.join(config.lwp_lib_dir, "LWPLLVMPlugin.so")))

if config.lwp_enable_mlir:
    config.available_features.add("lwp-mlir")
if config.lwp_enable_llvm_plugin:
    config.available_features.add("lwp-llvm-plugin")

# Host runtime (runtime/host): the static library and the public headers.
config.substitutions.append(
    ("%lwp_host_lib", os.path.join(config.lwp_lib_dir, "liblwp_host.a")))
config.substitutions.append(
    ("%lwp_include", os.path.join(config.lwp_src_root, "include")))
if os.path.exists(os.path.join(config.lwp_lib_dir, "liblwp_host.a")):
    config.available_features.add("lwp-host-runtime")
# Programs that read the host runtime's counter themselves (rdtsc).
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("host-x86_64")

# Hexagon runtime (runtime/hexagon): cross-compile, link and run under
# qemu-hexagon. %hexagon_cc compiles C, %hexagon_llc IR (no small data:
# ld.lld cannot relocate GP-relative accesses), %hexagon_link links
# "<objects> -o <elf>" with the start-up object and liblwp_hexagon.a.
config.substitutions.append(
    ("%hexagon_cc",
     "%s --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -ffreestanding "
     "-nostdlib -fno-pic -G0 -O2 -I%s -I%s" % (
         os.path.join(config.llvm_tools_dir, "clang"),
         os.path.join(config.lwp_src_root, "include"),
         os.path.join(config.lwp_src_root, "runtime", "hexagon", "include"))))
config.substitutions.append(
    ("%hexagon_llc",
     "%s -mtriple=hexagon-unknown-linux-musl -mcpu=hexagonv67 "
     "-hexagon-small-data-threshold=0 -filetype=obj" %
     os.path.join(config.llvm_tools_dir, "llc")))
config.substitutions.append(
    ("%hexagon_link",
     "%s -static --build-id %s %s" % (
         os.path.join(config.llvm_tools_dir, "ld.lld"),
         os.path.join(config.lwp_lib_dir, "lwp_hexagon_crt0.o"),
         os.path.join(config.lwp_lib_dir, "liblwp_hexagon.a"))))
config.substitutions.append(
    ("%lwp_hexagon_lib", os.path.join(config.lwp_lib_dir, "liblwp_hexagon.a")))
# The Hexagon C library (runtime/hexagon/libc, newlib): %hexagon_libc_cc
# compiles C against its headers, %hexagon_libc_link links "<objects> -o
# <elf>" with libc.a and libm.a before liblwp_hexagon.a (as lwp-run does).
hexagon_libc = os.path.join(config.lwp_lib_dir, "hexagon-libc")
if os.path.exists(os.path.join(hexagon_libc, "lib", "libc.a")):
    config.available_features.add("lwp-hexagon-libc")
config.substitutions.append(
    ("%hexagon_libc_cc",
     "%s --target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -ffreestanding "
     "-nostdlibinc -fno-pic -G0 -O2 -isystem %s -I%s -I%s" % (
         os.path.join(config.llvm_tools_dir, "clang"),
         os.path.join(hexagon_libc, "include"),
         os.path.join(config.lwp_src_root, "include"),
         os.path.join(config.lwp_src_root, "runtime", "hexagon", "include"))))
config.substitutions.append(
    ("%hexagon_libc_link",
     "%s -static --build-id %s %s %s %s" % (
         os.path.join(config.llvm_tools_dir, "ld.lld"),
         os.path.join(config.lwp_lib_dir, "lwp_hexagon_crt0.o"),
         os.path.join(hexagon_libc, "lib", "libc.a"),
         os.path.join(hexagon_libc, "lib", "libm.a"),
         os.path.join(config.lwp_lib_dir, "liblwp_hexagon.a"))))
# C++ for Hexagon (runtime/hexagon/cxx): libc++'s headers over the C library
# and LWP's C++ runtime. %hexagon_cxxflags: the compile flags (-fno-builtin,
# not -ffreestanding, under which C++'s main is an ordinary, mangled
# function; -fno-exceptions; libc++'s headers before the C library's);
# %hexagon_cxx compiles C++ with them and -O2; %lwp_hexagon_cxx_libs: the C++
# runtime, linked before the C library; %hexagon_cxx_link links "<objects>
# -o <elf>" with it, the C library and liblwp_hexagon.a. Longer names first:
# lit replaces in order, and %hexagon_cxx begins the others.
hexagon_libcxx = os.path.join(config.lwp_lib_dir, "hexagon-libcxx")
hexagon_cxx_lib = os.path.join(hexagon_libcxx, "lib", "liblwp_cxx.a")
if os.path.exists(hexagon_cxx_lib):
    config.available_features.add("lwp-hexagon-cxx")
hexagon_cxxflags = (
    "--target=hexagon-unknown-linux-musl -mcpu=hexagonv67 -fno-builtin "
    "-nostdlibinc -fno-pic -G0 -fno-exceptions -isystem %s -isystem %s "
    "-I%s -I%s" % (
        os.path.join(hexagon_libcxx, "include", "c++", "v1"),
        os.path.join(hexagon_libc, "include"),
        os.path.join(config.lwp_src_root, "include"),
        os.path.join(config.lwp_src_root, "runtime", "hexagon", "include")))
config.substitutions.append(("%hexagon_cxxflags", hexagon_cxxflags))
config.substitutions.append(("%lwp_hexagon_cxx_libs", hexagon_cxx_lib))
config.substitutions.append(
    ("%hexagon_cxx_link",
     "%s -static --build-id %s %s %s %s %s" % (
         os.path.join(config.llvm_tools_dir, "ld.lld"),
         os.path.join(config.lwp_lib_dir, "lwp_hexagon_crt0.o"),
         hexagon_cxx_lib,
         os.path.join(hexagon_libc, "lib", "libc.a"),
         os.path.join(hexagon_libc, "lib", "libm.a"),
         os.path.join(config.lwp_lib_dir, "liblwp_hexagon.a"))))
config.substitutions.append(
    ("%hexagon_cxx",
     "%s %s -O2" % (os.path.join(config.llvm_tools_dir, "clang++"),
                    hexagon_cxxflags)))
config.substitutions.append(("%qemu_hexagon", "/usr/bin/qemu-hexagon"))
if os.path.exists("/usr/bin/qemu-hexagon"):
    config.available_features.add("qemu-hexagon")

# AArch64 under qemu-aarch64 (lwp-run --target=aarch64): the cross-built
# runtime, Debian's arm64 C library and gcc's arm64 crt files and libgcc.
# %aarch64_cc compiles and links a C program for it with the runtime;
# %qemu_aarch64 runs one.
aarch64_lib = os.path.join(config.lwp_lib_dir, "aarch64")
config.substitutions.append(
    ("%aarch64_cc",
     "%s --target=aarch64-linux-gnu -fuse-ld=lld" %
     os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(
    ("%lwp_aarch64_lib", os.path.join(aarch64_lib, "liblwp_host.a")))
config.substitutions.append(
    ("%qemu_aarch64", "/usr/bin/qemu-aarch64 -L /usr/aarch64-linux-gnu"))
if (os.path.exists("/usr/bin/qemu-aarch64") and
        os.path.exists(os.path.join(aarch64_lib, "liblwp_host.a")) and
        os.path.isdir("/usr/lib/gcc-cross/aarch64-linux-gnu")):
    config.available_features.add("lwp-aarch64")

# Debian's chromium, headless: the HTML report's tests (test/Report/HTML)
# load pages in it (%browse dom PAGE [#FRAGMENT], %browse screenshot PAGE PNG).
if os.path.exists("/usr/bin/chromium"):
    config.available_features.add("chromium")
config.substitutions.append(
    ("%browse", "python3 %s" % os.path.join(
        config.lwp_src_root, "test", "Report", "HTML", "Inputs", "browse.py")))

# libFuzzer targets (utils/fuzz), built with clang.
if os.path.exists(os.path.join(config.lwp_tools_dir, "lwp-fuzz-dump")):
    config.available_features.add("lwp-fuzzers")
if os.path.exists(os.path.join(config.lwp_tools_dir, "lwp-fuzz-onnx")):
    config.available_features.add("lwp-fuzz-onnx")
