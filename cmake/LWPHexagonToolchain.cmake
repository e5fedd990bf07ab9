# ===- LWPHexagonToolchain.cmake - Build for Hexagon, run under qemu-hexagon = #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
#
# A CMake toolchain file for Hexagon v67 programs that run under qemu-hexagon
# with LWP's Hexagon runtime as their start-up and LWP's Hexagon C library
# (newlib, docs/hexagon-runtime.md), the way utils/lwp-run --target=hexagon
# builds them:
#
#   compile  clang-22 --target=hexagon-unknown-linux-musl -mcpu=hexagonv67
#            -ffreestanding -nostdlib -fno-pic -G0
#            (on every include path: the C library's headers,
#            <build>/lib/hexagon-libc/include, and runtime/hexagon/include
#            for lwp_hexagon.h)
#   link     ld.lld -static --build-id -L<build>/lib/hexagon-libc/lib
#            <build>/lib/lwp_hexagon_crt0.o <objects> <libraries>
#            libc.a libm.a <build>/lib/liblwp_hexagon.a
#   run      qemu-hexagon (CMAKE_CROSSCOMPILING_EMULATOR: add_test() of an
#            executable target and ctest run it under the emulator)
#
# Every executable links the start-up object and liblwp_hexagon.a, so a plain
# add_executable() builds and runs too (without probes; it writes an empty
# dump at exit unless LWP_OUTPUT is empty). lwp_add_instrumented_executable
# (LWP.cmake) sees the Hexagon target (CMAKE_SYSTEM_PROCESSOR hexagon) and
# links the Hexagon runtime instead of the host one.
#
#   cmake -S . -B build-hexagon -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=/path/to/lwp/cmake/LWPHexagonToolchain.cmake \
#     -DLWP_BUILD_DIR=/path/to/lwp/build
#   ninja -C build-hexagon && ctest --test-dir build-hexagon
#
# Settings (cache variables, -D on the first configure):
#   LWP_BUILD_DIR          LWP build tree with lib/lwp_hexagon_crt0.o and
#                          lib/liblwp_hexagon.a (default: the build/ beside
#                          this file's cmake/ directory)
#   LWP_HEXAGON_CRT0, LWP_HEXAGON_RUNTIME
#                          the two files one by one instead
#   LWP_HEXAGON_LIBC       the C library (include/, lib/libc.a, lib/libm.a;
#                          default <LWP_BUILD_DIR>/lib/hexagon-libc; empty:
#                          none, programs use the runtime's libc subset)
#   LWP_HEXAGON_LIBCXX     C++: libc++'s headers (include/c++/v1) and LWP's
#                          C++ runtime (lib/liblwp_cxx.a); default
#                          <LWP_BUILD_DIR>/lib/hexagon-libcxx
#   LWP_LLVM_TOOLS_DIR     where clang, ld.lld and llvm-ar of LLVM 22 are
#                          (default /usr/lib/llvm-22/bin, then PATH)
#   LWP_HEXAGON_CPU        -mcpu (default hexagonv67, as the runtime's build)
#   LWP_QEMU_HEXAGON       the emulator (default: qemu-hexagon on PATH)

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR hexagon)

# The compiler checks only compile (no start-up object or runtime needed).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# What the try_compile projects (which read this file again) must see.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
  LWP_BUILD_DIR LWP_HEXAGON_CRT0 LWP_HEXAGON_RUNTIME LWP_HEXAGON_LIBC
  LWP_HEXAGON_LIBCXX LWP_LLVM_TOOLS_DIR
  LWP_HEXAGON_CPU LWP_QEMU_HEXAGON)

