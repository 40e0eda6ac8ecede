# SPDX-License-Identifier: Apache-2.0
# cmake/LlgaWarnings.cmake — compiler flags shared by every llga target.
add_library(llga_flags INTERFACE)
target_compile_options(llga_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
if(LLGA_WERROR)
  target_compile_options(llga_flags INTERFACE -Werror)
endif()
# LLGA_FUZZ (clang only): every object carries libFuzzer's coverage
# instrumentation (-fsanitize=fuzzer-no-link) on top of ASan+UBSan, so this
# one sanitizer build runs the API/misuse suites and the fuzz targets.
if(LLGA_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "LLGA_FUZZ needs clang (e.g. CXX=clang++-14 CC=clang-14)")
  endif()
  set(LLGA_SANITIZE ON)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(LLGA_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options(${_san})
  add_link_options(${_san})
  # C programs (api_c99_graph) link the C++ parts of the runtimes too: the
  # sanitized libllga.so needs them and clang links runtimes into programs.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_link_options(-fsanitize-link-c++-runtime $<$<LINK_LANGUAGE:C>:-lstdc++>)
  endif()
endif()
# ThreadSanitizer build for the concurrency tests (ctest -L tsan; tools/test
# builds only test_concurrency this way). oneTBB stays uninstrumented, so
# tests/runtime/tsan.supp suppresses reports whose frames are in libtbb.
option(LLGA_TSAN "Build with ThreadSanitizer" OFF)
if(LLGA_TSAN)
  if(LLGA_SANITIZE)
    message(FATAL_ERROR "LLGA_TSAN and LLGA_SANITIZE cannot be combined")
  endif()
  set(_tsan -fsanitize=thread -fno-omit-frame-pointer)
  add_compile_options(${_tsan})
  add_link_options(${_tsan})
endif()
