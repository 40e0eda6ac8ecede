# SPDX-License-Identifier: Apache-2.0
# tests/install/run_install_test.cmake — the installed package as users get
# it. (1) `cmake --install` into a scratch prefix: the layout (libraries,
# headers, CMake and pkg-config files, licence files, bindings), the
# installed llga-run and demo running with no LD_LIBRARY_PATH (RPATH), the
# installed bindings loading libllga from the prefix, and outside consumers
# built against the prefix (find_package(llga), find_package(dnnl),
# pkg-config). (2) `cpack -G DEB` and `-G TGZ`: the .deb's metadata and
# layout (unpacked with dpkg-deb -x into a scratch root; no root rights
# needed), its llga-run running from there, and the consumer project built
# against it. Usage: cmake -DBUILD=<dir> -DSRC=<dir> -DWORK=<dir> -P
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
set(P ${WORK}/prefix)
set(_noenv ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH --unset=PYTHONPATH
    --unset=MONO_PATH)
set(_case ${SRC}/tests/inputs/conv_bias_relu.json)

function(must what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(LAST_OUTPUT "${out}" PARENT_SCOPE)
  message(STATUS "ok: ${what}")
endfunction()

function(expect_files root)
  foreach(f ${ARGN})
    file(GLOB hit ${root}/${f})
    if(NOT hit)
      message(FATAL_ERROR "missing from ${root}: ${f}")
    endif()
  endforeach()
endfunction()

# Settings of the build under test.
load_cache(${BUILD} READ_WITH_PREFIX C_ CMAKE_INSTALL_LIBDIR
  LLGA_BINDINGS_ENABLED_LANGUAGES LLGA_INSTALL_PYTHONDIR LLGA_INSTALL_JAVADIR
  LLGA_INSTALL_CSHARPDIR LLGA_PYTHON_EXECUTABLE LLGA_MONO LLGA_MCS
  Java_JAVA_EXECUTABLE Java_JAVAC_EXECUTABLE)
set(lib ${C_CMAKE_INSTALL_LIBDIR})
set(langs "${C_LLGA_BINDINGS_ENABLED_LANGUAGES}")

# ---- 1. cmake --install ------------------------------------------------------
must("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${P})
expect_files(${P} ${lib}/libllga.so.0 ${lib}/libllga.a
  include/oneapi/dnnl/dnnl_graph.hpp include/oneapi/dnnl/llga.h
  include/oneapi/dnnl/dnnl_config.h ${lib}/cmake/llga/llga-config.cmake
  ${lib}/cmake/dnnl/dnnl-config.cmake ${lib}/pkgconfig/llga.pc
  share/doc/llga/LICENSE share/doc/llga/THIRD-PARTY share/doc/llga/CHANGELOG.md
  bin/llga-run bin/llga-cnn-demo bin/llga-bench-gemm)

# Installed executables find libllga through their RPATH alone.
must("installed llga-run --case (no LD_LIBRARY_PATH)"
  ${_noenv} ${P}/bin/llga-run --case=${_case})
must("installed llga-cnn-demo" ${_noenv} ${P}/bin/llga-cnn-demo)
execute_process(COMMAND readelf -d ${P}/bin/llga-run OUTPUT_VARIABLE dyn)
if(NOT dyn MATCHES "\\$ORIGIN/\\.\\./${lib}")
  message(FATAL_ERROR "bin/llga-run lacks RPATH $ORIGIN/../${lib}:\n${dyn}")
endif()

# Installed bindings use the prefix's libllga (no copy of it installed).
if("python" IN_LIST langs)
  expect_files(${P} ${C_LLGA_INSTALL_PYTHONDIR}/llga/__init__.py
    ${C_LLGA_INSTALL_PYTHONDIR}/llga/_native.so)
  must("installed Python package"
    ${_noenv} PYTHONPATH=${P}/${C_LLGA_INSTALL_PYTHONDIR} PYTHONDONTWRITEBYTECODE=1
    ${C_LLGA_PYTHON_EXECUTABLE} ${SRC}/bindings/python/examples/getting_started.py)
endif()
if("java" IN_LIST langs)
  expect_files(${P} ${C_LLGA_INSTALL_JAVADIR}/llga.jar)
  must("javac against the installed jar" ${C_Java_JAVAC_EXECUTABLE} -encoding UTF-8
    -cp ${P}/${C_LLGA_INSTALL_JAVADIR}/llga.jar -d ${WORK}/java
    ${SRC}/bindings/java/examples/GettingStarted.java)
  must("Java example with only the installed jar" ${_noenv} ${C_Java_JAVA_EXECUTABLE}
    -cp ${P}/${C_LLGA_INSTALL_JAVADIR}/llga.jar:${WORK}/java GettingStarted)
endif()
if("csharp" IN_LIST langs)
  set(_cs ${P}/${C_LLGA_INSTALL_CSHARPDIR})
  expect_files(${_cs} Llga.dll libllga_csharp.so)
  must("mcs against the installed Llga.dll" ${C_LLGA_MCS} -nologo -langversion:7.2
    -r:${_cs}/Llga.dll -out:${WORK}/GettingStarted.exe
    ${SRC}/bindings/csharp/examples/GettingStarted.cs)
  must("C# example with the installed Llga.dll" ${_noenv} MONO_PATH=${_cs}
    ${C_LLGA_MONO} ${WORK}/GettingStarted.exe)
endif()

# Outside consumers: CMake packages and pkg-config.
function(build_consumers prefix tag)
  must("configure consumers (${tag})" ${CMAKE_COMMAND} -S ${SRC}/tests/install
    -B ${WORK}/build-${tag} -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    -DSOURCES_DIR=${SRC})
  must("build consumers (${tag})" ${CMAKE_COMMAND} --build ${WORK}/build-${tag})
  foreach(exe c_consumer cpp_consumer)
    must("${exe} (${tag})" ${WORK}/build-${tag}/${exe})
  endforeach()
endfunction()
build_consumers(${P} prefix)

find_program(PKG_CONFIG pkg-config)
find_program(CC NAMES cc gcc)
if(PKG_CONFIG AND CC)
  set(ENV{PKG_CONFIG_PATH} ${P}/${lib}/pkgconfig)
  must("pkg-config llga" ${PKG_CONFIG} --cflags --libs llga)
  string(STRIP "${LAST_OUTPUT}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  must("pkg-config --modversion" ${PKG_CONFIG} --modversion llga)
  must("cc with pkg-config flags" ${CC} -std=c99 ${SRC}/tests/api/c99_graph.c
    ${flags} -Wl,-rpath,${P}/${lib} -o ${WORK}/pc_consumer)
  must("pkg-config consumer" ${WORK}/pc_consumer)
endif()

# ---- 2. cpack: .deb and .tar.gz ---------------------------------------------
get_filename_component(_cmdir ${CMAKE_COMMAND} DIRECTORY)
set(CPACK ${_cmdir}/cpack)
find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  message(STATUS "install test: dpkg-deb missing, .deb checks skipped")
  return()
endif()
must("cpack (DEB and TGZ)" ${CPACK} --config ${BUILD}/CPackConfig.cmake
  -B ${WORK}/pkg)
file(GLOB deb ${WORK}/pkg/*.deb)
file(GLOB tgz ${WORK}/pkg/*.tar.gz)
if(NOT deb OR NOT tgz)
  message(FATAL_ERROR "cpack made no .deb or .tar.gz in ${WORK}/pkg")
endif()
must("dpkg-deb -I" ${DPKG_DEB} -I ${deb})
if(NOT LAST_OUTPUT MATCHES "Package: llga" OR NOT LAST_OUTPUT MATCHES "Depends:[^\n]*libtbb")
  message(FATAL_ERROR "unexpected .deb metadata:\n${LAST_OUTPUT}")
endif()
set(R ${WORK}/debroot)
must("dpkg-deb -x" ${DPKG_DEB} -x ${deb} ${R})
expect_files(${R}/usr ${lib}/libllga.so.0 bin/llga-run include/oneapi/dnnl/llga.h
  ${lib}/cmake/llga/llga-config.cmake ${lib}/pkgconfig/llga.pc
  share/doc/llga/LICENSE share/doc/llga/THIRD-PARTY)
must("llga-run from the unpacked .deb" ${_noenv} ${R}/usr/bin/llga-run --case=${_case})
build_consumers(${R}/usr deb)
message(STATUS "install test: prefix install, bindings, consumers and packages passed")
