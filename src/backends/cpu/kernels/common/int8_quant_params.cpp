// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/int8_quant_params.cpp — the quantization reading
// shared by the int8 MatMul and Convolution kernels (see the header).
#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"

#include <algorithm>
#include <cmath>

#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace common {

namespace {

std::string kind_name(const ir::op_t &op) {
    const char *n = ops::op_kind_name(op.kind);
    return n ? n : "?";
}

// ReLU and Clamp: the ops before a Quantize that fold into its bounds.
bool is_clamp_like(const ir::op_t &op) {
    return op.kind == dnnl_graph_op_relu || op.kind == dnnl_graph_op_clamp;
}

} // namespace

bool read_qparams(const ir::op_t &op, qparams_t &q, std::string *why) {
    const std::string who = kind_name(op);
    const std::string qt = op.get_str(dnnl_graph_op_attr_qtype, "per_tensor");
    const bool per_channel = ops::iequals(qt, "per_channel");
    if (!per_channel && !ops::iequals(qt, "per_tensor"))
        return decline(why, who + ": qtype " + qt + " is not fused");
    q.scales = op.get_f32s(dnnl_graph_op_attr_scales);
    const std::vector<int64_t> zps = op.get_s64s(dnnl_graph_op_attr_zps);
    if (q.scales.empty()) return decline(why, who + ": no scales");
    for (float s : q.scales)
        if (!std::isfinite(s) || s == 0.f)
            return decline(why, who + ": scale is zero or not finite");
    for (int64_t z : zps)
        if (z != zps[0])
            return decline(why, who + ": per-channel zero points differ");
    const int64_t zp = zps.empty() ? 0 : zps[0];
    if (zp < -255 || zp > 255)
        return decline(why, who + ": zero point out of range");
    q.zp = static_cast<int32_t>(zp);
    q.axis = -1;
    bool same = true;
    for (float s : q.scales)
        same = same && s == q.scales[0];
    if (!per_channel || same) {
        q.scales.resize(1);
        return true;
    }
    if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis, 1),
                op.inputs[0].ndims, q.axis))
        return decline(why, who + ": per-channel axis out of range");
    return true;
}

const ir::op_t *dequant_of(const compiler::plan_t &plan,
        const ir::op_t &anchor, int slot, std::vector<bool> &used,
        std::string *why) {
    const std::string who = kind_name(anchor);
    int p = matmul::producer_of(plan, anchor.inputs[slot].id);
    const char *what = slot == 0 ? "src" : "weights";
    if (p >= 0 && plan.ops[p].kind == dnnl_graph_op_type_cast) {
        // Dequantize -> TypeCast to bf16 (a bf16 model's int8 input): the
        // GEMM reads the integers, so the cast's rounding is skipped.
        const ir::op_t &cast = plan.ops[p];
        if (cast.inputs[0].data_type != dnnl_f32
                || cast.outputs[0].data_type != dnnl_bf16) {
            decline(why, std::string("TypeCast of ") + what
                            + " is not f32 -> bf16");
            return nullptr;
        }
        if (compiler::find_port(plan.outputs, cast.inputs[0].id) >= 0) {
            decline(why, std::string("dequantized ") + what
                            + " is also a partition output");
            return nullptr;
        }
        used[p] = true;
        p = matmul::producer_of(plan, cast.inputs[0].id);
    }
    if (p < 0 || plan.ops[p].kind != dnnl_graph_op_dequantize) {
        decline(why, who + " " + what + " is not dequantized");
        return nullptr;
    }
    const ir::op_t &dq = plan.ops[p];
    if (used[p]) {
        decline(why, "one Dequantize feeds both " + who + " inputs");
        return nullptr;
    }
    used[p] = true;
    if (dq.inputs.size() != 1 || dq.outputs.size() != 1
            || dq.outputs[0].data_type != dnnl_f32) {
        decline(why, std::string("Dequantize of ") + what
                        + " does not give f32");
        return nullptr;
    }
    if (matmul::producer_of(plan, dq.inputs[0].id) >= 0) {
        decline(why, std::string("Dequantize of ") + what
                        + " reads a value computed in the partition "
                          "(quantized f32 weights are not fused yet)");
        return nullptr;
    }
    if (compiler::find_port(plan.inputs, dq.inputs[0].id) < 0) {
        decline(why, std::string("Dequantize of ") + what + " is not a port");
        return nullptr;
    }
    if (!matmul::tensor_usable(dq.inputs[0], why)) return nullptr;
    return &dq;
}

