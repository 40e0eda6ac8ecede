// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul.cpp — runs f32/bf16 MatMul partitions on
// the JIT GEMM: a single MatMul (geometry read by matmul_shape.cpp: rank-1
// promotion, transposes, broadcast batches folded into M when the weights are
// shared, a bias of one value per output column), or a fused chain MatMul ->
// [BiasAdd] -> post-ops mapped onto the GEMM epilogue by matmul_chain.cpp.
// Constant weights are prepacked once through the constant tensor cache. On
// AVX2, a single bf16/f16 MatMul runs on the f32 kernels with its 16-bit
// weights widened exactly (l.half): in registers where a few rows read them in
// place, otherwise as they are packed. Everything else is declined with a
// reason, and the partition falls through to the next kernel line (staged, then
// the reference).
#include "backends/cpu/kernels/matmul/matmul.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/common/prepacked_weights.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/gemm/gemm_pack.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace matmul {

namespace {

struct layout_t {
    gemm::gemm_desc_t g;
    int in_a = -1, in_b = -1, in_bias = -1, out = -1;
    data_type_t bias_dt = dnnl_f32;
    int64_t bias_stride = 0; // elements between bias columns (0: one value)
    std::vector<int> po_ports; // input port of each post-op operand
    // 16-bit src and weights on AVX2 (g.b16): the GEMM widens the weights
    // (in registers or while packing), src is widened into scratch (its
    // whole span, same strides), and a 16-bit dst is written densely in
    // f32 and narrowed into the user's strides (user_sdm, user_d_bs).
    data_type_t half = dnnl_f32, dst_half = dnnl_f32;
    int64_t user_sdm = 0;
    std::vector<int64_t> user_d_bs;
};

// Checks MatMul `op` and fills l.g (batch not yet folded) for a kernel
// that writes `dst` (op's output, or the last op of a fused chain).
bool analyse_op(const compiler::plan_t &plan, const ir::op_t &op,
        const logical_tensor_t &dst, isa_t isa, layout_t &l,
        mm_geometry_t &geo, std::string *why) {
    if (op.inputs.size() < 2 || op.inputs.size() > 3 || op.outputs.size() != 1)
        return decline(why, "MatMul: unexpected port count");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v)
            if (!tensor_usable(lt, why)) return false;
    if (!tensor_usable(dst, why)) return false;
    const data_type_t st = op.inputs[0].data_type;
    const data_type_t wt = op.inputs[1].data_type;
    const data_type_t dt = dst.data_type;
    if (st != wt)
        return decline(why, "MatMul: src and weights types differ");
    gemm::gemm_desc_t &g = l.g;
    if ((st == dnnl_bf16 || st == dnnl_f16) && isa == isa_t::avx2) {
        // No bf16/f16 arithmetic here: f32 FMAs on the exactly widened
        // values, as the staged kernel computes, without a separate f32
        // copy of the weights (packing reads half the bytes; a few rows
        // against large weights read them once, in place).
        if (dt != dnnl_f32 && dt != st)
            return decline(why, "MatMul: 16-bit src needs an f32 dst or "
                                "its own type");
        g.kind = gemm::ukr_kind_t::f32_avx2;
        g.b16 = st == dnnl_bf16 ? gemm::b16_t::bf16 : gemm::b16_t::f16;
        l.half = st;
        l.dst_half = dt == dnnl_f32 ? dnnl_f32 : dt;
    } else if (st == dnnl_f32) {
        if (dt != dnnl_f32)
            return decline(why, "MatMul: f32 src needs f32 dst");
        if (op.fpmath != dnnl_fpmath_mode_strict
                && op.fpmath != dnnl_fpmath_mode_any)
            return decline(why, "MatMul: fpmath mode rounds f32 inputs; the "
                                "JIT GEMM computes in strict f32");
        if (isa == isa_t::avx2)
            g.kind = gemm::ukr_kind_t::f32_avx2;
        else if (isa == isa_t::avx512_core)
            g.kind = gemm::ukr_kind_t::f32_avx512;
        else
            return decline(why, std::string("f32 is handled by the "
                                            "avx512_core/avx2 candidates, "
                                            "not ")
                            + isa_name(isa));
    } else if (st == dnnl_bf16) {
        if (dt != dnnl_f32 && dt != dnnl_bf16)
            return decline(why, "MatMul: bf16 src needs f32 or bf16 dst");
        if (isa == isa_t::avx512_core_amx)
            g.kind = gemm::ukr_kind_t::bf16_amx;
        else if (isa == isa_t::avx512_core_bf16)
            g.kind = gemm::ukr_kind_t::bf16_avx512;
        else
            return decline(why, std::string("bf16 needs avx512_core_bf16 or "
                                            "avx512_core_amx, not ")
                            + isa_name(isa));
    } else {
        return decline(why, std::string("MatMul: src type ")
                        + ir::dtype_name(st) + " is not f32 or bf16");
    }
    g.dst_bf16 = dt == dnnl_bf16 && l.half == dnnl_f32;

