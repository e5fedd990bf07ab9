# ===- LWP.cmake - Profile a C/C++ executable's loops with LWP ------------=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
#
# lwp_add_instrumented_executable(<name>
#     SOURCES <src>...                 instrumented with the LWP LLVM plugin
#     [UNINSTRUMENTED_SOURCES <src>...] compiled as usual (a driver, say)
#     [STATS_LEVEL <n>]                -stats-level (default 70)
#     [MAX_LOOP_DEPTH <n>]             -max-loop-depth (default 1)
#     [LWP_OPTIONS <flag>...]          other plugin flags, e.g.
#                                      lwp-min-loop-height=1 lwp-no-function-regions
#     [NO_LINE_TABLES])                no -gline-tables-only (see below)
#
# An executable whose SOURCES are compiled with `-fpass-plugin=LWPLLVMPlugin.so
# -mllvm=-stats-level=N -mllvm=-max-loop-depth=N ...`, linked with the LWP
# runtime of its target:
#   - host (x86-64, AArch64): liblwp_host.a, the threads library and libm;
#   - Hexagon (configured with cmake/LWPHexagonToolchain.cmake, or any
#     toolchain whose CMAKE_SYSTEM_PROCESSOR or compiler target is hexagon):
#     liblwp_hexagon.a, and runtime/hexagon/include (lwp_hexagon.h) on the
#     include path; the toolchain links the start-up object and runs programs
#     under qemu-hexagon (add_test / ctest).
# Run it (LWP_OUTPUT=file.dump, default lwp.dump) and give the binary and the
# dump to lwp-report. The LWP headers (include/, for lwp_dump() and
# lwp_reset() of lwp/Runtime/lwp_runtime.h) are on the include path.
#
# Region IDs need no planning: every instrumented object carries its own map
# and region slots (section lwp_map) and registers itself at start-up; the
# runtime numbers the regions of the whole program. Any number of sources,
# executables and libraries can be instrumented independently.
#
# Everything is scoped to the target <name>: the plugin flags are
# target_compile_options of <name> and the runtime a target_link_libraries
# of <name>, so another target of the directory that compiles the same files
# (a plain add_executable of them, say) gets neither, and one source can be
# in the SOURCES of several instrumented executables (each with its own
# settings). UNINSTRUMENTED_SOURCES are compiled in an OBJECT library,
# <name>-uninstrumented, linked into <name>: with <name>'s include
# directories, compile definitions and compile options (those set later and
# those of the libraries <name> links included), but without the plugin
# flags.
#
# Compile flags added to <name> besides the plugin's:
#   - -O2 when the build is single-configuration, CMAKE_BUILD_TYPE is empty
#     and CMAKE_<LANG>_FLAGS has no -O: the regions are those of an optimized
#     build, as lwp-run profiles. With a build type, its flags decide.
#   - -gline-tables-only (the regions' source locations in the map and the
#     report) when the configuration's flags have no -g option of their own
#     (a Debug or RelWithDebInfo build keeps its -g); NO_LINE_TABLES: never.
# The instrumented objects depend on the plugin (through their depfiles):
# they are compiled again when it changes.
#
# The compiler must be clang of the LLVM the plugin was built with (22): a
# pass plugin loads only into its own LLVM. Another compiler is a FATAL_ERROR.
#
# Where LWP is. Include this file from the LWP source tree
# (include(/path/to/lwp/cmake/LWP.cmake)); it finds the rest as follows:
#   - inside LWP's own build (examples/): the LWPLLVMPlugin and lwp_host
#     targets; nothing to set.
#   - from another project: set LWP_BUILD_DIR to an LWP build tree holding
#     lib/LWPLLVMPlugin.so, lib/liblwp_host.a (lib/liblwp_hexagon.a for
#     Hexagon) and bin/lwp-report (default: <LWP source>/build). Or set the
#     files one by one: LWP_LLVM_PLUGIN, LWP_HOST_RUNTIME,
#     LWP_HEXAGON_RUNTIME, LWP_REPORT (optional), LWP_INCLUDE_DIR.
# The executable's target properties say what was used: LWP_RUNTIME (the
# runtime library), LWP_REPORT (lwp-report, empty when not found; e.g. for
# add_test) and LWP_UNINSTRUMENTED_TARGET (the OBJECT library, if any).
#
# Example (another project):
#   cmake -S . -B build -DCMAKE_C_COMPILER=clang-22 -DLWP_BUILD_DIR=/work/lwp/build
#   # CMakeLists.txt:
#   include(/work/lwp/cmake/LWP.cmake)
#   lwp_add_instrumented_executable(app SOURCES kernels.c
#                                   UNINSTRUMENTED_SOURCES main.c)
#   # then: LWP_OUTPUT=app.dump ./build/app && lwp-report build/app app.dump
# For Hexagon the same project, configured with
#   -DCMAKE_TOOLCHAIN_FILE=/work/lwp/cmake/LWPHexagonToolchain.cmake
#   # then: LWP_OUTPUT=app.dump qemu-hexagon build/app (or ctest with add_test)

