// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul_chain.cpp — walks a fused MatMul partition
// from the MatMul to the partition output and maps the f32 ops on the way
// onto gemm::postops_t: unary ops become eltwise post-ops (alpha/beta read
// as ops/eltwise_math.hpp defines them), binary ops and a second bias
// become binary post-ops whose operand shape is read as a scalar / column /
// row / full broadcast of the MatMul dst plus per-batch strides. What the
// epilogue cannot compute exactly as the reference does is declined.
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace matmul {

namespace {

using gemm::po_bcast_t;
using gemm::po_binary_t;
using gemm::po_eltwise_t;
using gemm::postop_t;

std::string kind_name(const ir::op_t &op) {
    const char *n = ops::op_kind_name(op.kind);
    return n ? n : "?";
}

// (op index, input slot) of every read of tensor `id` inside the plan.
std::vector<std::pair<size_t, int>> readers_of(
        const compiler::plan_t &plan, size_t id) {
    std::vector<std::pair<size_t, int>> r;
    for (size_t i = 0; i < plan.ops.size(); ++i)
        for (size_t s = 0; s < plan.ops[i].inputs.size(); ++s)
            if (plan.ops[i].inputs[s].id == id)
                r.emplace_back(i, static_cast<int>(s));
    return r;
}

// x * sigmoid(x): the two readers of x are a Sigmoid whose only reader is
// a Multiply that also reads x. Returns the Multiply's index, or -1.
int swish_pair(const compiler::plan_t &plan,
        const std::vector<std::pair<size_t, int>> &rd, size_t x,
        size_t *sig_index, int *x_slot) {
    if (rd.size() != 2) return -1;
    for (int k = 0; k < 2; ++k) {
        const ir::op_t &s = plan.ops[rd[k].first];
        const ir::op_t &m = plan.ops[rd[1 - k].first];
        if (s.kind != dnnl_graph_op_sigmoid || s.outputs.size() != 1
                || m.kind != dnnl_graph_op_multiply || m.inputs.size() != 2)
            continue;
        const size_t sy = s.outputs[0].id;
        const int xs = rd[1 - k].second;
        if (m.inputs[1 - xs].id != sy || m.inputs[xs].id != x) continue;
        if (readers_of(plan, sy).size() != 1
                || compiler::find_port(plan.outputs, sy) >= 0)
            continue;
        *sig_index = rd[k].first;
        *x_slot = xs;
        return static_cast<int>(rd[1 - k].first);
    }
    return -1;
}

// The one stride of operand `os` over the dst axes `axes` (outer to
// inner) that make up the GEMM rows or columns: 0 when it varies along
// none of them (extent-1 dst axes do not count), -1 when along only some
// or with strides that are not one uniform walk. `st[i]` is the operand's
// stride along dst axis i, 0 where it broadcasts.
int64_t group_stride(const std::vector<int> &axes, const dims_t &dd,
        const dims_t &st, const std::vector<bool> &varies) {
    int n_big = 0, n_var = 0;
    for (int i : axes)
        if (dd[i] > 1) {
            ++n_big;
            n_var += varies[i] ? 1 : 0;
        }
    if (n_var == 0) return 0;
    if (n_var != n_big) return -1;
    int64_t q = 0, span = 1;
    bool first = true;
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
        if (dd[*it] == 1) continue;
        if (first) q = st[*it];
        first = false;
        if (st[*it] != span * q) return -1;
        span *= dd[*it];
    }
    return q;
}

// Reads operand `o` (shape broadcastable to the MatMul dst) as a post-op
// operand of `p`: which of the GEMM's batch / row / column axes it varies
// along, and its strides there.
bool map_operand(const logical_tensor_t &o, const mm_geometry_t &g,
        postop_t &p, std::string *why) {
    const dims_t od = ir::dims_of(o), os = ir::strides_of(o);
    const dims_t &dd = g.dst_dims;
    const int dr = static_cast<int>(dd.size());
    const int orank = static_cast<int>(od.size());
    if (od.empty() && o.ndims != 0)
        return decline(why, "post-op operand has no known shape");
    if (orank > dr)
        return decline(why, "post-op operand " + ir::dims_to_string(od)
                        + " has more dims than the MatMul dst");
    // Per dst axis: does the operand vary along it, and with which stride.
    std::vector<bool> varies(dr, false);
    dims_t st(dr, 0);
    p.ld = 0;
    p.bs.assign(g.batch.size(), 0);
    for (int i = 0; i < dr; ++i) {
        const int j = i - (dr - orank);
        if (j < 0 || od[j] == 1) continue; // broadcast along this axis
        if (od[j] != dd[i])
            return decline(why, "post-op operand " + ir::dims_to_string(od)
                            + " does not broadcast to "
                            + ir::dims_to_string(dd));
        varies[i] = true;
        st[i] = os[j];
        for (size_t b = 0; b < g.batch_axis.size(); ++b)
            if (g.batch_axis[b] == i) p.bs[b] = os[j];
    }
    auto axes_of = [](const std::vector<int> &many, int one) {
        return !many.empty() ? many
                             : (one >= 0 ? std::vector<int> {one}
                                         : std::vector<int> {});
    };
    const int64_t row = group_stride(axes_of(g.m_axes, g.m_axis), dd, st,
            varies);
    const int64_t col = group_stride(axes_of(g.n_axes, g.n_axis), dd, st,
            varies);
    if (col != 0 && col != 1)
        return decline(why, "post-op operand " + ir::dims_to_string(od)
                        + " has non-contiguous columns");
    if (row < 0)
        return decline(why, "post-op operand " + ir::dims_to_string(od)
                        + " does not vary along the dst axes that form the "
                          "GEMM rows with one stride");
    const bool by_row = row != 0, by_col = col != 0;
    p.ld = row;
    p.bcast = by_row ? (by_col ? po_bcast_t::full : po_bcast_t::row)
                     : (by_col ? po_bcast_t::col : po_bcast_t::scalar);
    return true;
}

// The eltwise post-op computing unary op `op`; false for ops the epilogue
// has no formula for.
bool map_unary(const ir::op_t &op, postop_t &p) {
    const float alpha = op.get_f32(dnnl_graph_op_attr_alpha, 0.f);
    const float beta = op.get_f32(dnnl_graph_op_attr_beta, 0.f);
    auto elt = [&](po_eltwise_t a, float al = 0.f, float be = 0.f) {
        p = postop_t::make_eltwise(a, al, be);
        return true;
    };
    switch (op.kind) {
        case dnnl_graph_op_relu: return elt(po_eltwise_t::relu);
        case dnnl_graph_op_leaky_relu:
            return elt(po_eltwise_t::leaky_relu, alpha);
        case dnnl_graph_op_gelu:
            return elt(ops::iequals(op.get_str(dnnl_graph_op_attr_mode,
                                            "gelu_erf"),
                               "gelu_tanh")
                            ? po_eltwise_t::gelu_tanh
                            : po_eltwise_t::gelu_erf);
        case dnnl_graph_op_sigmoid: return elt(po_eltwise_t::sigmoid);
        case dnnl_graph_op_tanh: return elt(po_eltwise_t::tanh);
        case dnnl_graph_op_clamp:
            return elt(po_eltwise_t::clamp,
                    op.get_f32(dnnl_graph_op_attr_min, 0.f),
                    op.get_f32(dnnl_graph_op_attr_max, 0.f));
        case dnnl_graph_op_elu: return elt(po_eltwise_t::elu, alpha);
        case dnnl_graph_op_exp: return elt(po_eltwise_t::exp);
        case dnnl_graph_op_log: return elt(po_eltwise_t::log);
        case dnnl_graph_op_square: return elt(po_eltwise_t::square);
        case dnnl_graph_op_abs: return elt(po_eltwise_t::abs);
        case dnnl_graph_op_sqrt: return elt(po_eltwise_t::sqrt);
        case dnnl_graph_op_hard_sigmoid:
            return elt(po_eltwise_t::hardsigmoid, alpha, beta);
        // The opset fixes HardSwish as x * clamp(x / 6 + 1/2, 0, 1).
        case dnnl_graph_op_hard_swish:
            return elt(po_eltwise_t::hardswish, 1.f / 6.f, 0.5f);
        default: return false;
    }
}

bool binary_alg(op_kind_t k, po_binary_t *op) {
    switch (k) {
        case dnnl_graph_op_add: *op = po_binary_t::add; return true;
        case dnnl_graph_op_subtract: *op = po_binary_t::sub; return true;
        case dnnl_graph_op_multiply: *op = po_binary_t::mul; return true;
        case dnnl_graph_op_divide: *op = po_binary_t::div; return true;
        case dnnl_graph_op_maximum: *op = po_binary_t::max; return true;
        case dnnl_graph_op_minimum: *op = po_binary_t::min; return true;
        default: return false;
    }
}

} // namespace

