# SPDX-License-Identifier: Apache-2.0
# tests/bindings/check_docs.cmake — keeps docs/bindings.md in sync with the
# example sources: every block introduced by a line
#   <!-- example: <path relative to the repository root> -->
# followed by a fenced code block must equal that file byte for byte (the
# file is what ctest runs), apart from a leading SPDX licence line.
# Usage: cmake -DDOC=... -DROOT=... -P this file.
file(READ ${DOC} doc)
string(REGEX MATCHALL "<!-- example: [^ ]+ -->" markers "${doc}")
list(LENGTH markers n)
if(n EQUAL 0)
  message(FATAL_ERROR "${DOC}: no example markers found")
endif()
set(failed 0)
foreach(m ${markers})
  string(REGEX REPLACE "<!-- example: ([^ ]+) -->" "\\1" path "${m}")
  string(FIND "${doc}" "${m}" pos)
  string(SUBSTRING "${doc}" ${pos} -1 rest)
  # Skip the marker line and the opening fence line.
  string(FIND "${rest}" "\n```" fence)
  math(EXPR start "${fence} + 4")
  string(SUBSTRING "${rest}" ${start} -1 rest)
  string(FIND "${rest}" "\n" eol)
  math(EXPR start "${eol} + 1")
  string(SUBSTRING "${rest}" ${start} -1 rest)
  string(FIND "${rest}" "\n```\n" close)
  if(close EQUAL -1)
    string(FIND "${rest}" "\n```" close)
  endif()
  math(EXPR len "${close} + 1")
  string(SUBSTRING "${rest}" 0 ${len} block)
  if(NOT EXISTS ${ROOT}/${path})
    message(SEND_ERROR "${path}: referenced by ${DOC} but missing")
    set(failed 1)
    continue()
  endif()
  file(READ ${ROOT}/${path} want)
  # The licence tag line (tools/dev/spdx-sweep) is not shown in the docs.
  string(REGEX REPLACE "^(// |# |/\\* )SPDX-License-Identifier: [^\n]*\n" "" want "${want}")
  if(NOT block STREQUAL want)
    message(SEND_ERROR "${DOC}: the block after '${m}' differs from ${path}; paste the file in again")
    set(failed 1)
  else()
    message(STATUS "in sync: ${path}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "docs/bindings.md is out of sync with the example files")
endif()
