# SPDX-License-Identifier: Apache-2.0
# tests/fuzz/run_hostile.cmake — llga-run on hostile layouts (ctest
# fuzz.llga_run.hostile): every tests/fuzz/hostile/pass_*.json and the
# accepted --in-shapes views must PASS (exit 0); every fail_*.json and the
# refused --in-shapes must end with a FAILED line and a message, and exit
# status 1 — never a signal, never an abort. Output strides in a file are a
# memory-order hint (the runner re-derives dense strides in that order), so
# pass_out_*_hint.json run with dense outputs.
# -DRUNNER=llga-run -DDIR=tests/fuzz/hostile -DGRAPH=<abs.json>
set(_bad 0)
function(run_case expect)
  execute_process(COMMAND ${RUNNER} ${ARGN} OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REPLACE "\n" " | " _o "${out}${err}")
  if(expect STREQUAL "pass" AND NOT rc STREQUAL "0")
    message(SEND_ERROR "expected PASS, got exit '${rc}': ${ARGN}\n${_o}")
  elseif(expect STREQUAL "fail")
    if(NOT rc STREQUAL "1")
      message(SEND_ERROR "expected exit 1, got '${rc}': ${ARGN}\n${_o}")
    elseif(NOT out MATCHES "[0-9]+:FAILED"
           OR NOT "${out}${err}" MATCHES "llga-run: [^\n]*[a-z][^\n]+")
      # benchdnn's result line (N:FAILED __REPRO: ...) and llga-run's
      # message naming what was refused.
      message(SEND_ERROR "no FAILED line with a reason: ${ARGN}\n${_o}")
    endif()
  endif()
  message(STATUS "${expect} rc=${rc}: ${ARGN}")
endfunction()

file(GLOB _files ${DIR}/*.json)
foreach(f ${_files})
  get_filename_component(n ${f} NAME)
  if(n MATCHES "^pass_")
    run_case(pass --case=${f})
  else()
    run_case(fail --case=${f})
  endif()
endforeach()
foreach(s "0:1x32x28x28*1x1x1x1" "0:2x3*0x1" "0:2x3*100x1" "0:4x4*1x1")
  run_case(pass --in-shapes=${s} --case=${GRAPH})
endforeach()
foreach(s "0:2x3*1000000000000000x1" "0:4611686018427387905x4"
          "0:3x4611686018427387904" "0:9223372036854775807x9223372036854775807"
          "0:2x3*-1x1" "0:2x3*1x1x1" "0:281474976710656x2")
  run_case(fail --in-shapes=${s} --case=${GRAPH})
endforeach()
