// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_plan.cpp — the elementwise family's plan
// side: which single-op partitions it takes (one storage type, a dense
// output, numpy or BiasAdd broadcasts), and the kernels that split a
// tensor into chunks or broadcast runs and call the generated loops
// (eltwise.cpp) on the runtime's threads, 16-bit tails through padded
// copies.
#include "backends/cpu/kernels/eltwise/eltwise.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/kernels/common/broadcast_runs.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_impl_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/infer_util.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

namespace {

// A binary op's numpy broadcast as runs (common::runs_t): the generated
// function covers one run, with a scalar side when an operand is broadcast
// along it; the caller walks the outer dims with each operand's strides.
// Fills `r` and `scalar` for operands `a`, `b` of the dense output `out`;
// false (with the reason) if they do not broadcast to it, or a vector run
// would not be contiguous in an operand.
bool plan_runs(const logical_tensor_t &a, const logical_tensor_t &b,
        const logical_tensor_t &out, common::runs_t &r, scalar_t &scalar,
        std::string *why) {
    if (!common::plan(out, {a, b}, r, why)) return false;
    const int64_t sa = r.inner_step[1], sb = r.inner_step[2];
    if ((sa != 0 && sa != 1) || (sb != 0 && sb != 1))
        return decline(why, "an operand's innermost run is not contiguous");
    if (sa == 0 && sb == 0)
        return decline(why, "the operands do not broadcast to the output");
    scalar = sa == 0 ? scalar_t::src0 : sb == 0 ? scalar_t::src1 : scalar_t::none;
    return true;
}

struct layout_t {
    alg_t alg = alg_t::relu;
    io_t io = io_t::f32; // every tensor's type
    int64_t es = 4;      // its element size
    float alpha = 0.f, beta = 0.f;
    int in[2] = {-1, -1}; // op input k -> position in plan.inputs
    int out = -1;         // op output 0 -> position in plan.outputs
    int64_t n = 0;        // output elements
    common::runs_t runs;   // binary ops
    scalar_t scalar = scalar_t::none;
    // Inputs copied into the output's memory order before the loop.
    movement::relayout_t reorder[2];
};

// The inputs as the loops read them: in place, or a copy in the output's
// order taken from `frame`.
void inputs_in_output_order(const layout_t &l,
        const compiler::exec_ctx_t &ctx, int nin, const char **in,
        scratch_frame_t &frame) {
    for (int k = 0; k < nin; ++k)
        in[k] = static_cast<const char *>(
                l.reorder[k].apply(ctx.inputs[l.in[k]], frame));
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const char *kname = ops::op_kind_name(op.kind);
    const std::string kind = kname ? kname : "?";
    // BiasAdd is an Add whose 1-D operand runs along the channel axis
    // (data_format), not numpy-aligned: its own case below, not a
    // params_of() kind (the chain kernel aligns operands numpy-style).
    const bool bias_add = op.kind == dnnl_graph_op_bias_add;
    if (bias_add)
        l.alg = alg_t::add;
    else if (!params_of(op, &l.alg, &l.alpha, &l.beta))
        return decline(kind + " is not elementwise");
    const size_t nin = is_binary(l.alg) ? 2 : 1;
    if (op.inputs.size() != nin || op.outputs.size() != 1)
        return decline(kind + ": unexpected port count");
    // The output is walked flat in its own (dense) memory order; the
    // inputs are read in that order (common::runs_t).
    const logical_tensor_t &o0 = op.outputs[0];
    if (!ir::is_dense_any_order(o0))
        return decline(kind + ": the output is not dense");
    // One storage type for every tensor: f32, bf16 or f16.
    const data_type_t dt = o0.data_type;
    if (dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16)
        return decline(kind + ": " + ir::dtype_name(dt)
                + " is not f32, bf16 or f16");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v)
            if (lt.data_type != dt)
                return decline(kind + ": mixed types (tensor "
                        + std::to_string(lt.id) + " is "
                        + ir::dtype_name(lt.data_type) + ", the output "
                        + ir::dtype_name(dt) + ")");
    l.io = io_of(dt);
    l.es = dt == dnnl_f32 ? 4 : 2;
    // An input of the output's shape in another memory order is copied
    // into the output's order first (one pass, far cheaper than leaving
    // the op to the reference); the loops then read it like the output.
    std::vector<logical_tensor_t> as_read = op.inputs;
    for (size_t k = 0; k < nin; ++k) {
        const logical_tensor_t &lt = op.inputs[k];
        if (ir::dims_of(lt) != ir::dims_of(o0) || ir::same_layout(lt, o0))
            continue;
        if (!ir::strides_known(lt))
            return decline(kind + ": tensor " + std::to_string(lt.id)
                    + " has no strides");
        l.reorder[k] = movement::relayout(lt, o0, static_cast<size_t>(l.es));
        as_read[k] = o0;
    }
    for (size_t k = 0; k < nin; ++k) {
        l.in[k] = compiler::find_port(plan.inputs, op.inputs[k].id);
        if (l.in[k] < 0) return decline(kind + ": input is not a port");
    }
    l.out = compiler::find_port(plan.outputs, op.outputs[0].id);
    if (l.out < 0) return decline(kind + ": output is not a port");
    const dims_t od = ir::dims_of(op.outputs[0]);
    l.n = ir::nelems(op.outputs[0]);
    if (!is_binary(l.alg)) {
        if (ir::nelems(op.inputs[0]) != l.n)
            return decline(kind + ": input and output sizes differ");
        return true;
    }
    if (bias_add) {
        // The bias as a rank-r operand: 1 everywhere but the channel axis.
        const logical_tensor_t &b = op.inputs[1];
        const int r = o0.ndims;
        if (b.ndims != 1 || r < 2 || !ir::strides_known(b))
            return decline(kind + ": bias is not a 1-D strided tensor");
        const int ca = ops::is_channel_last(op) ? r - 1 : 1;
        logical_tensor_t v = o0;
        for (int d = 0; d < r; ++d) {
            v.dims[d] = d == ca ? b.dims[0] : 1;
            v.layout.strides[d] = d == ca ? b.layout.strides[0] : 0;
        }
        as_read[1] = v;
    }
    std::string reason;
    if (!plan_runs(as_read[0], as_read[1], o0, l.runs, l.scalar, &reason))
        return decline(kind + ": " + ir::dims_to_string(ir::dims_of(op.inputs[0]))
                + " x " + ir::dims_to_string(ir::dims_of(op.inputs[1]))
                + ": " + reason);
    return true;
}

