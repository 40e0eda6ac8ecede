// fusion/patterns_compute.cpp — the floating-point compute anchors and their
// epilogues: Convolution, ConvTranspose and MatMul followed by an optional
// BiasAdd and a post-op chain. These are the fusions that let a GEMM or
// convolution kernel apply its epilogue while the tile is in registers.
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

} // namespace

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

//   MatMul ─► [BiasAdd] ─► post(0..4)
bool match_fp_matmul(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (!fp_anchor(ctx, anchor, dnnl_graph_op_matmul)) return false;
    m.ops = {anchor};
    size_t value = ctx.op(anchor).outputs[0].id;
    take_bias(ctx, anchor, m, value);
    grow_post_ops(ctx, chain_rules_t {}, m, value);
    return true;
}

} // namespace fusion
} // namespace llga
