# SPDX-License-Identifier: Apache-2.0
# tests/conformance/run/run_graphs.cmake — one conformance run of llga-run:
#   cmake -DRUNNER=<llga-run> [-DDIR=<folder of *.json>] [-DBATCH=<case file>]
#         [-DARGS=<;-list of extra options>] [-DXFAIL=<;-list of case texts>]
#         -P run_graphs.cmake
# Runs every graph under DIR (recursively) with default options, or every line
# of BATCH, in one llga-run process and prints its report. Passes if nothing
# FAILed except the listed expected failures (each names a library bug);
# unsupported graphs (ops not implemented yet), invalid files and cases over
# the --max-work budget are counted in the summary line, not failures.
if(NOT RUNNER)
  message(FATAL_ERROR "RUNNER not set")
endif()
set(cmd ${RUNNER} ${ARGS})
if(DIR)
  file(GLOB_RECURSE graphs RELATIVE ${DIR} ${DIR}/*.json)
  list(SORT graphs)
  if(NOT graphs)
    message(FATAL_ERROR "no *.json under ${DIR}")
  endif()
  list(APPEND cmd --inputs-dir=${DIR})
  foreach(g ${graphs})
    list(APPEND cmd --reset --case=${g})
  endforeach()
endif()
if(BATCH)
  list(APPEND cmd --batch=${BATCH})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("${out}${err}")
# Exit codes (docs/runner.md): 0 all passed, 1 a check failed, 2 usage error,
# 3 nothing failed but some graphs are unsupported or invalid.
if(rc EQUAL 0 OR rc EQUAL 3)
  return()
endif()
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "llga-run exited with ${rc}")
endif()
# Failures: tolerated only if every FAILED line names an expected failure.
string(REGEX MATCHALL "[0-9]+:FAILED [^\n]*" fails "${out}")
set(unexpected "")
foreach(line ${fails})
  set(known FALSE)
  foreach(x ${XFAIL})
    string(FIND "${line}" "${x}" pos)
    if(NOT pos EQUAL -1)
      set(known TRUE)
    endif()
  endforeach()
  if(NOT known)
    list(APPEND unexpected "${line}")
  endif()
endforeach()
if(unexpected)
  string(REPLACE ";" "\n  " unexpected "${unexpected}")
  message(FATAL_ERROR "unexpected failures:\n  ${unexpected}")
endif()
list(LENGTH fails nx)
message("all ${nx} failure(s) are expected (XFAIL, see CMakeLists.txt)")
