// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/data/interpolate.cpp — Interpolate and
// InterpolateBackward, f32, bf16 and f16, any layout (see
// interpolate.hpp). The taps and weights are the reference's own
// (ops::interp_geometry), and every output sums its corners in the
// reference's order (corner masks in increasing order, each weight the
// product over the spatial dims in order, zero weights skipped forward),
// in double: bit-identical results. What is saved is the per-element
// index arithmetic: the forward pass walks output rows with running
// offsets, the backward pass scatters one (image, channel) plane at a
// time into a double buffer as the reference does, in the same output
// order. 16-bit tensors are handled a row (the innermost spatial dim) at
// a time: the source rows an output row's corners read, or a diff_dst
// row, widened into f32 buffers; result rows narrowed as written.
#include "backends/cpu/kernels/data/interpolate.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/interp_geom.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace interpolate {

namespace {

struct layout_t {
    bool backward = false;
    int in = -1, out = -1; // src (forward) / diff_dst (backward); dst
    ops::interp_geom_t g;
    // Element strides: n, c, then each spatial dim, of X (src/diff_src)
    // and Y (dst/diff_dst).
    dims_t xs, ys;
    data_type_t dt = dnnl_f32; // of src/diff_src and dst/diff_dst
    std::string name;
};

// n f32 values rounded to nearest even into a bf16/f16 run `stride`
// elements apart (narrowed 256 at a time, then scattered if strided).
void narrow_strided(const float *f, int64_t n, uint16_t *p, int64_t stride,
        data_type_t dt) {
    if (stride == 1) {
        common::narrow_row(f, n, p, dt);
        return;
    }
    uint16_t tmp[256];
    for (int64_t i0 = 0; i0 < n; i0 += 256) {
        const int64_t m = std::min<int64_t>(256, n - i0);
        common::narrow_row(f + i0, m, tmp, dt);
        for (int64_t i = 0; i < m; ++i)
            p[(i0 + i) * stride] = tmp[i];
    }
}

dims_t nc_sp_strides(const logical_tensor_t &lt, bool cl, int nsp) {
    const dims_t st = ir::strides_of(lt);
    dims_t r = {st[0], st[cl ? static_cast<size_t>(nsp) + 1 : 1]};
    for (int i = 0; i < nsp; ++i)
        r.push_back(st[static_cast<size_t>((cl ? 1 : 2) + i)]);
    return r;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    if (op.kind != dnnl_graph_op_interpolate
            && op.kind != dnnl_graph_op_interpolate_backward)
        return decline(why, "not Interpolate or InterpolateBackward");
    l.backward = op.kind == dnnl_graph_op_interpolate_backward;
    const std::string kind = l.backward ? "InterpolateBackward" : "Interpolate";
    if (op.outputs.size() != 1 || op.inputs.size() < (l.backward ? 2u : 1u))
        return decline(why, kind + ": unexpected port count");
    const logical_tensor_t &x = l.backward ? op.outputs[0] : op.inputs[0];
    const logical_tensor_t &y = l.backward ? op.inputs[1] : op.outputs[0];
    // One type variable binds the data ports: f32, or bf16/f16 widened a
    // row at a time. (InterpolateBackward's src is read for its shape
    // only.)
    l.dt = x.data_type;
    if (l.dt != dnnl_f32 && l.dt != dnnl_bf16 && l.dt != dnnl_f16)
        return decline(why, kind + ": only f32, bf16 and f16");
    if (y.data_type != l.dt)
        return decline(why, kind + ": data types differ (one type variable)");
    for (const logical_tensor_t *t : {&x, &y}) {
        if (!ir::strides_known(*t) || !ir::shape_known(*t) || t->ndims < 3)
            return decline(why, kind + ": tensor without a strided layout");
    }
    if (ir::nelems(x) == 0 || ir::nelems(y) == 0)
        return decline(why, kind + ": empty tensor");
    l.g = ops::interp_geometry(op, ir::dims_of(x), ir::dims_of(y));
    l.xs = nc_sp_strides(x, l.g.cl, l.g.nsp);
    l.ys = nc_sp_strides(y, l.g.cl, l.g.nsp);
    l.in = compiler::find_port(plan.inputs, (l.backward ? y : x).id);
    l.out = compiler::find_port(plan.outputs, (l.backward ? x : y).id);
    if (l.in < 0 || l.out < 0)
        return decline(why, kind + ": a tensor is not a partition port");
    l.name = std::string(l.backward ? "interpolate_bwd_" : "interpolate_")
            + ir::dtype_name(l.dt);
    return true;
}

class interp_kernel_t : public compiler::kernel_t {
public:
    explicit interp_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const void *in = ctx.inputs[l_.in];
        void *out = ctx.outputs[l_.out];
        if (l_.dt == dnnl_f32) {
            if (l_.backward)
                run_backward(static_cast<const float *>(in), static_cast<float *>(out));
            else
                run_forward(static_cast<const float *>(in), static_cast<float *>(out));
        } else {
            if (l_.backward)
                run_backward(static_cast<const uint16_t *>(in),
                        static_cast<uint16_t *>(out));
            else
                run_forward_half(static_cast<const uint16_t *>(in),
                        static_cast<uint16_t *>(out));
        }
        return dnnl_success;
    }

private:
    // Output row `t` of `rows` per (image, channel) plane, rows
    // row-major over the spatial dims but the last: its coordinates in
    // o[0 .. nsp - 2], and the element offsets of its plane in x and of
    // the row in y.
    void row_origin(int64_t t, int64_t rows, int64_t *o, int64_t *xoff,
            int64_t *yoff) const {
        const ops::interp_geom_t &g = l_.g;
        const int64_t c = t / rows % g.c, n = t / (rows * g.c);
        int64_t rest = t % rows;
        for (int i = g.nsp - 1; i-- > 0;) {
            o[i] = rest % g.ysp[static_cast<size_t>(i)];
            rest /= g.ysp[static_cast<size_t>(i)];
        }
        *xoff = n * l_.xs[0] + c * l_.xs[1];
        *yoff = n * l_.ys[0] + c * l_.ys[1];
        for (int i = 0; i + 1 < g.nsp; ++i)
            *yoff += o[i] * l_.ys[static_cast<size_t>(2 + i)];
    }

