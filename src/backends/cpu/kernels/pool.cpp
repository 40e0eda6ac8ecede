// backends/cpu/kernels/pool.cpp — forward pooling (see pool.hpp): the
// geometry normalized to three spatial dims, the per-pixel clipped window,
// and two loops — channels innermost (unit channel stride on both sides)
// or one output element at a time — threaded over output pixels.
#include "backends/cpu/kernels/pool.hpp"

#include <algorithm>
#include <vector>

#include <immintrin.h>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/pool_window.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/pool_geom.hpp"

namespace llga {
namespace cpu {
namespace pool {

namespace {

// Output elements one task computes at least.
constexpr int64_t k_task_elems = 4096;

// Pooling on three spatial dims (missing outer ones are 1), strides in
// elements for n, c and each spatial dim of each side.
struct layout_t : geom3_t {
    bool avg = false, exclude_pad = false;
    bool backward = false; // AvgPoolBackward: x = diff_src, y = diff_dst
    int in = -1, out = -1;
    ops::pool_geom_t g; // as the reference computed it (nsp dims)
    float lowest = 0;
    std::string name;
};

// Channels innermost: one output pixel, every channel, in vectors the
// compiler forms from the unit-stride loops.
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
// fixed stride, no bounds tests.
void row_elements(const layout_t &l, const float *x, float *y,
        const int64_t *o, std::vector<double> &acc, std::vector<float> &m) {
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
            const float *xr = x + (t0.p0 + (a - t0.k0) * l.d[0]) * l.xs[0]
                    + (t1.p0 + (b - t1.k0) * l.d[1]) * l.xs[1];
            for (int64_t e = 0; e < l.k[2]; ++e) {
                // Outputs w whose tap e lands inside: 0 <= w*s + e*d - pb < X.
                const int64_t off = e * l.d[2] - l.pb[2], s2 = l.s[2];
                const int64_t w0 = off >= 0 ? 0 : (-off + s2 - 1) / s2;
                const int64_t last = l.xsp[2] - 1 - off;
                const int64_t w1 = last < 0 ? 0 : std::min(W, last / s2 + 1);
                const float *xp = xr + off * l.xs[2];
                const int64_t step = s2 * l.xs[2];
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
                    if (s2 == 2 && l.xs[2] == 1 && w0 < w1) {
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
        y[w * l.ys[2]] = r;
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

void avg_backward_plane(const layout_t &l, const taps_run_t *taps,
        const std::vector<run_group_t> &groups, const double *div,
        const float *dy, float *dx, std::vector<double> &q) {
    const int64_t Y1 = l.ysp[1], Y2 = l.ysp[2];
    q.resize(static_cast<size_t>(l.ysp[0] * Y1 * Y2));
    for (int64_t a = 0; a < l.ysp[0]; ++a)
        for (int64_t b = 0; b < Y1; ++b) {
            const float *dr = dy + a * l.ys[0] + b * l.ys[1];
            const size_t row = static_cast<size_t>((a * Y1 + b) * Y2);
            for (int64_t e = 0; e < Y2; ++e) {
                const double d = div[row + static_cast<size_t>(e)];
                q[row + static_cast<size_t>(e)]
                        = d > 0 ? double(dr[e * l.ys[2]]) / d : 0.0;
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
            float *dr = dx + p0 * l.xs[0] + p1 * l.xs[1];
            for (const run_group_t &g : groups) {
                int64_t u = 0;
                if (g.cnt > 0 && nr > 0)
                    for (float four[4]; u + 4 <= g.len; u += 4) {
                        sum_four(rows.data(), nr, g.hi0 + u, g.cnt, four);
                        for (int64_t v = 0; v < 4; ++v)
                            dr[(g.p0 + (u + v) * l.s[2]) * l.xs[2]] = four[v];
                    }
                for (; u < g.len; ++u) {
                    double acc = 0;
                    for (int64_t r = 0; r < nr; ++r)
                        for (int64_t t = 0; t < g.cnt; ++t)
                            acc += rows[static_cast<size_t>(r)][g.hi0 + u - t];
                    dr[(g.p0 + u * l.s[2]) * l.xs[2]] = static_cast<float>(acc);
                }
            }
        }
}

class pool_kernel_t : public compiler::kernel_t {
public:
    explicit pool_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        if (l.backward) {
            const float *dy = static_cast<const float *>(ctx.inputs[l.in]);
            float *dx = static_cast<float *>(ctx.outputs[l.out]);
            taps_run_t taps[3];
            for (int i = 0; i < 3; ++i)
                taps[i] = backward_taps(l.xsp[i], l.ysp[i], l.k[i], l.s[i], l.pb[i]);
            const std::vector<run_group_t> groups = run_groups(taps[2], l.s[2]);
            const std::vector<double> div = backward_divisors(l);
            parallel_for(l.n * l.c, 1, [&](int64_t b, int64_t e) {
                std::vector<double> q;
                for (int64_t t = b; t < e; ++t) {
                    const int64_t c = t % l.c, n = t / l.c;
                    avg_backward_plane(l, taps, groups, div.data(),
                            dy + n * l.ys_n + c * l.ys_c,
                            dx + n * l.xs_n + c * l.xs_c, q);
                }
            });
            return dnnl_success;
        }
        const float *x = static_cast<const float *>(ctx.inputs[l.in]);
        float *y = static_cast<float *>(ctx.outputs[l.out]);
        // Work units are output rows (n, [c,] o0, o1); the row's pixels
        // (o2) run inside, so index arithmetic is per row.
        const int64_t rows = l.ysp[0] * l.ysp[1];
        const bool vec = l.xs_c == 1 && l.ys_c == 1;
        const int64_t cs = vec ? 1 : l.c;
        const int64_t per_row = l.ysp[2] * (vec ? l.c : 1);
        const int64_t grain
                = std::max<int64_t>(1, k_task_elems / std::max<int64_t>(1, per_row));
        parallel_for(l.n * cs * rows, grain, [&](int64_t lo, int64_t hi) {
            std::vector<double> sum;
            std::vector<float> row_max;
            int64_t o[3], on[3];
            for (int64_t u = lo; u < hi; ++u) {
                const int64_t row = u % rows;
                const int64_t c = vec ? 0 : (u / rows) % l.c;
                const int64_t n = u / (rows * cs);
                o[0] = row / l.ysp[1];
                o[1] = row % l.ysp[1];
                const float *xb = x + n * l.xs_n + c * l.xs_c;
                float *yrow = y + n * l.ys_n + c * l.ys_c + o[0] * l.ys[0]
                        + o[1] * l.ys[1];
                if (!vec) {
                    row_elements(l, xb, yrow, o, sum, row_max);
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
                    pixel_channels(l, xb, yrow + o[2] * l.ys[2], o, div, sum);
                }
            }
        });
        return dnnl_success;
    }

private:
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
    if (x.data_type != dnnl_f32 || y.data_type != dnnl_f32)
        return decline(why, "only f32 (bf16/f16 run staged through f32)");
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
    l.lowest = static_cast<float>(ops::pool_lowest(dnnl_f32));
    static_cast<geom3_t &>(l) = normalize3(
            g, x.layout.strides, y.layout.strides, x.ndims);
    l.name = std::string(l.backward ? "avgpool_backward" : l.avg ? "avgpool" : "maxpool")
            + (l.xs_c == 1 && l.ys_c == 1 ? "_channels_f32" : "_f32");
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