include_guard(GLOBAL)

# This file's directory, kept for the function (called from other scopes).
set_property(GLOBAL PROPERTY LWP_CMAKE_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

set(LWP_CLANG_VERSION_MAJOR 22 CACHE STRING
    "LLVM major version of the LWP LLVM plugin (clang must match)")

# Whether this project's toolchain builds for Hexagon.
function(_lwp_target_is_hexagon out)
  set(hexagon FALSE)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^[Hh]exagon" OR
     CMAKE_C_COMPILER_TARGET MATCHES "^hexagon" OR
     CMAKE_CXX_COMPILER_TARGET MATCHES "^hexagon")
    set(hexagon TRUE)
  endif()
  set(${out} ${hexagon} PARENT_SCOPE)
endfunction()

# Resolves the plugin, runtime, lwp-report and headers into variables of the
# caller: _LWP_PLUGIN (a file path), _LWP_RUNTIME (a file or a target),
# _LWP_REPORT, _LWP_INCLUDE (a list), _LWP_DEPENDS (in-tree targets to build
# first), _LWP_HEXAGON (TRUE for a Hexagon target).
macro(_lwp_locate)
  get_property(_lwp_dir GLOBAL PROPERTY LWP_CMAKE_MODULE_DIR)
  get_filename_component(_lwp_src "${_lwp_dir}/.." ABSOLUTE)
  _lwp_target_is_hexagon(_LWP_HEXAGON)
  set(_LWP_DEPENDS)
  if(TARGET LWPLLVMPlugin AND TARGET lwp_host AND NOT _LWP_HEXAGON)
    # Inside LWP's own build (a host build: LWP itself does not cross-build).
    get_target_property(_lwp_plugin_dir LWPLLVMPlugin LIBRARY_OUTPUT_DIRECTORY)
    if(NOT _lwp_plugin_dir)
      set(_lwp_plugin_dir "${LWP_LIB_DIR}")
    endif()
    set(_LWP_PLUGIN
        "${_lwp_plugin_dir}/LWPLLVMPlugin${CMAKE_SHARED_MODULE_SUFFIX}")
    set(_LWP_RUNTIME lwp_host)
    set(_LWP_DEPENDS LWPLLVMPlugin)
    set(_LWP_REPORT)
    if(TARGET lwp-report)
      set(_LWP_REPORT "$<TARGET_FILE:lwp-report>")
    endif()
  else()
    if(NOT LWP_BUILD_DIR)
      set(LWP_BUILD_DIR "${_lwp_src}/build")
    endif()
    if(LWP_LLVM_PLUGIN)
      set(_LWP_PLUGIN "${LWP_LLVM_PLUGIN}")
    else()
      set(_LWP_PLUGIN "${LWP_BUILD_DIR}/lib/LWPLLVMPlugin.so")
    endif()
    if(_LWP_HEXAGON)
      set(_lwp_runtime_var LWP_HEXAGON_RUNTIME)
      set(_lwp_runtime_name liblwp_hexagon.a)
    else()
      set(_lwp_runtime_var LWP_HOST_RUNTIME)
      set(_lwp_runtime_name liblwp_host.a)
    endif()
    if(${_lwp_runtime_var})
      set(_LWP_RUNTIME "${${_lwp_runtime_var}}")
    else()
      set(_LWP_RUNTIME "${LWP_BUILD_DIR}/lib/${_lwp_runtime_name}")
    endif()
    if(LWP_REPORT)
      set(_LWP_REPORT "${LWP_REPORT}")
    elseif(EXISTS "${LWP_BUILD_DIR}/bin/lwp-report")
      set(_LWP_REPORT "${LWP_BUILD_DIR}/bin/lwp-report")
    else()
      set(_LWP_REPORT)
    endif()
    foreach(_lwp_file IN ITEMS "${_LWP_PLUGIN}" "${_LWP_RUNTIME}")
      if(NOT EXISTS "${_lwp_file}")
        message(FATAL_ERROR
          "LWP: ${_lwp_file} not found. Build LWP (utils/build.sh) and set "
          "LWP_BUILD_DIR to its build tree (now '${LWP_BUILD_DIR}'), or set "
          "LWP_LLVM_PLUGIN and ${_lwp_runtime_var} to the files.")
      endif()
    endforeach()
  endif()
  if(LWP_INCLUDE_DIR)
    set(_LWP_INCLUDE "${LWP_INCLUDE_DIR}")
  else()
    set(_LWP_INCLUDE "${_lwp_src}/include")
  endif()
  if(_LWP_HEXAGON)
    list(APPEND _LWP_INCLUDE "${_lwp_src}/runtime/hexagon/include")
  endif()