bool bias_add_on_columns(const ir::op_t &op, const mm_geometry_t &g) {
    const int r = static_cast<int>(g.dst_dims.size());
    const bool nxc = ops::iequals(
            op.get_str(dnnl_graph_op_attr_data_format, "NXC"), "NXC");
    const int axis = r <= 1 ? 0 : (nxc ? r - 1 : 1);
    return g.n_axis >= 0 && axis == g.n_axis;
}

int producer_of(const compiler::plan_t &plan, size_t id) {
    for (size_t i = 0; i < plan.ops.size(); ++i)
        for (const auto &o : plan.ops[i].outputs)
            if (o.id == id) return static_cast<int>(i);
    return -1;
}

int single_op_of_kind(const compiler::plan_t &plan, op_kind_t kind,
        std::string *why) {
    const char *n = ops::op_kind_name(kind);
    const std::string name = n ? n : "?";
    int found = -1;
    for (size_t i = 0; i < plan.ops.size(); ++i) {
        if (plan.ops[i].kind != kind) continue;
        if (found >= 0) {
            decline(why, "partition has two " + name + "s");
            return -1;
        }
        found = static_cast<int>(i);
    }
    if (found < 0) decline(why, "partition has no " + name);
    return found;
}

bool walk_chain(const compiler::plan_t &plan, size_t head,
        std::vector<chain_step_t> &steps, std::vector<bool> *used,
        std::string *why) {
    used->assign(plan.ops.size(), false);
    (*used)[head] = true;
    const ir::op_t &h = plan.ops[head];
    if (h.outputs.size() != 1)
        return decline(why, kind_name(h) + ": unexpected output count");
    size_t v = h.outputs[0].id;
    for (size_t guard = 0; guard <= plan.ops.size(); ++guard) {
        const auto rd = readers_of(plan, v);
        const bool is_out = compiler::find_port(plan.outputs, v) >= 0;
        if (rd.empty()) {
            if (plan.outputs.size() != 1 || !is_out)
                return decline(why, "the chain's last value is not the "
                                    "partition's only output");
            return true;
        }
        if (is_out)
            return decline(why, "value " + std::to_string(v)
                            + " is both read inside the partition and a "
                              "partition output");
        chain_step_t st;
        size_t next;
        if (rd.size() == 1) {
            st.op = &plan.ops[rd[0].first];
            st.slot = rd[0].second;
            next = rd[0].first;
        } else {
            size_t sig = 0;
            int slot = 0;
            const int m = swish_pair(plan, rd, v, &sig, &slot);
            if (m < 0)
                return decline(why, "value " + std::to_string(v)
                                + " is read by " + std::to_string(rd.size())
                                + " inputs inside the partition (only a "
                                  "chain or x * sigmoid(x) is fused)");
            st.op = &plan.ops[m];
            st.slot = slot;
            st.sigmoid = &plan.ops[sig];
            (*used)[sig] = true;
            next = static_cast<size_t>(m);
        }
        if ((*used)[next])
            return decline(why, "the chain revisits an op");
        (*used)[next] = true;
        if (st.op->outputs.size() != 1)
            return decline(why, kind_name(*st.op)
                            + ": unexpected output count");
        steps.push_back(st);
        v = st.op->outputs[0].id;
    }
    return decline(why, "the chain does not end");
}

