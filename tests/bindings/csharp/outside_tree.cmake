# SPDX-License-Identifier: Apache-2.0
# tests/bindings/csharp/outside_tree.cmake — a C# program built in a scratch
# folder outside the source tree against Llga.dll runs the getting-started
# graph, (1) finding the binding through MONO_PATH, (2) with the binding's
# files copied next to the program (the documented application layout).
# Usage: cmake -DMCS=.. -DMONO=.. -DLIBDIR=<folder of Llga.dll> -DEXAMPLE=..
#              -DWORK=<scratch> -P outside_tree.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/app ${WORK}/run)
execute_process(COMMAND ${MCS} -nologo -langversion:7.2 -r:${LIBDIR}/Llga.dll
    -out:${WORK}/app/GettingStarted.exe ${EXAMPLE}
  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mcs failed")
endif()
function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK}/run
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nOK")
    message(FATAL_ERROR "${what}: exit ${rc}\n${out}\n${err}")
  endif()
  message(STATUS "${what}: OK")
endfunction()
run("MONO_PATH=<binding folder>" ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH
    MONO_PATH=${LIBDIR} ${MONO} ${WORK}/app/GettingStarted.exe)
file(GLOB natives ${LIBDIR}/*.so ${LIBDIR}/*.so.*)
file(COPY ${LIBDIR}/Llga.dll ${natives} DESTINATION ${WORK}/app)
run("files next to the program" ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH
    --unset=MONO_PATH ${MONO} ${WORK}/app/GettingStarted.exe)
