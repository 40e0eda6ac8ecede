// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_int8.cpp — the SDPA kernel for quantized
// attention blocks (see sdpa_int8_p.hpp). One task is a block of query rows
// of one (batch, head):
//
//   S  = sq sk Σ (q - zq)(k - zk)   int8 GEMM on Q's and K's bytes; the
//                                   leading score ops (and bf16 roundings)
//                                   in its epilogue
//   S  = the other score ops, then SoftMax, row by row (sdpa_scores.cpp)
//   P8 = Quantize(P)                 bytes, per row while it is in L1
//   O  = sp sv Σ (p - zp)(v - zv)   int8 GEMM on P8 and V's bytes, rounded
//                                   and quantized in its epilogue, written
//                                   at the output's strides
//
// K and V are the GEMMs' B operands, read in place (u8 ones through the
// driver's wei_u8, whose packing flips their top bit).
// Packed K and V are shared by the row blocks of a head, as in sdpa.cpp.
#include "backends/cpu/kernels/sdpa/sdpa_int8_p.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_scores_p.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_skip_p.hpp"
#include "base/parallel.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

namespace {

using gemm_int8::gemm_int8_desc_t;
using gemm_int8::gemm_int8_params_t;
using gemm_int8::gemm_int8_t;

bool is_int8(data_type_t t) { return t == dnnl_u8 || t == dnnl_s8; }

// A zero point the driver takes as an s32 (per-tensor zps are whole).
bool whole(float z) {
    return std::nearbyint(z) == z && std::fabs(z) <= float(1 << 24);
}

bool decline(std::string *why, const char *what) {
    if (why) *why = std::string("SDPA int8: ") + what;
    return false;
}

// A head's bytes as GEMM operand B[k, n], read in place (element strides
// ks, ns); a u8 head through the driver's wei_u8 (its packing flips the
// top bit).
struct b_operand_t {
    bool u8 = false;
    int64_t sbk = 0, sbn = 0;
    int32_t zp = 0;
    float scale = 1.f;
    void plan(const head_t &h, int64_t ks, int64_t ns) {
        u8 = h.dt == dnnl_u8;
        sbk = ks, sbn = ns;
        zp = static_cast<int32_t>(h.zp);
        scale = h.scale;
    }
};

class int8_kernel_t : public compiler::kernel_t {
public:
    int8_kernel_t(const desc_t &d, const int8_plan_t &p, isa_t isa)
        : d_(d), p_(p), isa_(isa) {}
    const char *name() const override { return name_.c_str(); }
    bool sized_for_threads() const override { return true; }