bool read_tail(const std::vector<matmul::chain_step_t> &steps,
        const ir::op_t &anchor, tail_t &t, std::string *why,
        bool allow_chain) {
    const std::string who = kind_name(anchor);
    size_t k = 0;
    if (k < steps.size() && steps[k].op->kind == dnnl_graph_op_bias_add
            && !steps[k].sigmoid && steps[k].slot == 0)
        t.bias_add = steps[k++].op;
    size_t end = steps.size();
    if (end > k && steps[end - 1].op->kind == dnnl_graph_op_quantize
            && !steps[end - 1].sigmoid)
        t.quant = steps[--end].op;
    size_t c = k;
    while (c < end && is_clamp_like(*steps[c].op) && !steps[c].sigmoid)
        ++c;
    if (c == end && (t.quant || c == k)) { // clamps only, before a Quantize
        t.clamps_begin = k;
        t.clamps_end = c;
        return true;
    }
    if (allow_chain) {
        t.chain_begin = k;
        t.chain_end = end;
        return true;
    }
    if (c == end)
        return decline(why, kind_name(*steps[k].op)
                        + " after the quantized " + who
                        + " is fused only right before a Quantize");
    return decline(why, kind_name(*steps[c].op) + " after the quantized "
                    + who + ": the int8 epilogue has no post-op chain here");
}

bool read_out_quant(const std::vector<matmul::chain_step_t> &steps,
        const tail_t &t, const logical_tensor_t &dst, out_quant_t &o,
        std::string *why) {
    if (!t.quant) {
        if (dst.data_type != dnnl_f32 && dst.data_type != dnnl_bf16)
            return decline(why, "dst is not f32 or bf16");
        o.dst = dst.data_type == dnnl_f32 ? gemm_int8::i8_dst_t::f32
                                          : gemm_int8::i8_dst_t::bf16;
        return true;
    }
    const ir::op_t &quant = *t.quant;
    qparams_t qd;
    if (!read_qparams(quant, qd, why)) return false;
    if (qd.axis >= 0) return decline(why, "Quantize: per-channel scales");
    const data_type_t qt = quant.outputs[0].data_type;
    if (qt != dnnl_u8 && qt != dnnl_s8)
        return decline(why, "Quantize output is not u8/s8");
    if (quant.inputs[0].data_type != dnnl_f32)
        return decline(why, "Quantize input is not f32");
    o.dst = qt == dnnl_u8 ? gemm_int8::i8_dst_t::u8 : gemm_int8::i8_dst_t::s8;
    o.dst_scale = qd.scales[0];
    o.dst_zp = qd.zp;
    if (t.clamps_end == t.clamps_begin) return true;
    // Monotone only for a positive scale.
    if (!(o.dst_scale > 0.f))
        return decline(why, "Quantize: a ReLU/Clamp before it needs a "
                            "positive scale");
    float lo = -INFINITY, hi = INFINITY;
    for (size_t i = t.clamps_begin; i < t.clamps_end; ++i) {
        const ir::op_t &c = *steps[i].op;
        if (c.inputs[0].data_type != dnnl_f32
                || c.outputs[0].data_type != dnnl_f32)
            return decline(why, "ReLU/Clamp before Quantize is not f32");
        float a = 0.f, b = INFINITY;
        if (c.kind == dnnl_graph_op_clamp) {
            a = c.get_f32(dnnl_graph_op_attr_min, 0.f);
            b = c.get_f32(dnnl_graph_op_attr_max, 0.f);
            if (!(a <= b)) return decline(why, "Clamp: min > max");
        }
        // Clamps compose into a clamp to the images of -inf, +inf.
        lo = std::min(std::max(lo, a), b);
        hi = std::min(std::max(hi, a), b);
    }
    // The reference's Quantize of a bound (x * (1/scale) + zp, rounded to
    // nearest even); q is whole, so the kernel's clamp before its own
    // rounding gives the same integers.
    const float inv = 1.f / o.dst_scale;
    const float zp = static_cast<float>(o.dst_zp);
    if (std::isfinite(lo)) o.q_lo = std::nearbyint(lo * inv + zp);
    if (std::isfinite(hi)) o.q_hi = std::nearbyint(hi * inv + zp);
    return true;
}

void set_chain_dst(const out_quant_t &o, gemm::postops_t &post) {
    post.dst_dt = o.dst == gemm_int8::i8_dst_t::s8 ? gemm::po_dt_t::s8
            : o.dst == gemm_int8::i8_dst_t::u8     ? gemm::po_dt_t::u8
            : o.dst == gemm_int8::i8_dst_t::bf16   ? gemm::po_dt_t::bf16
                                                  : gemm::po_dt_t::f32;
    post.dst_scale = o.dst_scale;
    post.dst_zp = o.dst_zp;
}

} // namespace common
} // namespace cpu
} // namespace llga