// The generated functions take float pointers; with 16-bit storage they
// carry bf16/f16 elements and whole vectors only (run_16, vec16_t).
const float *fp(const char *p) { return reinterpret_cast<const float *>(p); }
float *fp(char *p) { return reinterpret_cast<float *>(p); }

class unary_kernel_t : public compiler::kernel_t {
public:
    unary_kernel_t(std::string name, unary_fn_t fn, unary_fn_t stream_fn,
            const layout_t &l, int width)
        : name_(std::move(name)), fn_(fn), stream_fn_(stream_fn), l_(l),
          W_(width) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *src = nullptr;
        scratch_frame_t frame;
        inputs_in_output_order(l_, ctx, 1, &src, frame);
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        const int64_t es = l_.es;
        for_each_chunk(l_.n, k_chunk, fp(dst), stream_fn_ != nullptr,
                [&](int64_t off, int64_t len, bool nt) {
                    if (l_.io == io_t::f32) {
                        (nt ? stream_fn_ : fn_)(fp(src + off * es),
                                fp(dst + off * es), static_cast<size_t>(len));
                        return;
                    }
                    run_16(len, W_, [&](int64_t o, int64_t m, bool pad) {
                        const char *x = src + (off + o) * es;
                        char *y = dst + (off + o) * es;
                        if (!pad) {
                            fn_(fp(x), fp(y), static_cast<size_t>(m));
                            return;
                        }
                        vec16_t xs, ys;
                        fn_(fp(xs.from(x, m * es)), fp(ys.b),
                                static_cast<size_t>(W_));
                        ys.to(y, m * es);
                    });
                });
        return dnnl_success;
    }

private:
    std::string name_;
    unary_fn_t fn_;
    unary_fn_t stream_fn_; // nullptr: the output is small enough to cache
    layout_t l_;
    int W_; // lanes per vector
};