    l.in_a = compiler::find_port(plan.inputs, op.inputs[0].id);
    l.in_b = compiler::find_port(plan.inputs, op.inputs[1].id);
    if (l.in_a < 0 || l.in_b < 0)
        return decline(why, "MatMul: a tensor is not a partition port");

    if (!read_geometry(op, op.inputs[0], op.inputs[1], dst, geo, why))
        return false;
    g.M = geo.M;
    g.N = geo.N;
    g.K = geo.K;
    g.sam = geo.sam;
    g.sak = geo.sak;
    g.sbk = geo.sbk;
    g.sbn = geo.sbn;
    g.sdm = geo.sdm;
    g.batch = geo.batch;
    g.a_bs = geo.a_bs;
    g.b_bs = geo.b_bs;
    g.d_bs = geo.d_bs;

    if (op.inputs.size() == 3) {
        const logical_tensor_t &bl = op.inputs[2];
        l.in_bias = compiler::find_port(plan.inputs, bl.id);
        if (l.in_bias < 0) return decline(why, "MatMul: bias is not a port");
        if (bl.data_type != dnnl_f32 && bl.data_type != dnnl_bf16)
            return decline(why, "MatMul: bias is not f32 or bf16");
        if (!bias_per_column(bl, geo, &l.bias_stride, why)) return false;
        l.bias_dt = bl.data_type;
        g.has_bias = true;
    }
    return true;
}

// A single-op MatMul partition.
bool analyse_single(const compiler::plan_t &plan, const ir::op_t &op,
        isa_t isa, layout_t &l, std::string *why) {
    if (op.kind != dnnl_graph_op_matmul) {
        const char *kname = ops::op_kind_name(op.kind);
        return decline(why, std::string(kname ? kname : "?") + " is not MatMul");
    }
    if (op.outputs.size() != 1)
        return decline(why, "MatMul: unexpected port count");
    mm_geometry_t geo;
    if (!analyse_op(plan, op, op.outputs[0], isa, l, geo, why)) return false;
    l.out = compiler::find_port(plan.outputs, op.outputs[0].id);
    if (l.out < 0)
        return decline(why, "MatMul: a tensor is not a partition port");
    gemm::fold_batch_into_m(l.g);
    if (l.half != dnnl_f32 && !gemm::b16_plan_fits(l.g))
        return decline(why, "MatMul: an empty 16-bit MatMul runs staged");
    return true;
}

