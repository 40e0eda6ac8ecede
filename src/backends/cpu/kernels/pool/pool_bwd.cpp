// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_bwd.cpp — MaxPoolBackward (see pool_bwd.hpp):
// the geometry on three spatial dims; one task per (n, c) plane, or per
// image and block of channels for channel-last tensors; outputs scanned in
// the reference's order, their gradients summed in double into a ring of
// source rows that is written out as soon as no later window can reach it.
// The loops are templates on the element type (float, or uint16_t for
// bf16/f16). A 16-bit src is widened row by row (dim 0) into a second
// ring of f32 rows beside the sums, as the windows reach each row, so the
// argmax scans f32 values in L1/L2; diff_dst runs are widened as read and
// diff_src rows narrowed as written out.
#include "backends/cpu/kernels/pool/pool_bwd.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/pool/pool_window_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/pool_geom.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace pool_bwd {

namespace {

using pool::clip;
using pool::f32_run;
using pool::store_run;
using pool::taps_t;

// Channel-last tasks carry whole pixels (every channel) unless there are
// fewer images than threads; then channel blocks, a multiple of this many
// and at least twice it: narrower blocks read only part of every pixel's
// cache lines, which costs more than the idle thread.
constexpr int64_t k_channel_step = 16;

// Element strides of one tensor on the three-dim view.
struct strides_t {
    int64_t n = 0, c = 0, sp[3] = {0, 0, 0};
};

struct layout_t {
    int src = -1, dd = -1, ds = -1; // ports: src, diff_dst in; diff_src out
    int64_t n = 0, c = 0;
    // Three spatial dims: the op's outermost first, its innermost last, a
    // missing one in between (2D: H, 1, W; 1D: 1, 1, W), so the ring of
    // source rows (dim 0) runs along a real dim whenever there are two.
    int64_t xsp[3], ysp[3], k[3], s[3], d[3], pb[3];
    strides_t x, y, dx;    // src, diff_dst, diff_src
    bool channels = false; // unit channel stride on all three
    int64_t cb = 1;        // channels one task carries (1 for planes)
    data_type_t dt = dnnl_f32; // of all three (one type variable)
};

// The f32 source the argmax scans: per tap row a of the current window
// (dim 0), the row's first element, and the element strides of dims 1
// and 2 (channels, if any, at unit stride). The f32 tensor itself, or the
// ring of widened 16-bit rows.
struct fsrc_t {
    const float *const *row;
    int64_t s1, s2;
};

// Per-task buffers, sized once per task range.
struct scratch_t {
    std::vector<double> acc;    // ring: depth rows of X1 x X2 x channels
    std::vector<int64_t> slot;  // per tap row of a window: ring row x X1
    std::vector<int64_t> tap_at; // per tap of a window: its ring position
    // Per channel (channel-last) or per output of a row (planes): the max
    // so far and the ordinal of its tap in scan order.
    std::vector<float> best_v;
    std::vector<int32_t> best_t;
    std::vector<int64_t> at; // planes, per output of a row: its max's place
    // Planes, per tap e along W: the outputs it reaches inside the source,
    // [w_range[e], w_range[K2 + e]).
    std::vector<int64_t> w_range;
    std::vector<const float *> rows; // fsrc_t::row of the current window
    // 16 bits: src rows widened (a ring shaped like acc), a diff_dst run
    // widened, a diff_src row (dims 1, 2, channels) before narrowing.
    std::vector<float> src_ring, dd_f, out_f;
};

// The argmax rule of the reference, over one window's taps inside the
// source (t[i].k0..k1 per dim, scanned row-major): the first tap starts,
// and only a strictly greater value replaces it, so ties keep the first
// and a NaN is never greater (it wins only as the first tap). `slot[a]` is
// the ring row (times X1) of tap row a.

// One plane, one output row (o0, o1; taps t[0], t[1]), its W outputs side
// by side, so their scans are independent: each tap (a, b, e), in scan
// order, runs over the outputs whose tap e lands inside the source (w in
// [w_lo[e], w_hi[e])), so every output sees its own taps inside in the
// reference's order. Each output starts from its first tap inside (the
// first tap row's taps, written last to first) and keeps the ordinal of
// its max's tap (int32, as wide as the f32 values, so the compare and
// select vectorize); tap_at[ordinal] + w s2 is that tap's ring position.
// Leaves the ring position of each output's max in at[w], -1 for a window
// that is all padding.
void argmax_row(const layout_t &l, const fsrc_t &src, const taps_t *t,
        const int64_t *slot, const int64_t *w_lo, const int64_t *w_hi,
        scratch_t &s) {
    const int64_t W = l.ysp[2], X2 = l.xsp[2], s2 = l.s[2], K2 = l.k[2];
    float *best = s.best_v.data();
    int32_t *bt = s.best_t.data();
    int64_t *tap_at = s.tap_at.data(), *at = s.at.data();
    const int64_t step = s2 * src.s2;
    std::fill(bt, bt + W, -1);
    {
        const float *xr = src.row[0] + t[1].p0 * src.s1;
        for (int64_t e = K2; e-- > 0;) {
            const float *xp = xr + (e * l.d[2] - l.pb[2]) * src.s2;
            for (int64_t w = w_lo[e]; w < w_hi[e]; ++w) {
                best[w] = xp[w * step];
                bt[w] = static_cast<int32_t>(e);
            }
        }
    }
    int32_t n = 0;
    for (int64_t a = t[0].k0; a < t[0].k1; ++a) {
        const int64_t sl = slot[a - t[0].k0];
        for (int64_t b = t[1].k0; b < t[1].k1; ++b) {
            const int64_t p1 = t[1].p0 + (b - t[1].k0) * l.d[1];
            const float *xr = src.row[a - t[0].k0] + p1 * src.s1;
            for (int64_t e = 0; e < K2; ++e, ++n) {
                const int64_t off = e * l.d[2] - l.pb[2]; // p2 = w s2 + off
                const float *xp = xr + off * src.s2;
                tap_at[n] = (sl + p1) * X2 + off;
                for (int64_t w = w_lo[e]; w < w_hi[e]; ++w) {
                    const float v = xp[w * step], b0 = best[w];
                    const int32_t m = -static_cast<int32_t>(v > b0);
                    best[w] = v > b0 ? v : b0;
                    bt[w] = (n & m) | (bt[w] & ~m);
                }
            }
        }
    }
    for (int64_t w = 0; w < W; ++w)
        at[w] = bt[w] < 0 ? -1 : tap_at[bt[w]] + w * s2;
}

// `cw` channels side by side (unit stride): each channel's argmax as the
// ordinal of its tap (int32, as wide as the f32 values, so the
// compare-and-select loop vectorizes); tap_at[ordinal] is the tap's ring
// position.
void argmax_channels(const layout_t &l, const fsrc_t &src, const taps_t *t,
        const int64_t *slot, int64_t cw, float *bv, int32_t *bt,
        int64_t *tap_at) {
    const int64_t X2 = l.xsp[2];
    const float *f = src.row[0] + t[1].p0 * src.s1 + t[2].p0 * src.s2;
    for (int64_t c = 0; c < cw; ++c) {
        bv[c] = f[c];
        bt[c] = 0;
    }
    int32_t n = 0;
    for (int64_t a = t[0].k0; a < t[0].k1; ++a) {
        const int64_t s = slot[a - t[0].k0];
        for (int64_t b = t[1].k0; b < t[1].k1; ++b) {
            const int64_t p1 = t[1].p0 + (b - t[1].k0) * l.d[1];
            const float *xr = src.row[a - t[0].k0] + p1 * src.s1;
            const int64_t ir = (s + p1) * X2;
            for (int64_t e = t[2].k0; e < t[2].k1; ++e, ++n) {
                const int64_t p2 = t[2].p0 + (e - t[2].k0) * l.d[2];
                const float *px = xr + p2 * src.s2;
                tap_at[n] = ir + p2;
                // The select as a mask: a form the compiler vectorizes.
                for (int64_t c = 0; c < cw; ++c) {
                    const float v = px[c], b = bv[c];
                    const int32_t m = -static_cast<int32_t>(v > b);
                    bv[c] = v > b ? v : b;
                    bt[c] = (n & m) | (bt[c] & ~m);
                }
            }
        }
    }
}

// One (n, c) plane (cw = 1) or one image's channels [c0, c0 + cw)
// (unit channel strides): pointers are at (n, c0). Outputs run in the
// reference's row-major order, each adding its diff_dst to its argmax's
// ring position; a source row is written out (and its ring row cleared
// for reuse) once the windows have moved past it, so the ring holds only
// the rows one window spans. T is float, or uint16_t for bf16/f16.
template <bool Channels, typename T>
void block(const layout_t &l, const T *src, const T *dd, T *ds, int64_t cw,
        scratch_t &s) {
    constexpr bool f32 = std::is_same<T, float>::value;
    const int64_t CW = Channels ? cw : 1; // a constant 1 for planes
    const int64_t X0 = l.xsp[0], X1 = l.xsp[1], X2 = l.xsp[2];
    const int64_t row = X1 * X2 * CW;
    const int64_t depth = std::min(X0, (l.k[0] - 1) * l.d[0] + 1);
    s.acc.assign(static_cast<size_t>(depth * row), 0.0);
    s.slot.resize(static_cast<size_t>(l.k[0]));
    s.rows.resize(static_cast<size_t>(l.k[0]));
    if (!f32) {
        s.src_ring.resize(static_cast<size_t>(depth * row));
        s.dd_f.resize(static_cast<size_t>(Channels ? CW : l.ysp[2]));
        s.out_f.resize(static_cast<size_t>(X2 * CW));
    }
    if (Channels) {
        s.tap_at.resize(static_cast<size_t>(l.k[0] * l.k[1] * l.k[2]));
        s.best_v.resize(static_cast<size_t>(CW));
        s.best_t.resize(static_cast<size_t>(CW));
    } else {
        s.best_v.resize(static_cast<size_t>(l.ysp[2]));
        s.best_t.resize(static_cast<size_t>(l.ysp[2]));
        s.at.resize(static_cast<size_t>(l.ysp[2]));
        s.tap_at.resize(static_cast<size_t>(l.k[0] * l.k[1] * l.k[2]));
        s.w_range.resize(static_cast<size_t>(2 * l.k[2]));
        for (int64_t e = 0; e < l.k[2]; ++e) {
            // Outputs w with 0 <= w s2 + e d2 - pb2 < X2.
            const int64_t off = e * l.d[2] - l.pb[2], s2 = l.s[2];
            const int64_t last = X2 - 1 - off;
            s.w_range[static_cast<size_t>(e)]
                    = off >= 0 ? 0 : (-off + s2 - 1) / s2;
            s.w_range[static_cast<size_t>(l.k[2] + e)]
                    = last < 0 ? 0 : std::min(l.ysp[2], last / s2 + 1);
        }
    }
    double *acc = s.acc.data();
    int64_t done = 0; // source rows [0, done) are written out
    const auto flush = [&](int64_t end) {
        for (; done < end; ++done) {
            double *r = acc + (done % depth) * row;
            T *out0 = ds + done * l.dx.sp[0];
            for (int64_t p1 = 0; p1 < X1; ++p1) {
                if constexpr (f32) {
                    for (int64_t p2 = 0; p2 < X2; ++p2) {
                        T *o = out0 + p1 * l.dx.sp[1] + p2 * l.dx.sp[2];
                        double *a = r + (p1 * X2 + p2) * CW;
                        for (int64_t c = 0; c < CW; ++c) {
                            o[c] = static_cast<float>(a[c]);
                            a[c] = 0.0;
                        }
                    }
                } else {
                // The f32 values of the row, then narrowed: one run along
                // W for planes, a run of channels per pixel otherwise.
                double *a = r + p1 * X2 * CW;
                float *f = s.out_f.data();
                for (int64_t i = 0; i < X2 * CW; ++i) {
                    f[i] = static_cast<float>(a[i]);
                    a[i] = 0.0;
                }
                T *o = out0 + p1 * l.dx.sp[1];
                if (!Channels)
                    store_run(f, X2, o, l.dx.sp[2], l.dt);
                else
                    for (int64_t p2 = 0; p2 < X2; ++p2)
                        store_run(f + p2 * CW, CW, o + p2 * l.dx.sp[2], 1, l.dt);
                }
            }
        }
    };
    // 16 bits: source rows [0, loaded) have been widened into the ring
    // (rows before a window's start are skipped). Row r's slot is reused
    // for row r + depth, which only a window starting after r reaches.
    int64_t loaded = 0;
    const auto widen_rows = [&](int64_t first, int64_t last) {
        loaded = std::max(loaded, first);
        for (; loaded <= last; ++loaded) {
            float *d = s.src_ring.data() + (loaded % depth) * row;
            const T *r = src + loaded * l.x.sp[0];
            for (int64_t p1 = 0; p1 < X1; ++p1) {
                const T *r1 = r + p1 * l.x.sp[1];
                if (Channels) // X2 pixels of CW contiguous channels
                    common::widen_matrix(r1, l.dt, X2, CW, l.x.sp[2], 1,
                            d + p1 * X2 * CW);
                else
                    common::widen_matrix(r1, l.dt, 1, X2, 0, l.x.sp[2], d + p1 * X2);
            }
        }
    };
    const fsrc_t fs = {s.rows.data(), f32 ? l.x.sp[1] : X2 * CW,
            f32 ? l.x.sp[2] : CW};
    taps_t t[3];
    for (int64_t o0 = 0; o0 < l.ysp[0]; ++o0) {
        // Rows before this window row's start are final.
        flush(std::min(X0, std::max<int64_t>(0, o0 * l.s[0] - l.pb[0])));
        t[0] = clip(o0, l.s[0], l.d[0], l.pb[0], l.k[0], X0);
        if (t[0].k0 == t[0].k1) continue; // the row's windows are all padding
        for (int64_t a = 0; a < t[0].k1 - t[0].k0; ++a) {
            const int64_t p0 = t[0].p0 + a * l.d[0];
            s.slot[static_cast<size_t>(a)] = (p0 % depth) * X1;
            if constexpr (f32)
                s.rows[static_cast<size_t>(a)] = src + p0 * l.x.sp[0];
            else
                s.rows[static_cast<size_t>(a)]
                        = s.src_ring.data() + (p0 % depth) * row;
        }
        // From the window's start, not its first tap inside: with
        // dilation the first tap inside can move back (another phase).
        if (!f32)
            widen_rows(std::max<int64_t>(0, o0 * l.s[0] - l.pb[0]),
                    t[0].p0 + (t[0].k1 - t[0].k0 - 1) * l.d[0]);
        for (int64_t o1 = 0; o1 < l.ysp[1]; ++o1) {
            t[1] = clip(o1, l.s[1], l.d[1], l.pb[1], l.k[1], X1);
            if (t[1].k0 == t[1].k1) continue;
            const T *ddr = dd + o0 * l.y.sp[0] + o1 * l.y.sp[1];
            if (!Channels) {
                const int64_t *at = s.at.data();
                argmax_row(l, fs, t, s.slot.data(), s.w_range.data(),
                        s.w_range.data() + l.k[2], s);
                int64_t ys2 = l.y.sp[2];
                const float *g = f32_run(ddr, l.dt, l.ysp[2], ys2, s.dd_f.data());
                for (int64_t o2 = 0; o2 < l.ysp[2]; ++o2)
                    if (at[o2] >= 0) acc[at[o2]] += g[o2 * ys2];
                continue;
            }
            for (int64_t o2 = 0; o2 < l.ysp[2]; ++o2) {
                t[2] = clip(o2, l.s[2], l.d[2], l.pb[2], l.k[2], X2);
                if (t[2].k0 == t[2].k1) continue;
                int64_t unit = 1;
                const float *g = f32_run(
                        ddr + o2 * l.y.sp[2], l.dt, CW, unit, s.dd_f.data());
                int32_t *bt = s.best_t.data();
                int64_t *tap_at = s.tap_at.data();
                argmax_channels(l, fs, t, s.slot.data(), CW, s.best_v.data(),
                        bt, tap_at);
                for (int64_t c = 0; c < CW; ++c)
                    acc[tap_at[bt[c]] * CW + c] += g[c];
            }
        }
    }
    flush(X0);
}

class maxpool_bwd_kernel_t : public compiler::kernel_t {
public:
    explicit maxpool_bwd_kernel_t(layout_t l)
        : l_(l)
        , name_(std::string(l.channels ? "maxpool_backward_channels_"
                                       : "maxpool_backward_")
                  + ir::dtype_name(l.dt)) {}
    const char *name() const override { return name_.c_str(); }
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
        const T *src = static_cast<const T *>(ctx.inputs[l.src]);
        const T *dd = static_cast<const T *>(ctx.inputs[l.dd]);
        T *ds = static_cast<T *>(ctx.outputs[l.ds]);
        const int64_t blocks = div_up(l.c, l.cb);
        parallel_for(l.n * blocks, 1, [&](int64_t lo, int64_t hi) {
            scratch_t s;
            for (int64_t t = lo; t < hi; ++t) {
                const int64_t n = t / blocks, blk = t % blocks;
                const int64_t c0 = blk * l.cb;
                const T *x = src + n * l.x.n + c0 * l.x.c;
                const T *g = dd + n * l.y.n + c0 * l.y.c;
                T *o = ds + n * l.dx.n + c0 * l.dx.c;
                if (l.channels)
                    block<true>(l, x, g, o, std::min(l.cb, l.c - c0), s);
                else
                    block<false>(l, x, g, o, 1, s);
            }
        });
    }

