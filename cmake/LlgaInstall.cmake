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
