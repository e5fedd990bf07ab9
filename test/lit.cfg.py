# -*- Python -*-
# lit configuration of the LWP test suites.

import os

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
