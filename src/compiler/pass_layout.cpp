// compiler/pass_layout.cpp — layout resolution (any -> dense strided).
#include "compiler/pass_layout.hpp"

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace compiler {

namespace {
status_t resolve(logical_tensor_t &lt) {
    if (lt.layout_type == dnnl_graph_layout_type_opaque)
        return fail(dnnl_invalid_arguments,
                "tensor %zu has an opaque layout this build did not produce",
                lt.id);
    if (lt.layout_type == dnnl_graph_layout_type_strided && ir::strides_known(lt))
        return dnnl_success;
    lt.layout_type = dnnl_graph_layout_type_strided;
    const dims_t s = ir::dense_strides(ir::dims_of(lt));
    for (int d = 0; d < lt.ndims; ++d)
        lt.layout.strides[d] = s[d];
    if (lt.ndims == 0) lt.layout.strides[0] = 0;
    return dnnl_success;
}
} // namespace

status_t pass_layout(plan_t &plan, lt_map_t &known) {
    for (auto &kv : known)
        LLGA_RETURN_IF_ERROR(resolve(kv.second));
    for (ir::op_t &op : plan.ops) {
        for (auto &lt : op.inputs)
            lt = known[lt.id];
        for (auto &lt : op.outputs)
            lt = known[lt.id];
    }
    for (auto &lt : plan.inputs)
        lt = known[lt.id];
    for (auto &lt : plan.outputs)
        lt = known[lt.id];
    return dnnl_success;
}

} // namespace compiler
} // namespace llga
