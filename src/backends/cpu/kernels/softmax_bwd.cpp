// backends/cpu/kernels/softmax_bwd.cpp — softmax backward (see
// softmax_bwd.hpp): slices along the axis, threaded; a dense run after the
// axis (a channel axis of NCHW) is walked as contiguous row segments of
// many slices at once, a slice contiguous along the axis as one row.
#include "backends/cpu/kernels/softmax_bwd.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/eltwise.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace softmax_bwd {

namespace {

// Elements one task covers at least.
constexpr int64_t k_task_elems = 16384;
// Positions of a dense inner run one task walks at a time, at most: a
// whole run when it fits, so that walking down the axis reads one
// contiguous block (NCHW 64 x 128 x 28 x 28 over C, two threads: chunks
// of 256 positions 15 ms, 392 12-14, the whole 784 6.8), whose rows the
// prefetchers follow across pages; its double sums stay in L1.
constexpr int64_t k_inner_chunk = 2048;

struct layout_t {
    bool log = false;
    int dd = -1, y = -1, ds = -1; // ports: diff_dst, dst, diff_src
    int64_t n = 0;                // slice length (the axis)
    int64_t sdd = 0, sy = 0, sds = 0; // strides along the axis
    // > 1: the dims after the axis form one dense run of this many
    // elements (stride 1) in all three tensors, walked as vectors; the
    // dims below then list only those before the axis.
    int64_t inner = 1;
    // The other dims: sizes and each tensor's strides.
    std::vector<int64_t> on, odd, oy, ods;
};

class softmax_bwd_kernel_t : public compiler::kernel_t {
public:
    softmax_bwd_kernel_t(layout_t l, eltwise::unary_fn_t exp_fn)
        : l_(std::move(l)), exp_(exp_fn) {}
    const char *name() const override {
        return l_.log ? "logsoftmax_backward_f32" : "softmax_backward_f32";
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        const float *dd = static_cast<const float *>(ctx.inputs[l.dd]);
        const float *y = static_cast<const float *>(ctx.inputs[l.y]);
        float *ds = static_cast<float *>(ctx.outputs[l.ds]);
        int64_t outer = 1;
        for (int64_t v : l.on)
            outer *= v;
        const int64_t chunks = div_up(l.inner, k_inner_chunk);
        const int64_t task_elems = l.n * std::min(l.inner, k_inner_chunk);
        const int64_t grain
                = std::max<int64_t>(1, k_task_elems / std::max<int64_t>(1, task_elems));
        const bool rows = l.inner == 1 && l.sdd == 1 && l.sy == 1 && l.sds == 1;
        parallel_for(outer * chunks, grain, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) {
                int64_t rest = t / chunks, odd = 0, oy = 0, ods = 0;
                for (size_t k = l.on.size(); k-- > 0;) {
                    const int64_t i = rest % l.on[k];
                    rest /= l.on[k];
                    odd += i * l.odd[k];
                    oy += i * l.oy[k];
                    ods += i * l.ods[k];
                }
                const int64_t i0 = t % chunks * k_inner_chunk;
                const float *g = dd + odd + i0, *yv = y + oy + i0;
                float *o = ds + ods + i0;
                if (l.inner > 1)
                    run_inner(g, yv, o, std::min(k_inner_chunk, l.inner - i0));
                else if (rows)
                    run_row(g, yv, o);
                else
                    run_strided(g, yv, o);
            }
        });
        return dnnl_success;
    }

