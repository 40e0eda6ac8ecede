// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_int8.cpp — the quantized Convolution kernel:
// the partition read by conv_int8_cfg.cpp runs on gemm_int8, whose
// epilogue already does the dequantize, bias, clamp and quantize steps.
//   direct  dense 1x1: one GEMM A = src [images * pixels, IC], B = weights
//           [IC, OC], dst [images * pixels, OC]; gemm_int8 threads it.
//   ncx 1x1 channel-first dense 1x1 with an f32/bf16 result: per image
//           A = weights [OC, IC], B = src [IC, pixels] (u8 through the
//           driver's wei_u8), dst [OC, pixels], all in place; weight
//           scales and bias as per-row post-ops.
//   im2col  everything else: a task is (OC block, image, block of output
//           pixels). It writes the int8 im2col panel of its pixels (padding
//           = the src zero point) into a per-thread buffer sized for L2 and
//           runs a single-threaded GEMM on it; the tasks are the threading.
// Constant weights are packed once (per OC block) through the constant
// tensor cache; otherwise OIX weights are reordered per execution and the
// GEMM packs B as it goes.
#include "backends/cpu/kernels/conv/conv_int8.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/common/prepacked_weights.hpp"
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "backends/cpu/kernels/conv/conv_int8_cfg_p.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

using gemm_int8::gemm_int8_desc_t;
using gemm_int8::gemm_int8_t;
using gemm_int8::i8_dst_t;

// The im2col panel of a task stays within about half of a core's L2 (the
// rest holds the task's B block); rows are capped at gemm_int8's M block,
// so a task's GEMM is one block of rows.
constexpr int64_t k_panel_bytes = int64_t(256) << 10;
constexpr int64_t k_max_rows = 384, k_min_rows = 64;
constexpr int64_t k_max_cols = 512, k_min_cols = 64;
constexpr int64_t k_tasks_per_thread = 4;

// "tasks=N" of a gemm_int8 blocking string.
int64_t gemm_tasks(const gemm_int8_t &g) {
    const std::string s = g.blocking_str();
    const size_t at = s.find("tasks=");
    return at == std::string::npos ? -1
                                   : std::strtoll(s.c_str() + at + 6, nullptr, 10);
}

// The part of the blocking that fixes the packed B layout (nc, kc).
std::string b_blocking(const gemm_int8_t &g) {
    const std::string s = g.blocking_str();
    const size_t a = s.find(" nc="), b = s.find(" tasks=");
    return a == std::string::npos ? s : s.substr(a, b - a);
}

class conv_int8_kernel_t : public compiler::kernel_t {
public:
    explicit conv_int8_kernel_t(const conv_int8_cfg_t &c) : c_(c) {}
    status_t init(int nthreads);
    const char *name() const override { return name_.c_str(); }
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    gemm_int8_desc_t gemm_desc(int64_t M, int64_t N) const;
    // B source of OC block j (weights in place or the dense reorder).
    const int8_t *b_at(const int8_t *b, int64_t j) const {
        return b + j * ncw_ * c_.sbn;
    }
    void prepack(const int8_t *b, char *packed) const;
    status_t execute_ncx_1x1(const compiler::exec_ctx_t &ctx,
            gemm_int8::gemm_int8_params_t p,
            const std::vector<float> &bias) const;
    void run_im2col(const char *src, const int8_t *b, char *dst,
            const gemm_int8::gemm_int8_params_t &p, const char *packed,
            std::atomic<bool> &oom) const;

