// SPDX-License-Identifier: Apache-2.0
// fusion/patterns_quantized.cpp — quantized patterns: Convolution,
// ConvTranspose and MatMul whose src and weights arrive through Dequantize
// (optionally followed by a TypeCast to bf16, the int8-in / bf16-compute
// spelling), with the epilogue up to an optional Quantize; and the
// memory-bound int8 islands (pooling, BatchNorm, Concat, Reorder between a
// Dequantize and a Quantize). The Dequantize/Quantize arithmetic folds into
// scales and zero points of an integer kernel, which is where int8 wins.
#include "fusion/patterns.hpp"

namespace llga {
namespace fusion {

namespace {

bool is_x8(data_type_t dt) {
    return is_int8(dt) || dt == dnnl_f8_e4m3 || dt == dnnl_f8_e5m2;
}

// The weights' optional in-graph Quantize is absorbed only when the f32
// weights are known not to change between runs of other ops: constant, a
// graph input, or produced by a framework op (Wildcard).
bool absorbable_weight_quantize(const match_ctx_t &ctx, size_t q) {
    const ir::op_t &o = ctx.op(q);
    const long p = ctx.producer(o.inputs[0].id);
    return p < 0 || ctx.op(p).kind == dnnl_graph_op_wildcard
            || o.inputs[0].property == dnnl_graph_tensor_property_constant;
}

// The integer tensor a head (the first op take_dequantized_input appended
// at `at`) dequantizes.
data_type_t head_int_type(const match_ctx_t &ctx, const match_t &m, size_t at) {
    return ctx.op(m.ops[at]).inputs[0].data_type;
}

// A bias arriving through a TypeCast f32 → bf16 (bf16 compute) joins too.
void take_bias_cast(const match_ctx_t &ctx, size_t index, size_t port,
        match_t &m) {
    const long tc = ctx.sole_producer(index, port, dnnl_graph_op_type_cast);
    if (tc >= 0 && ctx.op(tc).outputs[0].data_type == dnnl_bf16)
        m.ops.push_back(tc);
}

void x8_epilogue(const match_ctx_t &ctx, size_t anchor, match_t &m);

//   DQ(src) [→ TC bf16] ──┐
//                         ├─► anchor ─► [BiasAdd] ─► post(0..4)
//   [Q] ─► DQ(wei) [→ TC] ┘     ─► [TC bf16→f32 ─► post(0..4)] ─► [Quantize]
// A binary post-op's second operand may itself be dequantized (the
// residual of a quantized network); its head joins the partition. The
// post-ops after the final TypeCast cover the f32 tails the reference
// allows there (a residual Add, the SmoothQuant Multiply/Divide).
bool match_x8(const match_ctx_t &ctx, size_t anchor, op_kind_t kind,
        bool weights_s8, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.kind != kind || a.outputs.size() != 1 || a.inputs.size() < 2)
        return false;
    m.ops = {anchor};
    const size_t src_at = m.ops.size();
    if (!take_dequantized_input(ctx, anchor, 0, m)) return false;
    const size_t wei_at = m.ops.size();
    if (!take_dequantized_input(ctx, anchor, 1, m)) return false;
    if (!is_x8(head_int_type(ctx, m, src_at))) return false;
    const data_type_t wt = head_int_type(ctx, m, wei_at);
    if (weights_s8 ? !(wt == dnnl_s8 || wt == dnnl_f8_e4m3 || wt == dnnl_f8_e5m2)
                   : !is_x8(wt))
        return false;
    const size_t dq_wei = m.ops[wei_at];
    const long q_wei = ctx.sole_producer(dq_wei, 0, dnnl_graph_op_quantize);
    if (q_wei >= 0 && absorbable_weight_quantize(ctx, q_wei))
        m.ops.push_back(q_wei);
    x8_epilogue(ctx, anchor, m);
    return true;
}

// The epilogue of the quantized compute ops, after the anchor:
//   [BiasAdd] ─► post(0..4) ─► [TC bf16→f32 ─► post(0..4)] ─► [Quantize]
void x8_epilogue(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    size_t value = a.outputs[0].id;
    if (a.inputs.size() == 2) {
        if (take_tail(ctx, dnnl_graph_op_bias_add, m, value))
            take_bias_cast(ctx, m.ops.back(), 1, m);
    } else {
        take_bias_cast(ctx, anchor, 2, m);
    }
    chain_rules_t rules;
    rules.absorb_dequantized_operand = true;
    grow_post_ops(ctx, rules, m, value);
    const long tc = ctx.sole_consumer(value);
    if (tc >= 0 && ctx.op(tc).kind == dnnl_graph_op_type_cast
            && ctx.op(tc).outputs[0].data_type == dnnl_f32
            && take_tail(ctx, dnnl_graph_op_type_cast, m, value))
        grow_post_ops(ctx, rules, m, value);
    take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

// DQ(int8) ─► anchor, the anchor reading the Dequantize on input 0.
bool dequantized_anchor(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.outputs.empty() || a.inputs.empty()) return false;
    const long dq = ctx.sole_producer(anchor, 0, dnnl_graph_op_dequantize);
    if (dq < 0 || !is_int8(ctx.op(dq).inputs[0].data_type)) return false;
    m.ops = {anchor, static_cast<size_t>(dq)};
    return true;
}

} // namespace

bool match_x8_conv(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    return match_x8(ctx, anchor, dnnl_graph_op_convolution, true, m);
}

//   DQ(int8 src) ────────────────────────────────────────────┐
//   StaticReshape ─► Quantize ─► DQ(s8) ─► StaticReshape ─► Convolution
//       ─► [BiasAdd] ─► post(0..4) ─► [Quantize]
// TensorFlow's depthwise convolution with weights prepared in the graph
// (x8s8x_conv_reshape_post_ops): every weight op used only on this path,
// the first reshape reading a constant, a graph input or a Wildcard.
bool match_x8_conv_reshape(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.kind != dnnl_graph_op_convolution || a.outputs.size() != 1
            || a.inputs.size() < 2)
        return false;
    m.ops = {anchor};
    if (!take_dequantized_input(ctx, anchor, 0, m)
            || !is_int8(head_int_type(ctx, m, 1)))
        return false;
    const long r2 = ctx.sole_producer(anchor, 1, dnnl_graph_op_static_reshape);
    if (r2 < 0) return false;
    const long dq = ctx.sole_producer(r2, 0, dnnl_graph_op_dequantize);
    if (dq < 0 || ctx.op(dq).inputs[0].data_type != dnnl_s8) return false;
    const long q = ctx.sole_producer(dq, 0, dnnl_graph_op_quantize);
    if (q < 0) return false;
    const long r1 = ctx.sole_producer(q, 0, dnnl_graph_op_static_reshape);
    if (r1 < 0 || !absorbable_weight_quantize(ctx, r1)) return false;
    for (long k : {r2, dq, q, r1})
        m.ops.push_back(static_cast<size_t>(k));
    x8_epilogue(ctx, anchor, m);
    return true;
}