    status_t init(int nthreads) {
        // Row blocks in multiples of 16 (every int8 flavour's M granule
        // divides it).
        const row_blocks_t rb = plan_row_blocks(d_, 16, nthreads);
        nbatch_ = rb.nbatch;
        rows_ = rb.rows;
        qblocks_ = rb.qblocks;
        lds_ = rb.lds;
        ldp_ = round_up(d_.Skv, 64);
        if (ldp_ % 4096 == 0) ldp_ += 64;
        kb_.plan(d_.k, d_.k_ks, d_.k_ns);
        vb_.plan(d_.v, d_.v_ks, d_.v_ns);

        gemm_int8_desc_t g1;
        g1.src_s8 = d_.q.dt == dnnl_s8;
        g1.wei_u8 = kb_.u8;
        g1.dst = gemm_int8::i8_dst_t::f32;
        g1.N = d_.Skv;
        g1.K = d_.D;
        g1.sam = d_.q_rs;
        g1.sak = d_.q_cs;
        g1.sbk = kb_.sbk;
        g1.sbn = kb_.sbn;
        g1.sdm = lds_;
        steps_ = epilogue_steps(d_, g1.post, &rounds_scores_);

        gemm_int8_desc_t g2;
        g2.src_s8 = p_.p_quant.dt == dnnl_s8;
        g2.wei_u8 = vb_.u8;
        g2.N = d_.Dv;
        g2.K = d_.Skv;
        g2.sam = ldp_;
        g2.sak = 1;
        g2.sbk = vb_.sbk;
        g2.sbn = vb_.sbn;
        g2.sdm = d_.o_rs;
        const gemm::po_dt_t odt = d_.o_dt == dnnl_u8 ? gemm::po_dt_t::u8
                : d_.o_dt == dnnl_s8                 ? gemm::po_dt_t::s8
                : d_.o_dt == dnnl_bf16               ? gemm::po_dt_t::bf16
                                                     : gemm::po_dt_t::f32;
        if (p_.o_round_bf16) {
            // The chain rounds to bf16 and the tile store converts:
            // the driver's chain writes through an f32 block.
            g2.post.ops.push_back(gemm::postop_t::make_eltwise(
                    gemm::po_eltwise_t::round_bf16));
            g2.post.dst_dt = odt;
            g2.post.dst_scale = p_.o_quant_op.scale;
            g2.post.dst_zp = static_cast<int32_t>(p_.o_quant_op.zp);
            g2.dst = gemm_int8::i8_dst_t::f32;
        } else {
            g2.dst = d_.o_dt == dnnl_u8 ? gemm_int8::i8_dst_t::u8
                    : d_.o_dt == dnnl_s8 ? gemm_int8::i8_dst_t::s8
                    : d_.o_dt == dnnl_bf16 ? gemm_int8::i8_dst_t::bf16
                                           : gemm_int8::i8_dst_t::f32;
        }
        div_twin_ = qk_div_twin(g1.post);
        const int64_t tail = d_.Sq - (qblocks_ - 1) * rows_;
        for (int t = 0; t < 2; ++t) {
            g1.M = g2.M = t == 0 ? rows_ : tail;
            LLGA_RETURN_IF_ERROR(qk_[t].init(g1, 1));
            LLGA_RETURN_IF_ERROR(pv_[t].init(g2, 1));
            if (!div_twin_.any()) continue;
            // Only the chain differs: K packs the same.
            LLGA_RETURN_IF_ERROR(qk_mul_[t].init(div_twin_.twin_of(g1), 1));
        }
        prepack_ = qblocks_ > 1 && qk_[0].can_prepack_b()
                && pv_[0].can_prepack_b();
        k_pack_ = prepack_ ? round_up(static_cast<int64_t>(qk_[0].packed_b_bytes()), 64) : 0;
        v_pack_ = prepack_ ? round_up(static_cast<int64_t>(pv_[0].packed_b_bytes()), 64) : 0;
        LLGA_RETURN_IF_ERROR(score_rows_t::make(&d_, lds_, isa_, &rows_ops_));
        name_ = std::string("sdpa_int8_")
                + gemm_int8::i8_kind_name(qk_[0].kind());
        return dnnl_success;
    }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        // Several row blocks per head: K and V packed once per head, in
        // chunks of heads.
        const int64_t per = k_pack_ + v_pack_;
        const int64_t chunk = per == 0 ? nbatch_
                                       : std::max<int64_t>(1,
                                               std::min<int64_t>(nbatch_,
                                                       static_cast<int64_t>(k_pack_budget)
                                                               / per));
        thread_local aligned_buf_t buf;
        char *heads = per ? static_cast<char *>(buf.get(static_cast<size_t>(chunk * per)))
                          : nullptr;
        for (int64_t b0 = 0; b0 < nbatch_; b0 += chunk) {
            const int64_t nb = std::min(chunk, nbatch_ - b0);
            if (per)
                parallel_for(2 * nb, 1, [&](int64_t lo, int64_t hi) {
                    for (int64_t t = lo; t < hi; ++t) {
                        const int64_t b = b0 + t / 2;
                        char *area = heads + (t / 2) * per;
                        if (t % 2 == 0)
                            qk_[0].prepack_b(head(ctx, d_.k, d_.k_bs, b), area);
                        else
                            pv_[0].prepack_b(head(ctx, d_.v, d_.v_bs, b),
                                    area + k_pack_);
                    }
                });
            parallel_for(nb * qblocks_, 1, [&](int64_t lo, int64_t hi) {
                scratch_frame_t frame;
                float *S = static_cast<float *>(frame.take(
                        static_cast<size_t>(rows_ * lds_) * 4));
                uint8_t *P8 = static_cast<uint8_t *>(
                        frame.take(static_cast<size_t>(rows_ * ldp_)));
                for (int64_t t = lo; t < hi; ++t) {
                    const int64_t b = b0 + t / qblocks_;
                    run_task(ctx, b, t % qblocks_, S, P8,
                            per ? heads + (b - b0) * per : nullptr);
                }
            });
        }
        return dnnl_success;
    }

private:
    const char *input(const compiler::exec_ctx_t &ctx, int port) const {
        return static_cast<const char *>(ctx.inputs[static_cast<size_t>(port)]);
    }
    // Head h's bytes of batch b.
    const char *head(const compiler::exec_ctx_t &ctx, const head_t &h,
            const std::vector<int64_t> &bs, int64_t b) const {
        return input(ctx, h.port) + batch_offset(d_, b, bs);
    }