endmacro()

# The language a source compiles as, from its LANGUAGE property or extension.
function(_lwp_source_language src out)
  get_source_file_property(lang "${src}" LANGUAGE)
  if(NOT lang OR lang STREQUAL "NOTFOUND")
    get_filename_component(ext "${src}" LAST_EXT)
    string(TOLOWER "${ext}" ext)
    if(ext STREQUAL ".c")
      set(lang C)
    elseif(ext MATCHES "^\\.(cc|cpp|cxx|c\\+\\+|cp)$")
      set(lang CXX)
    else()
      set(lang OTHER)
    endif()
  endif()
  set(${out} ${lang} PARENT_SCOPE)
endfunction()

# A regular expression, usable inside a generator expression, that matches
# exactly the list element <text>.
function(_lwp_exact_regex text out)
  string(REGEX REPLACE "([][.*+?^(){}|\\])" "\\\\\\1" re "${text}")
  # '$' as a class: "\$<" would start a generator expression.
  string(REPLACE "$" "[$]" re "${re}")
  string(REPLACE ">" "$<ANGLE-R>" re "${re}")
  string(REPLACE "," "$<COMMA>" re "${re}")
  string(REPLACE ";" "$<SEMICOLON>" re "${re}")
  set(${out} "^${re}$" PARENT_SCOPE)
endfunction()