get_filename_component(_lwp_hexagon_src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

set(LWP_LLVM_TOOLS_DIR "/usr/lib/llvm-22/bin" CACHE PATH
    "LWP Hexagon toolchain: directory of clang, ld.lld and llvm-ar (LLVM 22)")
set(LWP_HEXAGON_CPU "hexagonv67" CACHE STRING
    "LWP Hexagon toolchain: -mcpu of every compile")
set(LWP_BUILD_DIR "${_lwp_hexagon_src}/build" CACHE PATH
    "LWP build tree (lib/LWPLLVMPlugin.so, lib/liblwp_hexagon.a, ...)")
set(LWP_HEXAGON_CRT0 "${LWP_BUILD_DIR}/lib/lwp_hexagon_crt0.o" CACHE FILEPATH
    "LWP Hexagon toolchain: start-up object linked first into every executable")
set(LWP_HEXAGON_RUNTIME "${LWP_BUILD_DIR}/lib/liblwp_hexagon.a" CACHE FILEPATH
    "LWP Hexagon runtime (probe handlers, start-up, libc subset)")
set(LWP_HEXAGON_LIBC "${LWP_BUILD_DIR}/lib/hexagon-libc" CACHE PATH
    "LWP Hexagon C library (newlib; empty: the runtime's libc subset only)")
set(LWP_HEXAGON_LIBCXX "${LWP_BUILD_DIR}/lib/hexagon-libcxx" CACHE PATH
    "LWP Hexagon C++ (libc++ headers, liblwp_cxx.a; empty: none)")

# Tools: LLVM 22's first, then PATH (clang-22 and friends).
foreach(_lwp_tool CLANG:clang-22:clang CLANGXX:clang++-22:clang++
                  LLD:ld.lld-22:ld.lld AR:llvm-ar-22:llvm-ar
                  RANLIB:llvm-ranlib-22:llvm-ranlib)
  string(REPLACE ":" ";" _lwp_tool "${_lwp_tool}")
  list(POP_FRONT _lwp_tool _lwp_var)
  find_program(LWP_HEXAGON_${_lwp_var} NAMES ${_lwp_tool}
    HINTS "${LWP_LLVM_TOOLS_DIR}" NO_DEFAULT_PATH)
  find_program(LWP_HEXAGON_${_lwp_var} NAMES ${_lwp_tool})
  if(NOT LWP_HEXAGON_${_lwp_var})
    list(JOIN _lwp_tool " or " _lwp_names)
    message(FATAL_ERROR
      "LWP Hexagon toolchain: ${_lwp_names} not found in "
      "${LWP_LLVM_TOOLS_DIR} nor on PATH: install LLVM 22 (utils/setup.sh) or "
      "set LWP_LLVM_TOOLS_DIR")
  endif()
endforeach()

set(CMAKE_C_COMPILER "${LWP_HEXAGON_CLANG}")
set(CMAKE_CXX_COMPILER "${LWP_HEXAGON_CLANGXX}")
set(CMAKE_ASM_COMPILER "${LWP_HEXAGON_CLANG}")
set(CMAKE_C_COMPILER_TARGET hexagon-unknown-linux-musl)
set(CMAKE_CXX_COMPILER_TARGET hexagon-unknown-linux-musl)
set(CMAKE_ASM_COMPILER_TARGET hexagon-unknown-linux-musl)
set(CMAKE_AR "${LWP_HEXAGON_AR}" CACHE FILEPATH "Archiver (LLVM, Hexagon)")
set(CMAKE_RANLIB "${LWP_HEXAGON_RANLIB}" CACHE FILEPATH "Ranlib (LLVM, Hexagon)")
set(CMAKE_LINKER "${LWP_HEXAGON_LLD}" CACHE FILEPATH "Linker (ld.lld, Hexagon)")

# -G0: no small data (GP-relative accesses ld.lld cannot relocate; the
# start-up sets no GP). -fno-pic: a static executable, as lwp-run builds.
set(_lwp_hexagon_flags
    "-mcpu=${LWP_HEXAGON_CPU} -ffreestanding -nostdlib -fno-pic -G0")
set(CMAKE_C_FLAGS_INIT "${_lwp_hexagon_flags}")
# C++ (docs/hexagon-runtime.md, "C++"): -fno-builtin instead of
# -ffreestanding, under which clang would mangle main like any function;
# no exceptions (refused), RTTI supported by LWP's C++ runtime.
set(CMAKE_CXX_FLAGS_INIT
    "-mcpu=${LWP_HEXAGON_CPU} -fno-builtin -nostdlib -fno-pic -G0 -fno-exceptions")
set(CMAKE_ASM_FLAGS_INIT "${_lwp_hexagon_flags}")

# The C library's headers (clang has no other system headers for this
# target), and lwp_hexagon.h: the runtime's output functions, exit and
# libc subset.
set(_lwp_hexagon_includes "${_lwp_hexagon_src}/runtime/hexagon/include")
set(_lwp_hexagon_libs "\"${LWP_HEXAGON_RUNTIME}\"")
if(LWP_HEXAGON_LIBC)
  list(PREPEND _lwp_hexagon_includes "${LWP_HEXAGON_LIBC}/include")
  # Before the runtime: the C library's memcpy, malloc, libm win.
  set(_lwp_hexagon_libs "\"${LWP_HEXAGON_LIBC}/lib/libc.a\" \"${LWP_HEXAGON_LIBC}/lib/libm.a\" ${_lwp_hexagon_libs}")
  # -lm and -lc find the C library's archives.
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-L\"${LWP_HEXAGON_LIBC}/lib\"")
endif()
foreach(_lwp_lang C CXX ASM)
  set(CMAKE_${_lwp_lang}_STANDARD_INCLUDE_DIRECTORIES ${_lwp_hexagon_includes})
