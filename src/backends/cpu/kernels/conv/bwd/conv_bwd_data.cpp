// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/bwd/conv_bwd_data.cpp — "compute X"
// (ConvolutionBackward- Data, ConvTranspose) on the JIT GEMM. Per image and
// group, blocks of Y pixels become column panels
//   cols[p, (kd, kh, kw, xi)] = sum_cy Y[p, cy] * W[cy, xi, k]
// (one GEMM: M = pixels, K = Y channels of the group, N = KD*KH*KW*XCg, the
// weights reordered and packed once per execution), and col2im adds each
// panel row's taps into the X pixels they land on. X starts as the bias
// (ConvTranspose) or zero. Every X element receives its contributions in
// increasing Y-pixel order whatever the threading, so results do not
// depend on the thread count.
// 1x1 layers without stride or padding need no columns: X = Y x W^T
// directly. mode_t below says how the threads share the work.
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "backends/cpu/kernels/conv/bwd/conv_bwd_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv_bwd {

namespace {

using conv::conv_desc_t;

// Column panel bytes a single-threaded GEMM call aims for, and the fewest
// rows it takes even when the panel is larger (each call streams the
// group's weights once, so short calls would be bound by that).
constexpr int64_t k_cols_bytes = 256 * 1024;
constexpr int64_t k_min_rows = 96;
// Column panel bytes of one threaded GEMM call (whole-image mode).
constexpr int64_t k_big_cols_bytes = int64_t(16) << 20;

// dst[i] += src[i], i < n. Only reached through an avx2-or-better
// kernel-table line.
__attribute__((target("avx2"))) void add_f32(
        float *dst, const float *src, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i,
                _mm256_add_ps(_mm256_loadu_ps(dst + i),
                        _mm256_loadu_ps(src + i)));
    for (; i < n; ++i)
        dst[i] += src[i];
}

// How the work is laid on the threads.
enum class mode_t {
    // 1x1, stride 1, no padding: X = Y x W^T per group, one threaded GEMM
    // over all images straight into X (no columns, no col2im).
    direct,
    // At least as many (image, group) pairs as threads: one task each,
    // single-threaded GEMMs of k_cols_bytes panels.
    per_image,
    // Fewer: images and groups in turn, each a threaded GEMM over large
    // panels, then col2im threaded over bands of X rows.
    whole_image,
};

class data_kernel_t : public compiler::kernel_t {
public:
    explicit data_kernel_t(const bwd_desc_t &b) : b_(b) {}
    const char *name() const override { return name_.c_str(); }
    status_t init(int nthreads);
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    // Adds rows [0, rows) of `cols` (Y pixels p0..) into X's group base
    // `xg`, only the taps that land in X rows [h0, h1).
    void col2im(const float *cols, int64_t p0, int64_t rows, float *xg,
            const int64_t *xs, int64_t h0, int64_t h1) const;
    // The weights as B (in place, or reordered into `wb`), packed into
    // `packed` when every GEMM shares one packing; returns B's base.
    // `frame` holds the copies.
    const float *weights_b(
            const float *w, scratch_frame_t &frame, char **packed) const;
    void pack(const float *b, char *packed) const;
    void run_direct(
            const float *y, const float *wb, const char *packed, float *x) const;
    void run_columns(const float *y, int64_t yn, const float *wb,
            const char *packed, float *x, const int64_t *xs) const;

    bwd_desc_t b_;
    std::string name_;
    mode_t mode_ = mode_t::per_image;
    int nthreads_ = 1;
    int64_t kc_ = 0; // columns of a panel: KD*KH*KW*XCg
    int64_t mb_ = 0; // Y pixels per GEMM call
    bool y_in_place_ = false;
    int64_t qy_ = 0; // elements between Y pixels as the GEMM reads them
    // X written in place (unit channel stride; direct: uniform pixels too)
    bool x_in_place_ = false;
    std::map<int64_t, std::unique_ptr<gemm::gemm_t>> gemms_; // by rows
    // B read from the weights themselves when their (k, xi) walk is one
    // stride (XIO, or any 1x1): B[cy, (k, xi)] at cy * sbk + (k, xi) * sbn.
    // Else a [G][cy][k][xi] copy.
    bool w_in_place_ = false;
    int64_t sbk_ = 0, sbn_ = 1;
    bool prepack_ = false;
    size_t packed_bytes_ = 0; // per group
};

