# SPDX-License-Identifier: Apache-2.0
# cmake/LlgaDocs.cmake — the `doc` target: the API reference generated from
# the public headers with Doxygen into ${CMAKE_BINARY_DIR}/doc/html, and the
# ctest `docs.api_reference` that builds it. Any Doxygen warning (an
# undocumented public symbol among them) fails both; the one exception is
# Doxygen's note on `namespace oneapi { namespace dnnl = ::dnnl; }`, which it
# cannot follow (cmake/RunDoxygen.cmake).
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  return()
endif()
set(LLGA_DOC_OUT ${CMAKE_BINARY_DIR}/doc)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/docs/Doxyfile.in
               ${LLGA_DOC_OUT}/Doxyfile @ONLY)
set(_run ${CMAKE_COMMAND} -DDOXYGEN=${DOXYGEN_EXECUTABLE}
         -DDOXYFILE=${LLGA_DOC_OUT}/Doxyfile -DOUT=${LLGA_DOC_OUT}
         -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/RunDoxygen.cmake)
add_custom_target(doc COMMAND ${_run}
  COMMENT "API reference (Doxygen) -> ${LLGA_DOC_OUT}/html/index.html"
  VERBATIM)
if(LLGA_BUILD_TESTS)
  add_test(NAME docs.api_reference COMMAND ${_run})
  set_tests_properties(docs.api_reference PROPERTIES LABELS api TIMEOUT 300)
endif()
