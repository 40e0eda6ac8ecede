// SPDX-License-Identifier: Apache-2.0
// ir/graph.cpp — graph construction, tensor-id consistency and topo order.
#include "ir/graph.hpp"

#include <queue>

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace ir {

namespace {
// oneDNN's test for two descriptions of one tensor id: the same data type,
// rank, property and dims; then the same layout type with the same strides
// (strided) or layout id (opaque), undef and any only equal themselves; a
// strided and an opaque description are asked of `equiv`.
bool same_description(const logical_tensor_t &a, const logical_tensor_t &b,
        graph_t::layout_equiv_fn equiv) {
    if (a.data_type != b.data_type || a.ndims != b.ndims
            || a.property != b.property)
        return false;
    const int nd = a.ndims > 0 ? a.ndims : 0;
    for (int d = 0; d < nd; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    if (a.layout_type == b.layout_type) {
        if (a.layout_type == dnnl_graph_layout_type_strided) {
            for (int d = 0; d < nd; ++d)
                if (a.layout.strides[d] != b.layout.strides[d]) return false;
        } else if (a.layout_type == dnnl_graph_layout_type_opaque && nd > 0) {
            return a.layout.layout_id == b.layout.layout_id;
        }
        return true;
    }
    auto concrete = [](const logical_tensor_t &t) {
        return t.layout_type == dnnl_graph_layout_type_strided
                || t.layout_type == dnnl_graph_layout_type_opaque;
    };
    if (!concrete(a) || !concrete(b)) return false;
    if (nd == 0) return true;
    return equiv && equiv(a, b);
}
} // namespace

status_t graph_t::check_tensors(layout_equiv_fn equiv) const {
    std::unordered_map<size_t, std::pair<const logical_tensor_t *, size_t>> seen;
    for (size_t i = 0; i < ops_.size(); ++i) {
        for (const auto *side : {&ops_[i].inputs, &ops_[i].outputs})
            for (const auto &lt : *side) {
                auto it = seen.find(lt.id);
                if (it == seen.end()) {
                    seen.emplace(lt.id, std::make_pair(&lt, i));
                    continue;
                }
                if (same_description(*it->second.first, lt, equiv)) continue;
                return fail(dnnl_invalid_graph,
                        "tensor %zu is described as %s by %s but as %s by %s; "
                        "every use of one id must give the same data type, "
                        "shape, layout and property",
                        lt.id, lt_to_string(*it->second.first).c_str(),
                        ops_[it->second.second].describe().c_str(),
                        lt_to_string(lt).c_str(), ops_[i].describe().c_str());
            }
    }
    return dnnl_success;
}

status_t graph_t::add_op(const op_t &op) {
    if (finalized_)
        return fail(dnnl_invalid_graph,
                "graph is finalized; %s cannot be added",
                op.describe().c_str());
    if (op_index_.count(op.id)) return dnnl_success;
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        const auto &lt = op.outputs[k];
        if (producers_.count(lt.id)) {
            const op_t &other = ops_[producers_[lt.id].op_index];
            return fail(dnnl_invalid_graph,
                    "%s: tensor %zu is already produced by %s",
                    op.describe().c_str(), lt.id, other.describe().c_str());
        }
        for (size_t j = 0; j < k; ++j)
            if (op.outputs[j].id == lt.id)
                return fail(dnnl_invalid_graph,
                        "%s: tensor %zu appears twice among its outputs",
                        op.describe().c_str(), lt.id);
    }
    const size_t index = ops_.size();
    ops_.push_back(op);
    op_index_[op.id] = index;
    for (size_t k = 0; k < op.inputs.size(); ++k) {
        consumers_[op.inputs[k].id].push_back({index, k});
    }
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        producers_[op.outputs[k].id] = {index, k};
    }
    return dnnl_success;
}

status_t graph_t::finalize(layout_equiv_fn equiv) {
    if (finalized_) return dnnl_success;
    LLGA_RETURN_IF_ERROR(check_tensors(equiv));
    // Kahn's algorithm; the min-heap keeps insertion order among ready ops so
    // partition order is deterministic.
    const size_t n = ops_.size();
    std::vector<size_t> pending(n, 0);
    for (size_t i = 0; i < n; ++i)
        for (const auto &in : ops_[i].inputs)
            if (producers_.count(in.id)) ++pending[i];
    std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
    for (size_t i = 0; i < n; ++i)
        if (pending[i] == 0) ready.push(i);
    std::vector<size_t> order;
    order.reserve(n);
    while (!ready.empty()) {
        const size_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (const auto &out : ops_[i].outputs) {
            auto it = consumers_.find(out.id);
            if (it == consumers_.end()) continue;
            for (const auto &use : it->second)
                if (--pending[use.op_index] == 0) ready.push(use.op_index);
        }
    }
    if (order.size() != n) {
        for (size_t i = 0; i < n; ++i)
            if (pending[i] != 0)
                return fail(dnnl_invalid_graph,
                        "graph has a cycle through %s",
                        ops_[i].describe().c_str());
    }
    topo_ = std::move(order);
    finalized_ = true;
    return dnnl_success;
}

status_t graph_t::set_fpmath_mode(fpmath_mode_t mode, bool apply_to_int) {
    if (finalized_)
        return fail(dnnl_invalid_graph,
                "fpmath mode cannot change after the graph is finalized");
    if (mode < dnnl_fpmath_mode_strict || mode > dnnl_fpmath_mode_tf32)
        return fail(dnnl_invalid_arguments, "unknown fpmath mode %d",
                static_cast<int>(mode));
    fpmath_mode_ = mode;
    apply_to_int_ = apply_to_int;
    return dnnl_success;
}

const tensor_use_t *graph_t::producer(size_t tensor_id) const {
    auto it = producers_.find(tensor_id);
    return it == producers_.end() ? nullptr : &it->second;
}

const std::vector<tensor_use_t> &graph_t::consumers(size_t tensor_id) const {
    static const std::vector<tensor_use_t> none;
    auto it = consumers_.find(tensor_id);
    return it == consumers_.end() ? none : it->second;
}

} // namespace ir
} // namespace llga
