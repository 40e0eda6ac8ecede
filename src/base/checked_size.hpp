// SPDX-License-Identifier: Apache-2.0
// base/checked_size.hpp — the one overflow-checked size arithmetic: element
// counts, strided spans (largest reachable offset + 1), byte sizes and the
// overlap test of a strided layout. Every entry point that receives shapes or
// strides (logical tensors, add_op, compile, tensor create, execute, the JSON
// reader, llga-run's options) validates them through check_shape(), so no
// later size computation can wrap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/c_types.hpp"

namespace llga {

// Largest dimension, element count and strided span llga accepts: 2^48.
// Real tensors are far smaller; the bound keeps every offset computation
// (index * stride summed over dims) inside int64 with room to spare.
constexpr int64_t max_extent = int64_t(1) << 48;

// a * b and a + b; false when the result would leave int64.
inline bool checked_mul(int64_t a, int64_t b, int64_t &out) {
    return !__builtin_mul_overflow(a, b, &out);
}
inline bool checked_add(int64_t a, int64_t b, int64_t &out) {
    return !__builtin_add_overflow(a, b, &out);
}
inline bool checked_mul(size_t a, size_t b, size_t &out) {
    return !__builtin_mul_overflow(a, b, &out);
}
inline bool checked_add(size_t a, size_t b, size_t &out) {
    return !__builtin_add_overflow(a, b, &out);
}

// Product of known, non-negative dims; false if a dim is negative or the
// product exceeds max_extent.
bool checked_nelems(const dim_t *dims, int ndims, int64_t &out);

// Product of the dims with zero dims counted as 1 (what dense strides
// multiply, so also the largest dense stride); false if a dim is negative or
// past max_extent, or the product exceeds max_extent. The bound every shape
// must meet: {0, 2^31, 2^32} holds no element but its dense strides would
// still overflow.
bool checked_extent(const dim_t *dims, int ndims, int64_t &out);

// Elements a strided layout addresses: 1 + sum over dims of
// (dim - 1) * stride (0 if any dim is 0). Dims and strides must be known and
// non-negative; false if a term or the sum exceeds max_extent.
bool checked_span(const dim_t *dims, const dim_t *strides, int ndims,
        int64_t &out);

// Bytes of `elems` elements of `bits` bits each, rounded up to whole bytes;
// false on overflow.
bool checked_bytes(int64_t elems, int bits, size_t &out);

// True if two different indices of the layout can address the same element,
// or the dims interleave (ordered by stride, a dim's stride does not exceed
// the largest offset the smaller-stride dims reach). Dims of size 1 never
// count. Dims and strides must already have passed checked_span.
bool strides_overlap(const dim_t *dims, const dim_t *strides, int ndims);

// Validates a logical tensor's rank, dims and (strided) strides: rank in
// [-1, DNNL_MAX_NDIMS]; each dim known (>= 0, <= max_extent) or
// DNNL_GRAPH_UNKNOWN_DIM; the known dims' product (zeros counted as 1)
// <= max_extent; strides
// >= 0 or unknown; when shape and strides are known, the span <= max_extent.
// On failure returns `st` with a message naming `what` and the tensor id.
status_t check_shape(const logical_tensor_t &lt, const char *what,
        status_t st = dnnl_invalid_arguments);

} // namespace llga
