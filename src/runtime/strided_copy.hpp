// SPDX-License-Identifier: Apache-2.0
// runtime/strided_copy.hpp — copy of a tensor's elements between two strided
// layouts of the same dims: the one reorder every layout llga produces needs
// (opaque layouts are permutations, see layout_registry.hpp), and how
// kernels prepare constant inputs into their own layout.
#pragma once

#include <cstddef>

#include "base/c_types.hpp"

namespace llga {
namespace rt {

// Element sizes of 1, 2, 4 and 8 bytes. Strides are in elements.
void strided_copy(const void *src, const dims_t &src_strides, void *dst,
        const dims_t &dst_strides, const dims_t &dims, size_t elem_bytes);

} // namespace rt
} // namespace llga
