// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_brg.cpp — direct ("batch-reduce") Convolution
// for channel-last data, groups 1, 1D/2D: no im2col. The driver: decides
// the layout (configure_brg), packs the weights once per OC block, makes
// the input copies, builds the tap tables and threads the calls of the
// generators in conv_brg.hpp. One call computes a tile of output pixels x
// one OC block (AVX-512: 14 pixels x 32 channels in zmm; AMX: 32 x 32 in
// tiles) with the sums kept in registers:
//
//   acc = 0 (or bias)
//   for each tap (src offset, weight offset):   (the table built here)
//     for each k step of the tap's run (IC, or KW*IC when merged):
//       acc[p][oc] += src[p * stride + k] * w[k][oc]
//   (+ bias), store f32 / bf16 (the OC tail masked)
//
// Padding never reaches the kernels: the input is copied with zero
// borders (dense pixels) when a pixel would see the padding, so every
// pixel uses every tap; the KW taps of a kernel row then merge into one
// contiguous run. Dense 1x1 stride-1 layers are one long row per image,
// short rows are tiled several at a time (AVX-512) or flattened into
// virtual pixels over the padded width (AMX). Threads take (image, OC
// block, row tile, column chunk), OC blocks outermost.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/conv/conv.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/conv/conv_brg_cfg_p.hpp"
#include "backends/cpu/kernels/conv/conv_brg_p.hpp"
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

class conv_brg_kernel_t : public compiler::kernel_t {
public:
    conv_brg_kernel_t(std::string name, const brg_cfg_t &c)
        : name_(std::move(name)), c_(c) {}
    const char *name() const override { return name_.c_str(); }
    status_t init();
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    size_t wbytes() const { return brg_weight_bytes(c_); }
    int64_t woff(int64_t kh, int64_t kw) const { return brg_woff(c_, kh, kw); }
    // src: image stride c_.sn elements, rows c_.sh, pixels c_.sw.
    void run(const char *src, const char *w, const float *bias,
            char *dst) const;

    std::string name_;
    brg_cfg_t c_;
    // [last OC block?][pixels 1..ur] (AMX: [A tiles 1..2])
    brg_fn_t fn_[2][15] = {};
    brg_void_fn_t cfg_load_ = nullptr, cfg_release_ = nullptr;
};

status_t conv_brg_kernel_t::init() {
    const conv_desc_t &d = c_.d;
    if (c_.amx) {
        LLGA_RETURN_IF_ERROR(get_brg_amx_cfg(&cfg_load_, &cfg_release_));
        for (int last = 0; last < 2; ++last)
            for (int tiles = 1; tiles <= 2; ++tiles) {
                const bool is_last = last || c_.nocb == 1;
                brg_desc_t k;
                std::memset(&k, 0, sizeof(k));
                std::memcpy(k.family, "conv_bga", 8);
                k.ur = tiles;
                k.nv = is_last ? c_.last_nv : 2;
                k.tail = is_last ? c_.last_tail : 0;
                k.bf16 = 1;
                k.dst_bf16 = d.dst_dt == dnnl_bf16;
                k.bias = d.has_bias;
                k.ksteps = c_.runk / 2;
                k.sstep = c_.patch ? c_.runk * 2 : c_.SW * c_.sw * 2;
                k.dstep = c_.dw * (k.dst_bf16 ? 2 : 4);
                k.rowtab = c_.vflat;
                LLGA_RETURN_IF_ERROR(get_brg_amx_kernel(k, &fn_[last][tiles]));
            }
        return dnnl_success;
    }
    for (int last = 0; last < 2; ++last) {
        if (last && c_.nocb == 1 && c_.last_nv == c_.nv && !c_.last_tail) {
            for (int u = 1; u <= c_.ur; ++u)
                fn_[1][u] = fn_[0][u];
            continue;
        }
        for (int u = 1; u <= c_.ur; ++u) {
            brg_desc_t k;
            std::memset(&k, 0, sizeof(k));
            std::memcpy(k.family, "conv_brg", 8);
            k.ur = u;
            const bool is_last = last || c_.nocb == 1;
            k.nv = is_last ? c_.last_nv : c_.nv;
            k.tail = is_last ? c_.last_tail : 0;
            k.bf16 = d.bf16();
            k.dst_bf16 = d.dst_dt == dnnl_bf16;
            k.bias = d.has_bias;
            k.ksteps = c_.merge_kw ? d.KW * c_.ksteps : c_.ksteps;
            k.sstep = c_.SW * c_.sw * (d.bf16() ? 2 : 4);
            k.dstep = c_.dw * (k.dst_bf16 ? 2 : 4);
            k.rw = c_.rh > 1 ? c_.OW : u;
            k.srow = c_.rh > 1 ? c_.SH * c_.sh * (d.bf16() ? 2 : 4) : 0;
            k.drow = c_.rh > 1 ? c_.dh * (k.dst_bf16 ? 2 : 4) : 0;
            // Row tiles use only whole rows.
            if (c_.rh > 1 && u % c_.OW) continue;
            k.wstride = c_.ocb * 4;
            LLGA_RETURN_IF_ERROR(get_brg_kernel(k, &fn_[last][u]));
        }
    }
    return dnnl_success;
}