// MatMul -> [BiasAdd] -> unary/binary post-ops (matmul_chain.hpp).
bool analyse_chain(const compiler::plan_t &plan, isa_t isa, layout_t &l,
        std::string *why) {
    for (const ir::op_t &op : plan.ops)
        if (op.kind == dnnl_graph_op_quantize
                || op.kind == dnnl_graph_op_dequantize)
            return decline(why, "quantized partition (matmul_int8's)");
    const int mm = single_op_of_kind(plan, dnnl_graph_op_matmul, why);
    if (mm < 0) return false;
    std::vector<chain_step_t> steps;
    std::vector<bool> used;
    if (!walk_chain(plan, static_cast<size_t>(mm), steps, &used, why))
        return false;
    for (size_t i = 0; i < used.size(); ++i)
        if (!used[i])
            return decline(why, std::string(ops::op_kind_name(plan.ops[i].kind))
                            + " is not on the MatMul's chain (a post-op "
                              "operand computed inside the partition)");
    const ir::op_t &op = plan.ops[static_cast<size_t>(mm)];
    if (op.outputs.size() != 1 || op.outputs[0].data_type != dnnl_f32)
        return decline(why, "MatMul: the fused chain needs an f32 MatMul "
                            "output (the reference rounds it)");
    const logical_tensor_t &dst = steps.back().op->outputs[0];
    mm_geometry_t geo;
    if (!analyse_op(plan, op, dst, isa, l, geo, why)) return false;
    if (l.half != dnnl_f32)
        return decline(why, "MatMul: a fused chain on 16-bit inputs runs "
                            "staged");
    fp_epilogue_t e;
    if (!map_fp_epilogue(plan, steps, geo, op.inputs.size() == 3, e, why))
        return false;
    if (e.bias) {
        if (!bias_per_column(*e.bias, geo, &l.bias_stride, why)) return false;
        l.in_bias = e.bias_port;
        l.bias_dt = e.bias->data_type;
        l.g.has_bias = true;
    }
    l.g.post = e.post;
    l.po_ports = e.operand_ports;
    l.out = compiler::find_port(plan.outputs, dst.id);
    if (l.out < 0) return decline(why, "chain: dst is not a partition port");
    gemm::fold_batch_into_m(l.g);
    return true;
}

bool analyse(const compiler::plan_t &plan, isa_t isa, layout_t &l,
        std::string *why) {
    if (plan.ops.size() == 1)
        return analyse_single(plan, plan.ops[0], isa, l, why);
    return analyse_chain(plan, isa, l, why);
}

class matmul_kernel_t : public compiler::kernel_t {
public:
    matmul_kernel_t(std::string name, const layout_t &l, bool b_constant)
        : name_(std::move(name)), l_(l), b_constant_(b_constant) {}
    status_t init(int nthreads) {
        if (l_.half != dnnl_f32) set_spans();
        return gemm_.init(l_.g, nthreads);
    }
    const char *name() const override { return name_.c_str(); }
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        std::vector<float> bias;
        if (l_.g.has_bias) {
            // One f32 value per column, zero-padded to whole tiles.
            bias.assign(static_cast<size_t>(gemm_.bias_cols()), 0.f);
            const void *src = ctx.inputs[l_.in_bias];
            for (int64_t n = 0; n < l_.g.N; ++n) {
                const int64_t off = n * l_.bias_stride;
                bias[n] = l_.bias_dt == dnnl_f32
                        ? static_cast<const float *>(src)[off]
                        : ir::bf16_to_f32(
                                static_cast<const uint16_t *>(src)[off]);
            }
        }
        // Constant weights are packed once and served from the constant
        // tensor cache (keyed by this kernel and the weight buffer).
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
        // Post-op operands: the base of each operand's port buffer.
        const void *po_args[gemm::k_max_po_operands] = {};
        for (size_t i = 0; i < l_.po_ports.size(); ++i)
            po_args[i] = ctx.inputs[l_.po_ports[i]];
        const void *a = ctx.inputs[l_.in_a];
        void *dst = ctx.outputs[l_.out];
        scratch_frame_t frame;
        if (l_.half != dnnl_f32) {
            float *af = static_cast<float *>(frame.take(a_span_ * 4));
            const auto *ah = static_cast<const uint16_t *>(a);
            // Vectorised and threaded: on one thread, scalar, the src
            // widening and dst narrowing took 10% of a 1024^3 bf16 MatMul.
            common::in_chunks(a_span_, [&](int64_t lo, int64_t len) {
                gemm::widen_16(ah + lo, l_.half == dnnl_f16, len, af + lo);
            });
            a = af;
            if (l_.dst_half != dnnl_f32) dst = frame.take(d_dense_ * 4);
        }
        gemm_.execute(a, wei, bias.empty() ? nullptr : bias.data(), dst,
                packed ? packed->data() : nullptr,
                l_.po_ports.empty() ? nullptr : po_args);
        if (l_.dst_half != dnnl_f32)
            narrow_dst(static_cast<const float *>(dst),
                    static_cast<uint16_t *>(ctx.outputs[l_.out]));
        return dnnl_success;
    }

