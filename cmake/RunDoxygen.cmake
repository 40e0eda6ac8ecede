# SPDX-License-Identifier: Apache-2.0
# cmake/RunDoxygen.cmake — runs Doxygen on the public headers and fails on
# any warning it logs (see cmake/LlgaDocs.cmake).
#   cmake -DDOXYGEN=<doxygen> -DDOXYFILE=<Doxyfile> -DOUT=<dir> -P RunDoxygen.cmake
file(REMOVE ${OUT}/warnings.log)
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} WORKING_DIRECTORY ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "doxygen failed (${rc}):\n${out}${err}")
endif()
set(log "")
if(EXISTS ${OUT}/warnings.log)
  file(STRINGS ${OUT}/warnings.log log)
endif()
set(bad "")
foreach(line IN LISTS log)
  if(line STREQUAL "" OR line MATCHES "possible recursive namespace alias")
    continue()
  endif()
  string(APPEND bad "${line}\n")
endforeach()
if(bad)
  message(FATAL_ERROR "Doxygen warnings in the public headers:\n${bad}")
endif()
if(NOT EXISTS ${OUT}/html/index.html)
  message(FATAL_ERROR "no ${OUT}/html/index.html")
endif()
message("API reference: ${OUT}/html/index.html")
