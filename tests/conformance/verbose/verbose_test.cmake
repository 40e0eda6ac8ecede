# SPDX-License-Identifier: Apache-2.0
# tests/conformance/verbose/verbose_test.cmake — ONEDNN_VERBOSE in oneDNN's
# format: runs the demo under several settings and feeds the output to
# onednn_verbose_parser.py (written from oneDNN's documentation); also checks
# ONEDNN_GRAPH_DUMP=pattern and that 0/none print nothing.
#   cmake -DDEMO=<llga-cnn-demo> -DPYTHON=<python3> -DPARSER=<parser.py>
#         -DWORK=<dir> -P verbose_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(run_case env_list parser_args)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env_list} ${DEMO}
                  WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "demo failed (${rc}) with ${env_list}:\n${out}${err}")
  endif()
  file(WRITE ${WORK}/out.txt "${out}")
  execute_process(COMMAND ${PYTHON} ${PARSER} ${parser_args}
                  INPUT_FILE ${WORK}/out.txt
                  RESULT_VARIABLE rc OUTPUT_VARIABLE pout ERROR_VARIABLE perr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "parser rejected the output of ${env_list}:\n${perr}")
  endif()
  message("${env_list}: ${pout}")
  set(last_out "${out}" PARENT_SCOPE)
endfunction()

# The parser accepts oneDNN's own lines (a sample in oneDNN v3.9's format).
execute_process(COMMAND ${PYTHON} ${PARSER} --need exec compile
                INPUT_FILE ${SAMPLE} RESULT_VARIABLE rc ERROR_VARIABLE perr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the parser rejects oneDNN's sample:\n${perr}")
endif()

run_case("ONEDNN_VERBOSE=profile_exec" "--need;exec")
string(FIND "${last_out}" "graph,compile:" pos)
if(NOT pos EQUAL -1)
  message(FATAL_ERROR "profile_exec printed compile lines")
endif()
run_case("ONEDNN_VERBOSE=profile" "--need;exec;compile")
# Same field count per line type as oneDNN's sample.
execute_process(COMMAND ${PYTHON} ${COMPARE} ${SAMPLE} ${WORK}/out.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE cout ERROR_VARIABLE cerr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "llga's lines differ from oneDNN's: ${cout}${cerr}")
endif()
message("${cout}")
run_case("ONEDNN_VERBOSE=2" "--need;exec;compile")
run_case("ONEDNN_VERBOSE=dispatch" "--need;create:dispatch")
run_case("ONEDNN_VERBOSE=all;ONEDNN_VERBOSE_TIMESTAMP=1"
         "--timestamp;--need;exec;compile;create:dispatch")
# JIT lines: an info line whose last field is a bare number of ms.
string(REGEX MATCH "onednn_verbose,v1,[0-9.]+,common,info,jit,[^,\n]+,[0-9.e-]+\n"
       jit "${last_out}")
if(NOT jit)
  message(FATAL_ERROR "no JIT line with a numeric time:\n${last_out}")
endif()
run_case("ONEDNN_VERBOSE=profile;ONEDNN_GRAPH_DUMP=pattern;ONEDNN_GRAPH_DUMP_DIR=${WORK}"
         "--need;exec")
string(FIND "${last_out}" "graph,info,pattern,dump,${WORK}/dnnl_graph_passes.json" pos)
if(pos EQUAL -1 OR NOT EXISTS ${WORK}/dnnl_graph_passes.json)
  message(FATAL_ERROR "ONEDNN_GRAPH_DUMP=pattern wrote no pattern list")
endif()
file(READ ${WORK}/dnnl_graph_passes.json passes)
string(FIND "${passes}" "\"pass_name\": \"fp_conv_post_ops\"" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "pattern list lacks fp_conv_post_ops:\n${passes}")
endif()
foreach(off 0 none)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ONEDNN_VERBOSE=${off} ${DEMO}
                  OUTPUT_VARIABLE out)
  string(FIND "${out}" "onednn_verbose" pos)
  if(NOT pos EQUAL -1)
    message(FATAL_ERROR "ONEDNN_VERBOSE=${off} printed verbose lines")
  endif()
endforeach()
