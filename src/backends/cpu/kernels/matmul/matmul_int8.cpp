// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul_int8.cpp — reads a quantized MatMul
// partition (Dequantize(src) and Dequantize(weights), each perhaps cast to
// bf16 -> MatMul -> [bias] -> [Quantize]) into one gemm_int8 problem and
// runs it. Scales and zero
// points are attributes, so they are read once here; biases are runtime
// inputs; constant weights are packed once through the constant tensor
// cache. Post-ops between the MatMul (or its bias) and the Quantize run
// as a gemm_int8 chain (the f32 GEMM epilogue's mapping, matmul_chain).
// Anything else (per-channel activations or zero points, f32 weights
// quantized in the partition, operands computed in the partition) is
// declined and runs as an op sequence. The quantization reading is
// shared with the int8 convolution (int8_quant_params.hpp).
#include "backends/cpu/kernels/matmul/matmul_int8.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/common/prepacked_weights.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace matmul {

namespace {

using gemm_int8::gemm_int8_desc_t;
using gemm_int8::i8_dst_t;

struct int8_layout_t {
    gemm_int8_desc_t d;
    float src_scale = 1.f, dst_scale = 1.f;
    int32_t src_zp = 0, wei_zp = 0, dst_zp = 0;
    float q_lo = -1e30f, q_hi = 1e30f; // ReLU / Clamp folded into q
    std::vector<float> wei_scales; // 1 or N
    int in_a = -1, in_b = -1, in_bias = -1, out = -1;
    std::vector<int> po_ports; // the chain's operands (gemm_int8 post)
    int64_t bias_stride = 0; // elements between bias columns (0: one value)
    bool bias_bf16 = false;
};

bool analyse(const compiler::plan_t &plan, int8_layout_t &l, std::string *why) {
    const int mi = matmul::single_op_of_kind(plan, dnnl_graph_op_matmul, why);
    if (mi < 0) return false;
    const ir::op_t &mm = plan.ops[mi];
    if (mm.inputs.size() < 2 || mm.inputs.size() > 3 || mm.outputs.size() != 1)
        return decline(why, "MatMul: unexpected port count");
    std::vector<chain_step_t> steps;
    std::vector<bool> used;
    if (!walk_chain(plan, static_cast<size_t>(mi), steps, &used, why))
        return false;
    const ir::op_t *dqa = common::dequant_of(plan, mm, 0, used, why);
    if (!dqa) return false;
    const ir::op_t *dqb = common::dequant_of(plan, mm, 1, used, why);
    if (!dqb) return false;

    // The chain: [BiasAdd], then ReLU / Clamp ops only before a Quantize
    // (folded into q's bounds, see gemm_int8_params_t) or any f32 post-op
    // chain (gemm_int8's chain kernels), then [Quantize].
    common::tail_t tail;
    if (!common::read_tail(steps, mm, tail, why, true)) return false;
    const ir::op_t *bias_add = tail.bias_add;

    const data_type_t mm_dt = mm.outputs[0].data_type;
    if (mm_dt != dnnl_f32 && mm_dt != dnnl_bf16)
        return decline(why, "MatMul output is not f32 or bf16");
    if (mm.fpmath != dnnl_fpmath_mode_strict
            && mm.fpmath != dnnl_fpmath_mode_any)
        return decline(why, "MatMul: fpmath mode rounds the dequantized "
                            "inputs; the int8 GEMM is exact");
    const logical_tensor_t &a = dqa->inputs[0], &b = dqb->inputs[0];
    if (a.data_type != dnnl_u8 && a.data_type != dnnl_s8)
        return decline(why, "Dequantize of src is not u8/s8");
    if (b.data_type != dnnl_s8)
        return decline(why, "Dequantize of weights is not s8 (gemm_int8 "
                            "takes s8 weights only)");
    const logical_tensor_t &dst
            = steps.empty() ? mm.outputs[0] : steps.back().op->outputs[0];
    if (!tensor_usable(dst, why)) return false;
    mm_geometry_t geo;
    if (!read_geometry(mm, a, b, dst, geo, why)) return false;

    common::qparams_t qa, qb;
    if (!common::read_qparams(*dqa, qa, why)
            || !common::read_qparams(*dqb, qb, why))
        return false;
    if (qa.axis >= 0)
        return decline(why, "Dequantize of src: per-channel scales");
    if (qb.axis >= 0) {
        // Per column only: the weights' N axis is the last one, or the one
        // before it with transpose_b (rank-1 weights have no N axis).
        const int r = b.ndims;
        const int n_axis = r < 2 ? -1
                : mm.get_bool(dnnl_graph_op_attr_transpose_b) ? r - 2
                                                              : r - 1;
        if (qb.axis != n_axis
                || static_cast<int64_t>(qb.scales.size()) != geo.N)
            return decline(why, "Dequantize of weights: per-channel scales "
                                "not along the output columns");
    }
    l.src_scale = qa.scales[0];
    l.src_zp = qa.zp;
    l.wei_scales = qb.scales;
    l.wei_zp = qb.zp;

    gemm_int8_desc_t &d = l.d;
    d.src_s8 = a.data_type == dnnl_s8;
    d.wei_scale_per_col = l.wei_scales.size() > 1;
    const logical_tensor_t *bias = nullptr;
    if (mm.inputs.size() == 3) bias = &mm.inputs[2];
    if (bias_add) {
        if (bias) return decline(why, "MatMul has a bias and a BiasAdd");
        if (!bias_add_on_columns(*bias_add, geo))
            return decline(why, "BiasAdd: channel axis is not the MatMul's "
                                "output columns");
        if (mm_dt != dnnl_f32 || bias_add->outputs[0].data_type != dnnl_f32)
            return decline(why, "BiasAdd output or input is not f32 (the "
                                "reference rounds around it)");
        bias = &bias_add->inputs[1];
    }
    if (bias) {
        l.in_bias = compiler::find_port(plan.inputs, bias->id);
        if (l.in_bias < 0) return decline(why, "bias is not a port");
        if (bias->data_type != dnnl_f32 && bias->data_type != dnnl_bf16)
            return decline(why, "bias is not f32 or bf16");
        l.bias_bf16 = bias->data_type == dnnl_bf16;
        if (!tensor_usable(*bias, why)
                || !bias_per_column(*bias, geo, &l.bias_stride, why))
            return false;
        d.has_bias = true;
    }
    common::out_quant_t oq;
    if (!common::read_out_quant(steps, tail, dst, oq, why)) return false;
    d.dst = oq.dst;
    l.dst_scale = oq.dst_scale;
    l.dst_zp = oq.dst_zp;
    l.q_lo = oq.q_lo;
    l.q_hi = oq.q_hi;
    if (tail.has_chain()) {
        // The f32 kernels finish each tile: the chain, then the Quantize
        // (or f32) store; the int8 tiles hand them f32.
        const std::vector<chain_step_t> mid(steps.begin() + tail.chain_begin,
                steps.begin() + tail.chain_end);
        fp_epilogue_t e;
        if (!map_fp_epilogue(plan, mid, geo, true, e, why, true))
            return false;
        for (int i : e.dequant_ops)
            used[static_cast<size_t>(i)] = true;
        if (!e.post.ops.empty()) { // else only casts: the plain epilogue
            d.post = e.post;
            common::set_chain_dst(oq, d.post);
            d.dst = i8_dst_t::f32;
            l.po_ports = e.operand_ports;
        }
    }

    for (size_t i = 0; i < used.size(); ++i)
        if (!used[i])
            return decline(why, std::string(ops::op_kind_name(plan.ops[i].kind))
                            + " is not part of the quantized MatMul");
    l.in_a = compiler::find_port(plan.inputs, a.id);
    l.in_b = compiler::find_port(plan.inputs, b.id);
    l.out = compiler::find_port(plan.outputs, dst.id);
    if (l.out < 0) return decline(why, "dst is not a partition port");
    d.M = geo.M;
    d.N = geo.N;
    d.K = geo.K;
    d.sam = geo.sam;
    d.sak = geo.sak;
    d.sbk = geo.sbk;
    d.sbn = geo.sbn;
    d.sdm = geo.sdm;
    d.batch = geo.batch;
    d.a_bs = geo.a_bs;
    d.b_bs = geo.b_bs;
    d.d_bs = geo.d_bs;
    gemm_int8::fold_batch_into_m(d);
    return true;
}

class matmul_int8_kernel_t : public compiler::kernel_t {
public:
    matmul_int8_kernel_t(const int8_layout_t &l, bool b_constant)
        : l_(l), b_constant_(b_constant) {}
    status_t init(int nthreads) {
        LLGA_RETURN_IF_ERROR(gemm_.init(l_.d, nthreads));
        name_ = std::string("matmul_int8_")
                + gemm_int8::i8_kind_name(gemm_.kind()) + "_"
                + (l_.d.src_s8 ? "s8s8_" : "u8s8_")
                + (l_.d.has_chain() ? "po:" + l_.d.post.str()
                                    : gemm_int8::i8_dst_name(l_.d.dst));
        return dnnl_success;
    }
    const char *name() const override { return name_.c_str(); }
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        gemm_int8::gemm_int8_params_t p;
        p.src_scale = l_.src_scale;
        p.wei_scales = l_.wei_scales.data();
        p.dst_scale = l_.dst_scale;
        p.src_zp = l_.src_zp;
        p.wei_zp = l_.wei_zp;
        p.dst_zp = l_.dst_zp;
        p.q_lo = l_.q_lo;
        p.q_hi = l_.q_hi;
        const void *po_args[gemm::k_max_po_operands];
        for (size_t i = 0; i < l_.po_ports.size(); ++i)
            po_args[i] = ctx.inputs[l_.po_ports[i]];
        p.po_args = po_args;
        std::vector<float> bias;
        if (l_.d.has_bias) {
            const void *src = ctx.inputs[l_.in_bias];
            if (l_.bias_stride == 1 && !l_.bias_bf16) {
                p.bias = static_cast<const float *>(src);
            } else { // one value for all columns, strided or bf16: gather
                bias.resize(static_cast<size_t>(l_.d.N));
                for (int64_t n = 0; n < l_.d.N; ++n)
                    bias[n] = l_.bias_bf16
                            ? ir::bf16_to_f32(static_cast<const uint16_t *>(
                                    src)[n * l_.bias_stride])
                            : static_cast<const float *>(src)[n * l_.bias_stride];
                p.bias = bias.data();
            }
        }
        rt::constant_ptr_t packed;
        const void *wei = ctx.inputs[l_.in_b];
        if (b_constant_ && gemm_.can_prepack_b())
            LLGA_RETURN_IF_ERROR(prepacked_.get(ctx, *this,
                    static_cast<size_t>(l_.in_b), wei, gemm_.packed_b_bytes(),
                    std::hash<std::string>()(name_ + gemm_.blocking_str()),
                    [&](const void *src, void *dst) {
                        gemm_.prepack_b(src, dst);
                    },
                    packed));
        gemm_.execute(ctx.inputs[l_.in_a], wei, ctx.outputs[l_.out], p,
                packed ? packed->data() : nullptr);
        return dnnl_success;
    }

private:
    std::string name_;
    int8_layout_t l_;
    bool b_constant_;
    gemm_int8::gemm_int8_t gemm_;
    common::prepacked_weights_t prepacked_;
};

} // namespace

bool accepts_int8(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa; // gemm_int8 picks its flavour from the max-ISA knob itself
    int8_layout_t l;
    return analyse(plan, l, why);
}

status_t create_int8(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    int8_layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu matmul_int8: %s", why.c_str());
    const bool b_constant = plan.inputs[l.in_b].property
            == dnnl_graph_tensor_property_constant;
    auto k = std::make_shared<matmul_int8_kernel_t>(l, b_constant);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace llga
