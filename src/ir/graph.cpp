// ir/graph.cpp — graph construction, tensor-id consistency and topo order.
#include "ir/graph.hpp"

#include <queue>

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace ir {

status_t graph_t::check_tensor(const logical_tensor_t &lt, const op_t &op) {
    auto it = first_seen_.find(lt.id);
    if (it == first_seen_.end()) return dnnl_success;
    if (!lt_compatible(it->second, lt))
        return fail(dnnl_invalid_graph,
                "%s: tensor %zu is %s here but %s elsewhere in the graph",
                op.describe().c_str(), lt.id, lt_to_string(lt).c_str(),
                lt_to_string(it->second).c_str());
    return dnnl_success;
}

status_t graph_t::add_op(const op_t &op) {
    if (finalized_)
        return fail(dnnl_invalid_graph,
                "graph is finalized; %s cannot be added",
                op.describe().c_str());
    if (op_index_.count(op.id)) return dnnl_success;
    for (const auto &lt : op.inputs)
        LLGA_RETURN_IF_ERROR(check_tensor(lt, op));
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        const auto &lt = op.outputs[k];
        LLGA_RETURN_IF_ERROR(check_tensor(lt, op));
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
        first_seen_.emplace(op.inputs[k].id, op.inputs[k]);
        consumers_[op.inputs[k].id].push_back({index, k});
    }
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        first_seen_.emplace(op.outputs[k].id, op.outputs[k]);
        producers_[op.outputs[k].id] = {index, k};
    }
    return dnnl_success;
}

status_t graph_t::finalize() {
    if (finalized_) return dnnl_success;
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
