// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_desc.cpp — walks an SDPA plan backwards from
// its SoftMax to the Q·Kᵀ MatMul (the score ops), forwards to the P·V
// MatMul and its layout tail, and turns every tensor into strides over the
// scores' batch dims. Anything the fused kernel does not cover (int8 or
// bf16 tensors, SoftMax statistics, JAX's V·Pᵀ order, a tail that moves the
// last dim) is declined with a reason; the partition then runs as a
// sequence of kernels.
#include "backends/cpu/kernels/sdpa/sdpa_desc_p.hpp"

#include <algorithm>

#include "backends/cpu/kernels/common/elem_io.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

namespace {

bool decline(std::string *why, const std::string &msg) {
    return cpu::decline(why, "SDPA: ", msg);
}

int64_t norm_axis(int64_t axis, int rank) { return axis < 0 ? axis + rank : axis; }

// Strides of `x` broadcast (numpy, right-aligned) over `dims[0..n)`; false
// when a dim neither matches nor is 1.
bool bcast(const logical_tensor_t &x, const int64_t *dims, int n,
        std::vector<int64_t> &out) {
    if (x.ndims > n) return false;
    out.assign(static_cast<size_t>(n), 0);
    for (int t = 0; t < n; ++t) {
        const int xi = t - (n - x.ndims);
        if (xi < 0 || x.dims[xi] == 1) continue;
        if (x.dims[xi] != dims[t]) return false;
        out[static_cast<size_t>(t)] = x.layout.strides[xi];
    }
    return true;
}

// A partition input read against the scores `s` (rank n).
bool make_operand(const compiler::plan_t &plan, const logical_tensor_t &x,
        const logical_tensor_t &s, operand_t &o, std::string *why) {
    o.port = compiler::find_port(plan.inputs, x.id);
    if (o.port < 0) return decline(why, "a score operand is computed inside");
    o.dt = x.data_type;
    std::vector<int64_t> st;
    if (!bcast(x, s.dims, s.ndims, st))
        return decline(why, "a score operand does not broadcast");
    o.rs = st[static_cast<size_t>(s.ndims - 2)];
    o.cs = st[static_cast<size_t>(s.ndims - 1)];
    o.bs.assign(st.begin(), st.end() - 2);
    return true;
}

bool scalar_s32_input(const compiler::plan_t &plan, const logical_tensor_t &x) {
    int64_t n = 1;
    for (int i = 0; i < x.ndims; ++i)
        n *= x.dims[i];
    return n == 1 && x.data_type == dnnl_s32
            && compiler::find_port(plan.inputs, x.id) >= 0;
}

// An index chain GenIndex(axis) [→ Add/Subtract s32 scalar]... ending in
// tensor `id`; the GenIndex must read a score value (`scores`, rank n).
bool index_side(const compiler::plan_t &plan, size_t id,
        const logical_tensor_t &s, std::vector<bool> &used, index_side_t &side,
        std::string *why) {
    const int n = s.ndims;
    for (int hop = 0; hop < 4; ++hop) {
        const int p = matmul::producer_of(plan, id);
        if (p < 0) return decline(why, "causal mask index is an input");
        const ir::op_t &o = plan.ops[static_cast<size_t>(p)];
        used[static_cast<size_t>(p)] = true;
        if (o.kind == dnnl_graph_op_gen_index) {
            const logical_tensor_t &x = o.inputs[0];
            if (x.ndims != n || x.dims[n - 2] != s.dims[n - 2]
                    || x.dims[n - 1] != s.dims[n - 1])
                return decline(why, "causal mask indexes another shape");
            const int64_t ax = norm_axis(
                    o.get_s64(dnnl_graph_op_attr_axis, 0), n);
            if (ax != n - 1 && ax != n - 2)
                return decline(why, "causal mask indexes a batch dim");
            side.is_row = ax == n - 2;
            return true;
        }
        const bool add = o.kind == dnnl_graph_op_add;
        if ((!add && o.kind != dnnl_graph_op_subtract) || o.inputs.size() != 2)
            return decline(why, "unsupported op in a causal mask index");
        // The index flows through input 0 (Add: either input): the one a
        // plan op computes.
        const int in = matmul::producer_of(plan, o.inputs[0].id) >= 0 ? 0 : 1;
        if (!add && in != 0)
            return decline(why, "causal mask subtracts the index");
        const logical_tensor_t &c = o.inputs[static_cast<size_t>(1 - in)];
        if (!scalar_s32_input(plan, c))
            return decline(why, "causal mask shift is not an s32 scalar");
        side.shifts.push_back({compiler::find_port(plan.inputs, c.id),
                add ? 1 : -1});
        id = o.inputs[static_cast<size_t>(in)].id;
    }
    return decline(why, "causal mask index chain too long");
}

bool binary_op(op_kind_t k, gemm::po_binary_t *op) {
    switch (k) {
        case dnnl_graph_op_add: *op = gemm::po_binary_t::add; return true;
        case dnnl_graph_op_subtract: *op = gemm::po_binary_t::sub; return true;
        case dnnl_graph_op_multiply: *op = gemm::po_binary_t::mul; return true;
        case dnnl_graph_op_divide: *op = gemm::po_binary_t::div; return true;
        default: return false;
    }
}

// The score op `o` reading the chained value `id` (scores `s`).
bool score_step(const compiler::plan_t &plan, const ir::op_t &o, size_t id,
        const logical_tensor_t &s, std::vector<bool> &used, score_step_t &st,
        std::string *why) {
    if (o.outputs.size() != 1 || !common::is_fp(o.outputs[0].data_type))
        return decline(why, "scores are not f32, bf16 or f16");
    st.out_dt = o.outputs[0].data_type;
    if (o.kind == dnnl_graph_op_tanh) {
        st.kind = step_kind_t::tanh;
        return true;
    }
    if (o.kind == dnnl_graph_op_select) {
        st.kind = step_kind_t::select;
        if (o.inputs.size() != 3) return decline(why, "Select arity");
        st.chained_slot = o.inputs[1].id == id ? 1 : 2;
        const logical_tensor_t &other = o.inputs[static_cast<size_t>(
                3 - st.chained_slot)];
        if (!common::is_fp(other.data_type))
            return decline(why, "Select value is not floating point");
        if (!make_operand(plan, other, s, st.operand, why)) return false;
        const int ge = matmul::producer_of(plan, o.inputs[0].id);
        if (ge < 0)
            return make_operand(plan, o.inputs[0], s, st.cond, why);
        const ir::op_t &g = plan.ops[static_cast<size_t>(ge)];
        if (g.kind != dnnl_graph_op_greater_equal || g.inputs.size() != 2)
            return decline(why, "Select condition is computed by an "
                                "unsupported op");
        used[static_cast<size_t>(ge)] = true;
        st.causal = true;
        return index_side(plan, g.inputs[0].id, s, used, st.lhs, why)
                && index_side(plan, g.inputs[1].id, s, used, st.rhs, why);
    }
    st.kind = step_kind_t::binary;
    if (!binary_op(o.kind, &st.op) || o.inputs.size() != 2)
        return decline(why, std::string("unsupported score op ")
                        + ops::op_kind_name(o.kind));
    const size_t in = o.inputs[0].id == id ? 1 : 0;
    if (in == 0 && (o.kind == dnnl_graph_op_subtract
                           || o.kind == dnnl_graph_op_divide))
        return decline(why, "Subtract/Divide chained on input 1");
    if (!common::is_fp(o.inputs[in].data_type))
        return decline(why, "score operand is not floating point");
    return make_operand(plan, o.inputs[in], s, st.operand, why);
}

bool is_int8(data_type_t t) { return t == dnnl_u8 || t == dnnl_s8; }

// A TypeCast, Quantize or Dequantize as a value step (per-tensor
// quantization only).
bool value_op(const ir::op_t &o, value_op_t &v, std::string *why) {
    if (o.kind == dnnl_graph_op_type_cast) {
        v.kind = value_op_t::kind_t::round;
        v.dt = o.outputs[0].data_type;
        return common::is_fp(v.dt) || decline(why, "TypeCast to a non-float type");
    }
    const bool q = o.kind == dnnl_graph_op_quantize;
    if (!q && o.kind != dnnl_graph_op_dequantize)
        return decline(why, std::string("unsupported op ")
                        + ops::op_kind_name(o.kind));
    if (o.get_str(dnnl_graph_op_attr_qtype, "per_tensor") != "per_tensor")
        return decline(why, "only per-tensor quantization");
    const std::vector<float> sc = o.get_f32s(dnnl_graph_op_attr_scales);
    const std::vector<int64_t> zp = o.get_s64s(dnnl_graph_op_attr_zps);
    v.kind = q ? value_op_t::kind_t::quantize : value_op_t::kind_t::dequantize;
    v.dt = q ? o.outputs[0].data_type : o.inputs[0].data_type;
    if (sc.size() != 1 || zp.size() > 1 || !is_int8(v.dt))
        return decline(why, "quantization must be per-tensor u8/s8");
    v.scale = sc[0];
    v.zp = zp.empty() ? 0.f : static_cast<float>(zp[0]);
    return true;
}

// A DynamicDequantize head's parameter strides are per source batch dim;
// the kernel walks the scores' batch dims (the source may broadcast).
void remap_params(head_t &h, const logical_tensor_t &src, int nb) {
    if (!h.ddq) return;
    const int nx = src.ndims - 2;
    for (std::vector<int64_t> *bs : {&h.sc_bs, &h.zp_bs}) {
        if (bs->empty()) continue;
        std::vector<int64_t> out(static_cast<size_t>(nb), 0);
        for (int t = 0; t < nb; ++t) {
            const int xi = t - (nb - nx);
            if (xi >= 0 && src.dims[xi] != 1)
                out[static_cast<size_t>(t)] = (*bs)[static_cast<size_t>(xi)];
        }
        *bs = out;
    }
}

// A DynamicDequantize head: per-tensor, or per-group with groups only
// along the last two dims; scales and zero points are partition inputs.
bool dynamic_head(const compiler::plan_t &plan, const ir::op_t &o, head_t &h,
        std::string *why) {
    const logical_tensor_t &x = o.inputs[0], &sc = o.inputs[1];
    const int n = x.ndims;
    const std::string qt = o.get_str(dnnl_graph_op_attr_qtype, "per_tensor");
    std::vector<int64_t> g(static_cast<size_t>(n), 1);
    if (qt == "per_group") {
        g = o.get_s64s(dnnl_graph_op_attr_group_shape);
        if (static_cast<int>(g.size()) != n)
            return decline(why, "group_shape rank");
        for (int i = 0; i < n - 2; ++i)
            if (g[static_cast<size_t>(i)] != 1)
                return decline(why, "groups across batch dims");
    } else if (qt == "per_tensor") {
        g[static_cast<size_t>(n - 2)] = x.dims[n - 2];
        g[static_cast<size_t>(n - 1)] = x.dims[n - 1];
    } else {
        return decline(why, "DynamicDequantize " + qt);
    }
    if (n < 2 || !common::is_fp(sc.data_type))
        return decline(why, "DynamicDequantize scales");
    h.ddq = true;
    h.g_r = g[static_cast<size_t>(n - 2)];
    h.g_c = g[static_cast<size_t>(n - 1)];
    // Parameter tensors: the per-group grid, or one value.
    const auto param = [&](const logical_tensor_t &t, int *port,
                               std::vector<int64_t> &bs, int64_t *rs,
                               int64_t *cs) {
        *port = compiler::find_port(plan.inputs, t.id);
        if (*port < 0) return decline(why, "DynamicDequantize parameter computed inside");
        int64_t elems = 1;
        for (int i = 0; i < t.ndims; ++i)
            elems *= t.dims[i];
        bs.assign(static_cast<size_t>(n - 2), 0);
        *rs = *cs = 0;
        if (elems == 1) return true;
        if (t.ndims != n) return decline(why, "DynamicDequantize parameter rank");
        for (int i = 0; i < n - 2; ++i)
            bs[static_cast<size_t>(i)]
                    = t.dims[i] == 1 ? 0 : t.layout.strides[i];
        *rs = t.layout.strides[n - 2];
        *cs = t.layout.strides[n - 1];
        return true;
    };
    h.sc_dt = sc.data_type;
    if (!param(sc, &h.sc_port, h.sc_bs, &h.sc_rs, &h.sc_cs)) return false;
    if (o.inputs.size() > 2) {
        const logical_tensor_t &zp = o.inputs[2];
        h.zp_dt = zp.data_type;
        if (zp.data_type != dnnl_s8 && zp.data_type != dnnl_u8
                && zp.data_type != dnnl_s32)
            return decline(why, "DynamicDequantize zero points type");
        if (!param(zp, &h.zp_port, h.zp_bs, &h.zp_rs, &h.zp_cs)) return false;
    }
    return true;
}

// How MatMul input `in` is produced: a partition input, maybe through a
// Dequantize and a TypeCast. *src is that input's tensor.
bool take_head(const compiler::plan_t &plan, const logical_tensor_t &in,
        std::vector<bool> &used, head_t &h, const logical_tensor_t **src,
        std::string *why) {
    const logical_tensor_t *cur = &in;
    int p = matmul::producer_of(plan, cur->id);
    for (op_kind_t k : {dnnl_graph_op_type_cast, dnnl_graph_op_dequantize}) {
        if (p < 0 || plan.ops[static_cast<size_t>(p)].kind != k) continue;
        const ir::op_t &o = plan.ops[static_cast<size_t>(p)];
        value_op_t v;
        if (!value_op(o, v, why)) return false;
        if (k == dnnl_graph_op_type_cast) {
            h.round_dt = v.dt;
        } else {
            h.dq = true;
            h.scale = v.scale;
            h.zp = v.zp;
        }
        used[static_cast<size_t>(p)] = true;
        cur = &o.inputs[0];
        p = matmul::producer_of(plan, cur->id);
    }
    if (p >= 0 && !h.dq
            && plan.ops[static_cast<size_t>(p)].kind
                    == dnnl_graph_op_dynamic_dequantize) {
        const ir::op_t &o = plan.ops[static_cast<size_t>(p)];
        if (!dynamic_head(plan, o, h, why)) return false;
        used[static_cast<size_t>(p)] = true;
        cur = &o.inputs[0];
        p = matmul::producer_of(plan, cur->id);
    }
    if (p >= 0) return decline(why, "Q, K or V is computed inside");
    h.port = compiler::find_port(plan.inputs, cur->id);
    h.dt = cur->data_type;
    if (h.port < 0 || (h.dq || h.ddq ? !is_int8(h.dt) : !common::is_fp(h.dt)))
        return decline(why, "Q, K and V must be f32, bf16, f16 or "
                            "dequantized u8/s8");
    *src = cur;
    return true;
}

// The unused op of the plan reading tensor `id` on input 0, or -1.
int reader_of(const compiler::plan_t &plan, const std::vector<bool> &used,
        size_t id) {
    for (size_t i = 0; i < plan.ops.size(); ++i)
        if (!used[i] && !plan.ops[i].inputs.empty()
                && plan.ops[i].inputs[0].id == id)
            return static_cast<int>(i);
    return -1;
}

// Output strides of the P·V result `o` (rank n) in the final tensor, through
// the layout tail (StaticTranspose → Reorder / StaticReshape) and the
// value tail (TypeCast, Quantize).
bool output_strides(const compiler::plan_t &plan, const ir::op_t &mm2,
        std::vector<bool> &used, desc_t &d, std::vector<int64_t> &ost,
        std::string *why) {
    const logical_tensor_t &o = mm2.outputs[0];
    const int n = o.ndims;
    const logical_tensor_t *cur = &o;
    std::vector<int64_t> perm;
    bool reshaped = false;
    int nx = reader_of(plan, used, cur->id);
    const auto step = [&]() {
        const ir::op_t &x = plan.ops[static_cast<size_t>(nx)];
        used[static_cast<size_t>(nx)] = true;
        cur = &x.outputs[0];
        nx = reader_of(plan, used, cur->id);
        return &x;
    };
    if (nx >= 0
            && plan.ops[static_cast<size_t>(nx)].kind
                    == dnnl_graph_op_static_transpose) {
        perm = step()->get_s64s(dnnl_graph_op_attr_order);
        if (static_cast<int>(perm.size()) != n)
            return decline(why, "transpose order rank");
        for (auto &p : perm)
            p = norm_axis(p, n);
        if (nx >= 0) {
            const op_kind_t k = plan.ops[static_cast<size_t>(nx)].kind;
            if (k == dnnl_graph_op_reorder || k == dnnl_graph_op_static_reshape) {
                reshaped = k == dnnl_graph_op_static_reshape;
                step();
            }
        }
    }
    const dims_t tdims = perm.empty() ? ir::dims_of(o) : [&] {
        dims_t t(static_cast<size_t>(n));
        for (int j = 0; j < n; ++j)
            t[static_cast<size_t>(j)] = o.dims[perm[static_cast<size_t>(j)]];
        return t;
    }();
    while (nx >= 0) {
        value_op_t v;
        if (!value_op(plan.ops[static_cast<size_t>(nx)], v, why)) return false;
        if (v.kind == value_op_t::kind_t::dequantize)
            return decline(why, "Dequantize after P·V");
        d.out_ops.push_back(v);
        step();
    }
    d.out = compiler::find_port(plan.outputs, cur->id);
    if (d.out < 0
            || plan.outputs.size() != (d.out_stats >= 0 ? size_t(2) : size_t(1)))
        return decline(why, "the block's outputs must be the attention "
                            "output (and the SoftMax statistics)");
    d.o_dt = cur->data_type;
    std::vector<int64_t> tst;
    if (reshaped) {
        // A reshape keeps the linear order of a dense tensor.
        if (!ir::is_dense(*cur))
            return decline(why, "reshaped output is not dense");
        tst = ir::dense_strides(tdims);
    } else {
        if (cur->ndims != n) return decline(why, "output rank");
        tst.assign(cur->layout.strides, cur->layout.strides + n);
    }
    ost = tst;
    for (size_t j = 0; j < perm.size(); ++j)
        ost[static_cast<size_t>(perm[j])] = tst[j];
    return true;
}

} // namespace

