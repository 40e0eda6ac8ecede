// SPDX-License-Identifier: Apache-2.0
// compiler/pass_layout.cpp — layout resolution (any -> chosen or dense,
// opaque -> strides, elementwise intermediates -> their input's dense
// order).
#include "compiler/pass_layout.hpp"

#include "base/status.hpp"
#include "fusion/match.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/layout_registry.hpp"

namespace llga {
namespace compiler {

namespace {
void make_dense(logical_tensor_t &lt) {
    lt.layout_type = dnnl_graph_layout_type_strided;
    const dims_t s = ir::dense_strides(ir::dims_of(lt));
    for (int d = 0; d < lt.ndims; ++d)
        lt.layout.strides[d] = s[d];
    if (lt.ndims == 0) lt.layout.strides[0] = 0;
}

bool is_port(const std::vector<logical_tensor_t> &ports, size_t id) {
    for (const auto &p : ports)
        if (p.id == id) return true;
    return false;
}

// Port-level layout of one tensor; `free_output` marks an output port whose
// layout the library may choose.
status_t resolve(logical_tensor_t &lt, bool free_output,
        const layout_chooser_t &choose) {
    if (lt.layout_type == dnnl_graph_layout_type_opaque) {
        dims_t s; // validates the id against the registry and the rank
        return rt::layout_registry_t::strides_of(lt, s);
    }
    if (lt.layout_type == dnnl_graph_layout_type_strided && ir::strides_known(lt))
        return dnnl_success;
    std::vector<int> order;
    if (free_output && lt.layout_type == dnnl_graph_layout_type_any && choose
            && lt.ndims > 0 && choose(lt, order))
        return rt::layout_registry_t::apply_order(lt, order);
    make_dense(lt);
    return dnnl_success;
}
} // namespace

status_t pass_layout(plan_t &plan, lt_map_t &known, const layout_chooser_t &choose) {
    lt_map_t physical; // id -> strided equivalent, for op tensors
    for (auto &kv : known) {
        const bool free_output = is_port(plan.outputs, kv.first);
        LLGA_RETURN_IF_ERROR(resolve(kv.second, free_output, choose));
        LLGA_RETURN_IF_ERROR(rt::layout_registry_t::to_strided(
                kv.second, physical[kv.first]));
    }
    // An intermediate produced by an elementwise op takes the layout of an
    // input of the same shape when that is dense in another order (e.g.
    // channel-last): the chain then runs flat over memory, where dense
    // row-major intermediates would make every step a transposition.
    for (const ir::op_t &op : plan.ops) {
        const bool eltwise = fusion::is_unary_post_op(op)
                || fusion::is_binary_post_op(op.kind);
        if (!eltwise || op.outputs.size() != 1) continue;
        const size_t out = op.outputs[0].id;
        if (is_port(plan.outputs, out) || is_port(plan.inputs, out)) continue;
        logical_tensor_t &o = physical[out];
        for (const auto &in : op.inputs) {
            const logical_tensor_t &i = physical[in.id];
            if (i.ndims != o.ndims || ir::dims_of(i) != ir::dims_of(o)
                    || ir::is_dense(i) || !ir::is_dense_any_order(i))
                continue;
            for (int d = 0; d < o.ndims; ++d)
                o.layout.strides[d] = i.layout.strides[d];
            known[out] = o;
            break;
        }
    }
    for (ir::op_t &op : plan.ops) {
        for (auto &lt : op.inputs)
            lt = physical[lt.id];
        for (auto &lt : op.outputs)
            lt = physical[lt.id];
    }
    for (auto &lt : plan.inputs)
        lt = known[lt.id];
    for (auto &lt : plan.outputs)
        lt = known[lt.id];
    return dnnl_success;
}

} // namespace compiler
} // namespace llga