function(lwp_add_instrumented_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_LINE_TABLES"
    "STATS_LEVEL;MAX_LOOP_DEPTH;ID_BASE;ID_STRIDE"
    "SOURCES;UNINSTRUMENTED_SOURCES;LWP_OPTIONS")
  set(fn "lwp_add_instrumented_executable(${name})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  foreach(gone ID_BASE ID_STRIDE)
    if(DEFINED ARG_${gone} OR gone IN_LIST ARG_KEYWORDS_MISSING_VALUES)
      message(FATAL_ERROR
        "${fn}: ${gone} is gone: region IDs are no longer partitioned by "
        "hand. Every instrumented object registers its own regions at "
        "start-up and the runtime numbers them program-wide; drop ID_BASE "
        "and ID_STRIDE.")
    endif()
  endforeach()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "${fn}: no SOURCES to instrument")
  endif()
  foreach(opt STATS_LEVEL:70 MAX_LOOP_DEPTH:1)
    string(REPLACE ":" ";" opt "${opt}")
    list(GET opt 0 key)
    list(GET opt 1 default)
    if(NOT DEFINED ARG_${key})
      set(ARG_${key} ${default})
    elseif(NOT ARG_${key} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${fn}: ${key} must be a non-negative integer, not "
                          "'${ARG_${key}}'")
    endif()
  endforeach()
  foreach(src IN LISTS ARG_UNINSTRUMENTED_SOURCES)
    if(src IN_LIST ARG_SOURCES)
      message(FATAL_ERROR "${fn}: '${src}' is in both SOURCES and "
                          "UNINSTRUMENTED_SOURCES")
    endif()
  endforeach()

  _lwp_locate()

  # Every instrumented source needs clang of the plugin's LLVM.
  set(langs)
  foreach(src IN LISTS ARG_SOURCES)
    _lwp_source_language("${src}" lang)
    if(NOT lang MATCHES "^(C|CXX)$")
      message(FATAL_ERROR "${fn}: cannot instrument '${src}': only C and C++ "
                          "sources")
    endif()
    list(APPEND langs ${lang})
  endforeach()
  list(REMOVE_DUPLICATES langs)
  foreach(lang IN LISTS langs)
    set(id "${CMAKE_${lang}_COMPILER_ID}")
    set(version "${CMAKE_${lang}_COMPILER_VERSION}")
    string(REGEX MATCH "^[0-9]+" major "${version}")
    if(NOT id STREQUAL "Clang")
      message(FATAL_ERROR
        "${fn}: the ${lang} compiler is ${id} ${version} "
        "(${CMAKE_${lang}_COMPILER}); LWP instruments through a clang pass "
        "plugin: configure with "
        "-DCMAKE_${lang}_COMPILER=clang-${LWP_CLANG_VERSION_MAJOR} "
        "(a fresh build directory)")
    endif()
    if(NOT major STREQUAL LWP_CLANG_VERSION_MAJOR)
      message(FATAL_ERROR
        "${fn}: the ${lang} compiler is clang ${version}; the LWP plugin is "
        "built for LLVM ${LWP_CLANG_VERSION_MAJOR} and loads only into that "
        "clang (-DCMAKE_${lang}_COMPILER=clang-${LWP_CLANG_VERSION_MAJOR})")
    endif()
  endforeach()

  # The plugin flags (the joined -mllvm= form keeps CMake from merging the
  # repeated -mllvm words); the depfile entry recompiles on a new plugin.
  set(plugin_flags
    "-fpass-plugin=${_LWP_PLUGIN}"
    "SHELL:-Xclang -fdepfile-entry=${_LWP_PLUGIN}"
    "-mllvm=-stats-level=${ARG_STATS_LEVEL}"
    "-mllvm=-max-loop-depth=${ARG_MAX_LOOP_DEPTH}")
  foreach(opt IN LISTS ARG_LWP_OPTIONS)
    string(REGEX REPLACE "^-+" "" opt "${opt}")
    list(APPEND plugin_flags "-mllvm=-${opt}")
  endforeach()

  # -O2 and -gline-tables-only, as described at the top of this file.
  set(extra_flags)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(line_configs)
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
      string(TOUPPER "${config}" upper)
      set(flags)
      foreach(lang IN LISTS langs)
        string(APPEND flags " ${CMAKE_${lang}_FLAGS} ${CMAKE_${lang}_FLAGS_${upper}}")
      endforeach()
      if(NOT flags MATCHES " -g")
        list(APPEND line_configs "${config}")
      endif()
    endforeach()
    if(line_configs AND NOT ARG_NO_LINE_TABLES)
      list(JOIN line_configs "," line_configs)
      list(APPEND extra_flags "$<$<CONFIG:${line_configs}>:-gline-tables-only>")
    endif()
  else()
    string(TOUPPER "${CMAKE_BUILD_TYPE}" upper)
    set(flags)
    foreach(lang IN LISTS langs)
      string(APPEND flags " ${CMAKE_${lang}_FLAGS}")
      if(CMAKE_BUILD_TYPE)
        string(APPEND flags " ${CMAKE_${lang}_FLAGS_${upper}}")
      endif()
    endforeach()
    if(NOT CMAKE_BUILD_TYPE AND NOT flags MATCHES " -O")
      list(APPEND extra_flags -O2)
    endif()
    if(NOT flags MATCHES " -g" AND NOT ARG_NO_LINE_TABLES)
      list(APPEND extra_flags -gline-tables-only)
    endif()
  endif()

  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${plugin_flags} ${extra_flags})
  target_include_directories(${name} PRIVATE ${_LWP_INCLUDE})

  if(ARG_UNINSTRUMENTED_SOURCES)
    # Compiled like <name>'s sources but without the plugin flags.
    set(uninstrumented "${name}-uninstrumented")
    add_library(${uninstrumented} OBJECT ${ARG_UNINSTRUMENTED_SOURCES})
    set(exclude)
    foreach(flag IN LISTS plugin_flags)
      _lwp_exact_regex("${flag}" re)
      list(APPEND exclude "${re}")
    endforeach()
    list(JOIN exclude "|" exclude)
    set_target_properties(${uninstrumented} PROPERTIES
      EXCLUDE_FROM_ALL TRUE
      INCLUDE_DIRECTORIES "$<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>"
      COMPILE_DEFINITIONS "$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>"
      COMPILE_OPTIONS
        "$<FILTER:$<TARGET_PROPERTY:${name},COMPILE_OPTIONS>,EXCLUDE,${exclude}>")
    target_link_libraries(${name} PRIVATE ${uninstrumented})
    set_target_properties(${name} PROPERTIES
      LWP_UNINSTRUMENTED_TARGET ${uninstrumented})
  endif()

  target_link_libraries(${name} PRIVATE "${_LWP_RUNTIME}")
  if(NOT _LWP_HEXAGON)
    find_package(Threads REQUIRED)
    target_link_libraries(${name} PRIVATE Threads::Threads)
    if(UNIX AND NOT APPLE)
      target_link_libraries(${name} PRIVATE m)
    endif()
  endif()
  if(_LWP_DEPENDS)
    add_dependencies(${name} ${_LWP_DEPENDS})
  endif()
  set_target_properties(${name} PROPERTIES
    LWP_RUNTIME "${_LWP_RUNTIME}"
    LWP_REPORT "${_LWP_REPORT}")
endfunction()