class binary_kernel_t : public compiler::kernel_t {
public:
    binary_kernel_t(std::string name, binary_fn_t fn, binary_fn_t stream_fn,
            const layout_t &l, int width)
        : name_(std::move(name)), fn_(fn), stream_fn_(stream_fn), l_(l),
          W_(width) {}
    const char *name() const override { return name_.c_str(); }
    // Tasks are (outer position, piece of a run): runs longer than a
    // chunk are split so one long run still feeds every thread.
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *in[2];
        scratch_frame_t frame;
        inputs_in_output_order(l_, ctx, 2, in, frame);
        const char *a = in[0], *b = in[1];
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        const int64_t es = l_.es;
        if (stream_fn_) { // one dense run: chunks, streamed past the head
            const int64_t sa = l_.runs.inner_step[1], sb = l_.runs.inner_step[2];
            for_each_chunk(l_.n, k_chunk, fp(dst), true,
                    [&](int64_t off, int64_t len, bool nt) {
                        (nt ? stream_fn_ : fn_)(fp(a + off * sa * es),
                                fp(b + off * sb * es), fp(dst + off * es),
                                static_cast<size_t>(len));
                    });
            return dnnl_success;
        }
        const bool a_vec = l_.scalar != scalar_t::src0;
        const bool b_vec = l_.scalar != scalar_t::src1;
        common::for_each_piece(l_.runs, k_chunk,
                [&](const int64_t *off, int64_t len) {
                    const char *pa = a + off[1] * es, *pb = b + off[2] * es;
                    char *pd = dst + off[0] * es;
                    if (l_.io == io_t::f32) {
                        fn_(fp(pa), fp(pb), fp(pd), static_cast<size_t>(len));
                        return;
                    }
                    run_16(len, W_, [&](int64_t o, int64_t m, bool pad) {
                        const char *x = a_vec ? pa + o * es : pa;
                        const char *y = b_vec ? pb + o * es : pb;
                        char *z = pd + o * es;
                        if (!pad) {
                            fn_(fp(x), fp(y), fp(z), static_cast<size_t>(m));
                            return;
                        }
                        vec16_t xs, ys, zs;
                        if (a_vec) x = xs.from(x, m * es);
                        if (b_vec) y = ys.from(y, m * es);
                        fn_(fp(x), fp(y), fp(zs.b), static_cast<size_t>(W_));
                        zs.to(z, m * es);
                    });
                });
        return dnnl_success;
    }

private:
    std::string name_;
    binary_fn_t fn_;
    // A single dense f32 run whose output is large enough to stream (see
    // stream_min_bytes()); nullptr otherwise.
    binary_fn_t stream_fn_;
    layout_t l_;
    int W_; // lanes per vector
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (!vector_loop_isa(isa, why)) return false;
    layout_t l;
    return analyse(plan, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu eltwise: %s", why.c_str());
    const bool avx512 = isa == isa_t::avx512_core;
    const int W = avx512 ? 16 : 8;
    // Non-temporal stores for large f32 outputs only (16-bit rows are half
    // a vector's bytes; not measured).
    const bool big = l.io == io_t::f32 && l.n * 4 >= stream_min_bytes();
    if (!is_binary(l.alg)) {
        unary_fn_t fn = nullptr, stream_fn = nullptr;
        LLGA_RETURN_IF_ERROR(get_unary_fn(
                l.alg, l.alpha, l.beta, isa, false, l.io, &fn));
        if (big)
            LLGA_RETURN_IF_ERROR(get_unary_fn(
                    l.alg, l.alpha, l.beta, isa, true, l.io, &stream_fn));
        out = std::make_shared<unary_kernel_t>(
                kernel_name(l.alg, scalar_t::none, avx512, l.io), fn,
                stream_fn, l, W);
        return dnnl_success;
    }
    const scalar_t s = l.scalar;
    binary_fn_t fn = nullptr, stream_fn = nullptr;
    LLGA_RETURN_IF_ERROR(get_binary_fn(l.alg, s, isa, false, l.io, &fn));
    if (l.runs.outer_count() == 1 && l.runs.inner == l.n && big)
        LLGA_RETURN_IF_ERROR(
                get_binary_fn(l.alg, s, isa, true, l.io, &stream_fn));
    out = std::make_shared<binary_kernel_t>(
            kernel_name(l.alg, s, avx512, l.io), fn, stream_fn, l, W);
    return dnnl_success;
}

} // namespace eltwise
} // namespace cpu
} // namespace llga
