// SPDX-License-Identifier: Apache-2.0
// runtime/layout_registry.cpp — opaque layout ids <-> dims orders.
#include "runtime/layout_registry.hpp"

#include <algorithm>

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace rt {

namespace {
bool same(const opaque_layout_t &a, const opaque_layout_t &b) {
    return a.ndims == b.ndims && std::equal(a.order, a.order + a.ndims, b.order);
}
} // namespace

layout_registry_t &layout_registry_t::instance() {
    static layout_registry_t *r = new layout_registry_t(); // never freed
    return *r;
}

size_t layout_registry_t::register_layout(const opaque_layout_t &l) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t k = 0; k < layouts_.size(); ++k)
        if (same(layouts_[k], l)) return first_id + k;
    layouts_.push_back(l);
    return first_id + layouts_.size() - 1;
}

bool layout_registry_t::find(size_t id, opaque_layout_t &out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (id < first_id || id - first_id >= layouts_.size()) return false;
    out = layouts_[id - first_id];
    return true;
}

status_t layout_registry_t::apply_order(
        logical_tensor_t &lt, const std::vector<int> &order) {
    if (!ir::shape_known(lt) || static_cast<int>(order.size()) != lt.ndims)
        return fail(dnnl_invalid_arguments,
                "tensor %zu: a layout order needs a known shape of rank %zu",
                lt.id, order.size());
    std::vector<int> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (int d = 0; d < lt.ndims; ++d)
        if (sorted[d] != d)
            return fail(dnnl_invalid_arguments,
                    "tensor %zu: layout order is not a permutation", lt.id);
    bool identity = true;
    for (int d = 0; d < lt.ndims; ++d)
        identity = identity && order[d] == d;
    if (identity) {
        lt.layout_type = dnnl_graph_layout_type_strided;
        const dims_t s = ir::dense_strides(ir::dims_of(lt));
        for (int d = 0; d < lt.ndims; ++d)
            lt.layout.strides[d] = s[d];
        if (lt.ndims == 0) lt.layout.strides[0] = 0;
        return dnnl_success;
    }
    opaque_layout_t l;
    l.ndims = lt.ndims;
    std::copy(order.begin(), order.end(), l.order);
    const size_t id = instance().register_layout(l);
    lt.layout_type = dnnl_graph_layout_type_opaque;
    // layout is a union: clear the stride words before storing the id.
    for (int d = 0; d < DNNL_MAX_NDIMS; ++d)
        lt.layout.strides[d] = 0;
    lt.layout.layout_id = id;
    return dnnl_success;
}

status_t layout_registry_t::strides_of(const logical_tensor_t &lt, dims_t &strides) {
    if (lt.layout_type == dnnl_graph_layout_type_strided && ir::strides_known(lt)) {
        strides = ir::strides_of(lt);
        return dnnl_success;
    }
    if (lt.layout_type != dnnl_graph_layout_type_opaque)
        return fail(dnnl_invalid_arguments,
                "tensor %zu has no concrete layout (%s)", lt.id,
                ir::lt_to_string(lt).c_str());
    opaque_layout_t l;
    if (!instance().find(lt.layout.layout_id, l))
        return fail(dnnl_invalid_arguments,
                "tensor %zu: opaque layout id %zu was not produced by this "
                "process's llga",
                lt.id, lt.layout.layout_id);
    if (!ir::shape_known(lt) || l.ndims != lt.ndims)
        return fail(dnnl_invalid_arguments,
                "tensor %zu: opaque layout id %zu is for rank %d, the tensor "
                "has %s",
                lt.id, lt.layout.layout_id, l.ndims,
                ir::lt_to_string(lt).c_str());
    strides.assign(lt.ndims, 0);
    int64_t step = 1;
    for (int k = lt.ndims - 1; k >= 0; --k) {
        const int d = l.order[k];
        strides[d] = step;
        step *= std::max<int64_t>(lt.dims[d], 1); // 0 dims count as 1
    }
    return dnnl_success;
}

status_t layout_registry_t::to_strided(
        const logical_tensor_t &lt, logical_tensor_t &out) {
    dims_t s;
    LLGA_RETURN_IF_ERROR(strides_of(lt, s));
    out = lt;
    out.layout_type = dnnl_graph_layout_type_strided;
    for (int d = 0; d < DNNL_MAX_NDIMS; ++d)
        out.layout.strides[d] = d < lt.ndims ? s[d] : 0;
    return dnnl_success;
}

size_t layout_registry_t::mem_size(const logical_tensor_t &lt) {
    if (lt.layout_type != dnnl_graph_layout_type_opaque) return ir::mem_size(lt);
    logical_tensor_t s;
    if (!ir::shape_known(lt)) return static_cast<size_t>(-1);
    // Quiet lookup: a size query must not overwrite the last error message.
    opaque_layout_t l;
    if (!instance().find(lt.layout.layout_id, l) || l.ndims != lt.ndims)
        return static_cast<size_t>(-1);
    if (to_strided(lt, s) != dnnl_success) return static_cast<size_t>(-1);
    return ir::mem_size(s);
}

} // namespace rt
} // namespace llga
