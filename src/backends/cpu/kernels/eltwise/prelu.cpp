// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/prelu.cpp — see prelu.hpp.
#include "backends/cpu/kernels/eltwise/prelu.hpp"

#include <algorithm>
#include <vector>

#include "backends/cpu/kernels/common/broadcast_runs.hpp"
#include "backends/cpu/kernels/common/elem_io.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/eltwise/prelu_slope_sum_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/prelu_slope.hpp"

namespace llga {
namespace cpu {
namespace prelu {

namespace {

// Elements per task of the elementwise walks.
constexpr int64_t k_chunk = 16384;

struct layout_t {
    std::string name;
    bool bwd = false;
    data_type_t dt = dnnl_f32;
    int in[3] = {-1, -1, -1}, out[2] = {-1, -1};
    // Operands: dst (diff_src), src, slope at src's rank, [diff_dst].
    common::runs_t runs;
    // src and diff_dst: copied into dst's layout (forward) or row-major
    // (backward, where diff_slope walks them in the reference's order).
    movement::relayout_t reorder[3];
    slope_sum_t sum;
};

logical_tensor_t row_major(logical_tensor_t lt) {
    const dims_t st = ir::dense_strides(ir::dims_of(lt));
    for (size_t d = 0; d < st.size(); ++d)
        lt.layout.strides[d] = st[d];
    return lt;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    l.bwd = op.kind == dnnl_graph_op_prelu_backward;
    if (op.kind != dnnl_graph_op_prelu && !l.bwd)
        return decline(why, "not PReLU or PReLUBackward");
    const std::string kind = l.bwd ? "PReLUBackward" : "PReLU";
    const size_t nin = l.bwd ? 3 : 2;
    if (op.inputs.size() != nin || op.outputs.size() != (l.bwd ? 2u : 1u))
        return decline(why, kind + ": unexpected port count");
    l.dt = op.inputs[0].data_type;
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v) {
            if (lt.data_type != l.dt || !common::is_fp(l.dt))
                return decline(why, kind + ": the tensors must all be f32, "
                                           "all bf16 or all f16");
            if (!ir::strides_known(lt))
                return decline(why, kind + ": tensor " + std::to_string(lt.id)
                                + " has no strides");
        }
    const logical_tensor_t &src = op.inputs[0], &o = op.outputs[0];
    if (!ir::is_dense_any_order(o))
        return decline(why, kind + ": the output is not dense");
    const dims_t sd = ir::dims_of(src);
    dims_t ad, as;
    if (ir::dims_of(o) != sd
            || (l.bwd && ir::dims_of(op.inputs[2]) != sd)
            || !ops::prelu_slope_at_src_rank(op, sd,
                    ir::dims_of(op.inputs[1]), ir::strides_of(op.inputs[1]),
                    ad, as))
        return decline(why, kind + ": shapes do not match (slope "
                        + ir::dims_to_string(ir::dims_of(op.inputs[1]))
                        + ", src " + ir::dims_to_string(sd) + ")");
    logical_tensor_t slope = src; // at src's rank, 1 where it broadcasts
    for (size_t d = 0; d < sd.size(); ++d) {
        slope.dims[d] = ad[d];
        slope.layout.strides[d] = as[d];
    }
    const size_t es = ir::dtype_storage_bytes(l.dt, 1);
    std::vector<logical_tensor_t> as_read = {src, slope};
    if (l.bwd) as_read.push_back(op.inputs[2]);
    for (size_t k = 0; k < nin; k += 2) {
        const logical_tensor_t like = l.bwd ? row_major(op.inputs[k]) : o;
        l.reorder[k] = movement::relayout(op.inputs[k], like, es);
        as_read[k] = like;
    }
    std::string reason;
    if (!common::plan(o, as_read, l.runs, &reason))
        return decline(why, kind + ": " + reason);
    for (size_t k = 0; k < nin; ++k) {
        l.in[k] = compiler::find_port(plan.inputs, op.inputs[k].id);
        if (l.in[k] < 0) return decline(why, kind + ": input is not a port");
    }
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        l.out[k] = compiler::find_port(plan.outputs, op.outputs[k].id);
        if (l.out[k] < 0) return decline(why, kind + ": output is not a port");
    }
    if (l.bwd) l.sum = plan_slope_sum(op);
    common::with_fp(l.dt, [&](auto io) {
        l.name = std::string(l.bwd ? "prelu_backward_" : "prelu_") + io.name;
    });
    return true;
}

// The reference's expressions (ops/bias_prelu.cpp), there in double and
// rounded once into the output: a product of two values that are exact in
// f32 is exact in double, so the f32 product here rounds the same.
template <typename IO, typename R = typename IO::raw_t>
void forward(const common::runs_t &r, const R *x, const R *s, R *dst) {
    common::for_each_piece(r, k_chunk, [&](const int64_t *off, int64_t len) {
        const R *xp = x + off[1], *sp = s + off[2];
        R *dp = dst + off[0];
        common::with_steps<2>(&r.inner_step[1], [&](auto ix, auto is) {
            // Both sides computed, then selected: no branch on the sign.
            for (int64_t t = 0; t < len; ++t) {
                const float v = IO::load(xp[ix(t)]);
                const float p = IO::load(sp[is(t)]) * v;
                dp[t] = IO::store(common::pick(v >= 0.f, v, p));
            }
        });
    });
}

template <typename IO, typename R = typename IO::raw_t>
void diff_src(const common::runs_t &r, const R *x, const R *s, const R *dy,
        R *dx) {
    common::for_each_piece(r, k_chunk, [&](const int64_t *off, int64_t len) {
        const R *xp = x + off[1], *sp = s + off[2], *yp = dy + off[3];
        R *dp = dx + off[0];
        common::with_steps<3>(&r.inner_step[1], [&](auto ix, auto is, auto iy) {
            for (int64_t t = 0; t < len; ++t) {
                const float v = IO::load(xp[ix(t)]), g = IO::load(yp[iy(t)]);
                const float p = IO::load(sp[is(t)]) * g;
                dp[t] = IO::store(common::pick(v > 0.f, g, p));
            }
        });
    });
}

class prelu_kernel_t : public compiler::kernel_t {
public:
    explicit prelu_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }

    // Element i of every input is read before element i of dst is written,
    // so PReLU in place on src is safe.
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        scratch_frame_t frame;
        const void *x = l_.reorder[0].apply(ctx.inputs[l_.in[0]], frame);
        const void *s = ctx.inputs[l_.in[1]];
        const void *dy = l_.bwd
                ? l_.reorder[2].apply(ctx.inputs[l_.in[2]], frame)
                : nullptr;
        common::with_fp(l_.dt, [&](auto io) {
            using io_t = decltype(io);
            using raw_t = typename io_t::raw_t;
            const auto *xr = static_cast<const raw_t *>(x);
            const auto *sr = static_cast<const raw_t *>(s);
            auto *o = static_cast<raw_t *>(ctx.outputs[l_.out[0]]);
            if (!l_.bwd) return forward<io_t>(l_.runs, xr, sr, o);
            const auto *yr = static_cast<const raw_t *>(dy);
            diff_src<io_t>(l_.runs, xr, sr, yr, o);
            diff_slope(l_.sum, l_.dt, xr, yr, ctx.outputs[l_.out[1]], frame);
        });
        return dnnl_success;
    }

private:
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
    return create_by<layout_t, prelu_kernel_t>(plan, "prelu", analyse, out);
}

} // namespace prelu
} // namespace cpu
} // namespace llga
