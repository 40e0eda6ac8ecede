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

if(LLGA_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
