# cmake/LlgaWarnings.cmake — compiler flags shared by every llga target.
add_library(llga_flags INTERFACE)
target_compile_options(llga_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
if(LLGA_WERROR)
  target_compile_options(llga_flags INTERFACE -Werror)
endif()
if(LLGA_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
