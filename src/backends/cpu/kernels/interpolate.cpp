// backends/cpu/kernels/interpolate.cpp — Interpolate and
// InterpolateBackward, f32, any layout (see interpolate.hpp). The taps and
// weights are the reference's own (ops::interp_geometry), and every output
// sums its corners in the reference's order (corner masks in increasing
// order, each weight the product over the spatial dims in order, zero
// weights skipped forward), in double: bit-identical results. What is
// saved is the per-element index arithmetic: the forward pass walks
// output rows with running offsets, the backward pass scatters one
// (image, channel) plane at a time into a double buffer as the reference
// does, in the same output order.
#include "backends/cpu/kernels/interpolate.hpp"

#include <algorithm>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
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
    std::string name;
};

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
    for (const logical_tensor_t *t : {&x, &y}) {
        if (t->data_type != dnnl_f32)
            return decline(why, kind + ": only f32 (bf16/f16 run staged)");
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
    l.name = l.backward ? "interpolate_bwd_f32" : "interpolate_f32";
    return true;
}

class interp_kernel_t : public compiler::kernel_t {
public:
    explicit interp_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        if (l_.backward)
            run_backward(static_cast<const float *>(ctx.inputs[l_.in]),
                    static_cast<float *>(ctx.outputs[l_.out]));
        else
            run_forward(static_cast<const float *>(ctx.inputs[l_.in]),
                    static_cast<float *>(ctx.outputs[l_.out]));
        return dnnl_success;
    }

private:
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
                const int64_t r = t % rows, c = t / rows % g.c,
                              n = t / (rows * g.c);
                int64_t rest = r;
                for (int i = nsp - 1; i-- > 0;) {
                    o[i] = rest % g.ysp[static_cast<size_t>(i)];
                    rest /= g.ysp[static_cast<size_t>(i)];
                }
                const float *xb = x + n * l_.xs[0] + c * l_.xs[1];
                float *yb = y + n * l_.ys[0] + c * l_.ys[1];
                for (int i = 0; i + 1 < nsp; ++i)
                    yb += o[i] * l_.ys[static_cast<size_t>(2 + i)];
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

    // The adjoint, one (n, c) plane per task: every diff_dst value, in
    // row-major output order, adds weight * value to each corner (zero
    // weights included, as the reference adds them).
    void run_backward(const float *dy, float *dx) const {
        const ops::interp_geom_t &g = l_.g;
        const int nsp = g.nsp;
        const int64_t xsz = ir::product(g.xsp), ysz = ir::product(g.ysp);
        const int corners = 1 << nsp;
        parallel_for(g.n * g.c, 1, [&](int64_t lo, int64_t hi) {
            std::vector<double> acc(static_cast<size_t>(xsz));
            int64_t o[DNNL_MAX_NDIMS] = {}, p[DNNL_MAX_NDIMS] = {};
            for (int64_t t = lo; t < hi; ++t) {
                const int64_t c = t % g.c, n = t / g.c;
                std::fill(acc.begin(), acc.end(), 0.0);
                const float *yb = dy + n * l_.ys[0] + c * l_.ys[1];
                std::fill(o, o + nsp, 0);
                for (int64_t oi = 0; oi < ysz; ++oi) {
                    int64_t yoff = 0;
                    for (int i = 0; i < nsp; ++i)
                        yoff += o[i] * l_.ys[static_cast<size_t>(2 + i)];
                    const double v = yb[yoff];
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
                float *xb = dx + n * l_.xs[0] + c * l_.xs[1];
                std::fill(p, p + nsp, 0);
                for (int64_t pi = 0; pi < xsz; ++pi) {
                    int64_t xoff = 0;
                    for (int i = 0; i < nsp; ++i)
                        xoff += p[i] * l_.xs[static_cast<size_t>(2 + i)];
                    xb[xoff] = static_cast<float>(acc[static_cast<size_t>(pi)]);
                    ir::next_index(p, g.xsp);
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