    conv_int8_cfg_t c_;
    std::string name_;
    bool b_constant_ = false;
    bool can_prepack_ = true;
    // direct: g_[0][0]. im2col: [full pixel block | pixel tail][full OC
    // block | last OC block].
    gemm_int8_t g_[2][2];
    int64_t mb_ = 0, nblk_ = 1;   // pixel block rows, blocks per image
    int64_t ncw_ = 0, nck_ = 1;   // OC block width, OC blocks
    // Every im2col GEMM is one gemm_int8 task, so it runs inline in our
    // task. Otherwise its nested parallel_for may run another of our tasks
    // on this thread mid-GEMM, and the panel must not be a per-thread one.
    bool single_task_ = true;
    std::vector<size_t> poff_; // packed B of OC block j
    size_t packed_bytes_ = 0;
    common::prepacked_weights_t prepacked_;
};

gemm_int8_desc_t conv_int8_kernel_t::gemm_desc(int64_t M, int64_t N) const {
    gemm_int8_desc_t g;
    g.src_s8 = c_.src_s8;
    g.dst = c_.out.dst;
    if (!c_.post.ops.empty()) { // the chain kernels store out.dst
        g.post = c_.post;
        g.dst = i8_dst_t::f32;
    }
    g.has_bias = c_.d.has_bias;
    g.wei_scale_per_col = c_.wei_scales.size() > 1;
    g.M = M;
    g.N = N;
    g.K = c_.K();
    g.sam = c_.K(); // the panel's rows
    g.sak = 1;
    g.sbk = c_.sbk;
    g.sbn = c_.sbn;
    g.sdm = c_.dst_pix;
    return g;
}

status_t conv_int8_kernel_t::init(int nthreads) {
    const conv_desc_t &d = c_.d;
    b_constant_ = d.wei_constant;
    const int64_t P = d.opix(), OC = d.OC(), K = c_.K();
    std::string mode;
    if (c_.ncx_1x1) {
        mode = "1x1";
        gemm_int8_desc_t g;
        g.src_s8 = true;           // A is the weights
        g.wei_u8 = !c_.src_s8;     // B is the src
        g.M = OC;
        g.N = P;
        g.K = d.IC();
        g.sam = d.ws[0];
        g.sak = d.ws[1];
        g.sbk = d.ss[1];
        g.sbn = 1;
        g.sdm = d.ds[1];
        g.batch = {d.N};
        g.a_bs = {0};
        g.b_bs = {d.ss[0]};
        g.d_bs = {d.ds[0]};
        // Per-row steps first: the weights' per-channel scales, the bias.
        const auto row_op = [](gemm::po_binary_t op) {
            gemm::postop_t o = gemm::postop_t::make_binary(
                    op, gemm::po_bcast_t::row, gemm::po_dt_t::f32, 1);
            o.bs = {0};
            return o;
        };
        if (c_.wei_scales.size() > 1)
            g.post.ops.push_back(row_op(gemm::po_binary_t::mul));
        if (d.has_bias) g.post.ops.push_back(row_op(gemm::po_binary_t::add));
        g.post.ops.insert(g.post.ops.end(), c_.post.ops.begin(),
                c_.post.ops.end());
        common::set_chain_dst(c_.out, g.post);
        g.dst = g.post.ops.empty() ? c_.out.dst : i8_dst_t::f32;
        LLGA_RETURN_IF_ERROR(g_[0][0].init(g, nthreads));
        can_prepack_ = false; // B is the activations
        b_constant_ = false;
    } else if (c_.direct) {
        mode = "1x1";
        gemm_int8_desc_t g = gemm_desc(P, OC);
        g.sam = c_.src_pix;
        g.batch = {d.N};
        g.a_bs = {d.ss[0]};
        g.b_bs = {0};
        g.d_bs = {d.ds[0]};
        gemm_int8::fold_batch_into_m(g);
        LLGA_RETURN_IF_ERROR(g_[0][0].init(g, nthreads));
        ncw_ = OC;
        poff_ = {0};
        packed_bytes_ = g_[0][0].packed_b_bytes();
        can_prepack_ = g_[0][0].can_prepack_b();
    } else {
        mode = "im2col";
        // Largest blocks that fit, then smaller pixel blocks, then
        // narrower OC blocks, until every thread has a few tasks.
        ncw_ = OC <= k_max_cols ? OC : k_max_cols / 2;
        mb_ = std::min(P,
                std::max(k_min_rows,
                        std::min(k_max_rows, k_panel_bytes / K / 16 * 16)));
        const int64_t want = nthreads > 1 ? nthreads * k_tasks_per_thread : 1;
        auto tasks = [&] { return div_up(OC, ncw_) * d.N * div_up(P, mb_); };
        while (tasks() < want) {
            if (mb_ > k_min_rows)
                mb_ = std::max(k_min_rows, round_up(mb_ / 2, 16));
            else if (ncw_ > k_min_cols)
                ncw_ = std::max(k_min_cols, round_up(ncw_ / 2, 64));
            else
                break;
        }
        nblk_ = div_up(P, mb_);
        nck_ = div_up(OC, ncw_);
        const int64_t rows[2] = {mb_, P - (nblk_ - 1) * mb_};
        const int64_t cols[2] = {ncw_, OC - (nck_ - 1) * ncw_};
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 2; ++j) {
                LLGA_RETURN_IF_ERROR(
                        g_[r][j].init(gemm_desc(rows[r], cols[j]), 1));
                single_task_ = single_task_ && gemm_tasks(g_[r][j]) == 1;
                // The pixel-tail GEMM reads the full blocks' packing.
                can_prepack_ = can_prepack_
                        && b_blocking(g_[r][j]) == b_blocking(g_[0][j])
                        && g_[r][j].packed_b_bytes()
                                == g_[0][j].packed_b_bytes();
            }
        for (int64_t j = 0; j < nck_; ++j) {
            poff_.push_back(packed_bytes_);
            // 64-byte aligned panels (see gemm_int8_t::prepack_b).
            packed_bytes_ += static_cast<size_t>(round_up(static_cast<int64_t>(
                    g_[0][j + 1 == nck_ ? 1 : 0].packed_b_bytes()), 64));
        }
    }
    name_ = "conv_int8_" + mode
            + (c_.via_nxc ? "_ncx_" : c_.ncx_1x1 ? "_ncx_direct_" : "_")
            + gemm_int8::i8_kind_name(g_[0][0].kind()) + "_"
            + (c_.src_s8 ? "s8s8_" : "u8s8_")
            + (c_.post.ops.empty() ? gemm_int8::i8_dst_name(c_.out.dst)
                                   : "po:" + c_.post.str());
    return dnnl_success;
}