// Patch rows (brg_cfg_t::patch) of `m` pixels: pixel i's row, rowb bytes
// at out + i * rowb, is `nrun` runs of `seg` bytes (run r read from
// run[r] + i * pstep) followed by zeros. A run of up to 64 bytes is moved
// as 64 (the spill lands in the next run, the zeroed tail, or the next
// row, which are all written afterwards; the buffer has 64 bytes of slack
// past the last row). Only the AMX kernel uses patches, and AMX hosts
// have AVX-512, so each move is one zmm load and store.
__attribute__((target("avx512f"))) void build_patch_rows(char *out,
        int64_t rowb, int64_t m, const char *const *run, int64_t nrun,
        int64_t seg, int64_t pstep) {
    static const char zeros[64] = {};
    for (int64_t i = 0; i < m; ++i) {
        char *row = out + i * rowb;
        int64_t at = 0;
        for (int64_t r = 0; r < nrun; ++r, at += seg) {
            const char *sp = run[r] + i * pstep;
            if (seg <= 64)
                std::memcpy(row + at, sp, 64);
            else
                std::memcpy(row + at, sp, static_cast<size_t>(seg));
        }
        for (; at < rowb; at += 64)
            std::memcpy(row + at, zeros, 64);
    }
}

void conv_brg_kernel_t::run(const char *src, const char *w,
        const float *bias, char *dst) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const int64_t OW = c_.OW, IW = c_.IW, IH = c_.IH;
    const int64_t PW = c_.PW, PH = c_.PH, sn = c_.sn;
    const int64_t nrt
            = c_.vflat ? 1 : (c_.OH + c_.rh - 1) / c_.rh; // row tiles
    // Output columns whose kernel columns all land inside the input.
    int64_t lo = 0;
    while (lo < OW && lo * c_.SW - PW < 0)
        ++lo;
    int64_t hi = lo;
    while (hi < OW && hi * c_.SW - PW + (d.KW - 1) * d.DW < IW)
        ++hi;
    const size_t wblk = wbytes() / static_cast<size_t>(c_.nocb);
    // Patch rows are built once and serve every OC block of the call.
    const int64_t nob = c_.patch ? 1 : c_.nocb;
    const int64_t tasks = d.N * nob * nrt * c_.nch;
    parallel_for(tasks, 1, [&](int64_t b, int64_t e) {
        std::vector<int64_t> taps;
        taps.reserve(static_cast<size_t>(2 * d.KH * d.KW));
        alignas(64) float acc[32 * 32];
        int64_t rowtab[32];
        std::vector<char> bounce;
        // In-place AMX reads 16 rows per A tile: a block at the end of the
        // tensor reads its m rows from a copy (one tap: see configure).
        auto bounce_if_needed = [&](brg_args_t &a, std::vector<int64_t> &tp,
                                        int64_t m) {
            const int64_t sstep = c_.SW * c_.sw * 2;
            const int64_t first = a.src - src + tp[0];
            const int64_t rows = m > 16 ? 32 : 16;
            if (first + (rows - 1) * sstep + c_.runk * 2 <= c_.src_bytes)
                return;
            bounce.resize(static_cast<size_t>(32 * sstep + 64));
            for (int64_t i = 0; i < m; ++i)
                std::memcpy(bounce.data() + i * sstep,
                        a.src + tp[0] + i * sstep,
                        static_cast<size_t>(c_.runk * 2));
            a.src = bounce.data();
            tp[0] = 0;
        };
        // Patch rows (c_.patch): KH*KW runs per pixel; a run of up to 64
        // bytes is copied as 64 (the spill is overwritten by the next run
        // or lands in the slack), then the row's tail is zeroed.
        std::vector<char> patchbuf;
        std::vector<const char *> runs;
        auto build_patch = [&](brg_args_t &a, std::vector<int64_t> &tp,
                                   int64_t oh, int64_t o0, int64_t m) {
            const int64_t rowb = c_.runk * 2, ic2 = d.ICg * 2;
            const int64_t seg = (c_.merge_kw ? d.KW : 1) * ic2;
            const int64_t nk = c_.merge_kw ? 1 : d.KW;
            patchbuf.resize(static_cast<size_t>(32 * rowb + 64));
            runs.clear();
            for (int64_t kh = 0; kh < d.KH; ++kh)
                for (int64_t kw = 0; kw < nk; ++kw) {
                    const int64_t ih = oh * c_.SH + kh * d.DH;
                    const int64_t iw = o0 * c_.SW + kw * d.DW;
                    runs.push_back(a.src + (ih * c_.sh + iw * c_.sw) * 2);
                }
            build_patch_rows(patchbuf.data(), rowb, m, runs.data(),
                    static_cast<int64_t>(runs.size()), seg,
                    c_.SW * c_.sw * 2);
            a.src = patchbuf.data();
            tp.assign({0, 0});
            a.taps = tp.data();
            a.ntaps = 1;
        };
        if (c_.amx) cfg_load_();
        for (int64_t t = b; t < e; ++t) {
            const int64_t ch = t % c_.nch;
            const int64_t oh = t / c_.nch % nrt * c_.rh;
            const int64_t ob = t / (c_.nch * nrt) % nob;
            const int64_t n = t / (c_.nch * nrt * nob);
            const bool last = ob + 1 == c_.nocb;
            brg_args_t args;
            args.src = src + n * sn * es;
            args.wei = w + ob * wblk;
            args.bias = bias + ob * c_.ocb;
            char *drow = dst + (n * d.ds[0] + oh * c_.dh + ob * c_.ocb) * esd;
            // Pixels [o0, o0 + np) with kernel columns [kw0, kw1).
            auto call = [&](int64_t o0, int np, int64_t kw0, int64_t kw1) {
                taps.clear();
                for (int64_t kh = 0; kh < d.KH; ++kh) {
                    const int64_t ih = oh * c_.SH - PH + kh * d.DH;
                    if (ih < 0 || ih >= IH) continue;
                    if (c_.merge_kw && kw0 == 0 && kw1 == d.KW) {
                        taps.push_back((ih * c_.sh + (o0 * c_.SW - PW) * c_.sw)
                                * es);
                        taps.push_back(woff(kh, 0));
                        continue;
                    }
                    for (int64_t kw = kw0; kw < kw1; ++kw) {
                        const int64_t iw = o0 * c_.SW - PW + kw * d.DW;
                        taps.push_back((ih * c_.sh + iw * c_.sw) * es);
                        taps.push_back(woff(kh, kw));
                    }
                }
                args.taps = taps.data();
                args.ntaps = static_cast<int64_t>(taps.size() / 2);
                args.dst = drow + o0 * c_.dw * esd;
                if (c_.amx) {
                    // Patch and bounce redirect src for this call only.
                    brg_args_t a = args;
                    a.m = np;
                    a.acc = acc;
                    if (c_.patch) {
                        build_patch(a, taps, oh, o0, np);
                        for (int64_t j = 0; j < c_.nocb; ++j) {
                            a.wei = w + j * wblk;
                            a.bias = bias + j * c_.ocb;
                            a.dst = args.dst + j * c_.ocb * esd;
                            fn_[j + 1 == c_.nocb][np > 16 ? 2 : 1](&a);
                        }
                        return;
                    }
                    if (!c_.pad && !c_.sub) bounce_if_needed(a, taps, np);
                    fn_[last][np > 16 ? 2 : 1](&a);
                    return;
                }
                fn_[last][np](&args);
            };
            auto border = [&](int64_t ow) {
                int64_t kw0 = 0, kw1 = d.KW;
                while (kw0 < d.KW && ow * c_.SW - PW + kw0 * d.DW < 0)
                    ++kw0;
                while (kw1 > kw0 && ow * c_.SW - PW + (kw1 - 1) * d.DW >= IW)
                    --kw1;
                call(ow, 1, kw0, kw1);
            };
            if (c_.vflat) { // virtual pixels over the padded width
                const int64_t q0 = ch * c_.cw,
                              q1 = std::min(c_.Qv, q0 + c_.cw);
                args.dst = dst + (n * d.ds[0] + ob * c_.ocb) * esd;
                args.acc = acc;
                args.rows = rowtab;
                for (int64_t q = q0; q < q1; q += 32) {
                    const int64_t m = std::min<int64_t>(32, q1 - q);
                    for (int64_t r = 0; r < m; ++r) {
                        const int64_t oh = (q + r) / IW, ow = (q + r) % IW;
                        rowtab[r] = ow < OW ? (oh * c_.dh + ow * c_.dw) * esd
                                            : -1;
                    }
                    taps.clear();
                    for (int64_t kh = 0; kh < d.KH; ++kh)
                        for (int64_t kw = 0; kw < (c_.merge_kw ? 1 : d.KW);
                                ++kw) {
                            // Phase images: tap (kh, kw) reads phase
                            // (kh*DH % SH, kw*DW % SW) at a stride-1 offset.
                            const int64_t sh = c_.phase ? d.SH : 1,
                                          sw = c_.phase ? d.SW : 1;
                            const int64_t y = kh * d.DH, x = kw * d.DW;
                            taps.push_back(((y % sh * sw + x % sw) * c_.psz
                                                   + (q + y / sh * IW + x / sw)
                                                           * c_.sw)
                                    * es);
                            taps.push_back(woff(kh, kw));
                        }
                    args.taps = taps.data();
                    args.ntaps = static_cast<int64_t>(taps.size() / 2);
                    args.m = m;
                    fn_[last][m > 16 ? 2 : 1](&args);
                }
                continue;
            }
            if (c_.rh > 1) { // whole rows, no borders (padded input)
                const int64_t r = std::min(c_.rh, c_.OH - oh);
                call(0, static_cast<int>(r * OW), 0, d.KW);
                continue;
            }
            const int64_t c0 = ch * c_.cw, c1 = std::min(OW, c0 + c_.cw);
            const int64_t i0 = std::clamp(lo, c0, c1),
                          i1 = std::clamp(hi, i0, c1);
            for (int64_t ow = c0; ow < i0; ++ow)
                border(ow);
            for (int64_t ow = i0; ow < i1; ow += c_.ur)
                call(ow, static_cast<int>(std::min<int64_t>(c_.ur, i1 - ow)),
                        0, d.KW);
            for (int64_t ow = i1; ow < c1; ++ow)
                border(ow);
        }
        if (c_.amx) cfg_release_();
    });
}

