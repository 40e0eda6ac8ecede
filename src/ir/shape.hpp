// SPDX-License-Identifier: Apache-2.0
// ir/shape.hpp — shape arithmetic shared by shape inference and kernels:
// numpy broadcasting, axis normalisation, strided offsets and n-d iteration.
#pragma once

#include <functional>

#include "base/c_types.hpp"

namespace llga {
namespace ir {

// Bidirectional numpy broadcast of a and b; false if incompatible.
// Unknown dims (negative) propagate as unknown unless the other side fixes them.
bool broadcast_shapes(const dims_t &a, const dims_t &b, dims_t &out);
// One-way broadcast: can `from` be broadcast to `to` (right-aligned)?
bool broadcastable_to(const dims_t &from, const dims_t &to);

// Maps axis in [-rank, rank) to [0, rank); false if out of range.
bool normalize_axis(int64_t axis, int rank, int64_t &out);

int64_t product(const dims_t &d);

// Offset (in elements) of a multi-index under strides.
inline int64_t offset_of(const int64_t *idx, const dim_t *strides, int ndims) {
    int64_t off = 0;
    for (int d = 0; d < ndims; ++d)
        off += idx[d] * strides[d];
    return off;
}

// Converts a linear row-major index into a multi-index over dims.
void unravel(int64_t linear, const dims_t &dims, int64_t *idx);
// Advances a multi-index to the next row-major position (the odometer step
// after unravel(i) gives unravel(i + 1)); element loops unravel once per
// chunk and then step, instead of dividing by every extent per element.
inline void next_index(int64_t *idx, const dims_t &dims) {
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
        if (++idx[d] < dims[d]) return;
        idx[d] = 0;
    }
}

// Offset in `src` (shape src_dims, strides src_strides) of the element that
// broadcasts to multi-index `idx` of an output of rank `out_ndims`.
int64_t broadcast_offset(const int64_t *idx, int out_ndims,
        const dims_t &src_dims, const dims_t &src_strides);

} // namespace ir
} // namespace llga
