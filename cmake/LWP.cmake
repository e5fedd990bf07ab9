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
#     [ID_BASE <n>]                    first region ID (default 0)
#     [ID_STRIDE <n>])                 IDs per instrumented source (default below)
#
# A host executable (x86-64, AArch64) whose SOURCES are compiled with
# `-fpass-plugin=LWPLLVMPlugin.so -mllvm=-stats-level=N -mllvm=-max-loop-depth=N
# -mllvm=-lwp-id-base=B ...`, linked with liblwp_host.a and the threads
# library. Run it (LWP_OUTPUT=file.dump, default lwp.dump) and give the binary
# and the dump to lwp-report. The LWP headers (include/, for lwp_dump() and
# lwp_reset() of lwp/Runtime/lwp_runtime.h) are on the include path.
#
# The compiler must be clang of the LLVM the plugin was built with (22): a
# pass plugin loads only into its own LLVM. Another compiler is a FATAL_ERROR.
#
# Region IDs. Each instrumented source is its own LLVM module and must get
# its own -lwp-id-base, but how many regions a source has is known only when
# it has been compiled. The function therefore partitions the runtime's count
# table at configure time and checks the partition after every link:
#
#   - source i (0-based, in SOURCES order) gets base ID_BASE + i * ID_STRIDE;
#     ID_STRIDE defaults to (LWP_MAX_IDS - ID_BASE) / (number of SOURCES),
#     i.e. the host runtime's whole table (LWP_MAX_IDS, 16384, read from
#     runtime/host/lwp_host_internal.h) split evenly: 3 sources get 5461 IDs
#     each, 100 sources 163. The bases depend only on the source list, so
#     builds are reproducible and every source compiles in parallel.
#   - each compile also writes its map (-lwp-map-file) beside the objects;
#     a POST_BUILD step (LWPCheckIds.cmake) reads them and fails the build,
#     naming the source, when a source has more regions than its slice or an
#     ID reaches LWP_MAX_IDS (the runtime would drop those records), and
#     says which ID_STRIDE would fit. With lwp-report available it also
#     reads the linked binary's map (lwp-report --map refuses IDs used by
#     two modules), so an overlap can never reach a report unnoticed.
#
# A source listed in SOURCES of two instrumented executables of one directory
# is refused (source properties are per directory): put it in a library.
#
# Where LWP is. Include this file from the LWP source tree
# (include(/path/to/lwp/cmake/LWP.cmake)); it finds the rest as follows:
#   - inside LWP's own build (examples/): the LWPLLVMPlugin, lwp_host and
#     lwp-report targets; nothing to set.
#   - from another project: set LWP_BUILD_DIR to an LWP build tree holding
#     lib/LWPLLVMPlugin.so, lib/liblwp_host.a and bin/lwp-report (default:
#     <LWP source>/build). Or set the files one by one: LWP_LLVM_PLUGIN,
#     LWP_HOST_RUNTIME, LWP_REPORT (optional), LWP_INCLUDE_DIR.
#   - LWP_MAX_IDS: the host runtime's number of IDs, if built with another
#     -DLWP_MAX_IDS.
#
# Example (another project):
#   cmake -S . -B build -DCMAKE_C_COMPILER=clang-22 -DLWP_BUILD_DIR=/work/lwp/build
#   # CMakeLists.txt:
#   include(/work/lwp/cmake/LWP.cmake)
#   lwp_add_instrumented_executable(app SOURCES kernels.c
#                                   UNINSTRUMENTED_SOURCES main.c)
#   # then: LWP_OUTPUT=app.dump ./build/app && lwp-report build/app app.dump

include_guard(GLOBAL)