bool match_x8_convtranspose(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    return match_x8(ctx, anchor, dnnl_graph_op_conv_transpose, true, m);
}

bool match_x8_matmul(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    return match_x8(ctx, anchor, dnnl_graph_op_matmul, false, m);
}

//   DQ(src), [Q] ─► DQ(wei) [each → TC bf16] ─► MatMul ─► [BiasAdd]
//       ─► [StaticReshape] ─► StaticTranspose ─► [StaticReshape | Reorder]
//       ─► [[TC] ─► Quantize]
// (x8x8x8_matmul_reshape_transpose_reshape, x8x8x_matmul_transpose_reorder
// and their bf16 twins): the int8 projection written into heads.
bool match_x8_matmul_transpose(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.kind != dnnl_graph_op_matmul || a.outputs.size() != 1
            || a.inputs.size() < 2)
        return false;
    m.ops = {anchor};
    if (!take_dequantized_input(ctx, anchor, 0, m)
            || !is_x8(head_int_type(ctx, m, 1)))
        return false;
    const size_t wei_at = m.ops.size();
    if (!take_dequantized_input(ctx, anchor, 1, m)
            || !is_x8(head_int_type(ctx, m, wei_at)))
        return false;
    const long q_wei = ctx.sole_producer(m.ops[wei_at], 0, dnnl_graph_op_quantize);
    if (q_wei >= 0 && absorbable_weight_quantize(ctx, q_wei))
        m.ops.push_back(q_wei);
    size_t value = a.outputs[0].id;
    if (a.inputs.size() == 2) take_tail(ctx, dnnl_graph_op_bias_add, m, value);
    if (!take_layout_tail(ctx, m, value)) return false;
    const size_t before = m.ops.size();
    const size_t at = value;
    take_tail(ctx, dnnl_graph_op_type_cast, m, value);
    if (!take_tail(ctx, dnnl_graph_op_quantize, m, value)) {
        m.ops.resize(before);
        value = at;
    }
    return true;
}