status_t conv_brg_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = c_.d;
    const void *wei = ctx.inputs[d.in_wei];
    rt::constant_ptr_t cached;
    std::vector<char> wtmp;
    const char *w = nullptr;
    if (d.wei_constant && compiler::constant_cache_enabled(ctx)) {
        compiler::constant_request_t req;
        req.backend = compiler::backend_id::cpu;
        req.slot = static_cast<size_t>(d.in_wei);
        req.src = wei;
        req.bytes = wbytes();
        req.detail = std::hash<std::string>()(name_ + d.str());
        LLGA_RETURN_IF_ERROR(compiler::get_prepared_constant(ctx, *this, req,
                [&](void *out) {
                    brg_pack_weights(c_, wei, static_cast<char *>(out));
                    return dnnl_success;
                },
                cached));
        w = static_cast<const char *>(cached->data());
    } else {
        wtmp.resize(wbytes());
        brg_pack_weights(c_, wei, wtmp.data());
        w = wtmp.data();
    }
    const std::vector<float> bias = bias_f32(d,
            d.has_bias ? ctx.inputs[d.in_bias] : nullptr, 64);
    const char *src = static_cast<const char *>(ctx.inputs[d.in_src]);
    char *dst = static_cast<char *>(ctx.outputs[d.out]);
    if (!c_.pad && !c_.sub) {
        run(src, w, bias.data(), dst);
        return dnnl_success;
    }
    // Reused per calling thread: no page faults per execution.
    thread_local std::vector<char> padded;
    // AMX: slack for the 16-row tiles read past the last pixel.
    const size_t bytes = static_cast<size_t>(d.N * c_.sn * (d.bf16() ? 2 : 4)
            + (c_.amx ? 32 * c_.SW * c_.sw * 2 + 64 : 0));
    if (padded.size() < bytes) padded.resize(bytes);
    if (c_.sub)
        brg_sub_src(c_, src, padded.data());
    else if (c_.phase)
        brg_phase_src(c_, src, padded.data());
    else
        brg_pad_src(c_, src, padded.data());
    run(padded.data(), w, bias.data(), dst);
    return dnnl_success;
}

} // namespace