    // One output row (all but the last spatial index fixed) per task.
    void run_forward(const float *x, float *y) const {
        const ops::interp_geom_t &g = l_.g;
        const int nsp = g.nsp;
        const int64_t last = g.ysp[static_cast<size_t>(nsp - 1)];
        const int64_t rows = ir::product(g.ysp) / last;
        const int corners = 1 << nsp;
        parallel_for(g.n * g.c * rows, 4, [&](int64_t lo, int64_t hi) {
            int64_t o[DNNL_MAX_NDIMS];
            for (int64_t t = lo; t < hi; ++t) {
                int64_t xoff, yoff;
                row_origin(t, rows, o, &xoff, &yoff);
                const float *xb = x + xoff;
                float *yb = y + yoff;
                for (o[nsp - 1] = 0; o[nsp - 1] < last; ++o[nsp - 1]) {
                    double acc = 0;
                    for (int mask = 0; mask < corners; ++mask) {
                        double w = 1;
                        int64_t off = 0;
                        for (int i = 0; i < nsp; ++i) {
                            const ops::interp_taps_t &tp = g.taps[static_cast<size_t>(i)];
                            const bool h = (mask >> i) & 1;
                            const size_t oi = static_cast<size_t>(o[i]);
                            off += (h ? tp.i1[oi] : tp.i0[oi])
                                    * l_.xs[static_cast<size_t>(2 + i)];
                            w *= h ? tp.w1[oi] : tp.w0[oi];
                        }
                        if (w != 0) acc += w * static_cast<double>(xb[off]);
                    }
                    yb[o[nsp - 1] * l_.ys[static_cast<size_t>(1 + nsp)]]
                            = static_cast<float>(acc);
                }
            }
        });
    }

