# ===- LWPCheckIds.cmake - Check an instrumented executable's region IDs --=== #
#
# Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
#
# ===----------------------------------------------------------------------=== #
#
# Run by lwp_add_instrumented_executable (LWP.cmake) after each link:
#   cmake -DLWP_TARGET=name -DLWP_BINARY=path -DLWP_SOURCES=base|map|src,...
#         -DLWP_ID_STRIDE=n -DLWP_ID_BASE=n -DLWP_MAX_IDS=n [-DLWP_REPORT=path]
#         -P LWPCheckIds.cmake
# Reads each instrumented source's map (written by -lwp-map-file at its
# compile) and fails when a source's regions leave its ID slice or reach the
# runtime's LWP_MAX_IDS; then, with lwp-report, reads the linked binary's map
# (which refuses an ID used by two modules).

string(REPLACE "," ";" sources "${LWP_SOURCES}")
set(total 0)
set(most 0)
set(errors)
foreach(entry IN LISTS sources)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 base)
  list(GET entry 1 map)
  list(GET entry 2 src)
  if(NOT EXISTS "${map}")
    string(CONCAT error "no map file ${map} for ${src} (was it compiled with "
                       "the LWP plugin?)")
    list(APPEND errors "${error}")
    continue()
  endif()
  file(READ "${map}" json)
  string(JSON regions ERROR_VARIABLE err LENGTH "${json}" regions)
  if(err)
    string(CONCAT error "unreadable map ${map} of ${src}: ${err}")
    list(APPEND errors "${error}")
    continue()
  endif()
  math(EXPR total "${total} + ${regions}")
  if(regions GREATER most)
    set(most ${regions})
  endif()
  math(EXPR end "${base} + ${regions}")
  if(regions GREATER LWP_ID_STRIDE)
    string(CONCAT error "${src} has ${regions} regions, more than its slice of "
                       "${LWP_ID_STRIDE} IDs from ${base}: they run into the "
                       "next source's IDs")
    list(APPEND errors "${error}")
  endif()
  if(end GREATER LWP_MAX_IDS)
    string(CONCAT error "${src} uses IDs up to ${end} - 1, beyond the host "
                       "runtime's LWP_MAX_IDS (${LWP_MAX_IDS}): their counts "
                       "and records would be dropped")
    list(APPEND errors "${error}")
  endif()
endforeach()

if(errors)
  list(LENGTH sources n)
  math(EXPR need "${LWP_ID_BASE} + ${n} * ${most}")
  set(hint "set ID_STRIDE ${most} or more")
  if(need GREATER LWP_MAX_IDS)
    set(hint "instrument fewer regions (STATS_LEVEL, MAX_LOOP_DEPTH, "
             "LWP_OPTIONS lwp-function-filter=...), split the executable's "
             "sources, or build the runtime with a larger LWP_MAX_IDS")
  endif()
  list(JOIN errors "\n  " text)
  string(JOIN "" hint ${hint})
  message(FATAL_ERROR
    "LWP: region IDs of '${LWP_TARGET}' do not fit (ID_BASE ${LWP_ID_BASE}, "
    "ID_STRIDE ${LWP_ID_STRIDE}, ${total} regions in ${n} sources):\n  "
    "${text}\nFix: ${hint} in lwp_add_instrumented_executable(${LWP_TARGET}).")
endif()

if(LWP_REPORT)
  execute_process(COMMAND "${LWP_REPORT}" --map "${LWP_BINARY}"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "LWP: the instrumentation map of '${LWP_BINARY}' is "
                        "not usable:\n${err}")
  endif()
endif()
