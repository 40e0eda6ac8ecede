// SPDX-License-Identifier: Apache-2.0
// ir/logical_tensor.cpp — logical tensor helpers.
#include "ir/logical_tensor.hpp"

#include <algorithm>
#include <cstring>

#include "base/checked_size.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace ir {

logical_tensor_t make_lt(size_t id, data_type_t dt, const dims_t &dims,
        layout_type_t layout, property_t prop) {
    logical_tensor_t lt;
    std::memset(&lt, 0, sizeof(lt));
    lt.id = id;
    lt.data_type = dt;
    lt.property = prop;
    lt.layout_type = layout;
    lt.ndims = static_cast<int>(dims.size());
    for (int d = 0; d < max_ndims; ++d) {
        lt.dims[d] = unknown_dim;
        lt.layout.strides[d] = unknown_dim;
    }
    if (layout == dnnl_graph_layout_type_opaque) lt.layout.layout_id = 0;
    set_shape(lt, dims);
    return lt;
}

logical_tensor_t make_lt_unknown(size_t id, data_type_t dt) {
    logical_tensor_t lt = make_lt(id, dt, {}, dnnl_graph_layout_type_undef);
    lt.ndims = unknown_ndims;
    return lt;
}

dims_t dims_of(const logical_tensor_t &lt) {
    if (lt.ndims <= 0) return {};
    return dims_t(lt.dims, lt.dims + lt.ndims);
}

dims_t strides_of(const logical_tensor_t &lt) {
    if (lt.ndims <= 0 || lt.layout_type != dnnl_graph_layout_type_strided)
        return {};
    return dims_t(lt.layout.strides, lt.layout.strides + lt.ndims);
}

bool rank_known(const logical_tensor_t &lt) { return lt.ndims >= 0; }

bool shape_known(const logical_tensor_t &lt) {
    if (lt.ndims < 0 || lt.ndims > max_ndims) return false;
    for (int d = 0; d < lt.ndims; ++d)
        if (lt.dims[d] < 0) return false;
    return true;
}

bool strides_known(const logical_tensor_t &lt) {
    if (lt.layout_type != dnnl_graph_layout_type_strided || lt.ndims < 0)
        return false;
    for (int d = 0; d < lt.ndims; ++d)
        if (lt.layout.strides[d] == unknown_dim) return false;
    return true;
}

int64_t nelems(const logical_tensor_t &lt) {
    if (!shape_known(lt)) return -1;
    int64_t n = 1;
    // Shapes past 2^48 elements are refused at every entry point; one that
    // slipped through still never wraps here.
    if (!checked_nelems(lt.dims, lt.ndims, n)) return -1;
    return n;
}

dims_t dense_strides(const dims_t &dims) {
    dims_t s(dims.size(), 1);
    for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d)
        s[d] = s[d + 1] * std::max<dim_t>(dims[d + 1], 1);
    return s;
}

void set_shape(logical_tensor_t &lt, const dims_t &dims) {
    lt.ndims = static_cast<int>(dims.size());
    for (size_t d = 0; d < dims.size(); ++d)
        lt.dims[d] = dims[d];
    if (lt.layout_type != dnnl_graph_layout_type_strided) return;
    if (strides_known(lt)) return;
    bool all_known = std::all_of(
            dims.begin(), dims.end(), [](dim_t v) { return v >= 0; });
    if (!all_known) return;
    dims_t s = dense_strides(dims);
    for (size_t d = 0; d < dims.size(); ++d)
        lt.layout.strides[d] = s[d];
    if (dims.empty()) lt.layout.strides[0] = 0;
}

bool is_dense(const logical_tensor_t &lt) {
    if (!strides_known(lt) || !shape_known(lt)) return false;
    dims_t s = dense_strides(dims_of(lt));
    for (int d = 0; d < lt.ndims; ++d)
        if (lt.dims[d] != 1 && lt.layout.strides[d] != s[d]) return false;
    return true;
}

