// SPDX-License-Identifier: Apache-2.0
// compiler/pass_weight_scales.cpp — per-channel weight scales of Convolution
// and ConvTranspose follow the output channels (see the header).
#include "compiler/pass_weight_scales.hpp"

#include <cctype>
#include <string>

#include "ir/logical_tensor.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace compiler {

namespace {

int producer_of(const plan_t &plan, size_t id) {
    for (size_t i = 0; i < plan.ops.size(); ++i)
        for (const auto &out : plan.ops[i].outputs)
            if (out.id == id) return static_cast<int>(i);
    return -1;
}

// The only reader of `id` inside the plan, or -1 when it has none, several,
// or also leaves the partition.
int sole_reader(const plan_t &plan, size_t id) {
    if (find_port(plan.outputs, id) >= 0) return -1;
    int reader = -1;
    for (size_t i = 0; i < plan.ops.size(); ++i)
        for (const auto &in : plan.ops[i].inputs)
            if (in.id == id) {
                if (reader >= 0) return -1;
                reader = static_cast<int>(i);
            }
    return reader;
}

bool is_per_channel(const ir::op_t &op) {
    if (op.kind != dnnl_graph_op_dequantize && op.kind != dnnl_graph_op_quantize)
        return false;
    return ops::iequals(op.get_str(dnnl_graph_op_attr_qtype, "per_tensor"),
            "per_channel");
}

// Index of the output-channel dim in weights of rank `rank` written in
// `format` (OIX, XIO, IOX, XOI; X stands for the spatial dims), or -1.
int output_channel_dim(const std::string &format, int rank) {
    const int nsp = rank - 2;
    if (nsp < 1) return -1;
    int pos = 0;
    for (char c : format) {
        const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (u == 'O') return pos;
        pos += u == 'X' ? nsp : 1;
    }
    return -1;
}

// Shape of tensor `id`: a partition input, or the input of the in-graph
// Quantize that produces it.
bool shape_of(const plan_t &plan, const lt_map_t &known, size_t id,
        logical_tensor_t &out) {
    for (int hop = 0; hop < 3; ++hop) {
        auto it = known.find(id);
        if (it != known.end() && ir::shape_known(it->second)) {
            out = it->second;
            return true;
        }
        const int p = producer_of(plan, id);
        if (p < 0 || plan.ops[p].inputs.empty()) return false;
        id = plan.ops[p].inputs[0].id;
    }
    return false;
}

void set_axis(ir::op_t &op, int axis) {
    op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(axis));
}

} // namespace

void pass_weight_scales(plan_t &plan, const lt_map_t &known) {
    for (const ir::op_t &conv : plan.ops) {
        if (conv.kind != dnnl_graph_op_convolution
                && conv.kind != dnnl_graph_op_conv_transpose)
            continue;
        if (conv.inputs.size() < 2) continue;
        // Weights: DQ -> [TypeCast] -> conv input 1.
        int dq = producer_of(plan, conv.inputs[1].id);
        if (dq >= 0 && plan.ops[dq].kind == dnnl_graph_op_type_cast
                && sole_reader(plan, plan.ops[dq].outputs[0].id) >= 0)
            dq = producer_of(plan, plan.ops[dq].inputs[0].id);
        if (dq < 0 || plan.ops[dq].kind != dnnl_graph_op_dequantize
                || !is_per_channel(plan.ops[dq]))
            continue;
        if (sole_reader(plan, plan.ops[dq].outputs[0].id) < 0) continue;
        logical_tensor_t w;
        if (!shape_of(plan, known, plan.ops[dq].inputs[0].id, w)) continue;
        const bool transposed = conv.kind == dnnl_graph_op_conv_transpose;
        const int oc = output_channel_dim(
                conv.get_str(dnnl_graph_op_attr_weights_format,
                        transposed ? "XOI" : "XIO"),
                w.ndims);
        if (oc < 0) continue;
        const size_t ns = plan.ops[dq].get_f32s(dnnl_graph_op_attr_scales).size();
        if (w.dims[oc] < 0 || static_cast<size_t>(w.dims[oc]) != ns) continue;
        set_axis(plan.ops[dq], oc);
        // The in-graph weight Quantize in front of it, when it quantizes
        // with the same scales.
        const int q = producer_of(plan, plan.ops[dq].inputs[0].id);
        if (q >= 0 && is_per_channel(plan.ops[q])
                && plan.ops[q].kind == dnnl_graph_op_quantize
                && sole_reader(plan, plan.ops[q].outputs[0].id) == dq
                && plan.ops[q].get_f32s(dnnl_graph_op_attr_scales).size() == ns)
            set_axis(plan.ops[q], oc);
    }
}

} // namespace compiler
} // namespace llga