// The channel-first 1x1 (c_.ncx_1x1): see the header comment.
status_t conv_int8_kernel_t::execute_ncx_1x1(const compiler::exec_ctx_t &ctx,
        gemm_int8::gemm_int8_params_t p, const std::vector<float> &bias) const {
    const conv_desc_t &d = c_.d;
    scratch_frame_t frame;
    // A = weights (zero point c_.wei_zp), B = src (its zero point); one
    // weight scale folds into the scale.
    p.src_scale = c_.src_scale
            * (c_.wei_scales.size() == 1 ? c_.wei_scales[0] : 1.f);
    p.wei_scales = nullptr;
    p.bias = nullptr;
    p.src_zp = c_.wei_zp;
    p.wei_zp = c_.src_zp;
    const void *po_args[gemm::k_max_po_operands];
    size_t n = 0;
    if (c_.wei_scales.size() > 1) po_args[n++] = c_.wei_scales.data();
    if (d.has_bias) po_args[n++] = bias.data();
    for (const po_operand_t &o : c_.po_operands)
        po_args[n++] = operand_base(o, ctx.inputs[o.port], frame);
    p.po_args = n ? po_args : nullptr;
    g_[0][0].execute(ctx.inputs[d.in_wei], ctx.inputs[d.in_src],
            ctx.outputs[d.out], p, nullptr);
    return dnnl_success;
}