status_t data_kernel_t::init(int nthreads) {
    const conv_desc_t &d = b_.d;
    nthreads_ = nthreads;
    const int64_t P = d.opix();
    const bool one_to_one = d.ksize() == 1 && d.SD == 1 && d.SH == 1
            && d.SW == 1 && d.PD == 0 && d.PH == 0 && d.PW == 0
            && d.ID == d.OD && d.IH == d.OH && d.IW == d.OW;
    const int64_t qy = conv::pixel_stride(d.ds, d.OD, d.OH, d.OW);
    const int64_t qx = conv::pixel_stride(d.ss, d.ID, d.IH, d.IW);
    y_in_place_ = d.ds[1] == 1 && qy > 0;
    qy_ = y_in_place_ ? qy : d.OC();
    mode_ = one_to_one ? mode_t::direct
            : d.N * d.G >= nthreads ? mode_t::per_image
                                    : mode_t::whole_image;
    x_in_place_ = d.ss[1] == 1 && (mode_ != mode_t::direct || qx > 0);
    kc_ = d.ksize() * d.ICg;
    const int64_t ext[4] = {d.ICg, d.KW, d.KH, d.KD};
    const int64_t str[4] = {d.ws[1], d.ws[4], d.ws[3], d.ws[2]};
    const int64_t wcol = conv::collapse_stride(ext, str, 4);
    w_in_place_ = wcol > 0;
    sbk_ = w_in_place_ ? d.ws[0] : kc_;
    sbn_ = w_in_place_ ? wcol : 1;

    gemm::gemm_desc_t g;
    g.kind = b_.kind;
    g.N = kc_;
    g.K = d.OCg;
    g.sam = qy_;
    g.sak = 1;
    g.sbk = sbk_;
    g.sbn = sbn_;
    g.sdm = kc_;
    std::vector<int64_t> heights;
    int gemm_threads = 1;
    if (mode_ == mode_t::direct) {
        // All images in one GEMM (folded into M when the strides allow).
        int64_t xs[5];
        std::memcpy(xs, d.ss, sizeof(xs));
        if (!x_in_place_) dense_nxc_strides(d, true, xs);
        g.M = P;
        g.sdm = x_in_place_ ? qx : d.IC();
        g.batch = {d.N};
        g.a_bs = {y_in_place_ ? d.ds[0] : P * d.OC()};
        g.b_bs = {0};
        g.d_bs = {xs[0]};
        if (d.has_bias) g.post.ops.push_back(gemm::postop_t::make_sum());
        gemm::fold_batch_into_m(g);
        heights = {g.M};
        gemm_threads = nthreads;
    } else if (mode_ == mode_t::per_image) {
        mb_ = std::max(k_min_rows, round_up(k_cols_bytes / 4 / kc_, 12));
        mb_ = std::min(mb_, P);
        heights = {mb_, P % mb_};
    } else {
        mb_ = std::max(k_min_rows, round_up(k_big_cols_bytes / 4 / kc_, 12));
        mb_ = std::min(mb_, P);
        heights = {mb_, P % mb_};
        gemm_threads = nthreads;
    }
    for (int64_t m : heights) {
        if (m == 0 || gemms_.count(m)) continue;
        if (mode_ != mode_t::direct) g.M = m;
        auto gm = std::make_unique<gemm::gemm_t>();
        LLGA_RETURN_IF_ERROR(gm->init(g, gemm_threads));
        gemms_[m] = std::move(gm);
    }
    // The weights are packed once per execution for all GEMM calls only
    // when more than one task would pack them: a single use reads them
    // straight into its L2 block, and a prepack would add a write and a
    // read of the whole packed copy (mb1 res5 layers: 9.4 MiB).
    const gemm::gemm_t &first = *gemms_.begin()->second;
    const int64_t calls = mode_ == mode_t::direct ? 1 : d.N * div_up(P, mb_);
    prepack_ = first.can_prepack_b() && calls * first.b_block_uses() > 1;
    for (const auto &e : gemms_)
        prepack_ = prepack_ && e.second->same_b_packing(first);
    packed_bytes_ = prepack_ ? round_up(first.packed_b_bytes(), 64) : 0;
    const char *m = mode_ == mode_t::direct ? "1x1"
            : mode_ == mode_t::per_image    ? "col2im"
                                            : "col2im_mt";
    name_ = "conv_bwd_data_gemm_" + std::string(m) + "_"
            + gemm::ukr_name(b_.kind) + (d.nxc ? "" : "_ncx");
    return dnnl_success;
}

