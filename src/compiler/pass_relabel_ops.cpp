// SPDX-License-Identifier: Apache-2.0
// compiler/pass_relabel_ops.cpp — renames ops that are another op (see the
// header); the tensors, ports and all other attributes stay as they are.
#include "compiler/pass_relabel_ops.hpp"

#include <cctype>
#include <string>

namespace llga {
namespace compiler {

void pass_relabel_ops(plan_t &plan) {
    for (ir::op_t &op : plan.ops) {
        if (op.kind != dnnl_graph_op_conv_transpose_backward_data) continue;
        // The transposed ops default to XOI (spatial dims first).
        const std::string wf
                = op.get_str(dnnl_graph_op_attr_weights_format, "XOI");
        const bool spatial_first = !wf.empty()
                && std::toupper(static_cast<unsigned char>(wf[0])) == 'X';
        op.kind = dnnl_graph_op_convolution;
        op.set_attr(dnnl_graph_op_attr_weights_format,
                ir::attr_value_t::make_str(spatial_first ? "XIO" : "OIX"));
    }
}

} // namespace compiler
} // namespace llga
