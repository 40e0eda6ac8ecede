# SPDX-License-Identifier: Apache-2.0
# tests/conformance/run/dump_test.cmake — ONEDNN_GRAPH_DUMP and ONEDNN_VERBOSE
# end to end: runs the demo with graph and subgraph dumps into a scratch
# folder, replays every dumped file with llga-run (the whole graph with the
# partition count unchecked, each subgraph strictly as one partition), and
# checks the verbose lines of partition creation, compile and execute.
#   cmake -DDEMO=<llga-cnn-demo> -DRUNNER=<llga-run> -DWORK=<dir> -P dump_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -E env ONEDNN_GRAPH_DUMP=graph,subgraph
                        ONEDNN_GRAPH_DUMP_DIR=${WORK} ONEDNN_VERBOSE=2 ${DEMO}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo failed (${rc}):\n${out}${err}")
endif()
foreach(pat "onednn_verbose,v1,info,oneDNN v" "onednn_verbose,v1,graph,info,template:"
            "onednn_verbose,v1,graph,info,llga,partition,"
            "onednn_verbose,v1,graph,compile:cache_miss,cpu,"
            "onednn_verbose,v1,graph,exec,cpu,")
  string(FIND "${out}" "${pat}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "no '${pat}' line in the verbose output:\n${out}")
  endif()
endforeach()
if(NOT EXISTS ${WORK}/graph_0.json)
  message(FATAL_ERROR "ONEDNN_GRAPH_DUMP=graph wrote no ${WORK}/graph_0.json")
endif()
file(GLOB subs ${WORK}/subgraph_*.json)
list(LENGTH subs nsubs)
if(nsubs EQUAL 0)
  message(FATAL_ERROR "ONEDNN_GRAPH_DUMP=subgraph wrote no subgraph_*.json")
endif()
set(cases --expected-n-partitions=0 --case=${WORK}/graph_0.json
          --expected-n-partitions=1)
foreach(s ${subs})
  list(APPEND cases --case=${s})
endforeach()
execute_process(COMMAND ${RUNNER} --partition-check=strict ${cases}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "replaying the dumps failed (exit ${rc})")
endif()
message("replayed graph_0.json and ${nsubs} subgraph dumps")
# Off by default: without the variables nothing is written.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -E env ONEDNN_GRAPH_DUMP_DIR=${WORK}
                        --unset=ONEDNN_GRAPH_DUMP --unset=ONEDNN_VERBOSE ${DEMO}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
file(GLOB left ${WORK}/*.json)
string(FIND "${out}" "onednn_verbose" vpos)
if(left OR NOT vpos EQUAL -1)
  message(FATAL_ERROR "dump or verbose output while disabled: ${left}")
endif()
