// SPDX-License-Identifier: Apache-2.0
// fusion/patterns_sdpa.cpp — scaled dot-product attention: the forward
// block (QK MatMul → score ops → SoftMax → probability ops → MatMul with V →
// output layout tail), in every spelling the frameworks send (scale by
// Multiply or Divide, explicit or implicit causal masks, padding Select,
// logit soft-capping, int8 or compressed Q/K/V heads, GPT and JAX orders,
// 5-D GQA broadcast), and the training backward block. Matching is
// structural; the containment check at the end rejects any match whose
// intermediates escape.
#include <algorithm>

#include "fusion/patterns.hpp"

namespace llga {
namespace fusion {

namespace {

// Score ops between the two MatMuls at most (GPT's Select → Divide → Add
// plus Gemma's scale → Tanh → Multiply soft-capping fit easily).
constexpr int k_max_score_ops = 8;

bool float_or_int8(data_type_t dt) { return is_float(dt) || is_int8(dt); }

// Absorbs the head of a MatMul operand: Dequantize [→ TypeCast bf16],
// DynamicDequantize (compressed K/V) or StaticReshape (GQA written with
// reshapes), each used only here.
void take_operand_head(const match_ctx_t &ctx, size_t mm, size_t port,
        match_t &m) {
    if (take_dequantized_input(ctx, mm, port, m)) return;
    for (op_kind_t k : {dnnl_graph_op_dynamic_dequantize,
                 dnnl_graph_op_static_reshape}) {
        const long p = ctx.sole_producer(mm, port, k);
        if (p >= 0 && !m.has(static_cast<size_t>(p))) {
            m.ops.push_back(static_cast<size_t>(p));
            return;
        }
    }
}

// Index ops of an implicit causal mask: GenIndex [→ Add → Subtract] whose
// last output is `id`; appends them to `m`. The GenIndex must read a value
// the match already computes (the scores, for their shape).
bool take_index_chain(const match_ctx_t &ctx, size_t id, match_t &m) {
    long p = ctx.producer(id);
    std::vector<size_t> chain;
    for (int hop = 0; hop < 3 && p >= 0; ++hop) {
        const size_t pi = static_cast<size_t>(p);
        const ir::op_t &o = ctx.op(pi);
        if (!ctx.free(pi) || o.outputs.size() != 1
                || ctx.consumer_ops(o.outputs[0].id).size() != 1)
            return false;
        chain.push_back(pi);
        if (o.kind == dnnl_graph_op_gen_index) {
            const long src = ctx.producer(o.inputs[0].id);
            if (src < 0 || !m.has(static_cast<size_t>(src))) return false;
            m.ops.insert(m.ops.end(), chain.begin(), chain.end());
            return true;
        }
        if (o.kind != dnnl_graph_op_add && o.kind != dnnl_graph_op_subtract)
            return false;
        p = ctx.producer(o.inputs[0].id);
    }
    return false;
}

// The condition of a Select: an implicit causal mask
// GreaterEqual(row index chain, column index chain) built only for it, or
// any tensor from outside (an explicit padding mask).
void take_causal_mask(const match_ctx_t &ctx, size_t select, match_t &m) {
    const long ge = ctx.sole_producer(select, 0, dnnl_graph_op_greater_equal);
    if (ge < 0) return;
    const size_t before = m.ops.size();
    m.ops.push_back(static_cast<size_t>(ge));
    const ir::op_t &g = ctx.op(ge);
    if (g.inputs.size() == 2 && take_index_chain(ctx, g.inputs[0].id, m)
            && take_index_chain(ctx, g.inputs[1].id, m))
        return;
    m.ops.resize(before);
}

// The one consumer of `value` that carries the chain on: GenIndex readers
// are left for take_causal_mask (the containment check catches any that
// are not absorbed). -1 when there is no such single free op.
long chain_consumer(const match_ctx_t &ctx, size_t value) {
    long next = -1;
    for (size_t c : ctx.consumer_ops(value)) {
        if (ctx.op(c).kind == dnnl_graph_op_gen_index) continue;
        if (next >= 0 || !ctx.free(c)) return -1;
        next = static_cast<long>(c);
    }
    return next;
}

// Score processing between QK and SoftMax: scale (Multiply/Divide), masks
// (Add, Subtract, Select with an explicit or implicit causal condition),
// soft-capping (Tanh) and layout ops (StaticReshape, StaticTranspose). Leaves `value` at the SoftMax input and returns
// the SoftMax, or -1.
long grow_scores(const match_ctx_t &ctx, match_t &m, size_t &value) {
    for (int n = 0; n <= k_max_score_ops; ++n) {
        const long c = chain_consumer(ctx, value);
        if (c < 0) return -1;
        const size_t ci = static_cast<size_t>(c);
        const ir::op_t &o = ctx.op(ci);
        if (o.kind == dnnl_graph_op_softmax)
            return o.inputs[0].id == value ? c : -1;
        if (n == k_max_score_ops || o.outputs.size() != 1) return -1;
        switch (o.kind) {
            case dnnl_graph_op_multiply:
            case dnnl_graph_op_add:
                if (o.inputs.size() != 2) return -1;
                break;
            case dnnl_graph_op_divide:
            case dnnl_graph_op_subtract:
                if (o.inputs.size() != 2 || o.inputs[0].id != value)
                    return -1;
                break;
            case dnnl_graph_op_tanh: break;
            // Layout ops inside the block: JAX reshapes and transposes the
            // scores into heads before the mask and SoftMax (MQA with one
            // shared K/V head).
            case dnnl_graph_op_static_reshape:
            case dnnl_graph_op_static_transpose:
                if (o.inputs.size() != 1) return -1;
                break;
            case dnnl_graph_op_select:
                if (o.inputs.size() != 3 || o.inputs[0].id == value) return -1;
                m.ops.push_back(ci);
                take_causal_mask(ctx, ci, m);
                value = o.outputs[0].id;
                continue;
            default: return -1;
        }
        m.ops.push_back(ci);
        // A mask written with a reshape (GQA): absorb it when used only here.
        if (o.inputs.size() == 2) {
            const size_t other = o.inputs[0].id == value ? 1 : 0;
            const long r = ctx.sole_producer(ci, other,
                    dnnl_graph_op_static_reshape);
            if (r >= 0) m.ops.push_back(static_cast<size_t>(r));
        }
        value = o.outputs[0].id;
    }
    return -1;
}

// Whether every value a matched op produces, other than `outs`, is read
// only inside the match (rule 5 of patterns.md §0.2 for multi-output
// blocks).
bool contained(const match_ctx_t &ctx, const match_t &m,
        const std::vector<size_t> &outs) {
    for (size_t i : m.ops)
        for (const auto &lt : ctx.op(i).outputs) {
            if (std::find(outs.begin(), outs.end(), lt.id) != outs.end())
                continue;
            for (size_t c : ctx.consumer_ops(lt.id))
                if (!m.has(c)) return false;
        }
    return true;
}

bool has_kind(const match_ctx_t &ctx, const match_t &m, op_kind_t kind) {
    for (size_t i : m.ops)
        if (ctx.op(i).kind == kind) return true;
    return false;
}

bool sdpa_forward(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &qk = ctx.op(anchor);
    if (qk.kind != dnnl_graph_op_matmul || qk.inputs.size() != 2
            || qk.outputs.size() != 1
            || !float_or_int8(qk.inputs[0].data_type))
        return false;
    m.ops = {anchor};
    take_operand_head(ctx, anchor, 0, m);
    take_operand_head(ctx, anchor, 1, m);
    size_t value = qk.outputs[0].id;
    const long sm = grow_scores(ctx, m, value);
    if (sm < 0) return false;
    m.ops.push_back(static_cast<size_t>(sm));
    const ir::op_t &smo = ctx.op(sm);
    value = smo.outputs[0].id;
    std::vector<size_t> outs;
    if (smo.outputs.size() == 2) outs.push_back(smo.outputs[1].id); // stats

    // Probabilities on their way to the second MatMul: TypeCasts, a
    // Quantize → Dequantize round trip (int8), or JAX's transpose.
    long mm2 = -1;
    for (int hop = 0; hop < 6; ++hop) {
        const long c = ctx.sole_consumer(value);
        if (c < 0) return false;
        const ir::op_t &o = ctx.op(c);
        if (o.kind == dnnl_graph_op_matmul) {
            mm2 = c;
            break;
        }
        switch (o.kind) {
            case dnnl_graph_op_type_cast:
            case dnnl_graph_op_quantize:
            case dnnl_graph_op_dequantize:
            case dnnl_graph_op_static_transpose:
            case dnnl_graph_op_reorder:
            case dnnl_graph_op_static_reshape: break;
            default: return false;
        }
        if (o.outputs.size() != 1) return false;
        m.ops.push_back(static_cast<size_t>(c));
        value = o.outputs[0].id;
    }
    if (mm2 < 0) return false;
    const ir::op_t &pv = ctx.op(mm2);
    if (pv.inputs.size() != 2 || pv.outputs.size() != 1) return false;
    // Probabilities on input 0 (P x V) or input 1 (JAX: V x P^T).
    const size_t v_port = pv.inputs[0].id == value ? 1 : 0;
    m.ops.push_back(static_cast<size_t>(mm2));
    take_operand_head(ctx, static_cast<size_t>(mm2), v_port, m);
    value = pv.outputs[0].id;

    // Output layout: StaticTranspose → Reorder or StaticReshape (or a
    // lone StaticReshape), then TypeCast and Quantize for int8 outputs.
    if (take_tail(ctx, dnnl_graph_op_static_transpose, m, value)) {
        if (!take_tail(ctx, dnnl_graph_op_reorder, m, value))
            take_tail(ctx, dnnl_graph_op_static_reshape, m, value);
    } else {
        take_tail(ctx, dnnl_graph_op_static_reshape, m, value);
    }
    take_tail(ctx, dnnl_graph_op_type_cast, m, value);
    take_tail(ctx, dnnl_graph_op_quantize, m, value);
    outs.push_back(value);
    return contained(ctx, m, outs);
}

} // namespace

//   [heads] MatMul(Q, K) ─► scores(0..8) ─► SoftMax ─► [TC | Q → DQ |
//       transpose](0..6) ─► MatMul(·, [head] V) ─► [layout tail] ─► [TC] ─►
//       [Q]
// Float (f32, bf16, f16, mixed with f32 scores) and compressed K/V: kind
// "sdp". Any Quantize/Dequantize in the block: see match_x8_sdpa.
bool match_fp_sdpa(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (!sdpa_forward(ctx, anchor, m)) return false;
    return !has_kind(ctx, m, dnnl_graph_op_quantize)
            && !has_kind(ctx, m, dnnl_graph_op_dequantize);
}

// The same block with static int8 quantization (DQ heads on Q/K/V, a
// Quantize → Dequantize round trip on the probabilities, a Quantize on the
// output): kind "quantized_sdp".
bool match_x8_sdpa(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    if (!sdpa_forward(ctx, anchor, m)) return false;
    return has_kind(ctx, m, dnnl_graph_op_quantize)
            || has_kind(ctx, m, dnnl_graph_op_dequantize);
}

// Training backward, from the recomputed scores:
//   MatMul(Q, K) ─► [scale] ─► [mask Add] ─► Subtract(stats) ─► Exp = P
//   [P' = TypeCast(P)]  (bf16/f16 MatMuls, f32 scores and statistics)
//   dV = MatMul(P'^T, dO);  dP = MatMul(dO, V)  (SoftMaxBackward reads P
//   or P')
//   SoftMaxBackward(dP, P) ─► Multiply/Divide(scale) = dS
//   dQ = MatMul(dS, K);  dK = MatMul(dS^T, Q)
bool match_fp_sdpa_backward(const match_ctx_t &ctx, size_t anchor,
        match_t &m) {
    const ir::op_t &qk = ctx.op(anchor);
    if (qk.kind != dnnl_graph_op_matmul || qk.inputs.size() != 2
            || qk.outputs.size() != 1 || !is_float(qk.inputs[0].data_type))
        return false;
    m.ops = {anchor};
    size_t value = qk.outputs[0].id;
    // Scale and mask, then the Subtract of the saved statistics.
    bool subtracted = false;
    for (int n = 0; n < 4 && !subtracted; ++n) {
        const long c = ctx.sole_consumer(value);
        if (c < 0) return false;
        const ir::op_t &o = ctx.op(c);
        if (o.inputs.size() != 2 || o.outputs.size() != 1) return false;
        const bool first = o.inputs[0].id == value;
        switch (o.kind) {
            case dnnl_graph_op_subtract:
                if (!first) return false;
                subtracted = true;
                break;
            case dnnl_graph_op_divide:
                if (!first) return false;
                break;
            case dnnl_graph_op_multiply:
            case dnnl_graph_op_add: break;
            default: return false;
        }
        m.ops.push_back(static_cast<size_t>(c));
        value = o.outputs[0].id;
    }
    if (!subtracted || !take_tail(ctx, dnnl_graph_op_exp, m, value))
        return false;
    // P in f32, and optionally cast (bf16/f16 training): the dV MatMul
    // reads P (or its cast) on input 0, SoftMaxBackward reads P (or its
    // cast) on input 1. Mixed precision gives the cast to the MatMul and
    // the f32 P to SoftMaxBackward, so P has two readers there.
    const size_t p32 = value;
    long dv = -1, smb = -1, tc = -1;
    auto take_reader = [&](size_t c, size_t p) {
        const ir::op_t &o = ctx.op(c);
        if (!ctx.free(c)) return false;
        if (o.kind == dnnl_graph_op_matmul && o.inputs[0].id == p && dv < 0)
            dv = static_cast<long>(c);
        else if (o.kind == dnnl_graph_op_softmax_backward && smb < 0
                && o.inputs.size() == 2 && o.inputs[1].id == p)
            smb = static_cast<long>(c);
        else if (o.kind == dnnl_graph_op_type_cast && p == p32 && tc < 0
                && o.outputs.size() == 1)
            tc = static_cast<long>(c);
        else
            return false;
        return true;
    };
    for (size_t c : ctx.consumer_ops(p32))
        if (!take_reader(c, p32)) return false;
    if (tc >= 0) {
        m.ops.push_back(static_cast<size_t>(tc));
        for (size_t c : ctx.consumer_ops(ctx.op(tc).outputs[0].id))
            if (!take_reader(c, ctx.op(tc).outputs[0].id)) return false;
    }
    if (dv < 0 || smb < 0) return false;
    const long dp = ctx.sole_producer(static_cast<size_t>(smb), 0,
            dnnl_graph_op_matmul);
    if (dp < 0) return false;
    m.ops.push_back(static_cast<size_t>(dv));
    m.ops.push_back(static_cast<size_t>(dp));
    m.ops.push_back(static_cast<size_t>(smb));
    value = ctx.op(smb).outputs[0].id;
    const long sc = ctx.sole_consumer(value);
    if (sc < 0) return false;
    const op_kind_t sk = ctx.op(sc).kind;
    if ((sk != dnnl_graph_op_multiply && sk != dnnl_graph_op_divide)
            || ctx.op(sc).inputs[0].id != value)
        return false;
    m.ops.push_back(static_cast<size_t>(sc));
    value = ctx.op(sc).outputs[0].id;
    take_tail(ctx, dnnl_graph_op_type_cast, m, value);
    const size_t ds = value;
    std::vector<size_t> outs = {ctx.op(dv).outputs[0].id};
    int grads = 0;
    for (size_t c : ctx.consumer_ops(ds)) {
        const ir::op_t &o = ctx.op(c);
        if (!ctx.free(c) || o.kind != dnnl_graph_op_matmul
                || o.outputs.size() != 1)
            return false;
        m.ops.push_back(c);
        outs.push_back(o.outputs[0].id);
        ++grads;
    }
    return grads == 2 && contained(ctx, m, outs);
}

} // namespace fusion
} // namespace llga
