// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_gemm.cpp — Convolution on the JIT GEMM
// (gemm_driver.hpp). Three ways to lay a convolution on it:
//   direct_nxc  1x1, stride 1, no padding, channel-last: the whole batch is
//               one [N*pixels, ICg] x [ICg, OCg] GEMM per group;
//   direct_ncx  the same with channel-first data: per image and group
//               W[OCg, ICg] x X[ICg, pixels], read in place (a strided 1x1
//               reads a gathered copy of its pixels); the bias is a row
//               value there, so it is added afterwards (f32 dst only);
//   stacked     2D layers with wide output rows (conv1, the 56-wide 3x3
//               layers): tasks (image, block of output rows, group, block
//               of output channels) build each row's stacked input rows
//               (gemm_cfg_t::orows) and run one GEMM per output row that
//               reads them in place;
//   implicit    everything else: tasks (image, block of output pixels,
//               group, block of output channels) each build an im2col
//               panel in a per-thread scratch and run a single-threaded
//               GEMM with the [KD*KH*KW*ICg, OCg] weights (prepacked once
//               when constant) and the bias fused. NCX data goes through a
//               dense NXC copy of src and dst.
// The weights are B: read in place when their K walk is one stride (XIO,
// any 1x1), else reordered per execution; constant weights with the
// constant cache enabled are prepacked once per (group, channel block).
// A fused partition (Convolution -> post-ops, conv_chain.hpp) runs the
// chain in the GEMM epilogue; each GEMM call gets its operands' pointers
// moved to its image, pixel block and channel block. The layout decisions
// are in conv_gemm_cfg.cpp.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "backends/cpu/kernels/conv/conv.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "backends/cpu/kernels/conv/conv_gemm_cfg_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

using gemm::gemm_desc_t;
using gemm::gemm_t;

using cfg_t = gemm_cfg_t;
using mode_t = gemm_mode_t;

// Page-aligned growable scratch, one per thread.
struct scratch_buf_t {
    void *p = nullptr;
    size_t size = 0;
    ~scratch_buf_t() { std::free(p); }
    char *get(size_t bytes) {
        if (bytes > size) {
            std::free(p);
            size = (bytes + 4095) / 4096 * 4096;
            p = std::aligned_alloc(64, size);
        }
        return static_cast<char *>(p);
    }
};

class conv_gemm_kernel_t : public compiler::kernel_t {
public:
    conv_gemm_kernel_t(std::string name, const cfg_t &c)
        : name_(std::move(name)), c_(c) {}
    const char *name() const override { return name_.c_str(); }

    status_t init(int nthreads);
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    // One GEMM B operand that is prepacked when the weights are constant:
    // which gemm_t packs it, where it starts in the reordered weights
    // (elements) and where its packed form starts (bytes).
    struct bpanel_t {
        const gemm_t *gemm;
        int64_t woff;
        size_t poff;
    };
    // `po` (fused only, else nullptr): each epilogue operand's base.
    void run_direct_nxc(const char *src, const char *wc, const float *bias,
            char *dst, const char *packed, const char *const *po) const;
    void run_direct_ncx(const char *src, const char *wei, const float *bias,
            char *dst, const char *const *po) const;
    // The implicit and stacked modes: tasks over (image, pixel or row
    // block, group, channel block), each building its A and running
    // single-threaded GEMMs.
    void run_implicit(const nxc_view_t &src, const char *wc, const float *bias,
            char *dst, int64_t dst_n_stride, const char *packed,
            const char *const *po) const;
    // The epilogue operands of the GEMM call that starts at image n, output
    // pixel p0, output channel oc0 (over all groups); nullptr if not fused.
    const void *const *po_at(const char *const *po, int64_t n, int64_t p0,
            int64_t oc0, const void **out) const {
        if (!po) return nullptr;
        for (size_t i = 0; i < c_.epi.operands.size(); ++i) {
            const po_operand_t &o = c_.epi.operands[i];
            out[i] = po[i]
                    + (n * o.n_step + p0 * o.pix_step + oc0 * o.c_step) * o.es;
        }
        return out;
    }
    // Element offset of group g's output channel oc0 in the B source.
    int64_t woff(int64_t g, int64_t oc0) const {
        return c_.w_inplace ? (g * c_.d.OCg + oc0) * c_.wsbn
                            : g * c_.K * c_.d.OCg + oc0;
    }
    // GEMM calls that would each pack a B panel themselves if no packed B
    // were given: the direct GEMM's own row blocks; one per image and
    // pixel block (implicit) or output row (stacked).
    int64_t calls_per_panel() const {
        if (c_.mode == mode_t::direct_nxc) return g_[0][0].b_block_uses();
        return c_.d.N * (c_.mode == mode_t::stacked ? c_.d.OH : c_.nblk);
    }
    const gemm_t &implicit_gemm(int64_t rows, int64_t j) const {
        return g_[rows == c_.mb ? 0 : 1][j + 1 == c_.nck ? 1 : 0];
    }

