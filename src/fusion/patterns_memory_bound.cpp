// SPDX-License-Identifier: Apache-2.0
// fusion/patterns_memory_bound.cpp — fusions around bandwidth-bound ops:
// binary and eltwise chains, normalisations, pooling, reduction,
// interpolation and softmax followed by post-ops, plus two small pairs
// (Reciprocal → Multiply, TypeCast → Quantize). Each saves a write and a
// read of a whole activation tensor per fused op.
#include "fusion/patterns.hpp"

namespace llga {
namespace fusion {

namespace {

bool fp_single_output(const ir::op_t &o) {
    return o.outputs.size() == 1 && !o.inputs.empty()
            && is_float(o.inputs[0].data_type);
}

// anchor ─► post(min..4), for an anchor already known to qualify.
bool anchor_then_post(const match_ctx_t &ctx, size_t anchor, int min_ops,
        match_t &m) {
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    chain_rules_t rules;
    rules.min_ops = min_ops;
    return grow_post_ops(ctx, rules, m, value);
}

bool is_reduction(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_reduce_l1:
        case dnnl_graph_op_reduce_l2:
        case dnnl_graph_op_reduce_max:
        case dnnl_graph_op_reduce_mean:
        case dnnl_graph_op_reduce_min:
        case dnnl_graph_op_reduce_prod:
        case dnnl_graph_op_reduce_sum: return true;
        default: return false;
    }
}

// [TypeCast] ─► [Quantize] ending a normalisation or softmax chain.
void take_cast_and_quantize(const match_ctx_t &ctx, match_t &m,
        size_t &value) {
    take_tail(ctx, dnnl_graph_op_type_cast, m, value);
    take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

} // namespace

//   AvgPool | MaxPool ─► post(1..4)
bool match_fp_pool(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if ((o.kind != dnnl_graph_op_avg_pool && o.kind != dnnl_graph_op_max_pool)
            || !fp_single_output(o))
        return false;
    return anchor_then_post(ctx, anchor, 1, m);
}

//   BatchNormInference | BatchNormForwardTraining ─► ReLU
bool match_fp_bnorm_relu(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_batch_norm_inference
            && o.kind != dnnl_graph_op_batch_norm_forward_training)
        return false;
    if (o.outputs.empty() || !is_float(o.inputs[0].data_type)) return false;
    m.ops = {anchor};
    size_t value = o.outputs[0].id;
    return take_tail(ctx, dnnl_graph_op_relu, m, value);
}

//   ReLUBackward ─► BatchNormTrainingBackward
bool match_fp_bnorm_bwd_relu_bwd(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_relu_backward || !fp_single_output(o))
        return false;
    const long bn = ctx.sole_consumer(o.outputs[0].id);
    if (bn < 0 || ctx.op(bn).kind != dnnl_graph_op_batch_norm_backward)
        return false;
    m.ops = {anchor, static_cast<size_t>(bn)};
    return true;
}

//   StaticReshape ─► StaticTranspose ─► StaticReshape   (channel shuffle)
bool match_shuffle(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (ctx.op(anchor).kind != dnnl_graph_op_static_reshape
            || ctx.op(anchor).outputs.size() != 1)
        return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    return take_tail(ctx, dnnl_graph_op_static_transpose, m, value)
            && take_tail(ctx, dnnl_graph_op_static_reshape, m, value);
}

//   Reduce* (non-empty axes) ─► post(1..4)
bool match_fp_reduction(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (!is_reduction(o.kind) || !fp_single_output(o)) return false;
    if (o.get_s64s(dnnl_graph_op_attr_axes).empty()) return false;
    return anchor_then_post(ctx, anchor, 1, m);
}

//   Interpolate ─► post(1..4)
bool match_fp_interpolate(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_interpolate || !fp_single_output(o))
        return false;
    return anchor_then_post(ctx, anchor, 1, m);
}