private:
    // e^y of `w` contiguous values (the JIT exp: 1.14 ulp).
    void exp_of(const float *y, float *out, int64_t w) const {
        exp_(y, out, static_cast<size_t>(w));
    }

    // One chunk of `w` positions of a dense inner run: the sums of all
    // positions in one pass down the axis, then the results row by row;
    // every row segment is contiguous. The kernel runs only where AVX2 is
    // (kernels.def), so the loops may use it: four doubles per vector.
    // (No FMA: the expressions round like the reference's.)
    __attribute__((target("avx2"))) void run_inner(const float *g, const float *y, float *o, int64_t w) const {
        const layout_t &l = l_;
        double acc[k_inner_chunk] = {};
        alignas(64) float ey[k_inner_chunk];
        for (int64_t k = 0; k < l.n; ++k) {
            const float *gk = g + k * l.sdd, *yk = y + k * l.sy;
            if (l.log)
                for (int64_t i = 0; i < w; ++i)
                    acc[i] += double(gk[i]);
            else
                for (int64_t i = 0; i < w; ++i)
                    acc[i] += double(gk[i]) * double(yk[i]);
        }
        for (int64_t k = 0; k < l.n; ++k) {
            const float *gk = g + k * l.sdd, *yk = y + k * l.sy;
            float *ok = o + k * l.sds;
            if (l.log) {
                exp_of(yk, ey, w);
                for (int64_t i = 0; i < w; ++i)
                    ok[i] = static_cast<float>(
                            double(gk[i]) - double(ey[i]) * acc[i]);
            } else {
                for (int64_t i = 0; i < w; ++i)
                    ok[i] = static_cast<float>(
                            double(yk[i]) * (double(gk[i]) - acc[i]));
            }
        }
    }

    // A slice contiguous along the axis.
    __attribute__((target("avx2"))) void run_row(const float *g, const float *y, float *o) const {
        const layout_t &l = l_;
        double acc = 0;
        if (l.log) {
            for (int64_t k = 0; k < l.n; ++k)
                acc += double(g[k]);
            alignas(64) float ey[k_inner_chunk];
            for (int64_t k0 = 0; k0 < l.n; k0 += k_inner_chunk) {
                const int64_t w = std::min(k_inner_chunk, l.n - k0);
                exp_of(y + k0, ey, w);
                for (int64_t i = 0; i < w; ++i)
                    o[k0 + i] = static_cast<float>(
                            double(g[k0 + i]) - double(ey[i]) * acc);
            }
            return;
        }
        for (int64_t k = 0; k < l.n; ++k)
            acc += double(g[k]) * double(y[k]);
        for (int64_t k = 0; k < l.n; ++k)
            o[k] = static_cast<float>(double(y[k]) * (double(g[k]) - acc));
    }

    // Any other strides: element by element along the axis.
    void run_strided(const float *g, const float *y, float *o) const {
        const layout_t &l = l_;
        double acc = 0;
        if (l.log) {
            for (int64_t k = 0; k < l.n; ++k)
                acc += double(g[k * l.sdd]);
            for (int64_t k = 0; k < l.n; ++k) {
                float ey;
                exp_of(y + k * l.sy, &ey, 1);
                o[k * l.sds] = static_cast<float>(
                        double(g[k * l.sdd]) - double(ey) * acc);
            }
            return;
        }
        for (int64_t k = 0; k < l.n; ++k)
            acc += double(g[k * l.sdd]) * double(y[k * l.sy]);
        for (int64_t k = 0; k < l.n; ++k)
            o[k * l.sds] = static_cast<float>(
                    double(y[k * l.sy]) * (double(g[k * l.sdd]) - acc));
    }

    layout_t l_;
    eltwise::unary_fn_t exp_;
};

// Whether dims (axis, r) of `t` are one dense run ending in stride 1.
bool dense_after(const logical_tensor_t &t, int axis, int r) {
    int64_t want = 1;
    for (int d = r - 1; d > axis; --d) {
        if (t.dims[d] != 1 && t.layout.strides[d] != want) return false;
        want *= t.dims[d];
    }
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_softmax_backward
            && op->kind != dnnl_graph_op_log_softmax_backward)
        return decline(why, "not SoftMaxBackward/LogSoftmaxBackward");
    if (op->inputs.size() != 2 || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &dd = op->inputs[0], &y = op->inputs[1],
                           &ds = op->outputs[0];
    for (const logical_tensor_t *t : {&dd, &y, &ds})
        if (t->data_type != dnnl_f32) return decline(why, "only f32");
    const int r = dd.ndims;
    if (y.ndims != r || ds.ndims != r || ir::dims_of(y) != ir::dims_of(dd)
            || ir::dims_of(ds) != ir::dims_of(dd))
        return decline(why, "shapes differ");
    int64_t axis = 0;
    if (r < 1
            || !ir::normalize_axis(op->get_s64(dnnl_graph_op_attr_axis), r, axis))
        return decline(why, "bad axis");
    l.log = op->kind == dnnl_graph_op_log_softmax_backward;
    l.n = dd.dims[axis];
    l.sdd = dd.layout.strides[axis];
    l.sy = y.layout.strides[axis];
    l.sds = ds.layout.strides[axis];
    const int a = static_cast<int>(axis);
    for (int d = a + 1; d < r; ++d)
        l.inner *= dd.dims[d];
    if (l.inner > 1
            && !(dense_after(dd, a, r) && dense_after(y, a, r)
                    && dense_after(ds, a, r)))
        l.inner = 1;
    for (int d = 0; d < r; ++d) {
        if (d == axis || (l.inner > 1 && d > axis)) continue;
        l.on.push_back(dd.dims[d]);
        l.odd.push_back(dd.layout.strides[d]);
        l.oy.push_back(y.layout.strides[d]);
        l.ods.push_back(ds.layout.strides[d]);
    }
    l.dd = compiler::find_port(plan.inputs, dd.id);
    l.y = compiler::find_port(plan.inputs, y.id);
    l.ds = compiler::find_port(plan.outputs, ds.id);
    if (l.dd < 0 || l.y < 0 || l.ds < 0) return decline(why, "ports not found");
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu softmax backward: %s", why.c_str());
    eltwise::unary_fn_t exp_fn = nullptr;
    LLGA_RETURN_IF_ERROR(eltwise::get_unary(eltwise::alg_t::exp, 0.f, 0.f,
            isa == isa_t::avx512_core ? isa_t::avx512_core : isa_t::avx2,
            &exp_fn));
    out = std::make_shared<softmax_bwd_kernel_t>(std::move(l), exp_fn);
    return dnnl_success;
}

} // namespace softmax_bwd
} // namespace cpu
} // namespace llga