    std::string name_;
    cfg_t c_;
    // direct modes: g_[0][0]; implicit: [full rows | row tail][full
    // channel block | last channel block].
    gemm_t g_[2][2];
    bool tail_shares_packing_ = true;
    // Every implicit GEMM is one task (runs inline in our task). If the
    // GEMM's blocking ever splits it, its nested parallel_for may run
    // another of our tasks on this thread mid-GEMM, so the panel must then
    // not be a per-thread buffer.
    bool single_task_ = true;
    std::vector<bpanel_t> bpanels_;
    size_t packed_bytes_ = 0;
};

status_t conv_gemm_kernel_t::init(int nthreads) {
    const conv_desc_t &d = c_.d;
    gemm_desc_t g;
    g.kind = c_.kind;
    g.dst_bf16 = d.dst_dt == dnnl_bf16;
    g.post = c_.epi.post; // per-image strides: the direct modes' batch
    if (c_.mode == mode_t::direct_nxc) {
        g.has_bias = d.has_bias;
        g.M = d.opix();
        g.N = d.OCg;
        g.K = d.ICg;
        g.sam = c_.qs;
        g.sak = 1;
        g.sbk = c_.wsbk;
        g.sbn = c_.wsbn;
        g.sdm = c_.qd;
        g.batch = {d.N};
        g.a_bs = {d.ss[0]};
        g.b_bs = {0};
        g.d_bs = {d.ds[0]};
        gemm::fold_batch_into_m(g);
        LLGA_RETURN_IF_ERROR(g_[0][0].init(g, nthreads));
        for (int64_t gr = 0; gr < d.G; ++gr) {
            bpanels_.push_back({&g_[0][0], woff(gr, 0), packed_bytes_});
            packed_bytes_ += g_[0][0].packed_b_bytes();
        }
        return dnnl_success;
    }
    if (c_.mode == mode_t::direct_ncx) {
        g.M = d.OCg;
        g.N = d.opix();
        g.K = d.ICg;
        g.sam = d.ws[0];
        g.sak = d.ws[1];
        // B: the src in place, or its gathered [N][IC][pixels] copy.
        g.sbk = c_.gather ? d.opix() : d.ss[1];
        g.sbn = c_.gather ? 1 : c_.qs;
        g.sdm = d.ds[1];
        g.batch = {d.N};
        g.a_bs = {0};
        g.b_bs = {c_.gather ? d.IC() * d.opix() : d.ss[0]};
        g.d_bs = {d.ds[0]};
        return g_[0][0].init(g, nthreads);
    }
    // Implicit and stacked: single-threaded GEMMs (this kernel threads over
    // tasks), with the operands moved to each task's image by the caller.
    // Stacked: one GEMM per output row, A read in place from the row's
    // stacked input rows.
    for (gemm::postop_t &p : g.post.ops)
        p.bs.clear();
    const bool stacked = c_.mode == mode_t::stacked;
    const int64_t P = d.opix();
    const int64_t rows[2] = {stacked ? d.OW : c_.mb, stacked ? 0 : P % c_.mb};
    const int64_t last_w = d.OCg - (c_.nck - 1) * c_.ncw;
    const int64_t cols[2] = {c_.ncw, last_w};
    g.has_bias = d.has_bias;
    // The pixel-block tail shares the full blocks' packed weights.
    g.few_row_paths = false;
    g.K = c_.K;
    g.sam = stacked ? c_.lda : c_.K;
    g.sak = 1;
    g.sbk = c_.wsbk;
    g.sbn = c_.wsbn;
    g.sdm = c_.qd;
    for (int r = 0; r < 2; ++r)
        for (int j = 0; j < 2; ++j) {
            if (rows[r] == 0) continue;
            g.M = rows[r];
            g.N = cols[j];
            LLGA_RETURN_IF_ERROR(g_[r][j].init(g, 1));
            const std::string b = g_[r][j].blocking_str();
            single_task_ = single_task_
                    && b.size() >= 8 && b.compare(b.size() - 8, 8, " tasks=1") == 0;
        }
    // Packing depends on the column count only (the GEMMs are single
    // threaded), but verify rather than assume.
    if (rows[1] != 0)
        for (int j = 0; j < 2; ++j)
            tail_shares_packing_ = tail_shares_packing_
                    && g_[1][j].same_b_packing(g_[0][j])
                    && g_[1][j].can_prepack_b();
    for (int64_t gr = 0; gr < d.G; ++gr)
        for (int64_t j = 0; j < c_.nck; ++j) {
            const gemm_t &gm = g_[0][j + 1 == c_.nck ? 1 : 0];
            bpanels_.push_back({&gm, woff(gr, j * c_.ncw), packed_bytes_});
            packed_bytes_ += gm.packed_b_bytes();
        }
    return dnnl_success;
}