//   B ─► post(1..4)
bool match_fp_binary(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (!is_binary_post_op(o.kind) || !fp_single_output(o)) return false;
    return anchor_then_post(ctx, anchor, 1, m);
}

//   U ─► B(1..4)   (a unary after a unary is not fused)
bool match_fp_eltwise_binary(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (!is_unary_post_op(o) || !fp_single_output(o)) return false;
    m.ops = {anchor};
    size_t value = o.outputs[0].id;
    chain_rules_t rules;
    rules.min_ops = 1;
    rules.unary = false;
    return grow_post_ops(ctx, rules, m, value);
}

//   SoftMax ─► post(0..4) ─► [TypeCast] ─► [Quantize]
bool match_fp_softmax(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_softmax || !fp_single_output(o)) return false;
    m.ops = {anchor};
    size_t value = o.outputs[0].id;
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    take_cast_and_quantize(ctx, m, value);
    return true;
}

//   LayerNorm (last axis, no stats) ─► [TypeCast] ─► post(0..4) ─► [Quantize]
//   GroupNorm (no stats) ─► post(0..4) ─► [TypeCast] ─► post(0..4) ─► [Quantize]
bool match_layernorm(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (!fp_single_output(o)) return false;
    m.ops = {anchor};
    size_t value = o.outputs[0].id;
    if (o.kind == dnnl_graph_op_layer_norm) {
        const int64_t axis = o.get_s64(dnnl_graph_op_attr_begin_norm_axis, -1);
        const int rank = o.inputs[0].ndims;
        if (rank < 2 || rank > 5 || (axis != -1 && axis != rank - 1))
            return false;
        take_tail(ctx, dnnl_graph_op_type_cast, m, value);
        grow_post_ops(ctx, chain_rules_t {}, m, value);
    } else if (o.kind == dnnl_graph_op_group_norm) {
        grow_post_ops(ctx, chain_rules_t {}, m, value);
        if (take_tail(ctx, dnnl_graph_op_type_cast, m, value))
            grow_post_ops(ctx, chain_rules_t {}, m, value);
    } else {
        return false;
    }
    take_tail(ctx, dnnl_graph_op_quantize, m, value);
    return true;
}

//   Reciprocal ─► Multiply
bool match_reciprocal_multiply(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_reciprocal || !fp_single_output(o))
        return false;
    const long c = ctx.sole_consumer(o.outputs[0].id);
    if (c < 0 || ctx.op(c).kind != dnnl_graph_op_multiply) return false;
    m.ops = {anchor, static_cast<size_t>(c)};
    return true;
}

//   Reorder ─► Add(·, other of the same shape)   (fp_reorder_sum)
bool match_fp_reorder_sum(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_reorder || !fp_single_output(o)) return false;
    const long add = ctx.sole_consumer(o.outputs[0].id);
    if (add < 0 || ctx.op(add).kind != dnnl_graph_op_add) return false;
    const ir::op_t &a = ctx.op(add);
    if (a.inputs.size() != 2 || a.inputs[0].ndims != a.inputs[1].ndims
            || a.inputs[0].ndims < 0)
        return false;
    for (int d = 0; d < a.inputs[0].ndims; ++d)
        if (a.inputs[0].dims[d] < 0 || a.inputs[0].dims[d] != a.inputs[1].dims[d])
            return false;
    m.ops = {anchor, static_cast<size_t>(add)};
    return true;
}

//   TypeCast (bf16 → f32) ─► Quantize
bool match_typecast_quantize(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    const ir::op_t &o = ctx.op(anchor);
    if (o.kind != dnnl_graph_op_type_cast || o.outputs.size() != 1
            || o.inputs[0].data_type != dnnl_bf16
            || o.outputs[0].data_type != dnnl_f32)
        return false;
    m.ops = {anchor};
    size_t value = o.outputs[0].id;
    return take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

} // namespace fusion
} // namespace llga
