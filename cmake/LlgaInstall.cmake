# SPDX-License-Identifier: Apache-2.0
# cmake/LlgaInstall.cmake — install rules and CMake packages:
#   find_package(llga) -> llga::llga
#   find_package(dnnl) -> DNNL::dnnl (for programs written against oneDNN)
include(CMakePackageConfigHelpers)

install(TARGETS llga llga_static llga_headers EXPORT llgaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/oneapi
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(DIRECTORY ${LLGA_GEN_INCLUDE}/oneapi
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(_cfgdir ${CMAKE_INSTALL_LIBDIR}/cmake/llga)
install(EXPORT llgaTargets NAMESPACE llga:: DESTINATION ${_cfgdir})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/llga-config.cmake.in
  ${CMAKE_BINARY_DIR}/llga-config.cmake INSTALL_DESTINATION ${_cfgdir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/llga-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/llga-config.cmake
  ${CMAKE_BINARY_DIR}/llga-config-version.cmake DESTINATION ${_cfgdir})

# oneDNN compatibility package: same library, oneDNN's names. The version is
# the oneDNN API level we implement.
set(_dnnl_cfgdir ${CMAKE_INSTALL_LIBDIR}/cmake/dnnl)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/dnnl-config.cmake.in
  ${CMAKE_BINARY_DIR}/dnnl-config.cmake INSTALL_DESTINATION ${_dnnl_cfgdir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dnnl-config-version.cmake
  VERSION 3.9.2 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dnnl-config.cmake
  ${CMAKE_BINARY_DIR}/dnnl-config-version.cmake DESTINATION ${_dnnl_cfgdir})

# ---- executables -----------------------------------------------------------
# llga-run and llga-cnn-demo install from tools/; the benchmarks here (their
# CMakeLists stay build-only). All carry the RPATH set in the top CMakeLists.
foreach(_b llga-bench-gemm llga-bench-int8 llga-bench-conv llga-bench-fusion
           llga-bench-sdpa llga-bench-norm)
  if(TARGET ${_b})
    install(TARGETS ${_b} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# ---- pkg-config --------------------------------------------------------------
# Relocatable: prefix is computed from the .pc file's own directory.
set(_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH LLGA_PC_TO_PREFIX /${_pcdir} /)
string(REGEX REPLACE "/$" "" LLGA_PC_TO_PREFIX "${LLGA_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/llga.pc.in ${CMAKE_BINARY_DIR}/llga.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/llga.pc DESTINATION ${_pcdir})

# ---- licence and documentation ----------------------------------------------
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/NOTICE
  ${CMAKE_SOURCE_DIR}/THIRD-PARTY ${CMAKE_SOURCE_DIR}/CHANGELOG.md
  ${CMAKE_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/llga)

# ---- packages: cpack -G DEB / cpack -G TGZ (run in the build directory) ----
set(CPACK_PACKAGE_NAME llga)
set(CPACK_PACKAGE_VENDOR "The llga authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Open implementation of the oneDNN Graph API (v3.9)")
set(CPACK_PACKAGE_DESCRIPTION
  "llga implements the oneDNN Graph API: a C ABI and C++ wrapper, pattern fusion, JIT CPU kernels. Includes llga-run, the benchmarks, CMake and pkg-config files, and the Java, C# and Python bindings that were built.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_PACKAGE_FILE_NAME "llga-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The llga authors <llga@invalid>")
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Dependencies: dpkg-shlibdeps reads them from the ELF files (libtbb12,
# libc6, libstdc++6, ...) when it is installed (dpkg-dev); otherwise the
# runtime libraries are named here.
find_program(LLGA_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(LLGA_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
    ${CMAKE_BINARY_DIR}/src)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libtbb12, libstdc++6, libc6")
endif()
# llga installs oneDNN's header names (include/oneapi/dnnl/*.h) and a
# `dnnl` CMake package, like Debian's oneDNN development package.
set(CPACK_DEBIAN_PACKAGE_CONFLICTS "libdnnl-dev")
# The CMake packages want TBB's CMake files; Python needs numpy for arrays.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libtbb-dev, python3-numpy")
include(CPack)
