// SPDX-License-Identifier: Apache-2.0
// fusion/patterns_gated_mlp.cpp — the gated MLP of LLM feed-forward
// blocks: two MatMuls on the same input (gate and up projections), an
// activation on the gate (one unary op, or swish spelled Sigmoid →
// Multiply), a binary op joining gate and up, and the down projection.
// Any of the three weights may arrive through a DynamicDequantize
// (weight-only int4/int8, per_group scales along either weight dim).
#include "fusion/patterns.hpp"

namespace llga {
namespace fusion {

namespace {

// A projection MatMul (no bias input, one output read only by `user`),
// with its weights' DynamicDequantize head when there is one.
bool take_projection(const match_ctx_t &ctx, long mm, size_t user,
        match_t &m) {
    if (mm < 0 || !ctx.free(static_cast<size_t>(mm))) return false;
    const ir::op_t &o = ctx.op(mm);
    if (o.kind != dnnl_graph_op_matmul || o.inputs.size() != 2
            || o.outputs.size() != 1 || !is_float(o.inputs[0].data_type))
        return false;
    const std::vector<size_t> users = ctx.consumer_ops(o.outputs[0].id);
    if (users.size() != 1 || users[0] != user) return false;
    m.ops.push_back(static_cast<size_t>(mm));
    const long dq = ctx.sole_producer(static_cast<size_t>(mm), 1,
            dnnl_graph_op_dynamic_dequantize);
    if (dq >= 0) m.ops.push_back(static_cast<size_t>(dq));
    return true;
}

// The gate branch ending in tensor `id` (an input of the joining op
// `join`): MatMul → [U op] or MatMul → Sigmoid → Multiply(gate, sigmoid).
// Appends its ops and returns the gate MatMul, or -1.
long take_gate(const match_ctx_t &ctx, size_t id, size_t join, match_t &m) {
    const long p = ctx.producer(id);
    if (p < 0 || !ctx.free(static_cast<size_t>(p))) return -1;
    const ir::op_t &o = ctx.op(p);
    const size_t before = m.ops.size();
    if (o.kind == dnnl_graph_op_matmul)
        return take_projection(ctx, p, join, m) ? p : -1;
    if (ctx.consumer_ops(id).size() != 1) return -1;
    if (is_unary_post_op(o) && o.inputs.size() == 1) {
        m.ops.push_back(static_cast<size_t>(p));
        const long mm = ctx.producer(o.inputs[0].id);
        if (take_projection(ctx, mm, static_cast<size_t>(p), m)) return mm;
    } else if (o.kind == dnnl_graph_op_multiply && o.inputs.size() == 2) {
        // Swish: Multiply(gate, Sigmoid(gate)), either operand order.
        for (int s = 0; s < 2; ++s) {
            const long sig = ctx.producer(o.inputs[s].id);
            const long mm = ctx.producer(o.inputs[1 - s].id);
            if (sig < 0 || mm < 0 || !ctx.free(static_cast<size_t>(sig))
                    || ctx.op(sig).kind != dnnl_graph_op_sigmoid
                    || ctx.op(sig).inputs[0].id != o.inputs[1 - s].id
                    || ctx.consumer_ops(o.inputs[s].id).size() != 1)
                continue;
            const ir::op_t &g = ctx.op(mm);
            if (g.kind != dnnl_graph_op_matmul || !ctx.free(mm)
                    || g.inputs.size() != 2 || g.outputs.size() != 1
                    || ctx.consumer_ops(g.outputs[0].id).size() != 2)
                continue;
            m.ops.push_back(static_cast<size_t>(p));
            m.ops.push_back(static_cast<size_t>(sig));
            m.ops.push_back(static_cast<size_t>(mm));
            const long dq = ctx.sole_producer(static_cast<size_t>(mm), 1,
                    dnnl_graph_op_dynamic_dequantize);
            if (dq >= 0) m.ops.push_back(static_cast<size_t>(dq));
            return mm;
        }
    }
    m.ops.resize(before);
    return -1;
}

} // namespace

//   MatMul_gate(x, W1) ─► [U | swish] ─┐
//                                       B ─► MatMul_down(·, W3)
//   MatMul_up(x, W2) ──────────────────┘
// Anchored on the down projection; gate and up must read the same x, and
// all three MatMuls share one floating-point type.
bool match_gated_mlp(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &down = ctx.op(anchor);
    if (down.kind != dnnl_graph_op_matmul || down.inputs.size() != 2
            || down.outputs.size() != 1
            || !is_float(down.inputs[0].data_type))
        return false;
    const long j = ctx.producer(down.inputs[0].id);
    if (j < 0 || !ctx.free(static_cast<size_t>(j))) return false;
    const ir::op_t &b = ctx.op(j);
    if (!is_binary_post_op(b.kind) || b.inputs.size() != 2
            || ctx.consumer_ops(down.inputs[0].id).size() != 1)
        return false;
    // Either operand of the joining op may be the gate branch (Subtract
    // and Divide included: the corpus varies the op kind).
    for (int g = 0; g < 2; ++g) {
        m.ops = {anchor, static_cast<size_t>(j)};
        const long gate = take_gate(ctx, b.inputs[g].id, j, m);
        if (gate < 0) continue;
        const long up = ctx.producer(b.inputs[1 - g].id);
        if (up == gate || !take_projection(ctx, up, j, m)) continue;
        const ir::op_t &go = ctx.op(gate), &uo = ctx.op(up);
        if (go.inputs[0].id != uo.inputs[0].id
                || go.inputs[0].data_type != down.inputs[0].data_type)
            continue;
        // The down projection's weights may be compressed too.
        const long dq = ctx.sole_producer(anchor, 1,
                dnnl_graph_op_dynamic_dequantize);
        if (dq >= 0 && !m.has(static_cast<size_t>(dq)))
            m.ops.push_back(static_cast<size_t>(dq));
        return true;
    }
    m.ops.clear();
    return false;
}

} // namespace fusion
} // namespace llga
