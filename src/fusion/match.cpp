// SPDX-License-Identifier: Apache-2.0
// fusion/match.cpp — graph queries for matchers, the post-op alphabets and
// the shared post-op chain grower.
#include "fusion/match.hpp"

#include <algorithm>

namespace llga {
namespace fusion {

bool match_t::has(size_t index) const {
    return std::find(ops.begin(), ops.end(), index) != ops.end();
}

long match_ctx_t::producer(size_t id) const {
    const ir::tensor_use_t *p = g_.producer(id);
    return p ? static_cast<long>(p->op_index) : -1;
}

std::vector<size_t> match_ctx_t::consumer_ops(size_t id) const {
    std::vector<size_t> r;
    for (const auto &use : g_.consumers(id))
        if (std::find(r.begin(), r.end(), use.op_index) == r.end())
            r.push_back(use.op_index);
    return r;
}

long match_ctx_t::sole_consumer(size_t id) const {
    const std::vector<size_t> c = consumer_ops(id);
    if (c.size() != 1 || !free(c[0])) return -1;
    return static_cast<long>(c[0]);
}

long match_ctx_t::sole_producer(size_t index, size_t port, op_kind_t kind) const {
    const ir::op_t &o = op(index);
    if (port >= o.inputs.size()) return -1;
    const size_t id = o.inputs[port].id;
    const long p = producer(id);
    if (p < 0 || !free(static_cast<size_t>(p)) || op(p).kind != kind)
        return -1;
    const std::vector<size_t> c = consumer_ops(id);
    if (c.size() != 1 || c[0] != index) return -1;
    return p;
}

bool is_float(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

bool is_int8(data_type_t dt) { return dt == dnnl_u8 || dt == dnnl_s8; }

bool is_unary_post_op(const ir::op_t &op) {
    switch (op.kind) {
        case dnnl_graph_op_abs:
        case dnnl_graph_op_clamp:
        case dnnl_graph_op_elu:
        case dnnl_graph_op_exp:
        case dnnl_graph_op_gelu:
        case dnnl_graph_op_hard_sigmoid:
        case dnnl_graph_op_hard_swish:
        case dnnl_graph_op_leaky_relu:
        case dnnl_graph_op_log:
        case dnnl_graph_op_mish:
        case dnnl_graph_op_sigmoid:
        case dnnl_graph_op_softplus:
        case dnnl_graph_op_relu:
        case dnnl_graph_op_sqrt:
        case dnnl_graph_op_square:
        case dnnl_graph_op_tanh: return true;
        case dnnl_graph_op_round:
            return !op.inputs.empty() && op.inputs[0].data_type == dnnl_f32;
        default: return false;
    }
}

bool is_binary_post_op(op_kind_t kind) {
    switch (kind) {
        case dnnl_graph_op_add:
        case dnnl_graph_op_subtract:
        case dnnl_graph_op_multiply:
        case dnnl_graph_op_divide:
        case dnnl_graph_op_maximum:
        case dnnl_graph_op_minimum: return true;
        default: return false;
    }
}

bool is_commutative(op_kind_t kind) {
    return kind == dnnl_graph_op_add || kind == dnnl_graph_op_multiply
            || kind == dnnl_graph_op_maximum || kind == dnnl_graph_op_minimum;
}

namespace {

// Port of `o` that reads `value` as the chained operand, or -1. Binary ops
// reading `value` on both inputs (x * x) chain on input 0.
int chained_port(const ir::op_t &o, size_t value) {
    if (o.inputs.size() != 2) return -1;
    if (o.inputs[0].id == value) return 0;
    if (o.inputs[1].id == value && is_commutative(o.kind)) return 1;
    return -1;
}

// x → Sigmoid → Multiply(x, sigmoid(x)): `value` feeds exactly these two
// free ops and the Sigmoid's output only the Multiply.
bool match_swish(const match_ctx_t &ctx, size_t value, size_t *sig,
        size_t *mul) {
    const std::vector<size_t> c = ctx.consumer_ops(value);
    if (c.size() != 2) return false;
    for (int k = 0; k < 2; ++k) {
        const size_t s = c[k], m = c[1 - k];
        if (!ctx.free(s) || !ctx.free(m)) continue;
        const ir::op_t &so = ctx.op(s), &mo = ctx.op(m);
        if (so.kind != dnnl_graph_op_sigmoid
                || mo.kind != dnnl_graph_op_multiply || so.outputs.empty())
            continue;
        const size_t sv = so.outputs[0].id;
        if (ctx.sole_consumer(sv) != static_cast<long>(m)) continue;
        const bool pair = (mo.inputs[0].id == value && mo.inputs[1].id == sv)
                || (mo.inputs[1].id == value && mo.inputs[0].id == sv);
        if (!pair) continue;
        *sig = s;
        *mul = m;
        return true;
    }
    return false;
}

} // namespace

bool grow_post_ops(const match_ctx_t &ctx, const chain_rules_t &rules,
        match_t &m, size_t &value) {
    const size_t start_size = m.ops.size();
    const size_t start_value = value;
    int taken = 0;
    while (taken < rules.max_ops) {
        size_t sig = 0, mul = 0;
        if (rules.unary && rules.binary && taken + 2 <= rules.max_ops
                && match_swish(ctx, value, &sig, &mul)) {
            m.ops.push_back(sig);
            m.ops.push_back(mul);
            value = ctx.op(mul).outputs[0].id;
            taken += 2;
            continue;
        }
        const long c = ctx.sole_consumer(value);
        if (c < 0) break;
        const ir::op_t &o = ctx.op(c);
        if (o.outputs.size() != 1) break;
        if (rules.unary && is_unary_post_op(o) && o.inputs.size() == 1) {
            m.ops.push_back(c);
        } else if (rules.binary && is_binary_post_op(o.kind)) {
            const int port = chained_port(o, value);
            if (port < 0) break;
            m.ops.push_back(c);
            if (rules.absorb_dequantized_operand)
                take_dequantized_input(ctx, c, 1 - port, m);
        } else {
            break;
        }
        value = o.outputs[0].id;
        ++taken;
    }
    if (taken >= rules.min_ops) return true;
    m.ops.resize(start_size);
    value = start_value;
    return false;
}

bool take_dequantized_input(const match_ctx_t &ctx, size_t index, size_t port,
        match_t &m) {
    long dq = ctx.sole_producer(index, port, dnnl_graph_op_dequantize);
    long tc = -1;
    if (dq < 0) {
        tc = ctx.sole_producer(index, port, dnnl_graph_op_type_cast);
        if (tc < 0) return false;
        const ir::op_t &t = ctx.op(tc);
        if (t.inputs[0].data_type != dnnl_f32
                || t.outputs[0].data_type != dnnl_bf16)
            return false;
        dq = ctx.sole_producer(tc, 0, dnnl_graph_op_dequantize);
        if (dq < 0) return false;
    }
    if (m.has(dq) || (tc >= 0 && m.has(tc))) return false;
    m.ops.push_back(dq);
    if (tc >= 0) m.ops.push_back(tc);
    return true;
}

bool take_tail(const match_ctx_t &ctx, op_kind_t kind, match_t &m,
        size_t &value) {
    const long c = ctx.sole_consumer(value);
    if (c < 0) return false;
    const ir::op_t &o = ctx.op(c);
    if (o.kind != kind || o.inputs.empty() || o.inputs[0].id != value
            || o.outputs.size() != 1)
        return false;
    m.ops.push_back(c);
    value = o.outputs[0].id;
    return true;
}

} // namespace fusion
} // namespace llga
