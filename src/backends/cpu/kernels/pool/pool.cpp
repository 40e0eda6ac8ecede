// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool.cpp — forward pooling and AvgPoolBackward (see
// pool.hpp): the geometry normalized to three spatial dims, the per-pixel
// clipped window, and two loops — channels innermost (unit channel stride
// on both sides) or one output element at a time — threaded over output
// pixels. bf16/f16 run the same f32 arithmetic on f32 copies kept in
// per-task buffers: the row loop and AvgPoolBackward are templates on the
// element type whose 16-bit runs are widened as read and narrowed as
// written (pool_window.hpp: f32_run, f32_out, store_run); channel-last
// rows widen the source rows an output row's windows read once
// (row_channels); small channel-first planes are widened and narrowed in
// batches (small_planes), as short runs cost more to convert one by one.
#include "backends/cpu/kernels/pool/pool.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include <immintrin.h>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/pool/pool_window_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/pool_geom.hpp"

namespace llga {
namespace cpu {
namespace pool {

namespace {

// Output elements one task computes at least.
constexpr int64_t k_task_elems = 4096;

// 16-bit channel-last rows: the source rows one output row's windows read
// are widened into at most this many floats (256 KB, in L2) at a time.
constexpr int64_t k_row_floats = 65536;

// 16-bit row loop: source planes of at most this many elements (16 KB of
// f32) are widened whole, once per task that enters them, rather than a
// tap row per output row: on small planes the many short conversions
// cost more than the pooling.
constexpr int64_t k_plane_cache = 4096;

// Pooling on three spatial dims (missing outer ones are 1), strides in
// elements for n, c and each spatial dim of each side.
struct layout_t : geom3_t {
    bool avg = false, exclude_pad = false;
    bool backward = false; // AvgPoolBackward: x = diff_src, y = diff_dst
    int in = -1, out = -1;
    ops::pool_geom_t g; // as the reference computed it (nsp dims)
    float lowest = 0;
    data_type_t dt = dnnl_f32; // of both sides (one type variable)
    std::string name;
};

// Per-task buffers of the forward loops. 16 bits: xf holds widened
// source values, yf f32 results before narrowing (small_planes: a batch
// of planes each), taken from the thread's scratch (kernel_util.hpp)
// once per task: no allocation, zero fill or page faults per task.
struct bufs_t {
    std::vector<double> sum; // average sums
    std::vector<float> m;    // row loop: maxima
    float *xf = nullptr, *yf = nullptr;
};

// small_planes: the planes one batch widens (P elements each).
int64_t planes_per_batch(const layout_t &l) {
    return std::max<int64_t>(1, k_plane_cache / (l.xsp[0] * l.xsp[1] * l.xsp[2]));
}

// 16-bit channel-last rows (row_channels): the channels one step widens,
// so that the source rows a window row spans (at most `kab` of them, X2
// pixels each) fit in k_row_floats; whole vectors of eight unless one
// step takes every channel.
int64_t row_channel_step(const layout_t &l) {
    const int64_t kab = std::min(l.k[0], l.xsp[0]) * std::min(l.k[1], l.xsp[1]);
    const int64_t step = k_row_floats / std::max<int64_t>(1, kab * l.xsp[2]);
    return step >= l.c ? l.c : std::max<int64_t>(8, step / 8 * 8);
}

template <typename T>
constexpr bool is_f32() {
    return std::is_same<T, float>::value;
}

// Channels innermost: one output pixel, every channel, in vectors the
// compiler forms from the unit-stride loops (f32; 16 bits: row_channels).
void pixel_channels(const layout_t &l, const float *x, float *y,
        const int64_t *o, double div, std::vector<double> &sum) {
    taps_t t[3];
    for (int i = 0; i < 3; ++i)
        t[i] = clip(o[i], l.s[i], l.d[i], l.pb[i], l.k[i], l.xsp[i]);
    const int64_t C = l.c;
    if (!l.avg) {
        for (int64_t c = 0; c < C; ++c)
            y[c] = l.lowest;
    } else {
        sum.assign(static_cast<size_t>(C), 0.0);
    }
    for (int64_t a = t[0].k0; a < t[0].k1; ++a)
        for (int64_t b = t[1].k0; b < t[1].k1; ++b)
            for (int64_t e = t[2].k0; e < t[2].k1; ++e) {
                const float *px = x
                        + (t[0].p0 + (a - t[0].k0) * l.d[0]) * l.xs[0]
                        + (t[1].p0 + (b - t[1].k0) * l.d[1]) * l.xs[1]
                        + (t[2].p0 + (e - t[2].k0) * l.d[2]) * l.xs[2];
                if (l.avg) {
                    double *ps = sum.data();
                    for (int64_t c = 0; c < C; ++c)
                        ps[c] += px[c];
                } else {
                    for (int64_t c = 0; c < C; ++c) {
                        const float v = px[c];
                        // NaN propagates, as in the reference.
                        y[c] = (v > y[c] || v != v) ? v : y[c];
                    }
                }
            }
    if (l.avg)
        for (int64_t c = 0; c < C; ++c)
            y[c] = static_cast<float>(div > 0 ? sum[static_cast<size_t>(c)] / div
                                              : 0.0);
}

// Channel-last 16-bit data: one output row (o0, o1) of every pixel and
// channel, with pixel_channels' arithmetic and tap order. The source rows
// its windows read (one per (a, b) tap pair: X2 pixels by a chunk of
// channels) are widened once per output row — one run when the chunk is
// every channel of dense pixels — rather than a tap's channels per window
// (overlapping windows would convert values again, in many short calls);
// the output row is narrowed once, likewise.
void row_channels(const layout_t &l, const uint16_t *x, uint16_t *y,
        const int64_t *o, int64_t step, bufs_t &s) {
    const taps_t t0 = clip(o[0], l.s[0], l.d[0], l.pb[0], l.k[0], l.xsp[0]);
    const taps_t t1 = clip(o[1], l.s[1], l.d[1], l.pb[1], l.k[1], l.xsp[1]);
    const int64_t C = l.c, X2 = l.xsp[2], W = l.ysp[2];
    const int64_t nb = t1.k1 - t1.k0, nrows = (t0.k1 - t0.k0) * nb;
    int64_t on[3];
    for (int64_t c0 = 0; c0 < C; c0 += step) {
        const int64_t cw = std::min(step, C - c0);
        for (int64_t a = 0; a < t0.k1 - t0.k0; ++a)
            for (int64_t b = 0; b < nb; ++b) {
                const uint16_t *r = x + c0 + (t0.p0 + a * l.d[0]) * l.xs[0]
                        + (t1.p0 + b * l.d[1]) * l.xs[1];
                float *d = s.xf + (a * nb + b) * X2 * cw;
                if (cw == C && l.xs[2] == C)
                    common::widen_row(r, l.dt, X2 * C, d);
                else
                    common::widen_matrix(r, l.dt, X2, cw, l.xs[2], 1, d);
            }
        for (int64_t o2 = 0; o2 < W; ++o2) {
            const taps_t t2 = clip(o2, l.s[2], l.d[2], l.pb[2], l.k[2], X2);
            float *yc = s.yf + o2 * cw;
            if (!l.avg) {
                for (int64_t c = 0; c < cw; ++c)
                    yc[c] = l.lowest;
            } else {
                s.sum.assign(static_cast<size_t>(cw), 0.0);
            }
            for (int64_t ab = 0; ab < nrows; ++ab)
                for (int64_t e = t2.k0; e < t2.k1; ++e) {
                    const float *px = s.xf
                            + (ab * X2 + t2.p0 + (e - t2.k0) * l.d[2]) * cw;
                    if (l.avg) {
                        double *ps = s.sum.data();
                        for (int64_t c = 0; c < cw; ++c)
                            ps[c] += px[c];
                    } else {
                        for (int64_t c = 0; c < cw; ++c) {
                            const float v = px[c];
                            // NaN propagates, as in the reference.
                            yc[c] = (v > yc[c] || v != v) ? v : yc[c];
                        }
                    }
                }
            if (l.avg) {
                // The reference's divisor, on its own (nsp) dims.
                const int64_t oo[3] = {o[0], o[1], o2};
                for (int i = 0; i < l.g.nsp; ++i)
                    on[i] = oo[3 - l.g.nsp + i];
                const double div = ops::avg_divisor(l.g, on, l.exclude_pad);
                for (int64_t c = 0; c < cw; ++c)
                    yc[c] = static_cast<float>(
                            div > 0 ? s.sum[static_cast<size_t>(c)] / div : 0.0);
            }
        }
        if (cw == C && l.ys[2] == C)
            common::narrow_row(s.yf, W * C, y, l.dt);
        else
            for (int64_t o2 = 0; o2 < W; ++o2)
                common::narrow_row(s.yf + o2 * cw, cw, y + c0 + o2 * l.ys[2], l.dt);
    }
}

// pm[w] = max(pm[w], x[2w]) (NaN sticks, as below) for w from w0 in
// blocks of eight while w + 8 <= w_end; returns the first w not done.
__attribute__((target("avx2"))) int64_t max_stride2(
        const float *x, float *pm, int64_t w0, int64_t w_end) {
    int64_t w = w0;
    for (; w + 8 <= w_end; w += 8) {
        const __m256 a = _mm256_loadu_ps(x + 2 * w);
        const __m256 b = _mm256_loadu_ps(x + 2 * w + 8);
        // Even lanes: [a0 a2 b0 b2 | a4 a6 b4 b6], then 64-bit lanes 0 2 1 3.
        const __m256 v = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(a, b, 0x88)), 0xd8));
        const __m256 m = _mm256_loadu_ps(pm + w);
        const __m256 take = _mm256_or_ps(_mm256_cmp_ps(v, m, _CMP_GT_OQ),
                _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        _mm256_storeu_ps(pm + w, _mm256_blendv_ps(m, v, take));
    }
    return w;
}

// Any strides: one output row (o0, o1 fixed) of one channel at a time.
// Each (k0, k1) tap row is clipped once, and each k2 tap runs over the
// whole range of outputs it reaches inside the source: long loops with a
// fixed stride, no bounds tests. A 16-bit source row is widened whole
// (unit stride after that, so the stride-2 max below applies to any
// layout) and the output row is narrowed once done.
// TX: float for f32 (or a widened plane), uint16_t for a 16-bit source;
// TY likewise for the destination.
template <typename TX, typename TY>
void row_elements(const layout_t &l, const TX *x, TY *y, const int64_t *o,
        bufs_t &s) {
    std::vector<double> &acc = s.sum;
    std::vector<float> &m = s.m;
    const int64_t W = l.ysp[2];
    const taps_t t0 = clip(o[0], l.s[0], l.d[0], l.pb[0], l.k[0], l.xsp[0]);
    const taps_t t1 = clip(o[1], l.s[1], l.d[1], l.pb[1], l.k[1], l.xsp[1]);
    // Average: double sums; max: f32, as every value compared is.
    if (l.avg)
        acc.assign(static_cast<size_t>(W), 0.0);
    else
        m.assign(static_cast<size_t>(W), l.lowest);
    for (int64_t a = t0.k0; a < t0.k1; ++a)
        for (int64_t b = t1.k0; b < t1.k1; ++b) {
            int64_t xs2 = l.xs[2];
            const float *xr = f32_run(x
                            + (t0.p0 + (a - t0.k0) * l.d[0]) * l.xs[0]
                            + (t1.p0 + (b - t1.k0) * l.d[1]) * l.xs[1],
                    l.dt, l.xsp[2], xs2, s.xf);
            for (int64_t e = 0; e < l.k[2]; ++e) {
                // Outputs w whose tap e lands inside: 0 <= w*s + e*d - pb < X.
                const int64_t off = e * l.d[2] - l.pb[2], s2 = l.s[2];
                const int64_t w0 = off >= 0 ? 0 : (-off + s2 - 1) / s2;
                const int64_t last = l.xsp[2] - 1 - off;
                const int64_t w1 = last < 0 ? 0 : std::min(W, last / s2 + 1);
                const float *xp = xr + off * xs2;
                const int64_t step = s2 * xs2;
                if (l.avg) {
                    for (int64_t w = w0; w < w1; ++w)
                        acc[static_cast<size_t>(w)] += xp[w * step];
                } else {
                    float *pm = m.data();
                    int64_t w = w0;
                    // Stride 2 over a contiguous row (the usual 3x3/2 and
                    // 2x2/2 pools): eight outputs from the even lanes of
                    // sixteen loaded values, while the odd partner of the
                    // last one is still inside the row.
                    if (s2 == 2 && xs2 == 1 && w0 < w1) {
                        const int64_t w_end = std::min(w1,
                                (l.xsp[2] - off) / 2); // off + 2w + 1 < X
                        w = max_stride2(xp, pm, w0, w_end);
                    }
                    for (; w < w1; ++w) {
                        const float v = xp[w * step];
                        pm[w] = (v > pm[w] || v != v) ? v : pm[w];
                    }
                }
            }
        }
    float *yf = f32_out(y, s.yf);
    const int64_t ys2 = is_f32<TY>() ? l.ys[2] : 1;
    int64_t on[3];
    for (int64_t w = 0; w < W; ++w) {
        float r;
        if (l.avg) {
            const int64_t oo[3] = {o[0], o[1], w};
            for (int i = 0; i < l.g.nsp; ++i)
                on[i] = oo[3 - l.g.nsp + i];
            const double div = ops::avg_divisor(l.g, on, l.exclude_pad);
            r = static_cast<float>(div > 0 ? acc[static_cast<size_t>(w)] / div : 0.0);
        } else {
            r = m[static_cast<size_t>(w)];
        }
        yf[w * ys2] = r;
    }
    store_run(yf, W, y, l.ys[2], l.dt);
}

// Whether three dims of extents e and strides st are dense row-major (a
// dim of extent 1 may have any stride: the missing outer dims have 0).
inline bool dense3(const int64_t *e, const int64_t *st) {
    return (e[2] == 1 || st[2] == 1) && (e[1] == 1 || st[1] == e[2])
            && (e[0] == 1 || st[0] == e[1] * e[2]);
}

// The (n, c) plane at x (three spatial dims, strides l.xs) widened into
// dense f32: one run when the plane is dense.
inline void widen_plane(const layout_t &l, const uint16_t *x, float *dst) {
    const int64_t X1 = l.xsp[1], X2 = l.xsp[2];
    if (dense3(l.xsp, l.xs)) {
        common::widen_row(x, l.dt, l.xsp[0] * X1 * X2, dst);
        return;
    }
    for (int64_t a = 0; a < l.xsp[0]; ++a)
        for (int64_t b = 0; b < X1; ++b)
            common::widen_matrix(x + a * l.xs[0] + b * l.xs[1], l.dt, 1, X2, 0,
                    l.xs[2], dst + (a * X1 + b) * X2);
}

// The row loop's units [lo, hi) (output rows, plane by plane) on a
// 16-bit source whose planes are small (k_plane_cache): the planes the
// units touch are widened into f32 a batch at a time (as many as fit in
// k_plane_cache elements; one run when the planes lie back to back),
// their output rows computed into f32 planes and narrowed together (one
// run when the output is dense too): on small planes, per-row
// conversions of short runs would cost more than the pooling. `pl`: l
// with dense strides on both f32 planes.
void small_planes(const layout_t &l, const layout_t &pl, const uint16_t *x,
        uint16_t *y, int64_t lo, int64_t hi, bufs_t &s) {
    const int64_t Y1 = l.ysp[1], W = l.ysp[2], rows = l.ysp[0] * Y1;
    const int64_t X1 = l.xsp[1], X2 = l.xsp[2], P = l.xsp[0] * X1 * X2;
    const int64_t Q = rows * W, C = l.c;
    const int64_t per = planes_per_batch(l);
    // Plane p = n C + c at element p P (p Q) of the source (destination).
    const bool x_dense = dense3(l.xsp, l.xs) && (C == 1 || l.xs_c == P)
            && (l.n == 1 || l.xs_n == C * P);
    const bool y_dense = dense3(l.ysp, l.ys) && (C == 1 || l.ys_c == Q)
            && (l.n == 1 || l.ys_n == C * Q);
    float *xp = s.xf, *yp = s.yf; // per * P and per * Q floats
    int64_t o[3];
    for (int64_t p0 = lo / rows; p0 * rows < hi; p0 += per) {
        const int64_t p1 = std::min(p0 + per, (hi + rows - 1) / rows);
        if (x_dense)
            common::widen_row(x + p0 * P, l.dt, (p1 - p0) * P, xp);
        else
            for (int64_t p = p0; p < p1; ++p)
                widen_plane(l, x + p / C * l.xs_n + p % C * l.xs_c,
                        xp + (p - p0) * P);
        const int64_t u0 = std::max(lo, p0 * rows), u1 = std::min(hi, p1 * rows);
        for (int64_t u = u0; u < u1; ++u) {
            const int64_t p = u / rows, row = u % rows;
            o[0] = row / Y1;
            o[1] = row % Y1;
            row_elements(pl, xp + (p - p0) * P,
                    yp + (p - p0) * Q + row * W, o, s);
        }
        // Rows u0..u1 sit at yp[(u - p0 rows) W].
        const float *yf = yp + (u0 - p0 * rows) * W;
        if (y_dense) {
            common::narrow_row(yf, (u1 - u0) * W, y + u0 * W, l.dt);
            continue;
        }
        for (int64_t u = u0; u < u1; ++u) {
            const int64_t p = u / rows, row = u % rows;
            store_run(yf + (u - u0) * W, W,
                    y + p / C * l.ys_n + p % C * l.ys_c + row / Y1 * l.ys[0]
                            + row % Y1 * l.ys[1],
                    l.ys[2], l.dt);
        }
    }
}

// AvgPoolBackward for one (n, c) plane: diff_src[p] is the sum, over the
// windows o that contain p, of diff_dst[o] / divisor(o), gathered in the
// reference's order (taps ascending, so o descending) in double. The
// quotients q are formed once per output (the reference divides in the
// same way). Along each dim, the outputs a position p reaches form one
// run hi(p), hi(p) - 1, ..., hi(p) - cnt(p) + 1 (taps k ascending by the
// stride), so a position's sum is: for each (o0, o1) pair of its rows, in
// order, the q values of that row from hi down.
struct taps_run_t {
    std::vector<int64_t> hi, cnt; // per source position
};
taps_run_t backward_taps(int64_t X, int64_t Y, int64_t K, int64_t s,
        int64_t pb) {
    taps_run_t t;
    for (int64_t p = 0; p < X; ++p) {
        int64_t hi = -1, cnt = 0;
        for (int64_t k = 0; k < K; ++k) {
            const int64_t num = p + pb - k;
            if (num < 0 || num % s != 0 || num / s >= Y) continue;
            if (cnt == 0) hi = num / s;
            ++cnt;
        }
        t.hi.push_back(hi);
        t.cnt.push_back(cnt);
    }
    return t;
}

// The divisor of every output position (the same in every plane).
std::vector<double> backward_divisors(const layout_t &l) {
    std::vector<double> div;
    int64_t on[3];
    for (int64_t a = 0; a < l.ysp[0]; ++a)
        for (int64_t b = 0; b < l.ysp[1]; ++b)
            for (int64_t e = 0; e < l.ysp[2]; ++e) {
                const int64_t o[3] = {a, b, e};
                for (int i = 0; i < l.g.nsp; ++i)
                    on[i] = o[3 - l.g.nsp + i];
                div.push_back(ops::avg_divisor(l.g, on, l.exclude_pad));
            }
    return div;
}

// Positions of the innermost dim that share one run shape: p = p0 + s*u
// for u < len, with hi = hi0 + u and the same count. Vector blocks of
// four such positions load q contiguously (one phase of the stride).
struct run_group_t {
    int64_t p0, len, hi0, cnt;
};
std::vector<run_group_t> run_groups(const taps_run_t &t, int64_t s) {
    std::vector<run_group_t> g;
    const int64_t X = static_cast<int64_t>(t.hi.size());
    for (int64_t ph = 0; ph < std::min(s, X); ++ph)
        for (int64_t p = ph; p < X; p += s) {
            if (!g.empty() && g.back().p0 % s == ph && g.back().cnt == t.cnt[p]
                    && g.back().p0 + g.back().len * s == p
                    && g.back().hi0 + g.back().len == t.hi[p])
                ++g.back().len;
            else
                g.push_back({p, 1, t.hi[p], t.cnt[p]});
        }
    return g;
}

// Four positions of a group: lane u sums rows[r][hi + u - t] for r in
// order, t ascending — each lane in the scalar order.
__attribute__((target("avx2"))) void sum_four(const double *const *rows,
        int64_t nr, int64_t hi, int64_t cnt, float *out) {
    __m256d acc = _mm256_setzero_pd();
    for (int64_t r = 0; r < nr; ++r)
        for (int64_t t = 0; t < cnt; ++t)
            acc = _mm256_add_pd(acc, _mm256_loadu_pd(rows[r] + hi - t));
    _mm_storeu_ps(out, _mm256_cvtpd_ps(acc));
}

// rowf: 16 bits, a diff_dst row widened, then a diff_src row before
// narrowing (max(Y2, X2) floats).
template <typename T>
void avg_backward_plane(const layout_t &l, const taps_run_t *taps,
        const std::vector<run_group_t> &groups, const double *div,
        const T *dy, T *dx, std::vector<double> &q, float *rowf) {
    const int64_t Y1 = l.ysp[1], Y2 = l.ysp[2];
    q.resize(static_cast<size_t>(l.ysp[0] * Y1 * Y2));
    for (int64_t a = 0; a < l.ysp[0]; ++a)
        for (int64_t b = 0; b < Y1; ++b) {
            int64_t ys2 = l.ys[2];
            const float *dr = f32_run(
                    dy + a * l.ys[0] + b * l.ys[1], l.dt, Y2, ys2, rowf);
            const size_t row = static_cast<size_t>((a * Y1 + b) * Y2);
            for (int64_t e = 0; e < Y2; ++e) {
                const double d = div[row + static_cast<size_t>(e)];
                q[row + static_cast<size_t>(e)]
                        = d > 0 ? double(dr[e * ys2]) / d : 0.0;
            }
        }
    std::vector<const double *> rows;
    for (int64_t p0 = 0; p0 < l.xsp[0]; ++p0)
        for (int64_t p1 = 0; p1 < l.xsp[1]; ++p1) {
            rows.clear();
            for (int64_t i = 0; i < taps[0].cnt[p0]; ++i)
                for (int64_t j = 0; j < taps[1].cnt[p1]; ++j)
                    rows.push_back(q.data()
                            + ((taps[0].hi[p0] - i) * Y1 + taps[1].hi[p1] - j) * Y2);
            const int64_t nr = static_cast<int64_t>(rows.size());
            T *out_row = dx + p0 * l.xs[0] + p1 * l.xs[1];
            float *dr = f32_out(out_row, rowf);
            const int64_t xs2 = is_f32<T>() ? l.xs[2] : 1;
            for (const run_group_t &g : groups) {
                int64_t u = 0;
                if (g.cnt > 0 && nr > 0)
                    for (float four[4]; u + 4 <= g.len; u += 4) {
                        sum_four(rows.data(), nr, g.hi0 + u, g.cnt, four);
                        for (int64_t v = 0; v < 4; ++v)
                            dr[(g.p0 + (u + v) * l.s[2]) * xs2] = four[v];
                    }
                for (; u < g.len; ++u) {
                    double acc = 0;
                    for (int64_t r = 0; r < nr; ++r)
                        for (int64_t t = 0; t < g.cnt; ++t)
                            acc += rows[static_cast<size_t>(r)][g.hi0 + u - t];
                    dr[(g.p0 + u * l.s[2]) * xs2] = static_cast<float>(acc);
                }
            }
            store_run(dr, l.xsp[2], out_row, l.xs[2], l.dt);
        }
}

class pool_kernel_t : public compiler::kernel_t {
public:
    explicit pool_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        if (l_.dt == dnnl_f32)
            run<float>(ctx);
        else
            run<uint16_t>(ctx);
        return dnnl_success;
    }

private:
    template <typename T>
    void run(const compiler::exec_ctx_t &ctx) const {
        const layout_t &l = l_;
        if (l.backward) {
            const T *dy = static_cast<const T *>(ctx.inputs[l.in]);
            T *dx = static_cast<T *>(ctx.outputs[l.out]);
            taps_run_t taps[3];
            for (int i = 0; i < 3; ++i)
                taps[i] = backward_taps(l.xsp[i], l.ysp[i], l.k[i], l.s[i], l.pb[i]);
            const std::vector<run_group_t> groups = run_groups(taps[2], l.s[2]);
            const std::vector<double> div = backward_divisors(l);
            parallel_for(l.n * l.c, 1, [&](int64_t b, int64_t e) {
                std::vector<double> q;
                std::vector<float> rowf(is_f32<T>()
                                ? 0
                                : static_cast<size_t>(std::max(l.xsp[2], l.ysp[2])));
                for (int64_t t = b; t < e; ++t) {
                    const int64_t c = t % l.c, n = t / l.c;
                    avg_backward_plane(l, taps, groups, div.data(),
                            dy + n * l.ys_n + c * l.ys_c,
                            dx + n * l.xs_n + c * l.xs_c, q, rowf.data());
                }
            });
            return;
        }
        const T *x = static_cast<const T *>(ctx.inputs[l.in]);
        T *y = static_cast<T *>(ctx.outputs[l.out]);
        // Work units are output rows (n, [c,] o0, o1); the row's pixels
        // (o2) run inside, so index arithmetic is per row.
        const int64_t rows = l.ysp[0] * l.ysp[1];
        const bool vec = l.xs_c == 1 && l.ys_c == 1;
        const int64_t cs = vec ? 1 : l.c;
        const int64_t per_row = l.ysp[2] * (vec ? l.c : 1);
        const int64_t grain
                = std::max<int64_t>(1, k_task_elems / std::max<int64_t>(1, per_row));
        // Small 16-bit planes: see small_planes; `pl` is l with the dense
        // strides of the f32 planes.
        const bool whole = !is_f32<T>() && !vec
                && l.xsp[0] * l.xsp[1] * l.xsp[2] <= k_plane_cache;
        layout_t pl = l;
        pl.xs[0] = l.xsp[1] * l.xsp[2];
        pl.xs[1] = l.xsp[2];
        pl.xs[2] = 1;
        pl.ys[2] = 1;
        const int64_t step = vec ? row_channel_step(l) : 0;
        // 16 bits: the floats of xf and yf (see bufs_t) per task.
        int64_t nxf = 0, nyf = 0;
        if (whole) {
            nxf = planes_per_batch(l) * l.xsp[0] * l.xsp[1] * l.xsp[2];
            nyf = planes_per_batch(l) * rows * l.ysp[2];
        } else if (vec) {
            nxf = std::min(l.k[0], l.xsp[0]) * std::min(l.k[1], l.xsp[1])
                    * l.xsp[2] * step;
            nyf = l.ysp[2] * step;
        } else {
            nxf = l.xsp[2];
            nyf = l.ysp[2];
        }
        parallel_for(l.n * cs * rows, grain, [&](int64_t lo, int64_t hi) {
            scratch_frame_t frame;
            bufs_t s;
            if constexpr (!is_f32<T>()) {
                s.xf = static_cast<float *>(frame.take(static_cast<size_t>(nxf) * 4));
                s.yf = static_cast<float *>(frame.take(static_cast<size_t>(nyf) * 4));
                if (whole) {
                    small_planes(l, pl, x, y, lo, hi, s);
                    return;
                }
            }
            int64_t o[3], on[3];
            for (int64_t u = lo; u < hi; ++u) {
                const int64_t row = u % rows;
                const int64_t c = vec ? 0 : (u / rows) % l.c;
                const int64_t n = u / (rows * cs);
                o[0] = row / l.ysp[1];
                o[1] = row % l.ysp[1];
                const T *xb = x + n * l.xs_n + c * l.xs_c;
                T *yrow = y + n * l.ys_n + c * l.ys_c + o[0] * l.ys[0]
                        + o[1] * l.ys[1];
                if (!vec) {
                    row_elements(l, xb, yrow, o, s);
                    continue;
                }
                if constexpr (!is_f32<T>()) {
                    row_channels(l, xb, yrow, o, step, s);
                    continue;
                }
                for (o[2] = 0; o[2] < l.ysp[2]; ++o[2]) {
                    double div = 1;
                    if (l.avg) {
                        // The reference's divisor, on its own (nsp) dims.
                        for (int i = 0; i < l.g.nsp; ++i)
                            on[i] = o[3 - l.g.nsp + i];
                        div = ops::avg_divisor(l.g, on, l.exclude_pad);
                    }
                    if constexpr (is_f32<T>())
                        pixel_channels(l, xb, yrow + o[2] * l.ys[2], o, div, s.sum);
                }
            }
        });
    }

