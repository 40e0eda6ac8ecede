// fusion/patterns_quantized.cpp — quantized compute: a Convolution or MatMul
// whose src and weights arrive through Dequantize, with the epilogue up to
// an optional Quantize. The Dequantize/Quantize arithmetic folds into
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

//   DQ(src) ──┐
//             ├─► anchor ─► [BiasAdd] ─► post(0..4) ─► [Quantize]
//   [Q] ─► DQ(wei)
// A binary post-op's second operand may itself be a Dequantize (the
// residual of a quantized network); it joins the partition.
bool match_x8(const match_ctx_t &ctx, size_t anchor, op_kind_t kind,
        bool weights_s8, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.kind != kind || a.outputs.size() != 1 || a.inputs.size() < 2)
        return false;
    const long dq_src = ctx.sole_producer(anchor, 0, dnnl_graph_op_dequantize);
    const long dq_wei = ctx.sole_producer(anchor, 1, dnnl_graph_op_dequantize);
    if (dq_src < 0 || dq_wei < 0 || dq_src == dq_wei) return false;
    if (!is_x8(ctx.op(dq_src).inputs[0].data_type)) return false;
    const data_type_t wt = ctx.op(dq_wei).inputs[0].data_type;
    if (weights_s8 ? !(wt == dnnl_s8 || wt == dnnl_f8_e4m3 || wt == dnnl_f8_e5m2)
                   : !is_x8(wt))
        return false;
    m.ops = {static_cast<size_t>(dq_src), static_cast<size_t>(dq_wei), anchor};
    const long q_wei = ctx.sole_producer(dq_wei, 0, dnnl_graph_op_quantize);
    if (q_wei >= 0 && absorbable_weight_quantize(ctx, q_wei))
        m.ops.push_back(q_wei);
    size_t value = a.outputs[0].id;
    if (a.inputs.size() == 2) take_tail(ctx, dnnl_graph_op_bias_add, m, value);
    chain_rules_t rules;
    rules.absorb_dequantized_operand = true;
    grow_post_ops(ctx, rules, m, value);
    take_tail(ctx, dnnl_graph_op_quantize, m, value);
    return true;
}

} // namespace

bool match_x8_conv(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    return match_x8(ctx, anchor, dnnl_graph_op_convolution, true, m);
}

bool match_x8_matmul(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    return match_x8(ctx, anchor, dnnl_graph_op_matmul, false, m);
}

} // namespace fusion
} // namespace llga