bool accepts_brg(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    brg_cfg_t c;
    if (!configure_brg(plan, isa, rt::max_threads(), c, why)) return false;
    // On AMX a 1x1 convolution with 128 or more output channels is a plain
    // GEMM over pixels (strided: over the sampled pixels), and the GEMM
    // driver's chunk-major A panels, kept in L1 across the N strips, beat
    // this kernel's in-place pixel rows: 1.2-1.8x on the ResNet-50 1x1 and
    // projection layers (bf16, mb 1 and 32, 1 and 2 threads; interleaved
    // A/B runs). With 64 channels the GEMM has too few strips per panel
    // and this kernel stays (0.7-1.0x there).
    std::string gemm_why;
    if (c.amx && c.d.KH * c.d.KW == 1 && c.d.OCg >= 128
            && accepts_gemm(plan, isa, &gemm_why)) {
        if (why) *why = "AMX 1x1 with OC >= 128: conv_gemm is faster";
        return false;
    }
    return true;
}

status_t create_brg(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    brg_cfg_t c;
    std::string why;
    if (!configure_brg(plan, isa, rt::max_threads(), c, &why))
        return fail(dnnl_unimplemented, "cpu conv: %s", why.c_str());
    const std::string name = std::string("conv_brg_avx512")
            + (c.amx ? "_amx" : "") + (c.d.bf16() ? "_bf16" : "_f32")
            + (c.d.dst_dt == dnnl_bf16 ? "_bf16dst" : "");
    auto k = std::make_shared<conv_brg_kernel_t>(name, c);
    LLGA_RETURN_IF_ERROR(k->init());
    out = k;
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace llga