    void run_task(const compiler::exec_ctx_t &ctx, int64_t b, int64_t qb,
            float *S, uint8_t *P8, const char *area) const {
        const int64_t r0 = qb * rows_, rows = std::min(rows_, d_.Sq - r0);
        const int tail = rows == rows_ ? 0 : 1;
        const char *q = input(ctx, d_.q.port) + batch_offset(d_, b, d_.q_bs)
                + r0 * d_.q_rs;
        const char *k = head(ctx, d_.k, d_.k_bs, b);
        const char *v = head(ctx, d_.v, d_.v_bs, b);
        const char *kp = area && !tail ? area : nullptr;
        const char *vp = kp ? kp + k_pack_ : nullptr;

        const void *po[gemm::k_max_po_operands];
        const int np = epilogue_operands(d_, ctx, steps_, b, r0, po);
        gemm_int8_params_t p1;
        p1.src_scale = d_.q.scale;
        p1.wei_scales = &kb_.scale;
        p1.src_zp = static_cast<int32_t>(d_.q.zp);
        p1.wei_zp = kb_.zp;
        // Divisions by a power of two as multiplications (same values).
        gemm::scalar_div_twin_t::recips_t recips;
        const gemm_int8_t *qk = div_twin_.any() && div_twin_.take(po, recips)
                ? qk_mul_
                : qk_;
        p1.po_args = np ? po : nullptr;
        qk[tail].execute(q, k, S, p1, kp);
        if (!rounds_scores_) rows_ops_.round_rows(S, rows, 0, d_.Skv, d_.s_dt);
        rows_ops_.score_rows(ctx, b, r0, rows, steps_, 0, d_.Skv, S);

        const value_op_t &pq = p_.p_quant;
        const int64_t nb = div_up(d_.Skv, k_sm_block);
        float blocks[2 * 64];
        std::vector<float> big;
        float *bl = blocks;
        if (nb > 64) {
            big.resize(static_cast<size_t>(2 * nb));
            bl = big.data();
        }
        for (int64_t i = 0; i < rows; ++i) {
            float *x = S + i * lds_;
            rows_ops_.softmax_row(x, d_.Skv, bl, bl + nb, nullptr);
            common::round_row(x, d_.Skv, d_.p_dt);
            for (const value_op_t &r : p_.p_before)
                common::round_row(x, d_.Skv, r.dt);
            common::quantize_row(x, d_.Skv, pq.dt, pq.scale, pq.zp);
            common::narrow_row(x, d_.Skv, P8 + i * ldp_, pq.dt);
        }

        const int64_t oes = static_cast<int64_t>(ir::dtype_storage_bytes(d_.o_dt, 1));
        char *o = static_cast<char *>(ctx.outputs[d_.out])
                + (batch_offset(d_, b, d_.o_bs) + r0 * d_.o_rs) * oes;
        gemm_int8_params_t p2;
        p2.src_scale = pq.scale;
        p2.wei_scales = &vb_.scale;
        p2.src_zp = static_cast<int32_t>(pq.zp);
        p2.wei_zp = vb_.zp;
        p2.dst_scale = p_.o_quant_op.scale;
        p2.dst_zp = static_cast<int32_t>(p_.o_quant_op.zp);
        pv_[tail].execute(P8, v, o, p2, vp);
    }