void conv_int8_kernel_t::prepack(const int8_t *b, char *packed) const {
    if (c_.direct) {
        g_[0][0].prepack_b(b, packed);
        return;
    }
    for (int64_t j = 0; j < nck_; ++j)
        g_[0][j + 1 == nck_ ? 1 : 0].prepack_b(b_at(b, j), packed + poff_[j]);
}

void conv_int8_kernel_t::run_im2col(const char *src, const int8_t *b,
        char *dst, const gemm_int8::gemm_int8_params_t &p, const char *packed,
        std::atomic<bool> &oom) const {
    const conv_desc_t &d = c_.d;
    const int64_t P = d.opix(), K = c_.K();
    const int64_t esd = gemm_int8::i8_dst_bytes(c_.out.dst);
    const bool per_col = c_.wei_scales.size() > 1;
    const int64_t per_block = d.N * nblk_;
    // OC blocks outermost: a thread's run of tasks reuses one B block.
    parallel_for(nck_ * per_block, 1, [&](int64_t lo, int64_t hi) {
        thread_local aligned_buf_t tls_panel;
        for (int64_t t = lo; t < hi; ++t) {
            aligned_buf_t own_panel;
            aligned_buf_t &buf = single_task_ ? tls_panel : own_panel;
            const int64_t j = t / per_block, n = t % per_block / nblk_,
                          pb = t % nblk_;
            const int64_t p0 = pb * mb_, rows = std::min(mb_, P - p0);
            char *panel = static_cast<char *>(
                    buf.get(static_cast<size_t>(mb_ * K + 64)));
            if (!panel) {
                oom.store(true);
                return;
            }
            im2col_int8(c_, src, n, p0, rows, panel, K);
            const gemm_int8_t &g = g_[rows == mb_ ? 0 : 1][j + 1 == nck_];
            const int64_t oc0 = j * ncw_;
            gemm_int8::gemm_int8_params_t pj = p;
            if (pj.bias) pj.bias += oc0;
            if (per_col) pj.wei_scales += oc0;
            // Chain operands at this call's image, first pixel and first
            // output channel.
            const void *po[gemm::k_max_po_operands];
            for (size_t k = 0; k < c_.po_operands.size(); ++k) {
                const po_operand_t &o = c_.po_operands[k];
                po[k] = static_cast<const char *>(p.po_args[k])
                        + (n * o.n_step + p0 * o.pix_step + oc0 * o.c_step)
                                * o.es;
            }
            if (p.po_args) pj.po_args = po;
            // With packed weights B is never read.
            g.execute(panel, b_at(b, j),
                    dst + (n * d.ds[0] + p0 * c_.dst_pix + oc0) * esd, pj,
                    packed ? packed + poff_[j] : nullptr);
        }
    });
}