    // The rows (innermost spatial dim) of one (n, c) plane of spatial
    // extents sp and strides st[2 + i] (as in layout_t), in row-major
    // order: f(element offset of the row, its row-major index times the
    // row length, row length, element stride); a single call for the
    // whole plane when it is dense.
    template <typename F>
    void plane_rows(const dims_t &sp, const dims_t &st, F f) const {
        const int nsp = l_.g.nsp;
        const size_t li = static_cast<size_t>(nsp - 1);
        const int64_t total = ir::product(sp), X = sp[li];
        bool dense = true;
        int64_t inner = 1;
        for (int i = nsp; i-- > 0;) {
            const size_t k = static_cast<size_t>(i);
            dense = dense && (sp[k] == 1 || st[2 + k] == inner);
            inner *= sp[k];
        }
        if (dense) {
            f(0, 0, total, 1);
            return;
        }
        int64_t p[DNNL_MAX_NDIMS] = {};
        for (int64_t r0 = 0; r0 < total; r0 += X) {
            int64_t off = 0;
            for (int i = 0; i + 1 < nsp; ++i)
                off += p[i] * st[static_cast<size_t>(2 + i)];
            f(off, r0, X, st[2 + li]);
            for (int i = nsp - 1; i-- > 0;) {
                if (++p[i] < sp[static_cast<size_t>(i)]) break;
                p[i] = 0;
            }
        }
    }

    // run_forward on bf16/f16, one output row per task as well. The source
    // rows its corners read (2^(nsp-1) of them: row m takes tap i1 of
    // outer spatial dim i where bit i of m is set, else i0) are widened
    // once per output row, except rows whose weight product wr[m] is 0:
    // every corner on them has weight 0 and is skipped. A corner's weight
    // is wr[m] times its factor along the last dim: the reference's
    // product, factor by factor in the same order, so the same double;
    // then the same sums in the same order, and the result row narrowed.
    void run_forward_half(const uint16_t *x, uint16_t *y) const {
        const ops::interp_geom_t &g = l_.g;
        const int nsp = g.nsp;
        const size_t li = static_cast<size_t>(nsp - 1);
        const int64_t last = g.ysp[li], X = g.xsp[li];
        const int64_t rows = ir::product(g.ysp) / last;
        const int nrow = 1 << (nsp - 1);
        const ops::interp_taps_t &tl = g.taps[li];
        parallel_for(g.n * g.c * rows, 4, [&](int64_t lo, int64_t hi) {
            std::vector<float> xf(static_cast<size_t>(nrow * X)),
                    yf(static_cast<size_t>(last));
            double wr[1 << (DNNL_MAX_NDIMS - 2)];
            int64_t o[DNNL_MAX_NDIMS];
            for (int64_t t = lo; t < hi; ++t) {
                int64_t xoff, yoff;
                row_origin(t, rows, o, &xoff, &yoff);
                const uint16_t *xb = x + xoff;
                uint16_t *yb = y + yoff;
                for (int m = 0; m < nrow; ++m) {
                    double w = 1;
                    int64_t off = 0;
                    for (int i = 0; i + 1 < nsp; ++i) {
                        const ops::interp_taps_t &tp = g.taps[static_cast<size_t>(i)];
                        const bool h = (m >> i) & 1;
                        const size_t oi = static_cast<size_t>(o[i]);
                        off += (h ? tp.i1[oi] : tp.i0[oi])
                                * l_.xs[static_cast<size_t>(2 + i)];
                        w *= h ? tp.w1[oi] : tp.w0[oi];
                    }
                    wr[m] = w;
                    if (w != 0)
                        common::widen_matrix(xb + off, l_.dt, 1, X, 0, l_.xs[2 + li],
                                xf.data() + m * X);
                }
                for (int64_t ol = 0; ol < last; ++ol) {
                    const size_t q = static_cast<size_t>(ol);
                    double acc = 0;
                    // Corner masks in increasing order: the last dim's
                    // bit is the highest, so i0 for every row m, then i1.
                    for (int h = 0; h < 2; ++h) {
                        const double f = h ? tl.w1[q] : tl.w0[q];
                        const float *xr = xf.data() + (h ? tl.i1[q] : tl.i0[q]);
                        for (int m = 0; m < nrow; ++m) {
                            const double w = wr[m] * f;
                            if (w != 0) acc += w * static_cast<double>(xr[m * X]);
                        }
                    }
                    yf[q] = static_cast<float>(acc);
                }
                narrow_strided(yf.data(), last, yb, l_.ys[2 + li], l_.dt);
            }
        });
    }