int operand_port(const compiler::plan_t &plan, size_t id, bool dequant,
        int *dq, int *tc) {
    *dq = *tc = -1;
    const int port = compiler::find_port(plan.inputs, id);
    if (port >= 0 || !dequant || compiler::find_port(plan.outputs, id) >= 0)
        return port;
    int pi = producer_of(plan, id);
    if (pi >= 0 && plan.ops[pi].kind == dnnl_graph_op_type_cast) {
        const ir::op_t &cast = plan.ops[static_cast<size_t>(pi)];
        if (cast.outputs[0].data_type != dnnl_bf16
                || cast.inputs[0].data_type != dnnl_f32
                || compiler::find_port(plan.outputs, cast.inputs[0].id) >= 0)
            return -1;
        *tc = pi;
        pi = producer_of(plan, cast.inputs[0].id);
    }
    if (pi < 0 || plan.ops[pi].kind != dnnl_graph_op_dequantize) {
        *tc = -1;
        return -1;
    }
    *dq = pi;
    return compiler::find_port(plan.inputs, plan.ops[pi].inputs[0].id);
}

namespace {

// One op of the chain (not a TypeCast) onto e.post: `rounded`: a bf16
// value entered the chain rounded, so a BiasAdd can no longer be the
// GEMM's own bias (added before any post-op).
bool map_step(const compiler::plan_t &plan, const chain_step_t &st, size_t i,
        bool rounded, const mm_geometry_t &g, bool mm_has_bias,
        fp_epilogue_t &e, std::string *why, bool dequant_operands) {
    const ir::op_t &op = *st.op;
    const std::string kn = kind_name(op);
    if (st.sigmoid) {
        if (st.sigmoid->outputs[0].data_type != dnnl_f32)
            return decline(why, "Sigmoid of x * sigmoid(x) is not f32 (the "
                                "reference rounds it inside the pair)");
        e.post.ops.push_back(postop_t::make_eltwise(po_eltwise_t::swish, 1.f));
        return true;
    }
    postop_t p;
    if (map_unary(op, p)) {
        e.post.ops.push_back(p);
        return true;
    }
    po_binary_t alg = po_binary_t::add;
    const bool bias_add = op.kind == dnnl_graph_op_bias_add;
    if (!bias_add && !binary_alg(op.kind, &alg))
        return decline(why, kn + " has no GEMM post-op (runs on ref)");
    if (op.inputs.size() != 2)
        return decline(why, kn + ": unexpected input count");
    if (st.slot == 1
            && (bias_add || alg == po_binary_t::sub || alg == po_binary_t::div))
        return decline(why, kn + ": the chained value is input 1 "
                                  "(the epilogue computes x op y only)");
    if (bias_add && !bias_add_on_columns(op, g))
        return decline(why, "BiasAdd: channel axis is not the MatMul's "
                            "output columns");
    const logical_tensor_t &y = op.inputs[1 - st.slot];
    // An s8/u8 port dequantized inside the partition (a quantized
    // residual), perhaps then cast to bf16: the epilogue reads the bytes,
    // dequantizes them and rounds them as the TypeCast does.
    int dqi = -1, tci = -1;
    const int port = operand_port(plan, y.id, dequant_operands, &dqi, &tci);
    if (port < 0)
        return decline(why, kn + ": operand " + std::to_string(y.id)
                        + " is computed inside the partition");
    const ir::op_t *dq = dqi >= 0 ? &plan.ops[static_cast<size_t>(dqi)] : nullptr;
    if (bias_add && i == 0 && !mm_has_bias && !dq && !rounded) {
        if (y.data_type != dnnl_f32 && y.data_type != dnnl_bf16)
            return decline(why, "BiasAdd: bias is not f32 or bf16");
        e.bias_port = port;
        e.bias = &y;
        return true;
    }
    const logical_tensor_t &read = dq ? dq->inputs[0] : y; // in memory
    if (dq) {
        common::qparams_t q;
        if (!common::read_qparams(*dq, q, why)) return false;
        if (q.axis >= 0
                || (read.data_type != dnnl_s8 && read.data_type != dnnl_u8)
                || dq->outputs[0].data_type != dnnl_f32)
            return decline(why, kn + ": operand's Dequantize is not a "
                                    "per-tensor s8/u8 -> f32 one");
        p = postop_t::make_binary(alg, po_bcast_t::scalar,
                read.data_type == dnnl_s8 ? gemm::po_dt_t::s8
                                          : gemm::po_dt_t::u8);
        p.q_scale = q.scales[0];
        p.q_zp = q.zp;
        p.q_bf16 = tci >= 0;
        e.dequant_ops.push_back(dqi);
        if (tci >= 0) e.dequant_ops.push_back(tci);
    } else if (y.data_type == dnnl_f32 || y.data_type == dnnl_bf16) {
        p = postop_t::make_binary(alg, po_bcast_t::scalar,
                y.data_type == dnnl_f32 ? gemm::po_dt_t::f32
                                        : gemm::po_dt_t::bf16);
    } else {
        return decline(why, kn + ": operand type " + ir::dtype_name(y.data_type)
                        + " is not f32 or bf16");
    }
    if (!map_operand(read, g, p, why)) return false;
    e.post.ops.push_back(p);
    e.operand_ports.push_back(port);
    return true;
}

bool f32_or_bf16(data_type_t t) { return t == dnnl_f32 || t == dnnl_bf16; }

bool is_bf16_value(float v) { return ir::bf16_to_f32(ir::f32_to_bf16(v)) == v; }

// Whether post-op `p` maps a bf16 number (or a quiet NaN) to one, so that
// no rounding is needed after it: ReLU, Abs, a Clamp to bf16 bounds.
bool keeps_bf16(const postop_t &p) {
    if (p.kind != gemm::postop_kind_t::eltwise) return false;
    switch (p.alg) {
        case po_eltwise_t::relu: return p.alpha == 0.f;
        case po_eltwise_t::abs: return true;
        case po_eltwise_t::clamp:
            return is_bf16_value(p.alpha) && is_bf16_value(p.beta);
        default: return false;
    }
}

} // namespace

