# SPDX-License-Identifier: Apache-2.0
# tests/unit/ir/json_fuzz_labels.cmake — run by ctest after gtest discovery
# (TEST_INCLUDE_FILES, see tests/unit/CMakeLists.txt): gives the JSON fuzz
# test the labels "unit;fuzz" so `ctest -L fuzz` selects it (or -LE skips it).
foreach(t IN LISTS unit_ir_TESTS)
  if(t MATCHES "^JsonFuzz\\.")
    set_tests_properties("${t}" PROPERTIES LABELS "unit;fuzz")
  endif()
endforeach()