bool same_layout(const logical_tensor_t &a, const logical_tensor_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]
                || (a.dims[d] != 1
                        && a.layout.strides[d] != b.layout.strides[d]))
            return false;
    return true;
}

bool is_dense_any_order(const logical_tensor_t &lt) {
    if (!strides_known(lt) || !shape_known(lt)) return false;
    std::vector<int> order(static_cast<size_t>(lt.ndims));
    for (int d = 0; d < lt.ndims; ++d)
        order[d] = d;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return lt.layout.strides[a] > lt.layout.strides[b];
    });
    int64_t expect = 1;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        if (lt.dims[*it] == 1) continue;
        if (lt.layout.strides[*it] != expect) return false;
        expect *= lt.dims[*it];
    }
    return true;
}

size_t mem_size(const logical_tensor_t &lt) {
    constexpr size_t unknown = static_cast<size_t>(-1);
    if (lt.layout_type != dnnl_graph_layout_type_strided) return unknown;
    if (lt.ndims < 0 || !shape_known(lt) || !strides_known(lt)) return unknown;
    if (lt.ndims == 0) return dtype_storage_bytes(lt.data_type, 1);
    // The true span (largest reachable offset + 1), and never less than
    // oneDNN's largest dim * stride, so callers that size buffers the
    // oneDNN way get the same answer for every non-overlapping layout.
    int64_t span = 0;
    if (!checked_span(lt.dims, lt.layout.strides, lt.ndims, span))
        return unknown;
    if (span == 0) return 0;
    for (int d = 0; d < lt.ndims; ++d) {
        if (lt.dims[d] == 1) continue;
        int64_t ext = 0;
        if (!checked_mul(lt.dims[d], lt.layout.strides[d], ext)
                || ext > max_extent)
            return unknown;
        span = std::max(span, ext);
    }
    size_t bytes = 0;
    if (!checked_bytes(span, dtype_bits(lt.data_type), bytes)) return unknown;
    return bytes;
}

bool lt_equal(const logical_tensor_t &a, const logical_tensor_t &b) {
    if (a.id != b.id || a.ndims != b.ndims || a.data_type != b.data_type
            || a.property != b.property)
        return false;
    for (int d = 0; d < std::max(a.ndims, 0); ++d)
        if (a.dims[d] != b.dims[d]) return false;
    if (a.layout_type != b.layout_type) return false;
    if (a.layout_type == dnnl_graph_layout_type_strided) {
        for (int d = 0; d < std::max(a.ndims, 0); ++d)
            if (a.layout.strides[d] != b.layout.strides[d]) return false;
    } else if (a.layout_type == dnnl_graph_layout_type_opaque) {
        if (a.layout.layout_id != b.layout.layout_id) return false;
    }
    return true;
}

bool lt_compatible(const logical_tensor_t &a, const logical_tensor_t &b) {
    if (a.data_type != b.data_type) return false;
    if (a.ndims < 0 || b.ndims < 0) return true;
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] >= 0 && b.dims[d] >= 0 && a.dims[d] != b.dims[d])
            return false;
    return true;
}

std::string dims_to_string(const dims_t &d) {
    if (d.empty()) return "scalar";
    std::string r;
    for (size_t k = 0; k < d.size(); ++k) {
        if (k) r += "x";
        r += d[k] == unknown_dim ? std::string("?") : std::to_string(d[k]);
    }
    return r;
}

std::string lt_to_string(const logical_tensor_t &lt) {
    static const char *layouts[] = {"undef", "any", "strided", "opaque"};
    std::string r = "id:" + std::to_string(lt.id) + " " + dtype_name(lt.data_type)
            + " ";
    r += lt.ndims < 0 ? std::string("rank?") : dims_to_string(dims_of(lt));
    const int l = static_cast<int>(lt.layout_type);
    r += " ";
    r += (l >= 0 && l < 4) ? layouts[l] : "bad-layout";
    return r;
}

} // namespace ir
} // namespace llga