void conv_gemm_kernel_t::run_direct_nxc(const char *src, const char *wc,
        const float *bias, char *dst, const char *packed,
        const char *const *po) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const void *pg[gemm::k_max_po_operands];
    for (int64_t g = 0; g < d.G; ++g)
        g_[0][0].execute(src + g * d.ICg * es,
                packed ? packed : wc + bpanels_[g].woff * es,
                bias ? bias + g * d.OCg : nullptr,
                dst + g * d.OCg * esd,
                packed ? packed + bpanels_[g].poff : nullptr,
                po_at(po, 0, 0, g * d.OCg, pg));
}

void conv_gemm_kernel_t::run_direct_ncx(const char *src, const char *wei,
        const float *bias, char *dst, const char *const *po) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4;
    const void *pg[gemm::k_max_po_operands];
    scratch_frame_t frame;
    if (c_.gather) {
        char *g = static_cast<char *>(frame.take(
                static_cast<size_t>(d.N * d.IC() * d.opix() * es)));
        gather_1x1_ncx(d, src, static_cast<size_t>(es), g);
        src = g;
    }
    const int64_t src_c = c_.gather ? d.opix() : d.ss[1];
    for (int64_t g = 0; g < d.G; ++g)
        g_[0][0].execute(wei + g * d.OCg * d.ws[0] * es,
                src + g * d.ICg * src_c * es, nullptr,
                dst + g * d.OCg * d.ds[1] * (d.dst_dt == dnnl_bf16 ? 2 : 4),
                nullptr, po_at(po, 0, 0, g * d.OCg, pg));
    // Fused: the bias was the epilogue's first op (conv_gemm_cfg.cpp).
    if (!bias || c_.fused) return;
    // f32 dst only (configure): one bias value per (image, channel) row.
    const int64_t P = d.opix();
    parallel_for(d.N * d.OC(), 16, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t n = t / d.OC(), oc = t % d.OC();
            float *row = reinterpret_cast<float *>(dst)
                    + n * d.ds[0] + oc * d.ds[1];
            const float b = bias[oc];
            for (int64_t p = 0; p < P; ++p)
                row[p] += b;
        }
    });
}