    // The adjoint, one (n, c) plane per task: every diff_dst value, in
    // row-major output order, adds weight * value to each corner (zero
    // weights included, as the reference adds them). T is float, or
    // uint16_t for bf16/f16: then the diff_dst plane is widened first and
    // the diff_src plane narrowed from the sums, each in one run when the
    // plane is dense (else a row at a time).
    template <typename T>
    void run_backward(const T *dy, T *dx) const {
        constexpr bool f32 = std::is_same<T, float>::value;
        const ops::interp_geom_t &g = l_.g;
        const int nsp = g.nsp;
        const int64_t xsz = ir::product(g.xsp), ysz = ir::product(g.ysp);
        const int corners = 1 << nsp;
        parallel_for(g.n * g.c, 1, [&](int64_t lo, int64_t hi) {
            std::vector<double> acc(static_cast<size_t>(xsz));
            std::vector<float> pf(f32 ? 0 : static_cast<size_t>(std::max(xsz, ysz)));
            int64_t o[DNNL_MAX_NDIMS] = {}, p[DNNL_MAX_NDIMS] = {};
            for (int64_t t = lo; t < hi; ++t) {
                const int64_t c = t % g.c, n = t / g.c;
                std::fill(acc.begin(), acc.end(), 0.0);
                const T *yb = dy + n * l_.ys[0] + c * l_.ys[1];
                if constexpr (!f32)
                    plane_rows(g.ysp, l_.ys,
                            [&](int64_t off, int64_t r0, int64_t len, int64_t st) {
                                common::widen_matrix(yb + off, l_.dt, 1, len, 0, st,
                                        pf.data() + r0);
                            });
                std::fill(o, o + nsp, 0);
                for (int64_t oi = 0; oi < ysz; ++oi) {
                    double v;
                    if constexpr (f32) {
                        int64_t yoff = 0;
                        for (int i = 0; i < nsp; ++i)
                            yoff += o[i] * l_.ys[static_cast<size_t>(2 + i)];
                        v = yb[yoff];
                    } else {
                        v = pf[static_cast<size_t>(oi)]; // oi: row-major
                    }
                    for (int mask = 0; mask < corners; ++mask) {
                        double w = 1;
                        int64_t lin = 0;
                        for (int i = 0; i < nsp; ++i) {
                            const ops::interp_taps_t &tp = g.taps[static_cast<size_t>(i)];
                            const bool h = (mask >> i) & 1;
                            const size_t q = static_cast<size_t>(o[i]);
                            lin = lin * g.xsp[static_cast<size_t>(i)]
                                    + (h ? tp.i1[q] : tp.i0[q]);
                            w *= h ? tp.w1[q] : tp.w0[q];
                        }
                        acc[static_cast<size_t>(lin)] += w * v;
                    }
                    ir::next_index(o, g.ysp);
                }
                T *xb = dx + n * l_.xs[0] + c * l_.xs[1];
                std::fill(p, p + nsp, 0);
                if constexpr (f32) {
                    for (int64_t pi = 0; pi < xsz; ++pi) {
                        int64_t xoff = 0;
                        for (int i = 0; i < nsp; ++i)
                            xoff += p[i] * l_.xs[static_cast<size_t>(2 + i)];
                        xb[xoff] = static_cast<float>(acc[static_cast<size_t>(pi)]);
                        ir::next_index(p, g.xsp);
                    }
                } else {
                    for (int64_t pi = 0; pi < xsz; ++pi)
                        pf[static_cast<size_t>(pi)]
                                = static_cast<float>(acc[static_cast<size_t>(pi)]);
                    plane_rows(g.xsp, l_.xs,
                            [&](int64_t off, int64_t r0, int64_t len, int64_t st) {
                                narrow_strided(pf.data() + r0, len, xb + off, st, l_.dt);
                            });
                }
            }
        });
    }

    layout_t l_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa;
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    return create_by<layout_t, interp_kernel_t>(plan, "interpolate", analyse, out);
}

} // namespace interpolate
} // namespace cpu
} // namespace llga