bool map_fp_epilogue(const compiler::plan_t &plan,
        const std::vector<chain_step_t> &steps, const mm_geometry_t &g,
        bool mm_has_bias, fp_epilogue_t &e, std::string *why,
        bool dequant_operands) {
    // The reference stores every value between two ops in its type; the
    // epilogue keeps f32 and rounds where the value is bf16.
    const postop_t round = postop_t::make_eltwise(po_eltwise_t::round_bf16);
    bool rounded = false; // a bf16 value entered the chain
    bool exact = false;   // the value is a bf16 number: nothing to round
    for (size_t i = 0; i < steps.size(); ++i) {
        const chain_step_t &st = steps[i];
        const ir::op_t &op = *st.op;
        const std::string kn = kind_name(op);
        const data_type_t in = op.inputs[st.slot].data_type,
                          out = op.outputs[0].data_type;
        const bool last = i + 1 == steps.size();
        if (!f32_or_bf16(in))
            return decline(why, kn + ": chained input is "
                            + ir::dtype_name(in) + ", not f32 or bf16");
        if (!last && !f32_or_bf16(out))
            return decline(why, kn + ": output is " + ir::dtype_name(out)
                            + ", not f32 or bf16");
        if (ir::dims_of(op.outputs[0]) != g.dst_dims)
            return decline(why, kn + ": output "
                            + ir::dims_to_string(ir::dims_of(op.outputs[0]))
                            + " is not the MatMul dst shape");
        if (i == 0 && in == dnnl_bf16) { // the anchor's own bf16 result
            e.post.ops.push_back(round);
            rounded = exact = true;
        }
        if (op.kind == dnnl_graph_op_type_cast) {
            if (!last && out == dnnl_bf16 && !exact) {
                e.post.ops.push_back(round);
                exact = true;
            }
            continue; // bf16 -> f32 is exact; the last type is the dst's
        }
        const size_t before = e.post.ops.size();
        if (!map_step(plan, st, i, rounded, g, mm_has_bias, e, why,
                    dequant_operands))
            return false;
        exact = exact && e.post.ops.size() == before + 1
                && keeps_bf16(e.post.ops.back());
        if (!last && out == dnnl_bf16 && !exact) {
            e.post.ops.push_back(round);
            exact = true;
        }
    }
    if (e.post.operand_count() > gemm::k_max_po_operands)
        return decline(why, "more post-op operands than the epilogue takes");
    return true;
}

} // namespace matmul
} // namespace cpu
} // namespace llga