endforeach()
# C++: libc++'s headers before the C library's, and LWP's C++ runtime before
# libc.a (its __cxa_atexit replaces newlib's).
set(_lwp_hexagon_cxx_libs "${_lwp_hexagon_libs}")
if(LWP_HEXAGON_LIBCXX AND EXISTS "${LWP_HEXAGON_LIBCXX}/lib/liblwp_cxx.a")
  list(PREPEND CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES
    "${LWP_HEXAGON_LIBCXX}/include/c++/v1")
  set(_lwp_hexagon_cxx_libs
      "\"${LWP_HEXAGON_LIBCXX}/lib/liblwp_cxx.a\" ${_lwp_hexagon_libs}")
endif()

# Linking: ld.lld itself (no compiler driver: nothing of a hosted toolchain
# is wanted), the start-up object first, the runtime after the libraries.
# CMAKE_<LANG>_STANDARD_LIBRARIES is appended to <LINK_LIBRARIES>.
foreach(_lwp_lang C CXX)
  set(CMAKE_${_lwp_lang}_LINK_EXECUTABLE
      "<CMAKE_LINKER> -static --build-id <LINK_FLAGS> \"${LWP_HEXAGON_CRT0}\" <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endforeach()
set(CMAKE_C_STANDARD_LIBRARIES "${_lwp_hexagon_libs}")
set(CMAKE_CXX_STANDARD_LIBRARIES "${_lwp_hexagon_cxx_libs}")

# Search the host for programs only; libraries and headers are Hexagon's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(LWP_QEMU_HEXAGON qemu-hexagon)
if(LWP_QEMU_HEXAGON)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${LWP_QEMU_HEXAGON}")
endif()

# The start-up object and the runtime are LWP build products: say so now
# rather than at the first link.
foreach(_lwp_file IN ITEMS "${LWP_HEXAGON_CRT0}" "${LWP_HEXAGON_RUNTIME}")
  if(NOT EXISTS "${_lwp_file}")
    message(FATAL_ERROR
      "LWP Hexagon toolchain: ${_lwp_file} not found. Build LWP with its "
      "Hexagon runtime (utils/build.sh, LWP_ENABLE_HEXAGON_RUNTIME=ON) and "
      "set LWP_BUILD_DIR to its build tree (now '${LWP_BUILD_DIR}'), or set "
      "LWP_HEXAGON_CRT0 and LWP_HEXAGON_RUNTIME to the files.")
  endif()
endforeach()
if(LWP_HEXAGON_LIBC)
  if(NOT EXISTS "${LWP_HEXAGON_LIBC}/lib/libc.a")
    message(FATAL_ERROR
      "LWP Hexagon toolchain: ${LWP_HEXAGON_LIBC}/lib/libc.a not found. Build "
      "LWP with its Hexagon C library (newlib-source, utils/setup.sh), or set "
      "LWP_HEXAGON_LIBC to an empty value for the runtime's libc subset only.")
  endif()
endif()
