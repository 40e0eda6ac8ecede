# SPDX-License-Identifier: Apache-2.0
# cmake/LlgaDependencies.cmake — third-party packages. Each one is owned by a
# single module: oneTBB by src/runtime/threading, asmjit by src/backends/cpu,
# GoogleTest by tests/. tools/install-deps installs them on Debian.
find_package(Threads REQUIRED)
find_package(TBB 2021 CONFIG REQUIRED)

# asmjit is built from Debian's source package with -fPIC (the packaged
# libasmjit.a is not PIC and cannot be linked into libllga.so).
set(LLGA_ASMJIT_SRC "${LLGA_DEPS_DIR}/asmjit")
if(NOT EXISTS "${LLGA_ASMJIT_SRC}/CMakeLists.txt")
  message(FATAL_ERROR "asmjit source not found in ${LLGA_ASMJIT_SRC}; "
          "run tools/install-deps first (or set LLGA_DEPS_DIR)")
endif()
set(ASMJIT_STATIC ON CACHE BOOL "" FORCE)
set(ASMJIT_NO_FOREIGN ON CACHE BOOL "" FORCE)
set(ASMJIT_NO_DEPRECATED ON CACHE BOOL "" FORCE)
add_subdirectory(${LLGA_ASMJIT_SRC} ${CMAKE_BINARY_DIR}/third_party/asmjit
                 EXCLUDE_FROM_ALL SYSTEM)

# OpenCL (owned by src/backends/ocl): the GPU engine is built when the
# headers and the ICD loader are found, unless LLGA_WITH_OPENCL=OFF.
find_package(OpenCL 3.0 QUIET)
option(LLGA_WITH_OPENCL "Build the OpenCL GPU engine" ${OpenCL_FOUND})
if(LLGA_WITH_OPENCL AND NOT OpenCL_FOUND)
  message(FATAL_ERROR "LLGA_WITH_OPENCL is ON but OpenCL was not found "
          "(apt-get install ocl-icd-opencl-dev opencl-headers)")
endif()
message(STATUS "llga: OpenCL GPU engine: ${LLGA_WITH_OPENCL}")

if(LLGA_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