# This file's directory, kept for the function (called from other scopes).
set_property(GLOBAL PROPERTY LWP_CMAKE_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

set(LWP_CLANG_VERSION_MAJOR 22 CACHE STRING
    "LLVM major version of the LWP LLVM plugin (clang must match)")

# Resolves the plugin, runtime, lwp-report and headers into LWP_* variables
# of the caller: _LWP_PLUGIN, _LWP_RUNTIME, _LWP_REPORT, _LWP_INCLUDE,
# _LWP_DEPENDS (in-tree targets to build first), _LWP_MAX_IDS.
macro(_lwp_locate)
  get_property(_lwp_dir GLOBAL PROPERTY LWP_CMAKE_MODULE_DIR)
  get_filename_component(_lwp_src "${_lwp_dir}/.." ABSOLUTE)
  set(_LWP_DEPENDS)
  if(TARGET LWPLLVMPlugin AND TARGET lwp_host)
    # Inside LWP's own build.
    set(_LWP_PLUGIN "$<TARGET_FILE:LWPLLVMPlugin>")
    set(_LWP_PLUGIN_FILE "${LWP_LIB_DIR}/LWPLLVMPlugin.so")
    set(_LWP_RUNTIME lwp_host)
    set(_LWP_DEPENDS LWPLLVMPlugin)
    set(_LWP_REPORT)
    if(TARGET lwp-report)
      set(_LWP_REPORT "$<TARGET_FILE:lwp-report>")
      list(APPEND _LWP_DEPENDS lwp-report)
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
    if(LWP_HOST_RUNTIME)
      set(_LWP_RUNTIME "${LWP_HOST_RUNTIME}")
    else()
      set(_LWP_RUNTIME "${LWP_BUILD_DIR}/lib/liblwp_host.a")
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
          "LWP_LLVM_PLUGIN and LWP_HOST_RUNTIME to the files.")
      endif()
    endforeach()
    set(_LWP_PLUGIN_FILE "${_LWP_PLUGIN}")
  endif()
  if(LWP_INCLUDE_DIR)
    set(_LWP_INCLUDE "${LWP_INCLUDE_DIR}")
  else()
    set(_LWP_INCLUDE "${_lwp_src}/include")
  endif()
  if(LWP_MAX_IDS)
    set(_LWP_MAX_IDS ${LWP_MAX_IDS})
  else()
    set(_LWP_MAX_IDS 16384)
    set(_lwp_hdr "${_lwp_src}/runtime/host/lwp_host_internal.h")
    if(EXISTS "${_lwp_hdr}")
      file(STRINGS "${_lwp_hdr}" _lwp_line
           REGEX "^#define LWP_MAX_IDS [0-9]+")
      if(_lwp_line MATCHES "LWP_MAX_IDS ([0-9]+)")
        set(_LWP_MAX_IDS ${CMAKE_MATCH_1})
      endif()
    endif()
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