void conv_gemm_kernel_t::run_implicit(const nxc_view_t &src, const char *wc,
        const float *bias, char *dst, int64_t dst_n_stride,
        const char *packed, const char *const *po) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const int64_t P = d.opix();
    const bool stacked = c_.mode == mode_t::stacked;
    // The A buffer of a task: its im2col panel, or one output row's
    // stacked input rows.
    const size_t a_bytes = static_cast<size_t>(
            (stacked ? c_.iwp * d.KH * d.ICg : c_.mb * c_.K) * es + 64);
    const int64_t tasks = d.N * c_.nblk * d.G * c_.nck;
    parallel_for(tasks, 1, [&](int64_t lo, int64_t hi) {
        thread_local scratch_buf_t tls_a;
        for (int64_t t = lo; t < hi; ++t) {
            scratch_buf_t own_a;
            char *a = (single_task_ ? tls_a : own_a).get(a_bytes);
            const int64_t j = t % c_.nck;
            const int64_t g = t / c_.nck % d.G;
            const int64_t blk = t / (c_.nck * d.G) % c_.nblk;
            const int64_t n = t / (c_.nck * d.G * c_.nblk);
            const bpanel_t &bp = bpanels_[g * c_.nck + j];
            const int64_t oc0 = g * d.OCg + j * c_.ncw;
            // One GEMM over the pixels from p0 on, A at `a`.
            const auto gemm = [&](const gemm_t &gm, int64_t p0,
                                      bool use_packed) {
                const void *pt[gemm::k_max_po_operands];
                // With packed weights B is never read (any non-null pointer).
                gm.execute(a, use_packed ? packed : wc + bp.woff * es,
                        bias ? bias + oc0 : nullptr,
                        dst + (n * dst_n_stride + p0 * c_.qd + oc0) * esd,
                        use_packed ? packed + bp.poff : nullptr,
                        po_at(po, n, p0, oc0, pt));
            };
            if (stacked) {
                const int64_t oh1 = std::min(d.OH, (blk + 1) * c_.orows);
                for (int64_t oh = blk * c_.orows; oh < oh1; ++oh) {
                    stacked_rows_nxc(d, src, n, g, oh, c_.iwp, a);
                    gemm(g_[0][j + 1 == c_.nck ? 1 : 0], oh * d.OW, packed);
                }
                continue;
            }
            const int64_t p0 = blk * c_.mb, rows = std::min(c_.mb, P - p0);
            im2col_nxc(d, src, n, g, p0, rows, a, c_.K);
            gemm(implicit_gemm(rows, j), p0,
                    packed && (rows == c_.mb || tail_shares_packing_));
        }
    });
}