void data_kernel_t::col2im(const float *cols, int64_t p0, int64_t rows,
        float *xg, const int64_t *xs, int64_t h0, int64_t h1) const {
    const conv_desc_t &d = b_.d;
    const int64_t c = d.ICg;
    // Undilated taps along W on X pixels exactly c apart (one group, dense
    // channels) are one contiguous run of KW * c values on both sides:
    // conv1 (c = 3) would otherwise add 3 floats per call.
    const bool w_run = d.DW == 1 && xs[4] == c;
    int64_t od = p0 / (d.OH * d.OW), oh = p0 / d.OW % d.OH, ow = p0 % d.OW;
    for (int64_t r = 0; r < rows; ++r) {
        const float *row = cols + r * kc_;
        for (int64_t kd = 0; kd < d.KD; ++kd) {
            const int64_t xd = od * d.SD + kd * d.DD - d.PD;
            if (xd < 0 || xd >= d.ID) continue;
            for (int64_t kh = 0; kh < d.KH; ++kh) {
                const int64_t xh = oh * d.SH + kh * d.DH - d.PH;
                if (xh < h0 || xh >= h1) continue;
                const float *tap = row + (kd * d.KH + kh) * d.KW * c;
                float *xrow = xg + xd * xs[2] + xh * xs[3];
                const int64_t xw0 = ow * d.SW - d.PW;
                if (w_run) {
                    // The taps that land inside the row, as one run.
                    const int64_t lo = std::max<int64_t>(0, -xw0);
                    const int64_t hi = std::min(d.KW, d.IW - xw0);
                    if (hi > lo)
                        add_f32(xrow + (xw0 + lo) * c, tap + lo * c,
                                (hi - lo) * c);
                    continue;
                }
                for (int64_t kw = 0; kw < d.KW; ++kw) {
                    const int64_t xw = xw0 + kw * d.DW;
                    if (xw < 0 || xw >= d.IW) continue;
                    add_f32(xrow + xw * xs[4], tap + kw * c, c);
                }
            }
        }
        if (++ow == d.OW) {
            ow = 0;
            if (++oh == d.OH) {
                oh = 0;
                ++od;
            }
        }
    }
}

const float *data_kernel_t::weights_b(
        const float *w, scratch_frame_t &frame, char **packed) const {
    const conv_desc_t &d = b_.d;
    *packed = prepack_ ? static_cast<char *>(frame.take(
                      packed_bytes_ * static_cast<size_t>(d.G)))
                       : nullptr;
    if (w_in_place_) {
        pack(w, *packed);
        return w;
    }
    float *wb = static_cast<float *>(frame.take(
            static_cast<size_t>(d.G * d.OCg * kc_) * sizeof(float)));
    parallel_for(d.G * d.OCg, 16, [&](int64_t lo, int64_t hi) {
        for (int64_t gc = lo; gc < hi; ++gc) {
            float *o = wb + gc * kc_;
            for (int64_t kd = 0; kd < d.KD; ++kd)
                for (int64_t kh = 0; kh < d.KH; ++kh)
                    for (int64_t kw = 0; kw < d.KW; ++kw) {
                        const float *src = w + gc * d.ws[0] + kd * d.ws[2]
                                + kh * d.ws[3] + kw * d.ws[4];
                        for (int64_t xi = 0; xi < d.ICg; ++xi)
                            *o++ = src[xi * d.ws[1]];
                    }
        }
    });
    pack(wb, *packed);
    return wb;
}

void data_kernel_t::pack(const float *b, char *packed) const {
    if (!prepack_) return;
    const conv_desc_t &d = b_.d;
    const gemm::gemm_t &first = *gemms_.begin()->second;
    parallel_for(d.G, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t g = lo; g < hi; ++g)
            first.prepack_b(b + g * d.OCg * sbk_, packed + g * packed_bytes_);
    });
}

// The batch strides are in the GEMM descriptor; with a bias X holds it and
// the GEMM's sum epilogue adds onto it.
void data_kernel_t::run_direct(
        const float *y, const float *wb, const char *packed, float *x) const {
    const conv_desc_t &d = b_.d;
    const gemm::gemm_t &gm = *gemms_.begin()->second;
    for (int64_t g = 0; g < d.G; ++g)
        gm.execute(y + g * d.OCg, wb + g * d.OCg * sbk_, nullptr,
                x + g * d.ICg,
                prepack_ ? packed + g * packed_bytes_ : nullptr);
}

