// SPDX-License-Identifier: Apache-2.0
// ir/shape.cpp — broadcasting and index arithmetic.
#include "ir/shape.hpp"

#include <algorithm>

namespace llga {
namespace ir {

bool broadcast_shapes(const dims_t &a, const dims_t &b, dims_t &out) {
    const size_t n = std::max(a.size(), b.size());
    out.assign(n, 1);
    for (size_t k = 0; k < n; ++k) {
        const dim_t da = k < n - a.size() ? 1 : a[k - (n - a.size())];
        const dim_t db = k < n - b.size() ? 1 : b[k - (n - b.size())];
        if (da < 0 || db < 0) {
            // Unknown on one side: the known non-1 side decides.
            const dim_t known = da < 0 ? db : da;
            out[k] = (known >= 0 && known != 1) ? known : unknown_dim;
            continue;
        }
        if (da == db || db == 1)
            out[k] = da;
        else if (da == 1)
            out[k] = db;
        else
            return false;
    }
    return true;
}

bool broadcastable_to(const dims_t &from, const dims_t &to) {
    if (from.size() > to.size()) return false;
    const size_t off = to.size() - from.size();
    for (size_t k = 0; k < from.size(); ++k) {
        const dim_t f = from[k], t = to[off + k];
        if (f < 0 || t < 0) continue;
        if (f != t && f != 1) return false;
    }
    return true;
}

bool normalize_axis(int64_t axis, int rank, int64_t &out) {
    if (axis < -rank || axis >= rank) return false;
    out = axis < 0 ? axis + rank : axis;
    return true;
}

int64_t product(const dims_t &d) {
    int64_t p = 1;
    for (dim_t v : d)
        p *= v;
    return p;
}

void unravel(int64_t linear, const dims_t &dims, int64_t *idx) {
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
        const int64_t n = std::max<dim_t>(dims[d], 1);
        idx[d] = linear % n;
        linear /= n;
    }
}

int64_t broadcast_offset(const int64_t *idx, int out_ndims,
        const dims_t &src_dims, const dims_t &src_strides) {
    const int sn = static_cast<int>(src_dims.size());
    const int shift = out_ndims - sn;
    int64_t off = 0;
    for (int d = 0; d < sn; ++d)
        if (src_dims[d] != 1) off += idx[d + shift] * src_strides[d];
    return off;
}

} // namespace ir
} // namespace llga
