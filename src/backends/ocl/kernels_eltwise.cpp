// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_eltwise.cpp — builders of the eltwise family
// (kernels/eltwise.cl): every unary op forward and backward, the op chosen
// by macro.
#include "backends/ocl/kernels_family.hpp"

#include "ops/registry.hpp"

namespace llga {
namespace ocl {

namespace {

const char *macro_of(op_kind_t k, bool gelu_tanh) {
    switch (k) {
#define M(kind, name) \
    case dnnl_graph_op_##kind: \
    case dnnl_graph_op_##kind##_backward: return name;
        M(abs, "OP_ABS")
        M(clamp, "OP_CLAMP")
        M(elu, "OP_ELU")
        M(hard_sigmoid, "OP_HARDSIGMOID")
        M(hard_swish, "OP_HARDSWISH")
        M(mish, "OP_MISH")
        M(relu, "OP_RELU")
        M(sigmoid, "OP_SIGMOID")
        M(softplus, "OP_SOFTPLUS")
        M(sqrt, "OP_SQRT")
        M(tanh, "OP_TANH")
#undef M
        case dnnl_graph_op_gelu:
        case dnnl_graph_op_gelu_backward:
            return gelu_tanh ? "OP_GELU_TANH" : "OP_GELU";
        case dnnl_graph_op_exp: return "OP_EXP";
        case dnnl_graph_op_leaky_relu: return "OP_LEAKYRELU";
        case dnnl_graph_op_log: return "OP_LOG";
        case dnnl_graph_op_pow: return "OP_POW";
        case dnnl_graph_op_reciprocal: return "OP_RECIPROCAL";
        case dnnl_graph_op_round: return "OP_ROUND";
        case dnnl_graph_op_square: return "OP_SQUARE";
        default: return nullptr;
    }
}

bool is_backward(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_abs_backward:
        case dnnl_graph_op_clamp_backward:
        case dnnl_graph_op_elu_backward:
        case dnnl_graph_op_gelu_backward:
        case dnnl_graph_op_hard_sigmoid_backward:
        case dnnl_graph_op_hard_swish_backward:
        case dnnl_graph_op_mish_backward:
        case dnnl_graph_op_relu_backward:
        case dnnl_graph_op_sigmoid_backward:
        case dnnl_graph_op_softplus_backward:
        case dnnl_graph_op_sqrt_backward:
        case dnnl_graph_op_tanh_backward: return true;
        default: return false;
    }
}

} // namespace

status_t build_eltwise(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const ops::eltwise::params_t p = ops::eltwise::params_of(op);
    const char *m = macro_of(op.kind, p.gelu_tanh);
    if (!m) return unsupported(op, "not an eltwise op");
    const bool bwd = is_backward(op.kind);
    const logical_tensor_t &dst = op.outputs[0];
    launch_desc_t d;
    d.family = "eltwise";
    d.kernel = bwd ? "eltwise_bwd" : "eltwise_fwd";
    std::string &o = d.options;
    o += std::string(" -D") + m;
    if (bwd) o += " -DBACKWARD";
    if (bwd && p.use_dst) o += " -DUSE_DST";
    o += float_option("ALPHA", static_cast<float>(p.alpha));
    o += float_option("BETA", static_cast<float>(p.beta));
    o += float_option("LO", static_cast<float>(p.lo));
    o += float_option("HI", static_cast<float>(p.hi));
    dt_option("SRC", op.inputs[0].data_type, o);
    dt_option("DST", dst.data_type, o);
    const std::vector<int64_t> dims = dims_1(dst);
    o += int_option("ND", static_cast<int64_t>(dims.size()));
    o += list_option("DIMS", dims);
    o += list_option("SRC_STRIDES", strides_1(op.inputs[0]));
    o += list_option("DST_STRIDES", strides_1(dst));
    d.args.push_back(op.inputs[0].id);
    if (bwd) {
        dt_option("DD", op.inputs[1].data_type, o);
        o += list_option("DD_STRIDES", strides_1(op.inputs[1]));
        d.args.push_back(op.inputs[1].id);
    }
    d.args.push_back(dst.id);
    d.work = static_cast<size_t>(ir::nelems(dst));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
