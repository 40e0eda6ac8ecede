# SPDX-License-Identifier: Apache-2.0
# cmake/CheckLayering.cmake — enforces the dependency rule of
# docs/architecture.md by scanning #include lines under src/ (run as a ctest:
# cmake -DSRC=<source dir> -P CheckLayering.cmake). A module may include only
# itself and modules to its left; ops and runtime never include each other;
# backends never include each other; third-party headers stay in their owner.
# Inside backends/cpu, a kernel family's private headers (kernels/<family>/
# ...*_p.hpp) are included only by that family's own files (subfolders
# included) and by no public header, and the backend's files outside
# kernels/ include no kernel header at all (kernels.def declares the hooks).
set(order base ir ops runtime fusion compiler backends/ref backends/cpu backends/ocl capi)
# Allowed includes per module (module itself always allowed).
set(allow_base "")
set(allow_ir base)
set(allow_ops base ir)
set(allow_runtime base ir)
set(allow_fusion base ir ops runtime)
set(allow_compiler base ir ops runtime fusion)
set(allow_backends/ref base ir ops runtime fusion compiler)
set(allow_backends/cpu base ir ops runtime fusion compiler)
set(allow_backends/ocl base ir ops runtime fusion compiler)
set(allow_capi base ir ops runtime fusion compiler backends/ref backends/cpu backends/ocl)
# Third-party include prefixes and their single owning folder.
set(owner_tbb runtime/threading)
set(owner_asmjit backends/cpu)
set(owner_CL backends/ocl)

set(errors "")
foreach(mod ${order})
  file(GLOB_RECURSE files "${SRC}/src/${mod}/*.cpp" "${SRC}/src/${mod}/*.hpp"
       "${SRC}/src/${mod}/*.inl" "${SRC}/src/${mod}/*.h")
  foreach(f ${files})
    file(RELATIVE_PATH rel "${SRC}/src" "${f}")
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" inc "${line}")
      # Third-party ownership.
      foreach(lib tbb asmjit CL)
        if(inc MATCHES "^(oneapi/)?${lib}/")
          if(NOT rel MATCHES "^${owner_${lib}}/")
            list(APPEND errors "${rel}: includes <${inc}> owned by ${owner_${lib}}")
          endif()
        endif()
      endforeach()
      # The CPU backend's table and selection see no JIT internals.
      if(inc MATCHES "^asmjit/" AND rel MATCHES "^backends/cpu/cpu_backend\\.")
        list(APPEND errors "${rel}: includes <${inc}> (only kernels and the JIT runtime may)")
      endif()
      # CPU kernel families: private headers stay in their family.
      if(inc MATCHES "^backends/cpu/kernels/")
        if(NOT rel MATCHES "^backends/cpu/kernels/")
          list(APPEND errors "${rel}: includes kernel header ${inc} (kernels.def is the only registry)")
        elseif(inc MATCHES "_p\\.hpp$" AND NOT rel MATCHES "_p\\.hpp$"
               AND rel MATCHES "\\.hpp$")
          list(APPEND errors "${rel}: a family's public header includes the private ${inc}")
        elseif(inc MATCHES "_p\\.hpp$")
          string(REGEX REPLACE "^backends/cpu/kernels/([^/]+)/.*" "\\1" inc_family "${inc}")
          string(REGEX REPLACE "^backends/cpu/kernels/([^/]+)/.*" "\\1" own_family "${rel}")
          if(NOT inc_family STREQUAL own_family)
            list(APPEND errors "${rel}: includes ${inc}, private to kernel family ${inc_family}")
          endif()
        endif()
      endif()
      # Internal module rule: includes of the form "<module>/...".
      foreach(other ${order})
        if(inc MATCHES "^${other}/" AND NOT other STREQUAL mod)
          list(FIND allow_${mod} ${other} idx)
          if(idx EQUAL -1)
            list(APPEND errors "${rel}: module ${mod} may not include ${inc}")
          endif()
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
if(errors)
  list(JOIN errors "\n  " msg)
  message(FATAL_ERROR "layering violations:\n  ${msg}")
endif()
message(STATUS "layering: ok")