function(lwp_add_instrumented_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "STATS_LEVEL;MAX_LOOP_DEPTH;ID_BASE;ID_STRIDE"
    "SOURCES;UNINSTRUMENTED_SOURCES;LWP_OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): unknown "
                        "arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): no SOURCES "
                        "to instrument")
  endif()
  foreach(opt STATS_LEVEL:70 MAX_LOOP_DEPTH:1 ID_BASE:0)
    string(REPLACE ":" ";" opt "${opt}")
    list(GET opt 0 key)
    list(GET opt 1 default)
    if(NOT DEFINED ARG_${key})
      set(ARG_${key} ${default})
    elseif(NOT ARG_${key} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): ${key} "
                          "must be a non-negative integer, not '${ARG_${key}}'")
    endif()
  endforeach()

  _lwp_locate()

  # Every instrumented source needs clang of the plugin's LLVM.
  set(langs)
  foreach(src IN LISTS ARG_SOURCES)
    _lwp_source_language("${src}" lang)
    if(NOT lang MATCHES "^(C|CXX)$")
      message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): cannot "
                          "instrument '${src}': only C and C++ sources")
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
        "lwp_add_instrumented_executable(${name}): the ${lang} compiler is "
        "${id} ${version} (${CMAKE_${lang}_COMPILER}); LWP instruments "
        "through a clang pass plugin: configure with "
        "-DCMAKE_${lang}_COMPILER=clang-${LWP_CLANG_VERSION_MAJOR} "
        "(a fresh build directory)")
    endif()
    if(NOT major STREQUAL LWP_CLANG_VERSION_MAJOR)
      message(FATAL_ERROR
        "lwp_add_instrumented_executable(${name}): the ${lang} compiler is "
        "clang ${version}; the LWP plugin is built for LLVM "
        "${LWP_CLANG_VERSION_MAJOR} and loads only into that clang "
        "(-DCMAKE_${lang}_COMPILER=clang-${LWP_CLANG_VERSION_MAJOR})")
    endif()
  endforeach()

  # ID partition (see the top of this file).
  list(LENGTH ARG_SOURCES count)
  if(ARG_ID_BASE GREATER_EQUAL _LWP_MAX_IDS)
    message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): ID_BASE "
                        "${ARG_ID_BASE} leaves no IDs below the runtime's "
                        "LWP_MAX_IDS (${_LWP_MAX_IDS})")
  endif()
  if(NOT DEFINED ARG_ID_STRIDE)
    math(EXPR ARG_ID_STRIDE "(${_LWP_MAX_IDS} - ${ARG_ID_BASE}) / ${count}")
  endif()
  if(NOT ARG_ID_STRIDE MATCHES "^[0-9]+$" OR ARG_ID_STRIDE EQUAL 0)
    message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): no room "
                        "for ${count} sources in the runtime's ${_LWP_MAX_IDS} "
                        "IDs from ID_BASE ${ARG_ID_BASE} (ID_STRIDE "
                        "'${ARG_ID_STRIDE}')")
  endif()

  set(mapdir "${CMAKE_CURRENT_BINARY_DIR}/${name}.lwp")
  file(MAKE_DIRECTORY "${mapdir}")
  set(common
    "-fpass-plugin=${_LWP_PLUGIN}"
    "-mllvm=-stats-level=${ARG_STATS_LEVEL}"
    "-mllvm=-max-loop-depth=${ARG_MAX_LOOP_DEPTH}")
  foreach(opt IN LISTS ARG_LWP_OPTIONS)
    string(REGEX REPLACE "^-+" "" opt "${opt}")
    list(APPEND common "-mllvm=-${opt}")
  endforeach()

  set(checks)
  set(index 0)
  foreach(src IN LISTS ARG_SOURCES)
    math(EXPR base "${ARG_ID_BASE} + ${index} * ${ARG_ID_STRIDE}")
    get_filename_component(stem "${src}" NAME)
    set(map "${mapdir}/${index}-${stem}.map.json")
    get_source_file_property(prior "${src}" LWP_INSTRUMENTED_BY)
    if(prior)
      message(FATAL_ERROR "lwp_add_instrumented_executable(${name}): '${src}' "
                          "is instrumented by '${prior}' already (with its own "
                          "ID base); compile it once, in a library")
    endif()
    set_source_files_properties("${src}" PROPERTIES
      LWP_INSTRUMENTED_BY ${name}
      COMPILE_OPTIONS "${common};-mllvm=-lwp-id-base=${base};-mllvm=-lwp-map-file=${map}"
      OBJECT_DEPENDS "${_LWP_PLUGIN_FILE}")
    list(APPEND checks "${base}|${map}|${src}")
    math(EXPR index "${index} + 1")
  endforeach()

  add_executable(${name} ${ARG_SOURCES} ${ARG_UNINSTRUMENTED_SOURCES})
  target_include_directories(${name} PRIVATE "${_LWP_INCLUDE}")
  find_package(Threads REQUIRED)
  target_link_libraries(${name} PRIVATE "${_LWP_RUNTIME}" Threads::Threads)
  if(UNIX AND NOT APPLE)
    target_link_libraries(${name} PRIVATE m)
  endif()
  if(_LWP_DEPENDS)
    add_dependencies(${name} ${_LWP_DEPENDS})
  endif()

  string(REPLACE ";" "," checks "${checks}")
  get_property(moddir GLOBAL PROPERTY LWP_CMAKE_MODULE_DIR)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND "${CMAKE_COMMAND}"
      "-DLWP_TARGET=${name}"
      "-DLWP_BINARY=$<TARGET_FILE:${name}>"
      "-DLWP_SOURCES=${checks}"
      "-DLWP_ID_STRIDE=${ARG_ID_STRIDE}"
      "-DLWP_ID_BASE=${ARG_ID_BASE}"
      "-DLWP_MAX_IDS=${_LWP_MAX_IDS}"
      "-DLWP_REPORT=${_LWP_REPORT}"
      -P "${moddir}/LWPCheckIds.cmake"
    VERBATIM)
  set_target_properties(${name} PROPERTIES
    LWP_ID_BASE ${ARG_ID_BASE}
    LWP_ID_STRIDE ${ARG_ID_STRIDE}
    LWP_MAP_DIR "${mapdir}")
endfunction()
