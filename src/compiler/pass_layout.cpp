// compiler/pass_layout.cpp — layout resolution (any -> chosen or dense,
// opaque -> strides).
#include "compiler/pass_layout.hpp"

#include "base/status.hpp"
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