private:
    // 16-bit src: elements of its span (the last element's offset + 1);
    // 16-bit dst: elements of the dense f32 result.
    void set_spans() {
        const gemm::gemm_desc_t &g = l_.g;
        a_span_ = 1 + (g.M - 1) * g.sam + (g.K - 1) * g.sak;
        d_dense_ = g.M * g.N;
        for (size_t i = 0; i < g.batch.size(); ++i) {
            a_span_ += (g.batch[i] - 1) * g.a_bs[i];
            d_dense_ *= g.batch[i];
        }
    }
    // The dense f32 result into the user's dst (its row and batch strides;
    // columns contiguous), rounded to its type.
    void narrow_dst(const float *r, uint16_t *d) const {
        const gemm::gemm_desc_t &g = l_.g;
        const int64_t rows = d_dense_ / g.N;
        const int64_t grain = std::max<int64_t>(1, common::k_convert_chunk / g.N);
        parallel_for(rows, grain, [&](int64_t lo, int64_t hi) {
            for (int64_t t = lo; t < hi; ++t) {
                // Row t of the dense result: batch index (row-major over
                // g.batch) and row m.
                int64_t rest = t / g.M, off = (t % g.M) * l_.user_sdm;
                for (size_t i = g.batch.size(); i-- > 0;) {
                    off += rest % g.batch[i] * l_.user_d_bs[i];
                    rest /= g.batch[i];
                }
                common::narrow_row(r + t * g.N, g.N, d + off, l_.dst_half);
            }
        });
    }

    std::string name_;
    layout_t l_;
    bool b_constant_;
    int64_t a_span_ = 0, d_dense_ = 0;
    gemm::gemm_t gemm_;
    common::prepacked_weights_t prepacked_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    layout_t l;
    return analyse(plan, isa, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, isa, l, &why))
        return fail(dnnl_unimplemented, "cpu matmul: %s", why.c_str());
    std::string name = std::string("matmul_gemm_")
            + gemm::ukr_name(l.g.kind) + (l.g.dst_bf16 ? "_bf16dst" : "");
    if (l.half != dnnl_f32)
        name = std::string("matmul_gemm_") + ir::dtype_name(l.half) + "_avx2"
                + (l.dst_half == dnnl_f32 ? "_f32dst" : "");
    if (!l.g.post.ops.empty()) name += "_po:" + l.g.post.str();
    const bool b_constant = plan.inputs[l.in_b].property
            == dnnl_graph_tensor_property_constant;
    // Constant weights are prepacked (cache), 16-bit ones widened as they
    // are; the few-row paths keep 16-bit weights in place (gemm_t::init).
    l.g.b_prepacked = b_constant;
    if (l.dst_half != dnnl_f32) {
        // The GEMM writes a dense f32 result (see narrow_dst).
        l.user_sdm = l.g.sdm;
        l.user_d_bs = l.g.d_bs;
        l.g.sdm = l.g.N;
        int64_t step = l.g.M * l.g.N;
        for (size_t i = l.g.batch.size(); i-- > 0;) {
            l.g.d_bs[i] = step;
            step *= l.g.batch[i];
        }
    }
    auto k = std::make_shared<matmul_kernel_t>(name, l, b_constant);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace llga
