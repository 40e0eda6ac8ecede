// SPDX-License-Identifier: Apache-2.0
// fusion/patterns_compute.cpp — the floating-point compute anchors and their
// epilogues: Convolution, ConvTranspose and MatMul followed by an optional
// BiasAdd and a post-op chain (and the pointwise + depthwise convolution
// pair). These are the fusions that let a GEMM or
// convolution kernel apply its epilogue while the tile is in registers.
#include <string>

#include "fusion/patterns.hpp"

namespace llga {
namespace fusion {

namespace {

bool fp_anchor(const match_ctx_t &ctx, size_t anchor, op_kind_t kind) {
    const ir::op_t &o = ctx.op(anchor);
    return o.kind == kind && o.outputs.size() == 1 && !o.inputs.empty()
            && is_float(o.inputs[0].data_type);
}

// A BiasAdd is taken only when the anchor has no bias input of its own, and
// only directly after it.
void take_bias(const match_ctx_t &ctx, size_t anchor, match_t &m,
        size_t &value) {
    if (ctx.op(anchor).inputs.size() == 2)
        take_tail(ctx, dnnl_graph_op_bias_add, m, value);
}

// A convolution's kernel spatial dims and input channels per group, read
// from its weights (known at partitioning time, or the match fails).
bool conv_kernel(const ir::op_t &conv, dims_t &spatial, dim_t &in_per_group) {
    if (conv.inputs.size() < 2) return false;
    const logical_tensor_t &w = conv.inputs[1];
    if (w.ndims < 3) return false;
    for (int d = 0; d < w.ndims; ++d)
        if (w.dims[d] <= 0) return false;
    const std::string wf = conv.get_str(dnnl_graph_op_attr_weights_format, "XIO");
    const bool x_first = !wf.empty() && (wf[0] == 'X' || wf[0] == 'x');
    const int nsp = w.ndims - 2;
    spatial.assign(w.dims + (x_first ? 0 : 2), w.dims + (x_first ? nsp : w.ndims));
    in_per_group = x_first ? w.dims[nsp] : w.dims[1];
    return true;
}

} // namespace

//   Convolution 1x1 ─► [BiasAdd] ─► post(0..4)
//       ─► Convolution 3x3 depthwise ─► [BiasAdd] ─► post(0..4)
// (MobileNet's pointwise + depthwise pair; CPU only, like the reference.)
bool match_fp_conv_depthwise(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_convolution)) return false;
    dims_t k;
    dim_t ipg = 0;
    if (!conv_kernel(ctx.op(anchor), k, ipg)) return false;
    for (dim_t d : k)
        if (d != 1) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    take_bias(ctx, anchor, m, value);
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    const long dw = ctx.sole_consumer(value);
    if (dw < 0 || !fp_anchor(ctx, dw, dnnl_graph_op_convolution)
            || ctx.op(dw).inputs[0].id != value)
        return false;
    const ir::op_t &d = ctx.op(dw);
    if (!conv_kernel(d, k, ipg) || ipg != 1 || k.size() != 2 || k[0] != 3
            || k[1] != 3 || d.get_s64(dnnl_graph_op_attr_groups, 1) <= 1)
        return false;
    m.ops.push_back(dw);
    value = d.outputs[0].id;
    take_bias(ctx, dw, m, value);
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    return true;
}

//   Convolution ─► [BiasAdd] ─► [BatchNormInference] ─► post(0..4)
//       ─► [TypeCast bf16→f32]
bool match_fp_conv(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_convolution)) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    take_bias(ctx, anchor, m, value);
    take_tail(ctx, dnnl_graph_op_batch_norm_inference, m, value);
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    const long tc = ctx.sole_consumer(value);
    if (tc >= 0 && ctx.op(tc).kind == dnnl_graph_op_type_cast
            && ctx.op(tc).inputs[0].data_type == dnnl_bf16
            && ctx.op(tc).outputs[0].data_type == dnnl_f32)
        take_tail(ctx, dnnl_graph_op_type_cast, m, value);
    return true;
}

//   Convolution ─► X ─► Sigmoid(X) ─► Multiply(X, ·) ─► post(0..4)
// (fp_conv_post_ops_swish_post_ops): X is one post-op; the swish pair
// after it does not count against the four post-ops that may follow.
bool match_fp_conv_swish(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_convolution)) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    chain_rules_t one;
    one.min_ops = one.max_ops = 1;
    if (!grow_post_ops(ctx, one, m, value) || m.ops.size() != 2) return false;
    chain_rules_t pair;
    pair.min_ops = pair.max_ops = 2;
    const size_t before = m.ops.size();
    if (!grow_post_ops(ctx, pair, m, value) || m.ops.size() != before + 2
            || ctx.op(m.ops[before]).kind != dnnl_graph_op_sigmoid
            || ctx.op(m.ops[before + 1]).kind != dnnl_graph_op_multiply)
        return false;
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    return true;
}

//   ConvTranspose ─► [BiasAdd] ─► post(0..4)
bool match_fp_convtranspose(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_conv_transpose)) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    take_bias(ctx, anchor, m, value);
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    return true;
}

//   MatMul ─► [BiasAdd] ─► post(0..4) ─► [Select]
// The Select takes the MatMul result as one of its values (input 1 or 2);
// the condition and the other value come from outside.
bool match_fp_matmul(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_matmul)) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    take_bias(ctx, anchor, m, value);
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    const long sel = ctx.sole_consumer(value);
    if (sel >= 0 && ctx.op(sel).kind == dnnl_graph_op_select
            && ctx.op(sel).inputs.size() == 3
            && ctx.op(sel).inputs[0].id != value)
        m.ops.push_back(sel);
    return true;
}

bool take_layout_tail(const match_ctx_t &ctx, match_t &m, size_t &value) {
    const size_t ops = m.ops.size();
    const size_t start = value;
    const bool reshaped = take_tail(ctx, dnnl_graph_op_static_reshape, m, value);
    if (!take_tail(ctx, dnnl_graph_op_static_transpose, m, value)) {
        m.ops.resize(ops);
        value = start;
        return false;
    }
    if (reshaped || !take_tail(ctx, dnnl_graph_op_reorder, m, value))
        take_tail(ctx, dnnl_graph_op_static_reshape, m, value);
    return true;
}

//   MatMul ─► [BiasAdd] ─► [StaticReshape] ─► StaticTranspose
//       ─► [StaticReshape | Reorder]
// (fp_matmul_reshape_transpose_reshape, fp_matmul_transpose_reorder): the
// BERT projections written straight into the head-major layout; no
// post-ops.
bool match_fp_matmul_transpose(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_matmul)) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    take_bias(ctx, anchor, m, value);
    return take_layout_tail(ctx, m, value);
}

} // namespace fusion
} // namespace llga