status_t conv_int8_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = c_.d;
    const char *src = static_cast<const char *>(ctx.inputs[d.in_src]);
    const int8_t *wei = static_cast<const int8_t *>(ctx.inputs[d.in_wei]);
    char *dst = static_cast<char *>(ctx.outputs[d.out]);
    gemm_int8::gemm_int8_params_t p;
    p.src_scale = c_.src_scale;
    p.wei_scales = c_.wei_scales.data();
    p.dst_scale = c_.out.dst_scale;
    p.src_zp = c_.src_zp;
    p.wei_zp = c_.wei_zp;
    p.dst_zp = c_.out.dst_zp;
    p.q_lo = c_.out.q_lo;
    p.q_hi = c_.out.q_hi;
    std::vector<float> bias;
    if (d.has_bias) {
        const void *b = ctx.inputs[d.in_bias];
        bias.resize(static_cast<size_t>(d.OC()));
        for (int64_t oc = 0; oc < d.OC(); ++oc)
            bias[oc] = d.bias_dt == dnnl_bf16
                    ? ir::bf16_to_f32(static_cast<const uint16_t *>(
                            b)[oc * d.bias_stride])
                    : static_cast<const float *>(b)[oc * d.bias_stride];
        p.bias = bias.data();
    }
    if (c_.ncx_1x1) return execute_ncx_1x1(ctx, p, bias);
    rt::constant_ptr_t packed;
    if (b_constant_ && can_prepack_)
        LLGA_RETURN_IF_ERROR(prepacked_.get(ctx, *this,
                static_cast<size_t>(d.in_wei), wei, packed_bytes_,
                std::hash<std::string>()(name_ + b_blocking(g_[0][0])
                        + b_blocking(g_[0][1]) + std::to_string(ncw_)),
                [&](const void *w, void *out) {
                    const int8_t *b = static_cast<const int8_t *>(w);
                    std::vector<int8_t> dense;
                    if (!c_.wei_in_place) {
                        dense.resize(static_cast<size_t>(c_.K() * d.OC()));
                        reorder_weights_int8(c_, b, dense.data());
                        b = dense.data();
                    }
                    prepack(b, static_cast<char *>(out));
                },
                packed));
    const char *pk = packed ? static_cast<const char *>(packed->data())
                            : nullptr;
    std::vector<int8_t> dense;
    const int8_t *b = wei;
    if (!pk && !c_.wei_in_place) {
        dense.resize(static_cast<size_t>(c_.K() * d.OC()));
        reorder_weights_int8(c_, wei, dense.data());
        b = dense.data();
    }
    scratch_frame_t frame;
    // Chain operands; channel-first ones that vary by pixel as dense
    // channel-last copies (the GEMM writes channel-last).
    const void *po_args[gemm::k_max_po_operands];
    for (size_t i = 0; i < c_.po_operands.size(); ++i)
        po_args[i] = operand_base(c_.po_operands[i],
                ctx.inputs[c_.po_operands[i].port], frame);
    if (!c_.po_operands.empty()) p.po_args = po_args;
    // Weights that are not cached: packed once for this execution rather
    // than by every GEMM task that reads them (the 1x1 GEMM's row blocks,
    // the im2col tasks of each image and pixel block).
    if (!pk && can_prepack_) {
        char *buf = static_cast<char *>(frame.take(packed_bytes_));
        prepack(b, buf);
        pk = buf;
    }
    // NCX: dense channel-last copies of src and dst around the kernel.
    char *out = dst;
    const size_t esd = static_cast<size_t>(gemm_int8::i8_dst_bytes(c_.out.dst));
    if (c_.via_nxc) {
        char *s2 = static_cast<char *>(frame.take(static_cast<size_t>(
                d.N * d.ID * d.IH * d.IW * d.IC())));
        to_dense_nxc(src, c_.ncx_ss, d.N, d.IC(), d.ID, d.IH, d.IW, 1, s2);
        src = s2;
        out = static_cast<char *>(frame.take(
                static_cast<size_t>(d.N * d.opix() * d.OC()) * esd));
    }
    if (c_.direct) {
        g_[0][0].execute(src, b, out, p, pk);
    } else {
        std::atomic<bool> oom {false};
        run_im2col(src, b, out, p, pk, oom);
        if (oom.load())
            return fail(dnnl_out_of_memory, "cpu conv_int8: no im2col panel");
    }
    if (c_.via_nxc)
        from_dense_nxc(out, d.N, d.OC(), d.OD, d.OH, d.OW, esd, dst, c_.ncx_ds);
    return dnnl_success;
}

} // namespace

bool accepts_int8(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa; // gemm_int8 picks its flavour from the max-ISA knob itself
    conv_int8_cfg_t c;
    return analyse_int8(plan, c, why);
}

status_t create_int8(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    conv_int8_cfg_t c;
    std::string why;
    if (!analyse_int8(plan, c, &why))
        return fail(dnnl_unimplemented, "cpu conv_int8: %s", why.c_str());
    auto k = std::make_shared<conv_int8_kernel_t>(c);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace llga
