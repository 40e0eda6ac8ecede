# SPDX-License-Identifier: Apache-2.0
# tests/conformance/run/benchdnn_scrape_test.cmake — llga-run's output read by
# a scraper written for benchdnn's (benchdnn_scrape.py): perf mode with the
# default, csv and a custom --perf-template, plus a correctness run; every
# run must scrape cleanly with the expected counts.
#   cmake -DRUNNER=<llga-run> -DPYTHON=<python3> -DSCRAPER=<script>
#         -DINPUTS=<tests/inputs> -DWORK=<dir> -P benchdnn_scrape_test.cmake
file(MAKE_DIRECTORY ${WORK})
set(cases --expected-n-partitions=0 --case=${INPUTS}/conv_bias_relu.json
          --case=${INPUTS}/eltwise_chain.json --case=${INPUTS}/binary.json)
function(scrape name expect)
  execute_process(COMMAND ${RUNNER} ${ARGN} ${cases}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: llga-run exited with ${rc}:\n${out}${err}")
  endif()
  file(WRITE ${WORK}/${name}.txt "${out}")
  execute_process(COMMAND ${PYTHON} ${SCRAPER} --expect-tests 3 ${expect}
                  INPUT_FILE ${WORK}/${name}.txt
                  RESULT_VARIABLE rc OUTPUT_VARIABLE sout ERROR_VARIABLE serr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: the scraper failed: ${serr}\n${out}")
  endif()
  message("${name}:\n${sout}")
endfunction()
scrape(correctness "")
scrape(perf_def "--expect-perf;3" --mode=P --fix-times-per-prb=3)
scrape(perf_csv "--expect-perf;3" --mode=P --fix-times-per-prb=3 --perf-template=csv)
scrape(perf_custom "--expect-perf;3" --mode=P --fix-times-per-prb=3
       "--perf-template=%prb%,%-time%,%0time%,%-Gflops%,%ctime%")
# -v1 prints a run: line before each case.
execute_process(COMMAND ${RUNNER} -v1 ${cases} OUTPUT_VARIABLE out)
string(REGEX MATCHALL "\nrun: --graph [^\n]*" runs "\n${out}")
list(LENGTH runs nruns)
if(NOT nruns EQUAL 3)
  message(FATAL_ERROR "-v1 printed ${nruns} run: lines, expected 3:\n${out}")
endif()
# A passing case shows no failure words at -v2.
execute_process(COMMAND ${RUNNER} -v2 ${cases} OUTPUT_VARIABLE out)
if(out MATCHES "MISMATCH|OUTSIDE TOLERANCE|FAILED")
  message(FATAL_ERROR "failure wording in a passing run:\n${out}")
endif()
if(NOT out MATCHES "within tolerance")
  message(FATAL_ERROR "-v2 shows no comparison:\n${out}")
endif()