bool analyse(const compiler::plan_t &plan, desc_t &d, std::string *why) {
    std::vector<bool> used(plan.ops.size(), false);
    int sm = -1;
    for (size_t i = 0; i < plan.ops.size(); ++i)
        if (plan.ops[i].kind == dnnl_graph_op_softmax) {
            if (sm >= 0) return decline(why, "two SoftMax ops");
            sm = static_cast<int>(i);
        }
    if (sm < 0) return decline(why, "no SoftMax");
    const ir::op_t &smo = plan.ops[static_cast<size_t>(sm)];
    used[static_cast<size_t>(sm)] = true;
    const logical_tensor_t &sin = smo.inputs[0];
    const int n = sin.ndims;
    if (smo.outputs.size() == 2) {
        // Training forward: the statistics leave the partition.
        const logical_tensor_t &st = smo.outputs[1];
        d.out_stats = compiler::find_port(plan.outputs, st.id);
        if (d.out_stats < 0 || st.data_type != dnnl_f32 || st.ndims != n
                || st.dims[n - 1] != 1)
            return decline(why, "SoftMax statistics are not an f32 output "
                                "of one value per row");
        d.st_bs.assign(st.layout.strides, st.layout.strides + n - 2);
        d.st_rs = st.layout.strides[n - 2];
    } else if (smo.outputs.size() != 1) {
        return decline(why, "SoftMax outputs");
    }
    if (n < 2 || norm_axis(smo.get_s64(dnnl_graph_op_attr_axis, -1), n) != n - 1)
        return decline(why, "SoftMax is not over the last dim");
    if (!common::is_fp(sin.data_type) || !common::is_fp(smo.outputs[0].data_type))
        return decline(why, "SoftMax is not floating point");
    const std::string mode = smo.get_str(dnnl_graph_op_attr_mode, "none");
    if (mode != "none" && mode != "inf_as_zero")
        return decline(why, "SoftMax mode " + mode);
    d.inf_as_zero = mode == "inf_as_zero";

    // Backwards: score ops down to the Q·Kᵀ MatMul.
    size_t id = sin.id;
    int mm1 = -1;
    std::vector<score_step_t> rev;
    for (int hop = 0; hop < 16 && mm1 < 0; ++hop) {
        const int p = matmul::producer_of(plan, id);
        if (p < 0) return decline(why, "the scores are an input");
        const ir::op_t &o = plan.ops[static_cast<size_t>(p)];
        used[static_cast<size_t>(p)] = true;
        if (o.kind == dnnl_graph_op_matmul) {
            mm1 = p;
            break;
        }
        // The chained input: the one some plan op computes (Select: slot
        // 1 or 2).
        size_t chained = o.inputs.size();
        for (size_t k = o.kind == dnnl_graph_op_select ? 1 : 0;
                k < o.inputs.size(); ++k)
            if (matmul::producer_of(plan, o.inputs[k].id) >= 0) {
                chained = k;
                break;
            }
        if (chained == o.inputs.size())
            return decline(why, "score op reads no computed value");
        score_step_t st;
        if (!score_step(plan, o, o.inputs[chained].id, sin, used, st, why))
            return false;
        rev.push_back(st);
        id = o.inputs[chained].id;
    }
    if (mm1 < 0) return decline(why, "too many score ops");
    d.steps.assign(rev.rbegin(), rev.rend());

    const ir::op_t &qk = plan.ops[static_cast<size_t>(mm1)];
    if (qk.inputs.size() != 2) return decline(why, "Q·Kᵀ MatMul has a bias");
    const logical_tensor_t *qp = nullptr, *kp = nullptr;
    if (!take_head(plan, qk.inputs[0], used, d.q, &qp, why)
            || !take_head(plan, qk.inputs[1], used, d.k, &kp, why))
        return false;
    const logical_tensor_t &q = *qp, &k = *kp;
    const logical_tensor_t &s = qk.outputs[0];
    if (!common::is_fp(s.data_type))
        return decline(why, "the scores must be f32, bf16 or f16");
    d.s_dt = s.data_type;
    d.p_dt = smo.outputs[0].data_type;
    if (q.ndims < 2 || k.ndims < 2 || s.ndims != n)
        return decline(why, "rank-1 Q or K");
    const bool ta = qk.get_bool(dnnl_graph_op_attr_transpose_a, false);
    const bool tb = qk.get_bool(dnnl_graph_op_attr_transpose_b, false);
    d.Sq = s.dims[n - 2];
    d.Skv = s.dims[n - 1];
    d.D = q.dims[q.ndims - (ta ? 2 : 1)];
    d.batch.assign(s.dims, s.dims + n - 2);
    const int64_t *qs = q.layout.strides, *ks = k.layout.strides;
    d.q_rs = qs[q.ndims - (ta ? 1 : 2)];
    d.q_cs = qs[q.ndims - (ta ? 2 : 1)];
    d.k_ks = ks[k.ndims - (tb ? 1 : 2)];
    d.k_ns = ks[k.ndims - (tb ? 2 : 1)];
    d.k.k_is_last = tb; // B[d, j]: d is K's last dim when K is [.., Skv, D]
    logical_tensor_t qb = q, kb = k;
    qb.ndims -= 2;
    kb.ndims -= 2;
    remap_params(d.k, k, n - 2);
    if (!bcast(qb, s.dims, n - 2, d.q_bs) || !bcast(kb, s.dims, n - 2, d.k_bs))
        return decline(why, "Q/K batch dims do not broadcast to the scores");

    // Forwards: the probabilities through TypeCasts and Quantize →
    // Dequantize round trips, maybe transposed (JAX: StaticTranspose of the
    // last two dims → [Reorder]), then P·V, or V'·Pᵀ = Oᵀ.
    size_t pid = smo.outputs[0].id;
    bool p_transposed = false;
    for (int at = reader_of(plan, used, pid); at >= 0;
            at = reader_of(plan, used, pid)) {
        const ir::op_t &t = plan.ops[static_cast<size_t>(at)];
        if (t.kind == dnnl_graph_op_matmul) break;
        used[static_cast<size_t>(at)] = true;
        pid = t.outputs[0].id;
        if (p_transposed && t.kind == dnnl_graph_op_reorder) continue;
        if (t.kind == dnnl_graph_op_static_transpose && !p_transposed) {
            std::vector<int64_t> perm = t.get_s64s(dnnl_graph_op_attr_order);
            bool swap_last = static_cast<int>(perm.size()) == n;
            for (int j = 0; swap_last && j < n; ++j)
                swap_last = norm_axis(perm[static_cast<size_t>(j)], n)
                        == (j == n - 1 ? n - 2 : j == n - 2 ? n - 1 : j);
            if (!swap_last)
                return decline(why, "the probabilities' transpose is not "
                                    "of the last two dims");
            p_transposed = true;
            continue;
        }
        value_op_t v;
        if (!value_op(t, v, why)) return false;
        d.p_ops.push_back(v);
    }
    int mm2 = -1;
    for (size_t i = 0; i < plan.ops.size(); ++i)
        if (!used[i] && plan.ops[i].kind == dnnl_graph_op_matmul) {
            if (mm2 >= 0) return decline(why, "more than two MatMuls");
            mm2 = static_cast<int>(i);
        }
    if (mm2 < 0) return decline(why, "no P·V MatMul");
    const ir::op_t &pv = plan.ops[static_cast<size_t>(mm2)];
    used[static_cast<size_t>(mm2)] = true;
    const bool pta = pv.get_bool(dnnl_graph_op_attr_transpose_a, false);
    const bool ptb = pv.get_bool(dnnl_graph_op_attr_transpose_b, false);
    if (pv.inputs.size() != 2
            || pv.inputs[p_transposed ? 1 : 0].id != pid
            || (p_transposed ? pta || ptb : pta))
        return decline(why, p_transposed
                        ? "V'·Pᵀ must read Pᵀ on input 1, untransposed"
                        : "P·V must read the probabilities on input 0");
    const logical_tensor_t *vp = nullptr;
    if (!take_head(plan, pv.inputs[p_transposed ? 0 : 1], used, d.v, &vp, why))
        return false;
    const logical_tensor_t &v = *vp;
    const logical_tensor_t &o = pv.outputs[0];
    if (!common::is_fp(o.data_type))
        return decline(why, "P·V output must be f32, bf16 or f16");
    d.m2_dt = o.data_type;
    if (v.ndims < 2 || o.ndims != n
            || !std::equal(o.dims, o.dims + n - 2, s.dims))
        return decline(why, "P·V batch differs from the scores");
    // The kernel computes O = P·B2 with B2[j, e]: V[j, e] (V[e, j] when
    // transposed), or for V'·Pᵀ, V'[e, j].
    const bool tv = p_transposed || ptb;
    d.Dv = p_transposed ? o.dims[n - 2] : o.dims[n - 1];
    d.v_ks = v.layout.strides[v.ndims - (tv ? 1 : 2)];
    d.v_ns = v.layout.strides[v.ndims - (tv ? 2 : 1)];
    d.v.k_is_last = tv;
    logical_tensor_t vb = v;
    vb.ndims -= 2;
    remap_params(d.v, v, n - 2);
    if (!bcast(vb, s.dims, n - 2, d.v_bs))
        return decline(why, "V batch dims do not broadcast");
    std::vector<int64_t> ost;
    if (!output_strides(plan, pv, used, d, ost, why)) return false;
    if (is_int8(d.o_dt)
            && (d.out_ops.empty()
                    || d.out_ops.back().kind != value_op_t::kind_t::quantize))
        return decline(why, "int8 output without a Quantize");
    if (p_transposed) // the MatMul wrote Oᵀ: swap its last two strides
        std::swap(ost[static_cast<size_t>(n - 2)], ost[static_cast<size_t>(n - 1)]);
    if (ost[static_cast<size_t>(n - 1)] != 1)
        return decline(why, "output columns are not contiguous");
    d.o_rs = ost[static_cast<size_t>(n - 2)];
    d.o_bs.assign(ost.begin(), ost.end() - 2);
    d.ops_used = static_cast<size_t>(std::count(used.begin(), used.end(), true));
    if (d.ops_used != plan.ops.size())
        return decline(why, "the partition has ops outside the SDPA block");
    if (d.Sq <= 0 || d.Skv <= 0 || d.D <= 0 || d.Dv <= 0)
        return decline(why, "empty dims");
    return true;
}

} // namespace sdpa
} // namespace cpu
} // namespace llga