    layout_t l_;
    std::string name_;
};

// Strides of `t` on the three-dim view of geometry `g`.
strides_t strides_of(const logical_tensor_t &t, const ops::pool_geom_t &g,
        const int *slot) {
    strides_t s;
    const int first_sp = g.channel_last ? 1 : 2;
    s.n = t.layout.strides[0];
    s.c = t.layout.strides[g.channel_last ? t.ndims - 1 : 1];
    for (int j = 0; j < g.nsp; ++j)
        s.sp[slot[j]] = t.layout.strides[first_sp + j];
    return s;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_max_pool_backward)
        return decline(why, "not MaxPoolBackward");
    if (op->inputs.size() != 2 || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &src = op->inputs[0], &dd = op->inputs[1],
                           &ds = op->outputs[0];
    // One type variable binds all three: f32, or bf16/f16 widened as read
    // (the argmax compares the widened values, as the reference does).
    l.dt = src.data_type;
    if (l.dt != dnnl_f32 && l.dt != dnnl_bf16 && l.dt != dnnl_f16)
        return decline(why, "only f32, bf16 and f16");
    if (dd.data_type != l.dt || ds.data_type != l.dt)
        return decline(why, "src, diff_dst and diff_src types differ (one type variable)");
    if (ds.ndims < 3 || ds.ndims > 5) return decline(why, "rank must be 3..5");
    if (ir::dims_of(src) != ir::dims_of(ds))
        return decline(why, "src and diff_src shapes differ");
    l.src = compiler::find_port(plan.inputs, src.id);
    l.dd = compiler::find_port(plan.inputs, dd.id);
    l.ds = compiler::find_port(plan.outputs, ds.id);
    if (l.src < 0 || l.dd < 0 || l.ds < 0)
        return decline(why, "ports not found");
    ops::pool_geom_t g;
    if (ops::pool_geometry(*op, ir::dims_of(ds), ir::dims_of(dd),
                dnnl_invalid_shape, g)
            != dnnl_success)
        return decline(why, "geometry: " + last_error());
    // Where the op's spatial dim j sits among the three (see layout_t).
    static const int k_slots[3][3] = {{2, 0, 0}, {0, 2, 0}, {0, 1, 2}};
    const int *slot = k_slots[g.nsp - 1];
    for (int i = 0; i < 3; ++i) {
        l.xsp[i] = l.ysp[i] = l.k[i] = l.s[i] = l.d[i] = 1;
        l.pb[i] = 0;
    }
    for (int j = 0; j < g.nsp; ++j) {
        const int i = slot[j];
        l.xsp[i] = g.xsp[j];
        l.ysp[i] = g.ysp[j];
        l.k[i] = g.k[j];
        l.s[i] = g.s[j];
        l.d[i] = g.d[j];
        l.pb[i] = g.pb[j];
    }
    for (int i = 0; i < 3; ++i)
        if (l.xsp[i] < 1) return decline(why, "empty source");
    if (l.k[0] * l.k[1] * l.k[2] > INT32_MAX)
        return decline(why, "window of more than 2^31 taps");
    l.n = g.n;
    l.c = g.c;
    l.x = strides_of(src, g, slot);
    l.y = strides_of(dd, g, slot);
    l.dx = strides_of(ds, g, slot);
    l.channels = l.x.c == 1 && l.y.c == 1 && l.dx.c == 1;
    if (l.channels) {
        const int64_t threads = std::max(1, rt::max_threads());
        const int64_t per_image
                = std::min(div_up(threads, std::max<int64_t>(1, l.n)),
                        std::max<int64_t>(1, l.c / (2 * k_channel_step)));
        l.cb = per_image <= 1
                ? std::max<int64_t>(1, l.c)
                : round_up(div_up(l.c, per_image), k_channel_step);
    }
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, maxpool_bwd_kernel_t>(
            plan, "maxpool backward", analyse, out);
}

} // namespace pool_bwd
} // namespace cpu
} // namespace llga
