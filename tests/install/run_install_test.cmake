# tests/install/run_install_test.cmake — installs the build into a scratch
# prefix, builds tests/install as an outside project against it, and runs
# both consumers. Usage: cmake -DBUILD=<dir> -DSRC=<dir> -DWORK=<dir> -P
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/install -B ${WORK}/build
  -G Ninja -DCMAKE_PREFIX_PATH=${WORK}/prefix -DSOURCES_DIR=${SRC}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer project failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer project failed")
endif()
foreach(exe c_consumer cpp_consumer)
  execute_process(COMMAND ${WORK}/build/${exe} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} failed (${rc})")
  endif()
endforeach()
message(STATUS "install test: both consumers built against the installed package and passed")