//   DQ ─► AvgPool | MaxPool ─► [StaticReshape | StaticTranspose]
//      ─► post(0..4) ─► Quantize
bool match_x8_pool(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const op_kind_t k = ctx.op(anchor).kind;
    if (k != dnnl_graph_op_avg_pool && k != dnnl_graph_op_max_pool)
        return false;
    if (!dequantized_anchor(ctx, anchor, m)) return false;
    size_t value = ctx.op(anchor).outputs[0].id;
    if (!take_tail(ctx, dnnl_graph_op_static_reshape, m, value))
        take_tail(ctx, dnnl_graph_op_static_transpose, m, value);
    chain_rules_t rules;
    rules.absorb_dequantized_operand = true;
    grow_post_ops(ctx, rules, m, value);
    return take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

//   DQ ─► BatchNormInference ─► [ReLU] ─► Quantize
bool match_x8_bnorm(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (ctx.op(anchor).kind != dnnl_graph_op_batch_norm_inference) return false;
    if (!dequantized_anchor(ctx, anchor, m)) return false;
    size_t value = ctx.op(anchor).outputs[0].id;
    take_tail(ctx, dnnl_graph_op_relu, m, value);
    return take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

//   DQ ─► Reorder ─► [Add(·, DQ(other))] ─► Quantize
bool match_x8_reorder(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (ctx.op(anchor).kind != dnnl_graph_op_reorder) return false;
    if (!dequantized_anchor(ctx, anchor, m)) return false;
    size_t value = ctx.op(anchor).outputs[0].id;
    const long add = ctx.sole_consumer(value);
    if (add >= 0 && ctx.op(add).kind == dnnl_graph_op_add
            && ctx.op(add).inputs[0].id == value
            && ctx.sole_producer(add, 1, dnnl_graph_op_dequantize) >= 0) {
        m.ops.push_back(add);
        m.ops.push_back(ctx.sole_producer(add, 1, dnnl_graph_op_dequantize));
        value = ctx.op(add).outputs[0].id;
    }
    return take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

//   DQ, DQ, ... ─► Concat ─► Quantize   (every input dequantized)
bool match_x8_concat(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &c = ctx.op(anchor);
    if (c.kind != dnnl_graph_op_concat || c.outputs.size() != 1) return false;
    m.ops = {anchor};
    for (size_t k = 0; k < c.inputs.size(); ++k) {
        const long dq = ctx.sole_producer(anchor, k, dnnl_graph_op_dequantize);
        if (dq < 0 || m.has(dq) || !is_int8(ctx.op(dq).inputs[0].data_type))
            return false;
        m.ops.push_back(dq);
    }
    size_t value = c.outputs[0].id;
    return take_tail(ctx, dnnl_graph_op_quantize, m, value);
}

} // namespace fusion
} // namespace llga
