// SPDX-License-Identifier: Apache-2.0
// compiler/pass_fold_bias.cpp — BiasAdd folded into its producer's bias.
#include "compiler/pass_fold_bias.hpp"

#include <cctype>
#include <string>

#include "ir/logical_tensor.hpp"

namespace llga {
namespace compiler {

namespace {

bool channel_last(const ir::op_t &op) {
    std::string f = op.get_str(dnnl_graph_op_attr_data_format, "NXC");
    for (char &c : f)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return f == "NXC";
}

// Number of ops reading tensor `id`, and whether it is a port.
bool read_once_inside(const plan_t &plan, size_t id) {
    if (find_port(plan.outputs, id) >= 0) return false;
    int reads = 0;
    for (const auto &op : plan.ops)
        for (const auto &lt : op.inputs)
            reads += lt.id == id;
    return reads == 1;
}

// Whether BiasAdd `b` adds along the output channel of `anchor`.
bool same_channel_axis(const ir::op_t &anchor, const ir::op_t &b) {
    const int rank = b.inputs[0].ndims;
    const bool b_last = rank <= 2 || channel_last(b);
    if (anchor.kind == dnnl_graph_op_matmul) return b_last;
    const bool a_last = rank <= 2 || channel_last(anchor);
    return a_last == b_last;
}

bool foldable(const plan_t &plan, const ir::op_t &a, const ir::op_t &b) {
    if (a.kind != dnnl_graph_op_convolution
            && a.kind != dnnl_graph_op_conv_transpose
            && a.kind != dnnl_graph_op_matmul)
        return false;
    if (b.kind != dnnl_graph_op_bias_add || a.inputs.size() != 2
            || a.outputs.size() != 1 || b.inputs.size() != 2
            || b.outputs.size() != 1)
        return false;
    const logical_tensor_t &y = a.outputs[0];
    if (b.inputs[0].id != y.id || !read_once_inside(plan, y.id)) return false;
    if (y.data_type != dnnl_f32 || b.outputs[0].data_type != dnnl_f32)
        return false;
    if (ir::dims_of(y) != ir::dims_of(b.outputs[0])) return false;
    const logical_tensor_t &bias = b.inputs[1];
    if (bias.ndims != 1 || bias.data_type != a.inputs[0].data_type)
        return false;
    if (!same_channel_axis(a, b)) return false;
    const int rank = y.ndims;
    const int axis = (rank <= 2 || channel_last(b)) ? rank - 1 : 1;
    return rank >= 1 && bias.dims[0] == y.dims[axis];
}

} // namespace

void pass_fold_bias(plan_t &plan) {
    for (size_t i = 0; i + 1 < plan.ops.size(); ++i) {
        ir::op_t &a = plan.ops[i];
        // The BiasAdd reading a's output, wherever it sits after a.
        for (size_t j = i + 1; j < plan.ops.size(); ++j) {
            const ir::op_t &b = plan.ops[j];
            if (b.inputs.empty() || a.outputs.empty()
                    || b.inputs[0].id != a.outputs[0].id)
                continue;
            if (!foldable(plan, a, b)) break;
            a.inputs.push_back(b.inputs[1]);
            a.outputs[0] = b.outputs[0];
            plan.ops.erase(plan.ops.begin() + static_cast<long>(j));
            break;
        }
    }
}

} // namespace compiler
} // namespace llga
