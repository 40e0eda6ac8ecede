# SPDX-License-Identifier: Apache-2.0
# cmake/LlgaPublicHeaders.cmake — generates dnnl_config.h, dnnl_version.h and
# dnnl_version_hash.h into the build tree and defines the header target.
set(LLGA_VERSION_MAJOR ${PROJECT_VERSION_MAJOR})
set(LLGA_VERSION_MINOR ${PROJECT_VERSION_MINOR})
set(LLGA_VERSION_PATCH ${PROJECT_VERSION_PATCH})
if(LLGA_WITH_OPENCL)
  set(LLGA_DNNL_GPU_RUNTIME DNNL_RUNTIME_OCL)
  set(LLGA_DNNL_GPU_VENDOR DNNL_VENDOR_GENERIC)
else()
  set(LLGA_DNNL_GPU_RUNTIME DNNL_RUNTIME_NONE)
  set(LLGA_DNNL_GPU_VENDOR DNNL_VENDOR_NONE)
endif()
execute_process(COMMAND git rev-parse HEAD
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  OUTPUT_VARIABLE LLGA_GIT_HASH OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET)
if(NOT LLGA_GIT_HASH)
  set(LLGA_GIT_HASH "unknown")
endif()

set(LLGA_GEN_INCLUDE ${CMAKE_BINARY_DIR}/include)
foreach(h dnnl_config.h dnnl_version.h dnnl_version_hash.h)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/include/oneapi/dnnl/${h}.in
                 ${LLGA_GEN_INCLUDE}/oneapi/dnnl/${h} @ONLY)
endforeach()

add_library(llga_headers INTERFACE)
target_include_directories(llga_headers INTERFACE
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${LLGA_GEN_INCLUDE}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