void data_kernel_t::run_columns(const float *y, int64_t yn,
        const float *wb, const char *packed, float *x,
        const int64_t *xs) const {
    const conv_desc_t &d = b_.d;
    const int64_t P = d.opix();
    auto packed_of = [&](int64_t g) {
        return prepack_ ? packed + g * packed_bytes_ : nullptr;
    };
    // Image n, group g: GEMM then col2im per block of Y pixels, col2im
    // threaded over `bands` bands of X rows when above one.
    auto run_pair = [&](int64_t n, int64_t g, float *cols, int64_t bands) {
        const float *yg = y + n * yn + g * d.OCg;
        float *xg = x + n * xs[0] + g * d.ICg;
        for (int64_t p0 = 0; p0 < P; p0 += mb_) {
            const int64_t rows = std::min(mb_, P - p0);
            gemms_.at(rows)->execute(yg + p0 * qy_, wb + g * d.OCg * sbk_,
                    nullptr, cols, packed_of(g));
            if (bands <= 1) {
                col2im(cols, p0, rows, xg, xs, 0, d.IH);
                continue;
            }
            parallel_for(bands, 1, [&](int64_t lo, int64_t hi) {
                col2im(cols, p0, rows, xg, xs, lo * d.IH / bands,
                        hi * d.IH / bands);
            });
        }
    };
    const size_t cols_bytes = static_cast<size_t>(mb_ * kc_) * sizeof(float);
    if (mode_ == mode_t::per_image) {
        parallel_for(d.N * d.G, 1, [&](int64_t lo, int64_t hi) {
            scratch_frame_t frame;
            float *cols = static_cast<float *>(frame.take(cols_bytes));
            for (int64_t t = lo; t < hi; ++t)
                run_pair(t / d.G, t % d.G, cols, 1);
        });
        return;
    }
    // whole_image: threaded GEMMs, col2im threaded over X row bands.
    scratch_frame_t frame;
    float *cols = static_cast<float *>(frame.take(cols_bytes));
    const int64_t bands = std::min<int64_t>(d.IH, 4 * nthreads_);
    for (int64_t n = 0; n < d.N; ++n)
        for (int64_t g = 0; g < d.G; ++g)
            run_pair(n, g, cols, bands);
}

status_t data_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = b_.d;
    const float *y = static_cast<const float *>(ctx.inputs[b_.y]);
    const float *w = static_cast<const float *>(ctx.inputs[b_.w]);
    const float *bias = b_.bias >= 0
            ? static_cast<const float *>(ctx.inputs[b_.bias])
            : nullptr;
    float *x_out = static_cast<float *>(ctx.outputs[b_.x]);

    // Y as the GEMM's A: in place, or a dense channel-last copy.
    scratch_frame_t frame;
    int64_t yn = 0;
    y = y_for_gemm(d, y, y_in_place_, frame, &yn);
    float *x = x_out;
    int64_t xs[5];
    std::memcpy(xs, d.ss, sizeof(xs));
    if (!x_in_place_) {
        dense_nxc_strides(d, true, xs);
        x = static_cast<float *>(frame.take(
                static_cast<size_t>(d.N * d.ID * d.IH * d.IW * d.IC())
                * sizeof(float)));
    }
    char *packed = nullptr;
    const float *wb = weights_b(w, frame, &packed);
    // X starts as the bias (per X channel) or 0; the direct GEMM without
    // a bias overwrites it whole.
    if (mode_ != mode_t::direct || bias)
        parallel_for(d.N * d.ID * d.IH, 4, [&](int64_t lo, int64_t hi) {
            for (int64_t t = lo; t < hi; ++t) {
                const int64_t n = t / (d.ID * d.IH), xd = t / d.IH % d.ID,
                              xh = t % d.IH;
                for (int64_t xw = 0; xw < d.IW; ++xw) {
                    float *px = x + n * xs[0] + xd * xs[2] + xh * xs[3]
                            + xw * xs[4];
                    for (int64_t c = 0; c < d.IC(); ++c)
                        px[c] = bias ? bias[c * d.bias_stride] : 0.f;
                }
            }
        });
    if (mode_ == mode_t::direct)
        run_direct(y, wb, packed, x);
    else
        run_columns(y, yn, wb, packed, x, xs);
    if (x != x_out) copy_f32(d, true, x, xs, x_out, d.ss);
    return dnnl_success;
}

} // namespace

status_t make_data_kernel(const bwd_desc_t &b,
        std::shared_ptr<const compiler::kernel_t> &out) {
    auto k = std::make_shared<data_kernel_t>(b);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace conv_bwd
} // namespace cpu
} // namespace llga
