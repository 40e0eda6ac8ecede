// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/batchnorm_bwd.cpp — BatchNormTrainingBackward (see
// batchnorm_bwd.hpp): the non-channel dims merged into rows and an inner
// run, the per-channel sums threaded over channels (or channel blocks),
// then diff_src threaded over rows, channels and runs; the sums of
// channel-first planes run four channels side by side (each channel's
// two sums are chains of dependent adds). bf16/f16 data run the same
// block loops on pieces of (positions x channels) widened into L1
// buffers, gathered when strided, the diff_src pieces narrowed back.
#include "backends/cpu/kernels/norm/batchnorm_bwd.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/norm/norm_types_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace batchnorm_bwd {

namespace {

// Channel-last sums run on whole pixels unless that leaves threads idle;
// then on channel blocks, a multiple of this many and at least twice it
// (narrower blocks read only part of each pixel's cache lines, which
// costs more than the idle threads). The elements one diff_src task
// writes at least.
constexpr int64_t k_channel_step = 16;
constexpr int64_t k_task_elems = 16384;
// Elements of one widened piece of 16-bit data (4 KB as f32).
constexpr int64_t k_piece = 1024;
// Channels one sums task of 16-bit planes carries (see plane_sums).
constexpr int64_t k_plane_group = 4;
// Floats between the starts of two such buffers: 64 bytes more than a
// piece, so that the same element of two buffers is not 4 KB apart (the
// loads of one would wait on the stores to the other: 4K aliasing).
constexpr int64_t k_stride = k_piece + 16;

// The three data tensors: src, diff_dst, diff_src.
enum { k_src, k_dd, k_ds, k_data };
// The per-channel vectors: mean, variance, gamma, diff_gamma, diff_beta.
enum { k_mean, k_var, k_gamma, k_dg, k_db, k_vecs };

struct layout_t {
    int in[k_data + k_vecs];  // ports of src, diff_dst, then the vectors
    int out[k_data + k_vecs]; // ports of diff_src, diff_gamma, diff_beta
    int64_t c = 0, m = 0;     // channels, elements per channel
    // The non-channel dims in the reference's (row-major) order, size-1
    // dims dropped and neighbours merged where all three tensors allow:
    // dims [0, nd - 1) make the rows, dim nd - 1 the inner run.
    int nd = 0;
    int64_t dims[DNNL_MAX_NDIMS];
    int64_t st[k_data][DNNL_MAX_NDIMS];
    int64_t cst[k_data];   // channel strides
    int64_t vst[k_vecs];   // strides of the per-channel vectors
    bool channels = false; // unit channel stride on all three
    // Channels one sums task carries (planes: up to k_plane_group, 1
    // for f32 planes whose runs are strided).
    int64_t sum_cb = 1;
    // src, diff_dst, diff_src; the per-channel vectors (f32, or bf16 with
    // bf16 data).
    data_type_t dt = dnnl_f32, pdt = dnnl_f32;
    double eps = 0;
};

// What diff_src needs of each channel, from the reference's expressions.
struct per_channel_t {
    std::vector<double> mu, inv, gi, mean_dy, sum_dy_xh;
};

// Element offsets of row r in the three tensors.
void row_offsets(const layout_t &l, int64_t r, int64_t *off) {
    for (int k = 0; k < k_data; ++k)
        off[k] = 0;
    for (int j = l.nd - 2; j >= 0; --j) {
        const int64_t i = r % l.dims[j];
        r /= l.dims[j];
        for (int k = 0; k < k_data; ++k)
            off[k] += i * l.st[k][j];
    }
}

// The loops on blocks of ni positions x cw channels (cw = 1 unless
// Channels), element (i, c) of a tensor at p[i * stride + c]: the f32
// walks run them on the tensors, the 16-bit walks on widened pieces.

// sdy += dy and sdx += dy xh per channel, positions ascending.
template <bool Channels>
inline void add_sums(const float *x, int64_t xs, const float *dy, int64_t ys,
        int64_t ni, int64_t cw_, const double *mu, const double *inv,
        double *sdy, double *sdx) {
    if (!Channels) { // one channel: its two sums in registers (sdy may
                     // alias mu or inv for all the compiler knows)
        const double m = mu[0], iv = inv[0];
        double sy = sdy[0], sx = sdx[0];
        for (int64_t i = 0; i < ni; ++i) {
            const double g = dy[i * ys];
            sy += g;
            sx += g * (double(x[i * xs]) - m) * iv;
        }
        sdy[0] = sy;
        sdx[0] = sx;
        return;
    }
    const int64_t cw = cw_;
    for (int64_t i = 0; i < ni; ++i) {
        const float *px = x + i * xs, *py = dy + i * ys;
        for (int64_t c = 0; c < cw; ++c) {
            const double g = py[c];
            sdy[c] += g;
            sdx[c] += g * (double(px[c]) - mu[c]) * inv[c];
        }
    }
}

// diff_src: g inv (dy - sum_dy / m - xh sum_dy_xh / m), with g inv and
// sum_dy / m formed once per channel (the same values the reference's
// left-to-right evaluation forms); pc's vectors from the block's first
// channel.
template <bool Channels>
inline void diff_src_block(const float *x, int64_t xs, const float *dy,
        int64_t ys, float *ds, int64_t os, int64_t ni, int64_t cw_,
        const per_channel_t &pc, int64_t c0, double md) {
    const int64_t cw = Channels ? cw_ : 1;
    const double *mu = pc.mu.data() + c0, *inv = pc.inv.data() + c0,
                 *gi = pc.gi.data() + c0, *mdy = pc.mean_dy.data() + c0,
                 *sdx = pc.sum_dy_xh.data() + c0;
    for (int64_t i = 0; i < ni; ++i) {
        const float *px = x + i * xs, *py = dy + i * ys;
        float *pd = ds + i * os;
        for (int64_t c = 0; c < cw; ++c) {
            const double xh = (double(px[c]) - mu[c]) * inv[c];
            pd[c] = static_cast<float>(
                    gi[c] * (double(py[c]) - mdy[c] - xh * sdx[c] / md));
        }
    }
}

// Channels [c0, c0 + cw) (cw = 1 unless channel-last): sum of diff_dst and
// of diff_dst times the normalized source, rows then the inner run
// ascending, as the reference walks them. (This and diff_src_run take
// AVX2, which kernels.def guarantees, for the loops inlined into them:
// four doubles per vector, and per division; no FMA, so they round as
// before.)
template <bool Channels>
__attribute__((target("avx2"))) void channel_sums(const layout_t &l,
        const float *x, const float *dy, const per_channel_t &pc, int64_t c0,
        int64_t cw, double *sdy, double *sdx) {
    const int64_t rows = l.m / l.dims[l.nd - 1], run = l.dims[l.nd - 1];
    const int64_t xi = l.st[k_src][l.nd - 1], yi = l.st[k_dd][l.nd - 1];
    for (int64_t c = 0; c < (Channels ? cw : 1); ++c)
        sdy[c] = sdx[c] = 0.0;
    int64_t off[k_data];
    for (int64_t r = 0; r < rows; ++r) {
        row_offsets(l, r, off);
        add_sums<Channels>(x + off[k_src] + c0 * l.cst[k_src], xi,
                dy + off[k_dd] + c0 * l.cst[k_dd], yi, run, cw,
                pc.mu.data() + c0, pc.inv.data() + c0, sdy, sdx);
    }
}

// diff_src of channels [c0, c0 + cw) over inner positions [i0, i1) of
// row r.
template <bool Channels>
__attribute__((target("avx2"))) void diff_src_run(const layout_t &l,
        const float *x, const float *dy, float *ds, const per_channel_t &pc,
        int64_t r, int64_t c0, int64_t cw, int64_t i0, int64_t i1) {
    const int last = l.nd - 1;
    int64_t off[k_data];
    row_offsets(l, r, off);
    const int64_t xs = l.st[k_src][last], ys = l.st[k_dd][last],
                  os = l.st[k_ds][last];
    diff_src_block<Channels>(x + off[k_src] + c0 * l.cst[k_src] + i0 * xs, xs,
            dy + off[k_dd] + c0 * l.cst[k_dd] + i0 * ys, ys,
            ds + off[k_ds] + c0 * l.cst[k_ds] + i0 * os, os, i1 - i0, cw, pc,
            c0, static_cast<double>(l.m));
}

// ---- 16-bit data ------------------------------------------------------

// f(i0, ni, c0, w) over the pieces of a positions x channels block, each
// at most k_piece elements: whole positions when their channels fit,
// else pieces of one position's channels; positions ascending, so every
// channel's sums keep their order.
template <typename F>
void for_pieces(int64_t n, int64_t cw, F &&f) {
    if (n <= 0 || cw <= 0) return;
    if (cw <= k_piece) {
        const int64_t nb = k_piece / cw;
        for (int64_t i0 = 0; i0 < n; i0 += nb)
            f(i0, std::min(nb, n - i0), int64_t(0), cw);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c0 = 0; c0 < cw; c0 += k_piece)
            f(i, int64_t(1), c0, std::min(k_piece, cw - c0));
}

// ni x w elements, (i, c) at src[i * rs + c * cs], into buf[i * w + c];
// one channel goes as one strided row (vectorised when rs is 1).
void widen_block(const uint16_t *src, data_type_t dt, int64_t ni, int64_t w,
        int64_t rs, int64_t cs, float *buf) {
    if (w == 1)
        common::widen_matrix(src, dt, 1, ni, 0, rs, buf);
    else
        common::widen_matrix(src, dt, ni, w, rs, cs, buf);
}

// The reverse: buf[i * w + c] rounded into dst[i * rs + c * cs].
void narrow_block(const float *buf, int64_t ni, int64_t w, int64_t rs,
        int64_t cs, uint16_t *dst, data_type_t dt) {
    if ((w == 1 && rs == 1) || (cs == 1 && rs == w)) {
        common::narrow_row(buf, ni * w, dst, dt);
    } else if (cs == 1 && w > 1) {
        for (int64_t i = 0; i < ni; ++i)
            common::narrow_row(buf + i * w, w, dst + i * rs, dt);
    } else {
        for (int64_t i = 0; i < ni; ++i)
            for (int64_t c = 0; c < w; ++c)
                ir::store_value(dt, dst, i * rs + c * cs, buf[i * w + c]);
    }
}

// channel_sums on 16-bit channel-last data: each row's block of
// positions x channels widened piece by piece.
__attribute__((target("avx2"))) void channel_sums_half(const layout_t &l,
        const uint16_t *x,
        const uint16_t *dy, const per_channel_t &pc, int64_t c0, int64_t cw,
        double *sdy, double *sdx) {
    const int64_t rows = l.m / l.dims[l.nd - 1], run = l.dims[l.nd - 1];
    const int64_t xi = l.st[k_src][l.nd - 1], yi = l.st[k_dd][l.nd - 1];
    const int64_t xc = l.cst[k_src], yc = l.cst[k_dd];
    for (int64_t c = 0; c < cw; ++c)
        sdy[c] = sdx[c] = 0.0;
    alignas(64) float buf[2 * k_stride];
    float *bx = buf, *by = buf + k_stride;
    int64_t off[k_data];
    for (int64_t r = 0; r < rows; ++r) {
        row_offsets(l, r, off);
        const uint16_t *xr = x + off[k_src] + c0 * xc;
        const uint16_t *yr = dy + off[k_dd] + c0 * yc;
        for_pieces(run, cw, [&](int64_t i0, int64_t ni, int64_t j0, int64_t w) {
            widen_block(xr + i0 * xi + j0 * xc, l.dt, ni, w, xi, xc, bx);
            widen_block(yr + i0 * yi + j0 * yc, l.dt, ni, w, yi, yc, by);
            add_sums<true>(bx, w, by, w, ni, w, pc.mu.data() + c0 + j0,
                    pc.inv.data() + c0 + j0, sdy + j0, sdx + j0);
        });
    }
}

// add_sums of R planes side by side (R channels, or cw <= k_plane_group
// when R is 0), plane q's run of p positions at x[q * ldx] and dy[q *
// ldy] (in place in f32 tensors, or widened pieces): one plane's sums
// are two chains of dependent adds, which their latency bounds; R planes
// make 2 R independent chains, each in its order.
template <int R>
inline void plane_sums(const float *x, int64_t ldx, const float *dy,
        int64_t ldy, int64_t p, int64_t cw_, const double *mu,
        const double *inv, double *sdy, double *sdx) {
    const int64_t cw = R ? R : cw_;
    double sy[k_plane_group], sx[k_plane_group], m[k_plane_group],
            iv[k_plane_group];
    for (int64_t q = 0; q < cw; ++q) {
        sy[q] = sdy[q];
        sx[q] = sdx[q];
        m[q] = mu[q];
        iv[q] = inv[q];
    }
    for (int64_t i = 0; i < p; ++i)
        for (int64_t q = 0; q < cw; ++q) {
            const double g = dy[q * ldy + i];
            sy[q] += g;
            sx[q] += g * (double(x[q * ldx + i]) - m[q]) * iv[q];
        }
    for (int64_t q = 0; q < cw; ++q) {
        sdy[q] = sy[q];
        sdx[q] = sx[q];
    }
}

// channel_sums of cw <= k_plane_group channels of f32 planes whose runs
// have unit stride, read in place, the planes' sums side by side. AVX2
// (kernels.def) for the loop inlined here; no FMA.
__attribute__((target("avx2"))) void plane_sums_f32(const layout_t &l,
        const float *x, const float *dy, const per_channel_t &pc, int64_t c0,
        int64_t cw, double *sdy, double *sdx) {
    const int64_t rows = l.m / l.dims[l.nd - 1], run = l.dims[l.nd - 1];
    const int64_t xc = l.cst[k_src], yc = l.cst[k_dd];
    for (int64_t c = 0; c < cw; ++c)
        sdy[c] = sdx[c] = 0.0;
    const double *mu = pc.mu.data() + c0, *inv = pc.inv.data() + c0;
    int64_t off[k_data];
    for (int64_t r = 0; r < rows; ++r) {
        row_offsets(l, r, off);
        const float *xr = x + off[k_src] + c0 * xc;
        const float *yr = dy + off[k_dd] + c0 * yc;
        if (cw == k_plane_group)
            plane_sums<k_plane_group>(
                    xr, xc, yr, yc, run, cw, mu, inv, sdy, sdx);
        else
            plane_sums<0>(xr, xc, yr, yc, run, cw, mu, inv, sdy, sdx);
    }
}

// channel_sums on 16-bit data of other strides: the planes of cw <=
// k_plane_group channels, each row's runs in pieces of k_piece /
// k_plane_group positions per channel widened side by side.
__attribute__((target("avx2"))) void plane_sums_half(const layout_t &l,
        const uint16_t *x, const uint16_t *dy,
        const per_channel_t &pc, int64_t c0, int64_t cw, double *sdy,
        double *sdx) {
    constexpr int64_t P = k_piece / k_plane_group;
    const int64_t rows = l.m / l.dims[l.nd - 1], run = l.dims[l.nd - 1];
    const int64_t xi = l.st[k_src][l.nd - 1], yi = l.st[k_dd][l.nd - 1];
    const int64_t xc = l.cst[k_src], yc = l.cst[k_dd];
    for (int64_t c = 0; c < cw; ++c)
        sdy[c] = sdx[c] = 0.0;
    alignas(64) float buf[2 * k_stride];
    float *bx = buf, *by = buf + k_stride;
    const double *mu = pc.mu.data() + c0, *inv = pc.inv.data() + c0;
    int64_t off[k_data];
    for (int64_t r = 0; r < rows; ++r) {
        row_offsets(l, r, off);
        for (int64_t i0 = 0; i0 < run; i0 += P) {
            const int64_t p = std::min(P, run - i0);
            for (int64_t q = 0; q < cw; ++q) {
                widen_block(x + off[k_src] + (c0 + q) * xc + i0 * xi, l.dt, p,
                        1, xi, xc, bx + q * P);
                widen_block(dy + off[k_dd] + (c0 + q) * yc + i0 * yi, l.dt, p,
                        1, yi, yc, by + q * P);
            }
            if (cw == k_plane_group)
                plane_sums<k_plane_group>(
                        bx, P, by, P, p, cw, mu, inv, sdy, sdx);
            else
                plane_sums<0>(bx, P, by, P, p, cw, mu, inv, sdy, sdx);
        }
    }
}

// diff_src_run on 16-bit data: pieces widened, computed, narrowed.
// (The 16-bit walks take AVX2, which kernels.def guarantees, for the
// loops inlined into them: four doubles per division; no FMA, so they
// round as before.)
template <bool Channels>
__attribute__((target("avx2"))) void diff_src_run_half(const layout_t &l, const uint16_t *x,
        const uint16_t *dy, uint16_t *ds, const per_channel_t &pc, int64_t r,
        int64_t c0, int64_t cw_, int64_t i0, int64_t i1) {
    const int64_t cw = Channels ? cw_ : 1;
    const int last = l.nd - 1;
    const int64_t xi = l.st[k_src][last], yi = l.st[k_dd][last],
                  oi = l.st[k_ds][last];
    const int64_t xc = l.cst[k_src], yc = l.cst[k_dd], oc = l.cst[k_ds];
    alignas(64) float buf[3 * k_stride];
    float *bx = buf, *by = buf + k_stride, *bo = buf + 2 * k_stride;
    int64_t off[k_data];
    row_offsets(l, r, off);
    const uint16_t *xr = x + off[k_src] + c0 * xc + i0 * xi;
    const uint16_t *yr = dy + off[k_dd] + c0 * yc + i0 * yi;
    uint16_t *dr = ds + off[k_ds] + c0 * oc + i0 * oi;
    for_pieces(i1 - i0, cw, [&](int64_t p0, int64_t ni, int64_t j0, int64_t w) {
        widen_block(xr + p0 * xi + j0 * xc, l.dt, ni, w, xi, xc, bx);
        widen_block(yr + p0 * yi + j0 * yc, l.dt, ni, w, yi, yc, by);
        diff_src_block<Channels>(bx, w, by, w, bo, w, ni, w, pc, c0 + j0,
                static_cast<double>(l.m));
        narrow_block(bo, ni, w, oi, oc, dr + p0 * oi + j0 * oc, l.dt);
    });
}

class bn_bwd_kernel_t : public compiler::kernel_t {
public:
    explicit bn_bwd_kernel_t(layout_t l)
        : l_(l)
        , name_(std::string(l.channels ? "batchnorm_backward_channels_"
                                       : "batchnorm_backward_")
                  + ir::dtype_name(l.dt)) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        // The per-channel vectors (f32 or bf16), read and written as the
        // reference does: through double, stored rounded to f32 first.
        auto vec = [&](int k, int64_t c) {
            return ir::load_value(l.pdt, ctx.inputs[l.in[k_data + k]],
                    c * l.vst[k]);
        };
        auto put = [&](int k, int64_t c, double v) {
            ir::store_value(l.pdt, ctx.outputs[l.out[k_data + k]], c * l.vst[k],
                    static_cast<float>(v));
        };
        const bool has_gamma = l.in[k_data + k_gamma] >= 0;
        const bool has_dg = l.out[k_data + k_dg] >= 0,
                   has_db = l.out[k_data + k_db] >= 0;
        const size_t C = static_cast<size_t>(l.c);
        per_channel_t pc;
        pc.mu.resize(C);
        pc.inv.resize(C);
        pc.gi.resize(C);
        pc.mean_dy.resize(C);
        pc.sum_dy_xh.resize(C);
        for (int64_t c = 0; c < l.c; ++c) {
            const size_t k = static_cast<size_t>(c);
            pc.mu[k] = vec(k_mean, c);
            pc.inv[k] = 1.0 / std::sqrt(vec(k_var, c) + l.eps);
            const double g = has_gamma ? vec(k_gamma, c) : 1.0;
            pc.gi[k] = g * pc.inv[k];
        }
        const bool half = l.dt != dnnl_f32;
        const void *x = ctx.inputs[l.in[k_src]], *dy = ctx.inputs[l.in[k_dd]];
        void *ds = ctx.outputs[l.out[k_ds]];
        const auto *xf = static_cast<const float *>(x),
                   *yf = static_cast<const float *>(dy);
        const auto *xh = static_cast<const uint16_t *>(x),
                   *yh = static_cast<const uint16_t *>(dy);
        const int64_t cb = l.sum_cb, groups = div_up(l.c, cb);
        const double md = static_cast<double>(l.m);
        parallel_for(groups, 1, [&](int64_t b, int64_t e) {
            std::vector<double> sdy(static_cast<size_t>(cb)), sdx(sdy);
            double *py = sdy.data(), *px = sdx.data();
            for (int64_t t = b; t < e; ++t) {
                const int64_t c0 = t * cb, cw = std::min(cb, l.c - c0);
                if (half && l.channels)
                    channel_sums_half(l, xh, yh, pc, c0, cw, py, px);
                else if (half)
                    plane_sums_half(l, xh, yh, pc, c0, cw, py, px);
                else if (l.channels)
                    channel_sums<true>(l, xf, yf, pc, c0, cw, py, px);
                else if (cb > 1)
                    plane_sums_f32(l, xf, yf, pc, c0, cw, py, px);
                else
                    channel_sums<false>(l, xf, yf, pc, c0, cw, py, px);
                for (int64_t c = 0; c < cw; ++c) {
                    const size_t k = static_cast<size_t>(c0 + c);
                    const double sy = sdy[static_cast<size_t>(c)];
                    const double sx = sdx[static_cast<size_t>(c)];
                    pc.mean_dy[k] = sy / md;
                    pc.sum_dy_xh[k] = sx;
                    if (has_dg) put(k_dg, c0 + c, sx);
                    if (has_db) put(k_db, c0 + c, sy);
                }
            }
        });
        // diff_src: units of (row, channel, piece of the inner run), all
        // channels at once for channel-last tensors.
        const int64_t run = l.dims[l.nd - 1], rows = l.m / run;
        const int64_t cw = l.channels ? l.c : 1, chans = l.channels ? 1 : l.c;
        const int64_t piece = std::max<int64_t>(1, k_task_elems / cw);
        const int64_t pieces = div_up(run, piece);
        const int64_t unit = std::min(run, piece) * cw;
        const int64_t grain = std::max<int64_t>(1, k_task_elems / unit);
        parallel_for(rows * chans * pieces, grain, [&](int64_t b, int64_t e) {
            for (int64_t u = b; u < e; ++u) {
                const int64_t p = u % pieces, c0 = (u / pieces) % chans;
                const int64_t r = u / (pieces * chans);
                const int64_t i0 = p * piece, i1 = std::min(run, i0 + piece);
                if (half) {
                    auto *o = static_cast<uint16_t *>(ds);
                    if (l.channels)
                        diff_src_run_half<true>(l, xh, yh, o, pc, r, 0, cw, i0, i1);
                    else
                        diff_src_run_half<false>(l, xh, yh, o, pc, r, c0, 1, i0, i1);
                    continue;
                }
                auto *o = static_cast<float *>(ds);
                if (l.channels)
                    diff_src_run<true>(l, xf, yf, o, pc, r, 0, cw, i0, i1);
                else
                    diff_src_run<false>(l, xf, yf, o, pc, r, c0, 1, i0, i1);
            }
        });
        return dnnl_success;
    }

private:
    layout_t l_;
    std::string name_;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_batch_norm_backward)
        return decline(why, "not BatchNormTrainingBackward");
    if (op->inputs.size() < 4 || op->inputs.size() > 5 || op->outputs.empty()
            || op->outputs.size() > 3)
        return decline(why, "unexpected port count");
    if (!norm_types(*op, 2, "src, diff_dst and diff_src",
                "per-channel tensors", l.dt, l.pdt, why))
        return false;
    const logical_tensor_t *data[k_data] = {
            &op->inputs[0], &op->inputs[1], &op->outputs[0]};
    const logical_tensor_t &x = *data[k_src];
    if (x.ndims < 2) return decline(why, "rank below 2");
    if (ir::dims_of(*data[k_dd]) != ir::dims_of(x)
            || ir::dims_of(*data[k_ds]) != ir::dims_of(x))
        return decline(why, "src, diff_dst and diff_src shapes differ");
    const int cax = ops::iequals(
                            op->get_str(dnnl_graph_op_attr_data_format, "NXC"),
                            "NXC")
            ? x.ndims - 1
            : 1;
    l.c = x.dims[cax];
    // The per-channel vectors, -1 where absent.
    const logical_tensor_t *vec[k_vecs] = {&op->inputs[2], &op->inputs[3],
            op->inputs.size() > 4 ? &op->inputs[4] : nullptr,
            op->outputs.size() > 1 ? &op->outputs[1] : nullptr,
            op->outputs.size() > 2 ? &op->outputs[2] : nullptr};
    for (int k = 0; k < k_data + k_vecs; ++k)
        l.in[k] = l.out[k] = -1;
    for (int k = 0; k < k_vecs; ++k) {
        l.vst[k] = 0;
        if (!vec[k]) continue;
        if (vec[k]->ndims != 1 || vec[k]->dims[0] != l.c)
            return decline(
                    why, "per-channel tensors must be 1-D with C values");
        l.vst[k] = vec[k]->layout.strides[0];
        const bool is_out = k >= k_dg;
        int &port = (is_out ? l.out : l.in)[k_data + k];
        port = compiler::find_port(
                is_out ? plan.outputs : plan.inputs, vec[k]->id);
        if (port < 0) return decline(why, "ports not found");
    }
    l.in[k_src] = compiler::find_port(plan.inputs, data[k_src]->id);
    l.in[k_dd] = compiler::find_port(plan.inputs, data[k_dd]->id);
    l.out[k_ds] = compiler::find_port(plan.outputs, data[k_ds]->id);
    if (l.in[k_src] < 0 || l.in[k_dd] < 0 || l.out[k_ds] < 0)
        return decline(why, "ports not found");
    // Merge: a dim folds into the one before it when, in all three
    // tensors, that one's stride is this one's size times its stride.
    l.nd = 0;
    l.m = 1;
    for (int d = 0; d < x.ndims; ++d) {
        if (d == cax) continue;
        const int64_t n = x.dims[d];
        l.m *= n;
        if (n == 1) continue;
        bool merge = l.nd > 0;
        for (int k = 0; k < k_data && merge; ++k)
            merge = l.st[k][l.nd - 1] == n * data[k]->layout.strides[d];
        if (!merge) l.dims[l.nd++] = 1;
        l.dims[l.nd - 1] *= n;
        for (int k = 0; k < k_data; ++k)
            l.st[k][l.nd - 1] = data[k]->layout.strides[d];
    }
    if (l.m == 0) return decline(why, "no elements per channel");
    if (l.nd == 0) { // one element per channel
        l.dims[0] = 1;
        for (int k = 0; k < k_data; ++k)
            l.st[k][0] = 0;
        l.nd = 1;
    }
    for (int k = 0; k < k_data; ++k)
        l.cst[k] = data[k]->layout.strides[cax];
    l.channels = l.cst[k_src] == 1 && l.cst[k_dd] == 1 && l.cst[k_ds] == 1;
    if (l.channels) {
        const int64_t tasks = std::min<int64_t>(std::max(1, rt::max_threads()),
                std::max<int64_t>(1, l.c / (2 * k_channel_step)));
        l.sum_cb = tasks <= 1 ? std::max<int64_t>(1, l.c)
                              : round_up(div_up(l.c, tasks), k_channel_step);
    } else if (l.dt != dnnl_f32
            || (l.st[k_src][l.nd - 1] == 1 && l.st[k_dd][l.nd - 1] == 1)) {
        // Planes: k_plane_group channels per task (16-bit ones widened,
        // f32 ones read in place where their runs are contiguous), fewer
        // when that would leave threads without a task.
        const int64_t threads = std::max(1, rt::max_threads());
        l.sum_cb = std::max<int64_t>(
                1, std::min<int64_t>(k_plane_group, l.c / threads));
    }
    l.eps = op->get_f32(dnnl_graph_op_attr_epsilon);
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, bn_bwd_kernel_t>(
            plan, "batchnorm backward", analyse, out);
}

} // namespace batchnorm_bwd
} // namespace cpu
} // namespace llga