    desc_t d_;
    int8_plan_t p_;
    isa_t isa_;
    std::string name_;
    int64_t nbatch_ = 1, rows_ = 1, qblocks_ = 1, lds_ = 16, ldp_ = 64;
    b_operand_t kb_, vb_;
    size_t steps_ = 0;           // score steps run by the Q·Kᵀ epilogue
    bool rounds_scores_ = false; // ... which also rounds S to bf16
    bool prepack_ = false;
    int64_t k_pack_ = 0, v_pack_ = 0;
    gemm_int8_t qk_[2], pv_[2]; // [full block | last block]
    // Q·Kᵀ whose chain multiplies by the reciprocal of a power-of-two
    // divisor (see sdpa.cpp), when div_twin_.any().
    gemm::scalar_div_twin_t div_twin_;
    gemm_int8_t qk_mul_[2];
    score_rows_t rows_ops_;
};

} // namespace

bool int8_eligible(const desc_t &d, int8_plan_t *p, std::string *why) {
    for (const head_t *h : {&d.q, &d.k, &d.v})
        if (!h->dq || h->ddq || !is_int8(h->dt) || !whole(h->zp)
                || (h->round_dt != dnnl_f32 && h->round_dt != dnnl_bf16))
            return decline(why, "Q, K and V must be per-tensor Dequantizes "
                                "of u8/s8 (then at most a bf16 TypeCast)");
    if (d.out_stats >= 0) return decline(why, "statistics output");
    if (d.m2_dt != dnnl_f32 && d.m2_dt != dnnl_bf16)
        return decline(why, "P·V output must be f32 or bf16");
    // Probabilities: roundings, Quantize, the same Dequantize, roundings.
    size_t i = 0;
    const std::vector<value_op_t> &ops = d.p_ops;
    p->p_before.clear();
    for (; i < ops.size() && ops[i].kind == value_op_t::kind_t::round; ++i)
        p->p_before.push_back(ops[i]);
    if (i + 1 >= ops.size() || ops[i].kind != value_op_t::kind_t::quantize
            || ops[i + 1].kind != value_op_t::kind_t::dequantize
            || ops[i + 1].dt != ops[i].dt || ops[i + 1].scale != ops[i].scale
            || ops[i + 1].zp != ops[i].zp || !whole(ops[i].zp))
        return decline(why, "the probabilities must go through a Quantize "
                            "and the matching Dequantize");
    p->p_quant = ops[i];
    for (i += 2; i < ops.size(); ++i)
        if (ops[i].kind != value_op_t::kind_t::round)
            return decline(why, "more quantization steps on the probabilities");
    // Output: roundings (to bf16 or f32), then at most a final Quantize.
    p->o_round_bf16 = d.m2_dt == dnnl_bf16;
    p->o_quant = false;
    for (size_t j = 0; j < d.out_ops.size(); ++j) {
        const value_op_t &v = d.out_ops[j];
        if (v.kind == value_op_t::kind_t::round && v.dt == dnnl_bf16) {
            p->o_round_bf16 = true;
        } else if (v.kind == value_op_t::kind_t::round && v.dt == dnnl_f32) {
        } else if (v.kind == value_op_t::kind_t::quantize
                && j + 1 == d.out_ops.size() && whole(v.zp)) {
            p->o_quant = true;
            p->o_quant_op = v;
        } else {
            return decline(why, "output steps other than bf16 roundings and "
                                "a final Quantize");
        }
    }
    if (p->o_quant ? d.o_dt != p->o_quant_op.dt
                   : d.o_dt != dnnl_f32 && d.o_dt != dnnl_bf16)
        return decline(why, "output type");
    return true;
}

status_t create_int8(const desc_t &d, const int8_plan_t &p, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    auto k = std::make_shared<int8_kernel_t>(d, p, isa);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace sdpa
} // namespace cpu
} // namespace llga
