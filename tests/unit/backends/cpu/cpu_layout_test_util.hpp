// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/cpu_layout_test_util.hpp — odd tensor layouts for the
// suites that check kernels on any strides (pooling and batch-norm
// backward, softmax backward, the exact-formula elementwise ops): padded
// strides in a chosen storage order, the order that stores an NCX tensor
// channel-last or an NXC one channel-first, and random dense orders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "base/c_types.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace layout_test {

// Strides for dims `d` stored in `order` (dim indices, outermost first;
// empty: row-major): the innermost stride 1 or 2, every other dim padded
// by 0..max_pad elements, all at random.
inline dims_t padded_strides(const dims_t &d, std::vector<int> order,
        std::mt19937 &gen, int64_t max_pad = 2) {
    if (order.empty())
        for (size_t i = 0; i < d.size(); ++i)
            order.push_back(static_cast<int>(i));
    dims_t st(d.size());
    int64_t s = 1 + static_cast<int64_t>(gen() % 2);
    for (size_t k = order.size(); k-- > 0;) {
        const size_t dim = static_cast<size_t>(order[k]);
        st[dim] = s;
        s *= d[dim] + static_cast<int64_t>(gen() % (max_pad + 1));
    }
    return st;
}

// The storage order of a rank-r tensor in the other data format: N first,
// then an NCX tensor's spatial dims and its channel last, or an NXC
// tensor's channel (its last dim) before its spatial dims.
inline std::vector<int> other_format_order(int r, bool nxc) {
    std::vector<int> order = {0};
    if (nxc) order.push_back(r - 1);
    for (int i = nxc ? 1 : 2; i < (nxc ? r - 1 : r); ++i)
        order.push_back(i);
    if (!nxc) order.push_back(1);
    return order;
}

// `t` (format NXC or NCX) in layout `kind`: 0 as it is, 1 padded, 2
// padded in the other format's storage order.
inline logical_tensor_t odd_layout(logical_tensor_t t, int kind, bool nxc,
        std::mt19937 &gen) {
    if (kind == 0) return t;
    const dims_t d(t.dims, t.dims + t.ndims);
    const dims_t st = padded_strides(d,
            kind == 2 ? other_format_order(t.ndims, nxc) : std::vector<int>(),
            gen);
    for (size_t i = 0; i < st.size(); ++i)
        t.layout.strides[i] = st[i];
    return t;
}

// An f32 tensor of `dims` stored densely in a random order of its dims.
inline logical_tensor_t permuted(size_t id, const dims_t &dims,
        std::mt19937 &gen) {
    logical_tensor_t lt = ir::make_lt(id, dnnl_f32, dims);
    std::vector<int> perm(dims.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), gen);
    int64_t acc = 1;
    for (size_t k = perm.size(); k-- > 0;) {
        lt.layout.strides[perm[k]] = acc;
        acc *= dims[static_cast<size_t>(perm[k])];
    }
    return lt;
}

} // namespace layout_test
} // namespace cpu
} // namespace llga
