// SPDX-License-Identifier: Apache-2.0
// backends/ocl/sources.hpp — the kernels/*.cl sources, embedded at build time
// (cmake/EmbedOclSources.cmake generates the definition).
#pragma once

#include <string>

namespace llga {
namespace ocl {

// Source of kernels/<family>.cl, or nullptr. common.cl is a family too.
const char *kernel_source(const std::string &family);

} // namespace ocl
} // namespace llga