    layout_t l_;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    l.backward = op->kind == dnnl_graph_op_avg_pool_backward;
    if (op->kind != dnnl_graph_op_max_pool && op->kind != dnnl_graph_op_avg_pool
            && !l.backward)
        return decline(why, "not MaxPool/AvgPool/AvgPoolBackward");
    if (op->inputs.size() != 1 || op->outputs.empty())
        return decline(why, "unexpected port count");
    // x is always the pooled side (src, or diff_src for the backward op).
    const logical_tensor_t &x = l.backward ? op->outputs[0] : op->inputs[0];
    const logical_tensor_t &y = l.backward ? op->inputs[0] : op->outputs[0];
    // One type variable binds both sides, so they match: f32, or bf16/f16
    // widened per run (compared and summed as f32/double, as the
    // reference does on the widened values).
    if (x.data_type != y.data_type)
        return decline(why, "src and dst types differ (one type variable)");
    l.dt = x.data_type;
    if (l.dt != dnnl_f32 && l.dt != dnnl_bf16 && l.dt != dnnl_f16)
        return decline(why, "only f32, bf16 and f16");
    if (x.ndims < 3 || x.ndims > 5)
        return decline(why, "rank must be 3..5");
    l.in = compiler::find_port(plan.inputs, (l.backward ? y : x).id);
    l.out = compiler::find_port(plan.outputs, (l.backward ? x : y).id);
    if (l.in < 0 || l.out < 0) return decline(why, "ports not found");
    if (ops::pool_geometry(*op, ir::dims_of(x), ir::dims_of(y),
                dnnl_invalid_shape, l.g)
            != dnnl_success)
        return decline(why, "geometry: " + last_error());
    const ops::pool_geom_t &g = l.g;
    l.avg = op->kind != dnnl_graph_op_max_pool;
    l.exclude_pad = op->get_bool(dnnl_graph_op_attr_exclude_pad);
    // The reference's lowest value of the output type, exact in f32 (for
    // bf16/f16 it narrows to itself, where -FLT_MAX would become -inf).
    l.lowest = static_cast<float>(ops::pool_lowest(l.dt));
    static_cast<geom3_t &>(l) = normalize3(
            g, x.layout.strides, y.layout.strides, x.ndims);
    l.name = std::string(l.backward ? "avgpool_backward" : l.avg ? "avgpool" : "maxpool")
            + (l.xs_c == 1 && l.ys_c == 1 ? "_channels_" : "_")
            + ir::dtype_name(l.dt);
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, pool_kernel_t>(plan, "pool", analyse, out);
}

} // namespace pool
} // namespace cpu
} // namespace llga