status_t conv_gemm_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const char *src = static_cast<const char *>(ctx.inputs[d.in_src]);
    const char *wei = static_cast<const char *>(ctx.inputs[d.in_wei]);
    char *dst = static_cast<char *>(ctx.outputs[d.out]);
    std::vector<float> bias;
    if (d.has_bias) bias = bias_f32(d, ctx.inputs[d.in_bias], 64);
    const float *bp = d.has_bias ? bias.data() : nullptr;
    // Scratch of this call (every byte written before it is read).
    scratch_frame_t frame;
    // Fused: the base of every epilogue operand (channel-first operands
    // with strided channels as dense channel-last copies).
    std::vector<const char *> po_base;
    for (const po_operand_t &o : c_.epi.operands)
        po_base.push_back(operand_base(o,
                o.port < 0 ? static_cast<const void *>(bp) : ctx.inputs[o.port],
                frame));
    const char *const *po = po_base.empty() ? nullptr : po_base.data();

    if (c_.mode == mode_t::direct_ncx) {
        run_direct_ncx(src, wei, bp, dst, po);
        return dnnl_success;
    }
    const bool stacked = c_.mode == mode_t::stacked;
    // Weights as GEMM B panels, packed once for every GEMM call: through
    // the constant cache when they are constant, else for this execution
    // when more than one call would pack each panel; otherwise reordered
    // (if needed) and packed by the GEMM as it goes.
    const auto pack_all = [&](void *out) {
        const char *b_src = wei;
        if (!c_.w_inplace) {
            char *tmp = static_cast<char *>(frame.take(
                    static_cast<size_t>(d.G * c_.K * d.OCg * es)));
            reorder_weights_gemm(d, wei, tmp, stacked);
            b_src = tmp;
        }
        for (const bpanel_t &b : bpanels_)
            b.gemm->prepack_b(b_src + b.woff * es,
                    static_cast<char *>(out) + b.poff);
        return dnnl_success;
    };
    rt::constant_ptr_t packed;
    const char *pk = nullptr;
    if (d.wei_constant && compiler::constant_cache_enabled(ctx)) {
        compiler::constant_request_t req;
        req.backend = compiler::backend_id::cpu;
        req.slot = static_cast<size_t>(d.in_wei);
        req.src = wei;
        req.bytes = packed_bytes_;
        req.detail = std::hash<std::string>()(name_ + d.str());
        LLGA_RETURN_IF_ERROR(compiler::get_prepared_constant(
                ctx, *this, req, pack_all, packed));
        pk = packed ? static_cast<const char *>(packed->data()) : nullptr;
    } else if (calls_per_panel() > 1) {
        char *buf = static_cast<char *>(frame.take(packed_bytes_));
        pack_all(buf);
        pk = buf;
    }
    std::vector<char> wc;
    if (!c_.w_inplace && (!pk || !tail_shares_packing_)) {
        wc.resize(static_cast<size_t>(d.G * c_.K * d.OCg * es));
        reorder_weights_gemm(d, wei, wc.data(), stacked);
    }
    const char *w = c_.w_inplace ? wei : wc.data();
    if (c_.mode == mode_t::direct_nxc) {
        run_direct_nxc(src, w, bp, dst, pk, po);
        return dnnl_success;
    }
    if (!c_.via_nxc) {
        nxc_view_t v;
        v.p = src;
        std::memcpy(v.s, d.ss, sizeof(v.s));
        run_implicit(v, w, bp, dst, d.ds[0], pk, po);
        return dnnl_success;
    }
    // NCX: dense channel-last copies of src and dst around the NXC core
    // (scratch: every byte is written before it is read).
    char *s2 = static_cast<char *>(frame.take(static_cast<size_t>(
            d.N * d.ID * d.IH * d.IW * d.IC() * es)));
    char *d2 = static_cast<char *>(
            frame.take(static_cast<size_t>(d.N * d.opix() * d.OC() * esd)));
    to_dense_nxc(src, d.ss, d.N, d.IC(), d.ID, d.IH, d.IW,
            static_cast<size_t>(es), s2);
    nxc_view_t v;
    v.p = s2;
    const int64_t ic = d.IC();
    const int64_t dense[5] = {d.ID * d.IH * d.IW * ic, 1, d.IH * d.IW * ic,
            d.IW * ic, ic};
    std::memcpy(v.s, dense, sizeof(v.s));
    run_implicit(v, w, bp, d2, d.opix() * d.OC(), pk, po);
    from_dense_nxc(d2, d.N, d.OC(), d.OD, d.OH, d.OW,
            static_cast<size_t>(esd), dst, d.ds);
    return dnnl_success;
}

} // namespace

bool accepts_gemm(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    cfg_t c;
    return configure_gemm(plan, isa, rt::max_threads(), c, why);
}

status_t create_gemm(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    cfg_t c;
    std::string why;
    const int nthreads = rt::max_threads();
    if (!configure_gemm(plan, isa, nthreads, c, &why))
        return fail(dnnl_unimplemented, "cpu conv: %s", why.c_str());
    const char *mode = c.mode == mode_t::direct_nxc ? "1x1"
            : c.mode == mode_t::direct_ncx          ? (c.gather ? "1x1s_ncx" : "1x1_ncx")
            : c.mode == mode_t::stacked             ? (c.via_nxc ? "stacked_ncx" : "stacked")
            : c.via_nxc                             ? "im2col_ncx"
                                                    : "im2col";
    const std::string name = std::string("conv_gemm_") + mode + "_"
            + gemm::ukr_name(c.kind)
            + (c.d.dst_dt == dnnl_bf16 ? "_bf16dst" : "")
            + (c.fused ? "_po:" + c.epi.post.str() : "");
    auto k = std::make_shared<conv_gemm_kernel_t>(name, c);
    LLGA_RETURN_IF_ERROR(k->init(nthreads));
    out = k;
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace llga
