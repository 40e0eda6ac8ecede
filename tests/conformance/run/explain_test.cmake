# SPDX-License-Identifier: Apache-2.0
# tests/conformance/run/explain_test.cmake — llga-run --explain, --explain=json
# and --draw on the issue's graph: Convolution -> BiasAdd whose output is read
# by both a ReLU and an Abs (three partitions). The report must say that the
# ReLU and the Abs stay alone because tensor 4 has a second consumer, and
# --draw must produce an SVG through Graphviz.
#   cmake -DRUNNER=<llga-run> -DGRAPH=<bias_two_consumers.json> -DWORK=<dir>
#         -P explain_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(case --expected-n-partitions=3 --case=${GRAPH})
execute_process(COMMAND ${RUNNER} --explain ${case} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "llga-run --explain failed (${rc}):\n${out}")
endif()
foreach(want "op 1 BiasAdd \"bias\": partition [0-9]+, fused by pattern fp_conv_post_ops"
             "op 2 ReLU \"relu\": partition [0-9]+, alone\n    fp_conv_post_ops: second_consumer: tensor 4 [(]output of op 1 [(]BiasAdd[)][)] is also read by op 3 [(]Abs[)]")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "--explain lacks '${want}':\n${out}")
  endif()
endforeach()
execute_process(COMMAND ${RUNNER} --explain=json ${case} OUTPUT_VARIABLE out)
string(FIND "${out}" "{\n  \"partitions\": 3," pos)
if(pos EQUAL -1 OR NOT out MATCHES "\"id\": 3, \"kind\": \"Abs\"[^\n]*\"rule\": \"second_consumer\"")
  message(FATAL_ERROR "--explain=json is not as expected:\n${out}")
endif()
find_program(DOT dot)
if(DOT)
  execute_process(COMMAND ${RUNNER} --draw=${WORK}/g.svg ${case} OUTPUT_VARIABLE out)
  if(NOT EXISTS ${WORK}/g.svg OR NOT EXISTS ${WORK}/g.dot)
    message(FATAL_ERROR "--draw wrote no SVG:\n${out}")
  endif()
  file(READ ${WORK}/g.svg svg)
  if(NOT svg MATCHES "<svg" OR NOT svg MATCHES "BiasAdd #1")
    message(FATAL_ERROR "the SVG does not show the graph")
  endif()
else()
  message("Graphviz dot not found: --draw SVG not checked")
endif()
