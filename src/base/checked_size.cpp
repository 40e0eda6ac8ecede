// SPDX-License-Identifier: Apache-2.0
// base/checked_size.cpp — overflow-checked element counts, spans and bytes.
#include "base/checked_size.hpp"

#include <algorithm>

#include "base/status.hpp"

namespace llga {

bool checked_nelems(const dim_t *dims, int ndims, int64_t &out) {
    int64_t n = 1;
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] < 0 || dims[d] > max_extent) return false;
        if (!checked_mul(n, dims[d], n) || n > max_extent) return false;
    }
    out = n;
    return true;
}

bool checked_extent(const dim_t *dims, int ndims, int64_t &out) {
    int64_t n = 1;
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] < 0 || dims[d] > max_extent) return false;
        if (!checked_mul(n, std::max<int64_t>(dims[d], 1), n) || n > max_extent)
            return false;
    }
    out = n;
    return true;
}

bool checked_span(const dim_t *dims, const dim_t *strides, int ndims,
        int64_t &out) {
    int64_t last = 0; // largest reachable offset
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] < 0 || strides[d] < 0) return false;
        if (dims[d] == 0) {
            out = 0;
            return true;
        }
    }
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] == 1) continue;
        int64_t term = 0;
        if (!checked_mul(dims[d] - 1, strides[d], term) || term > max_extent)
            return false;
        if (!checked_add(last, term, last) || last >= max_extent) return false;
    }
    out = last + 1;
    return true;
}

bool checked_bytes(int64_t elems, int bits, size_t &out) {
    if (elems < 0 || bits <= 0) return false;
    int64_t b = 0;
    if (!checked_mul(elems, static_cast<int64_t>(bits), b)
            || !checked_add(b, int64_t(7), b))
        return false;
    out = static_cast<size_t>(b / 8);
    return true;
}

bool strides_overlap(const dim_t *dims, const dim_t *strides, int ndims) {
    int order[DNNL_MAX_NDIMS];
    int n = 0;
    for (int d = 0; d < ndims && d < DNNL_MAX_NDIMS; ++d)
        if (dims[d] > 1) order[n++] = d;
    for (int k = 1; k < n; ++k) // insertion sort by stride: n <= 12
        for (int j = k; j > 0 && strides[order[j]] < strides[order[j - 1]]; --j)
            std::swap(order[j], order[j - 1]);
    int64_t reach = 0; // largest offset the dims seen so far reach
    for (int k = 0; k < n; ++k) {
        const int d = order[k];
        if (strides[d] <= reach || (k == 0 && strides[d] == 0)) return true;
        reach += (dims[d] - 1) * strides[d];
    }
    return false;
}

status_t check_shape(const logical_tensor_t &lt, const char *what, status_t st) {
    if (lt.ndims < DNNL_GRAPH_UNKNOWN_NDIMS || lt.ndims > DNNL_MAX_NDIMS)
        return fail(st, "%s (tensor %zu) has invalid rank %d (must be in "
                        "[-1, %d])",
                what, lt.id, lt.ndims, DNNL_MAX_NDIMS);
    if (lt.ndims <= 0) return dnnl_success;
    int64_t count = 1;
    bool all_known = true;
    for (int d = 0; d < lt.ndims; ++d) {
        const dim_t v = lt.dims[d];
        if (v == DNNL_GRAPH_UNKNOWN_DIM) {
            all_known = false;
            continue;
        }
        // Zero dims count as 1: dense strides multiply the other dims.
        if (v < 0 || v > max_extent
                || !checked_mul(count, std::max<int64_t>(v, 1), count)
                || count > max_extent)
            return fail(st,
                    "%s (tensor %zu) has dimension %lld at axis %d; dims "
                    "must be in [0, 2^48] with at most 2^48 elements (zero "
                    "dims counted as 1)",
                    what, lt.id, static_cast<long long>(v), d);
    }
    if (lt.layout_type != dnnl_graph_layout_type_strided) return dnnl_success;
    bool strides_known = true;
    for (int d = 0; d < lt.ndims; ++d) {
        const dim_t s = lt.layout.strides[d];
        if (s == DNNL_GRAPH_UNKNOWN_DIM) {
            strides_known = false;
            continue;
        }
        if (s < 0 || s > max_extent)
            return fail(st,
                    "%s (tensor %zu) has stride %lld at axis %d; strides "
                    "must be in [0, 2^48] (negative strides are not "
                    "supported)",
                    what, lt.id, static_cast<long long>(s), d);
    }
    int64_t span = 0;
    if (all_known && strides_known
            && !checked_span(lt.dims, lt.layout.strides, lt.ndims, span))
        return fail(st,
                "%s (tensor %zu) addresses more than 2^48 elements with its "
                "strides",
                what, lt.id);
    return dnnl_success;
}

} // namespace llga
