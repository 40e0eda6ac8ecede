# SPDX-License-Identifier: Apache-2.0
# cmake/EmbedOclSources.cmake — writes OUT, a C++ file defining
# llga::ocl::kernel_source(family) over the .cl files FILES in DIR, each as a
# raw string literal (run as: cmake -DOUT= -DDIR= -DFILES= -P).
string(REPLACE "," ";" FILES "${FILES}")
set(body "// Generated from src/backends/ocl/kernels/*.cl; do not edit.\n")
string(APPEND body "#include \"backends/ocl/sources.hpp\"\n\n")
string(APPEND body "namespace llga {\nnamespace ocl {\n\n")
string(APPEND body "const char *kernel_source(const std::string &family) {\n")
foreach(f ${FILES})
  file(READ ${DIR}/${f}.cl src)
  string(APPEND body "    if (family == \"${f}\")\n        return R\"LLGA_CL(${src})LLGA_CL\";\n")
endforeach()
string(APPEND body "    return nullptr;\n}\n\n} // namespace ocl\n} // namespace llga\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
