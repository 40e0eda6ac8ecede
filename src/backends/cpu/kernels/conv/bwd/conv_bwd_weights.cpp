// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/bwd/conv_bwd_weights.cpp — "compute W"
// (Convolution- BackwardWeights, ConvTransposeBackwardWeights) on the JIT GEMM:
//   W[cy, xi, k] = sum_{n, p} X[n, p*S + k*D - PB, xi] * Y[n, p, cy]
// a reduction over every image and Y pixel. Each (image, block of Y
// pixels) item builds the im2col panel of each group (rows = Y pixels,
// columns (kd, kh, kw, xi), the forward kernels' builder; 1x1 layers
// without stride or padding read X itself) and adds
//   panel^T [KD*KH*KW*XCg x pixels] x Y [pixels x YCg]
// to an f32 accumulator with the GEMM's sum epilogue. With enough items
// they are cut into one contiguous slice per thread, each with its own
// accumulator, added in slice order at the end while being written to the
// weights' own layout; otherwise one slice runs threaded GEMMs, straight
// into the weights when they are XIO-like. A result depends on the thread
// count only through where the slices are cut, never on scheduling.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "backends/cpu/kernels/conv/bwd/conv_bwd_p.hpp"
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv_bwd {

namespace {

using conv::conv_desc_t;

// Y pixels per GEMM call (its K): at least k_min_rows, since every call
// reads and writes the whole [KD*KH*KW*XCg x YCg] accumulator, and more
// while the im2col panel stays under k_panel_bytes.
constexpr int64_t k_min_rows = 256;
constexpr int64_t k_panel_bytes = 512 * 1024;
// Weights (all groups) up to which the pixels are cut finer so that the
// reduction splits into per-thread slices (see init).
constexpr int64_t k_small_w = 32768;
// Accumulator memory all slices together may take; fewer slices past it.
constexpr int64_t k_acc_budget = int64_t(256) << 20;

class weights_kernel_t : public compiler::kernel_t {
public:
    explicit weights_kernel_t(const bwd_desc_t &b) : b_(b) {}
    const char *name() const override { return name_.c_str(); }
    status_t init(int nthreads);
    bool sized_for_threads() const override { return true; }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    // Adds the whole reduction of slice s (items [lo, hi)) into `acc`
    // (rows (k, xi) `ldacc` apart per group, groups `gstride` apart).
    void run_slice(const conv::nxc_view_t &xv, const float *y, int64_t yn,
            int64_t lo, int64_t hi, float *acc, int64_t gstride,
            float *panel) const;

    bwd_desc_t b_;
    std::string name_;
    int64_t kc_ = 0;      // panel columns: KD*KH*KW*XCg
    int64_t mb_ = 0;      // Y pixels per item
    int64_t nblk_ = 0;    // items per image
    int64_t slices_ = 1;
    bool y_in_place_ = false;
    int64_t qy_ = 0;      // elements between Y pixels as the GEMM reads them
    // 1x1, stride 1, no padding, X with uniform pixel stride qx_: the
    // GEMM reads X itself as A^T (no im2col panel).
    bool x_as_a_ = false;
    int64_t qx_ = 0;
    // Orientation: with unit cy stride in W (XIO-like) the GEMM's rows are
    // (k, xi) and its columns cy; otherwise (OIX-like, `by_cy_`) rows are
    // cy and columns (k, xi), so a row is one contiguous run of W.
    bool by_cy_ = false;
    // One slice and a W whose GEMM rows are `w_row_` apart with unit
    // column stride: the GEMMs accumulate straight into W.
    bool into_w_ = false;
    int64_t w_row_ = 0;
    int64_t rows_ = 0, cols_ = 0; // GEMM M and N per group
    std::map<int64_t, std::unique_ptr<gemm::gemm_t>> gemms_; // by pixels
};

status_t weights_kernel_t::init(int nthreads) {
    const conv_desc_t &d = b_.d;
    const int64_t P = d.opix();
    kc_ = d.ksize() * d.ICg;
    mb_ = std::min(P, std::max(k_min_rows, k_panel_bytes / 4 / kc_));
    // With small weights, enough items for two per thread when the pixels
    // allow (blocks of at least k_min_rows): the reduction then splits into
    // per-thread slices. A small W (M x N) gives the threaded GEMMs too few
    // and too small blocks, each packing all of Y again (mb 1, 56 x 56
    // pixels, 64 x 64 weights, two threads: 0.52x -> 0.75x of oneDNN);
    // from about 64K weights on, the slices' extra accumulators and final
    // sum cost more than that (res3_1x1_512_128, res4a_1x1_512_256).
    const int64_t want_blocks = div_up(2 * int64_t(nthreads), d.N);
    if (nthreads > 1 && d.G * kc_ * d.OCg <= k_small_w
            && div_up(P, mb_) < want_blocks)
        mb_ = std::min(mb_, std::max(k_min_rows, div_up(P, want_blocks)));
    nblk_ = div_up(P, mb_);
    // Slices cut the reduction; they pay an accumulator each and a final
    // sum, so only when every thread gets some whole items. Otherwise one
    // slice whose GEMMs thread over their rows and columns.
    const int64_t acc = d.G * kc_ * d.OCg * 4;
    slices_ = std::max<int64_t>(1,
            std::min<int64_t>({nthreads, d.N * nblk_ / 2,
                    std::max<int64_t>(1, k_acc_budget / acc)}));
    if (slices_ < nthreads) slices_ = 1;
    const int gemm_threads = slices_ == 1 ? nthreads : 1;
    const int64_t qy = conv::pixel_stride(d.ds, d.OD, d.OH, d.OW);
    y_in_place_ = d.ds[1] == 1 && qy > 0;
    qy_ = y_in_place_ ? qy : d.OC();
    const int64_t qx = conv::pixel_stride(d.ss, d.ID, d.IH, d.IW);
    x_as_a_ = d.ksize() == 1 && d.SD == 1 && d.SH == 1 && d.SW == 1
            && d.PD == 0 && d.PH == 0 && d.PW == 0 && d.ID == d.OD
            && d.IH == d.OH && d.IW == d.OW && d.ss[1] == 1 && qx > 0;
    qx_ = qx;
    by_cy_ = d.ws[0] != 1;
    const int64_t ext[4] = {d.ICg, d.KW, d.KH, d.KD};
    const int64_t str[4] = {d.ws[1], d.ws[4], d.ws[3], d.ws[2]};
    const int64_t kx_stride = conv::collapse_stride(ext, str, 4);
    if (!by_cy_) {
        w_row_ = kx_stride;
        into_w_ = slices_ == 1 && w_row_ > 0;
    } else {
        w_row_ = d.ws[0];
        into_w_ = slices_ == 1 && kx_stride == 1;
    }
    rows_ = by_cy_ ? d.OCg : kc_;
    cols_ = by_cy_ ? kc_ : d.OCg;

    // X's panel (or X) and Y, as A^T / B or A / B^T by orientation.
    const int64_t xk = x_as_a_ ? qx_ : kc_;
    gemm::gemm_desc_t g;
    g.kind = b_.kind;
    g.M = rows_;
    g.N = cols_;
    g.sam = 1;
    g.sak = by_cy_ ? qy_ : xk;
    g.sbk = by_cy_ ? xk : qy_;
    g.sbn = 1;
    g.sdm = into_w_ ? w_row_ : cols_;
    g.b_prepacked = false;
    g.post.ops.push_back(gemm::postop_t::make_sum());
    for (int64_t k : {mb_, P % mb_}) {
        if (k == 0 || gemms_.count(k)) continue;
        g.K = k;
        auto gm = std::make_unique<gemm::gemm_t>();
        LLGA_RETURN_IF_ERROR(gm->init(g, gemm_threads));
        gemms_[k] = std::move(gm);
    }
    name_ = "conv_bwd_weights_gemm_" + std::string(x_as_a_ ? "1x1" : "im2col")
            + (slices_ > 1 ? "_sliced_" : "_") + gemm::ukr_name(b_.kind)
            + (d.nxc ? "" : "_ncx");
    return dnnl_success;
}

void weights_kernel_t::run_slice(const conv::nxc_view_t &xv, const float *y,
        int64_t yn, int64_t lo, int64_t hi, float *acc, int64_t gstride,
        float *panel) const {
    const conv_desc_t &d = b_.d;
    const int64_t P = d.opix();
    const float *x = reinterpret_cast<const float *>(xv.p);
    for (int64_t it = lo; it < hi; ++it) {
        const int64_t n = it / nblk_, p0 = it % nblk_ * mb_;
        const int64_t rows = std::min(mb_, P - p0);
        const gemm::gemm_t &gm = *gemms_.at(rows);
        for (int64_t g = 0; g < d.G; ++g) {
            const float *a = panel;
            if (x_as_a_)
                a = x + n * xv.s[0] + p0 * qx_ + g * d.ICg;
            else
                conv::im2col_nxc(d, xv, n, g, p0, rows,
                        reinterpret_cast<char *>(panel), kc_);
            const float *yb = y + n * yn + p0 * qy_ + g * d.OCg;
            if (by_cy_)
                gm.execute(yb, a, nullptr, acc + g * gstride);
            else
                gm.execute(a, yb, nullptr, acc + g * gstride);
        }
    }
}

status_t weights_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = b_.d;
    const float *x = static_cast<const float *>(ctx.inputs[b_.x]);
    const float *y = static_cast<const float *>(ctx.inputs[b_.y]);
    float *w = static_cast<float *>(ctx.outputs[b_.w]);

    // X for im2col needs unit channel stride; Y as B a uniform pixel
    // stride too. Otherwise dense channel-last copies.
    scratch_frame_t frame;
    conv::nxc_view_t xv;
    xv.p = reinterpret_cast<const char *>(x);
    std::memcpy(xv.s, d.ss, sizeof(xv.s));
    if (d.ss[1] != 1) {
        dense_nxc_strides(d, true, xv.s);
        float *copy = static_cast<float *>(frame.take(
                static_cast<size_t>(d.N * d.ID * d.IH * d.IW * d.IC())
                * sizeof(float)));
        copy_f32(d, true, x, d.ss, copy, xv.s);
        xv.p = reinterpret_cast<const char *>(copy);
    }
    int64_t yn = 0;
    y = y_for_gemm(d, y, y_in_place_, frame, &yn);
    const int64_t items = d.N * nblk_;
    const size_t panel_bytes = x_as_a_
            ? 64
            : static_cast<size_t>(mb_ * kc_) * sizeof(float);

    if (into_w_) {
        // W's own rows start at zero and take every GEMM's sum. A group
        // starts at its first output channel.
        const int64_t gstride = d.OCg * d.ws[0];
        parallel_for(d.G * rows_, 64, [&](int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r)
                std::memset(w + (r / rows_) * gstride + (r % rows_) * w_row_,
                        0, static_cast<size_t>(cols_) * sizeof(float));
        });
        run_slice(xv, y, yn, 0, items, w, gstride,
                static_cast<float *>(frame.take(panel_bytes)));
        return dnnl_success;
    }

    const int64_t acc_elems = d.G * kc_ * d.OCg;
    // One accumulator per slice, zeroed by the thread that sums into it.
    float *acc = static_cast<float *>(frame.take(
            static_cast<size_t>(slices_ * acc_elems) * sizeof(float)));
    parallel_for(slices_, 1, [&](int64_t lo, int64_t hi) {
        scratch_frame_t thread_frame;
        float *panel = static_cast<float *>(thread_frame.take(panel_bytes));
        for (int64_t s = lo; s < hi; ++s) {
            float *sacc = acc + s * acc_elems;
            std::memset(sacc, 0, static_cast<size_t>(acc_elems) * sizeof(float));
            run_slice(xv, y, yn, s * items / slices_,
                    (s + 1) * items / slices_, sacc, kc_ * d.OCg, panel);
        }
    });

    // W[g*YCg + j, xi, k] = sum over slices of acc[s][g][j][(k, xi)]
    // (by_cy_) or acc[s][g][(k, xi)][j], walking W's rows.
    auto slice_sum = [&](int64_t at) {
        float sum = acc[at];
        for (int64_t s = 1; s < slices_; ++s)
            sum += acc[s * acc_elems + at];
        return sum;
    };
    if (by_cy_) {
        parallel_for(d.G * d.OCg, 4, [&](int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
                float *wr = w + r * d.ws[0];
                int64_t kx = 0;
                for (int64_t kd = 0; kd < d.KD; ++kd)
                    for (int64_t kh = 0; kh < d.KH; ++kh)
                        for (int64_t kw = 0; kw < d.KW; ++kw)
                            for (int64_t xi = 0; xi < d.ICg; ++xi, ++kx)
                                wr[xi * d.ws[1] + kd * d.ws[2] + kh * d.ws[3]
                                        + kw * d.ws[4]]
                                        = slice_sum(r * kc_ + kx);
            }
        });
        return dnnl_success;
    }
    parallel_for(d.G * kc_, 16, [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
            const int64_t g = r / kc_, kx = r % kc_;
            const int64_t xi = kx % d.ICg, k = kx / d.ICg;
            const int64_t kw = k % d.KW, kh = k / d.KW % d.KH,
                          kd = k / (d.KW * d.KH);
            float *wr = w + g * d.OCg * d.ws[0] + xi * d.ws[1] + kd * d.ws[2]
                    + kh * d.ws[3] + kw * d.ws[4];
            for (int64_t j = 0; j < d.OCg; ++j)
                wr[j * d.ws[0]] = slice_sum(r * d.OCg + j);
        }
    });
    return dnnl_success;
}

} // namespace

status_t make_weights_kernel(const bwd_desc_t &b,
        std::shared_ptr<const compiler::kernel_t> &out) {
    auto k = std::make_shared<weights_kernel_t>(b);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace conv_bwd
} // namespace cpu
} // namespace llga
