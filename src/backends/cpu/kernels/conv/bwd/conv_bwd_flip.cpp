// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/bwd/conv_bwd_flip.cpp — "compute X" with unit
// strides as a forward convolution (see conv_bwd.hpp): with S = 1,
//   X[p] = sum_k Y[p + PB - k*D] W[k]
// is Convolution(src = Y, W') with the kernel flipped, W'[k'] = W[K-1-k'],
// the channel roles swapped (W' is [K'][cy][xi] per group, XIO), dilation
// D and pads (K-1)*D - PB before and X - Y - that + (K-1)*D after. The
// forward kernels (direct, implicit GEMM, depthwise) then run it; the
// wrapper only writes W' per execution.
#include <algorithm>
#include <memory>
#include <vector>

#include "backends/cpu/kernels/conv/bwd/conv_bwd_p.hpp"
#include "backends/cpu/kernels/conv/conv.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace conv_bwd {

namespace {

using conv::conv_desc_t;

// The forward Convolution plan of `b`'s op, its W' port a fresh variable
// tensor (new values every execution); false when a stride is not 1 or a
// flipped pad would be negative.
bool forward_plan(const compiler::plan_t &plan, const bwd_desc_t &b,
        compiler::plan_t &fwd, std::string *why) {
    const conv_desc_t &d = b.d;
    if (d.SD != 1 || d.SH != 1 || d.SW != 1)
        return decline(why, "strided: no forward form");
    const int64_t k[3] = {d.KD, d.KH, d.KW}, dil[3] = {d.DD, d.DH, d.DW};
    const int64_t pb[3] = {d.PD, d.PH, d.PW};
    const int64_t xs[3] = {d.ID, d.IH, d.IW}, ys[3] = {d.OD, d.OH, d.OW};
    std::vector<int64_t> fpb, fpe, fdil, fk;
    for (int i = 3 - d.nsp; i < 3; ++i) {
        const int64_t span = (k[i] - 1) * dil[i];
        const int64_t b0 = span - pb[i], e0 = xs[i] - ys[i] - b0 + span;
        if (b0 < 0 || e0 < 0)
            return decline(why, "pads beyond the kernel: no forward form");
        fpb.push_back(b0);
        fpe.push_back(e0);
        fdil.push_back(dil[i]);
        fk.push_back(k[i]);
    }
    const logical_tensor_t &y = plan.inputs[static_cast<size_t>(b.y)];
    const logical_tensor_t &x = plan.outputs[static_cast<size_t>(b.x)];
    dims_t wd(fk.begin(), fk.end());
    wd.push_back(d.OCg);
    wd.push_back(d.IC());
    size_t id = 1;
    for (const auto *ports : {&plan.inputs, &plan.outputs})
        for (const auto &lt : *ports)
            id = std::max(id, lt.id + 1);
    const logical_tensor_t w = ir::make_lt(id, dnnl_f32, wd);

    ir::op_t op;
    op.kind = dnnl_graph_op_convolution;
    op.id = plan.ops[0].id;
    op.fpmath = plan.ops[0].fpmath;
    op.inputs = {y, w};
    if (b.bias >= 0) op.inputs.push_back(plan.inputs[static_cast<size_t>(b.bias)]);
    op.outputs = {x};
    using av = ir::attr_value_t;
    op.set_attr(dnnl_graph_op_attr_strides,
            av::make_s64s(std::vector<int64_t>(fk.size(), 1)));
    op.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s(fdil));
    op.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s(fpb));
    op.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s(fpe));
    op.set_attr(dnnl_graph_op_attr_groups, av::make_s64(d.G));
    op.set_attr(dnnl_graph_op_attr_data_format,
            av::make_str(d.nxc ? "NXC" : "NCX"));
    op.set_attr(dnnl_graph_op_attr_weights_format, av::make_str("XIO"));
    fwd = compiler::plan_t();
    fwd.partition = plan.partition;
    fwd.ops = {op};
    fwd.inputs = op.inputs;
    fwd.outputs = op.outputs;
    return true;
}

// The forward conv families in kernel-table order, for one ISA level.
status_t forward_kernel(const compiler::plan_t &fwd, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> *out, std::string *why) {
    using accept_fn = bool (*)(const compiler::plan_t &, isa_t, std::string *);
    using create_fn = status_t (*)(const compiler::plan_t &, isa_t,
            std::shared_ptr<const compiler::kernel_t> &);
    const struct {
        accept_fn accepts;
        create_fn create;
    } families[] = {{conv::accepts_dw, conv::create_dw},
            {conv::accepts_brg, conv::create_brg},
            {conv::accepts_gemm, conv::create_gemm}};
    std::string reasons;
    for (const auto &f : families) {
        std::string r;
        if (!f.accepts(fwd, isa, &r)) {
            reasons += (reasons.empty() ? "" : "; ") + r;
            continue;
        }
        return out ? f.create(fwd, isa, *out) : dnnl_success;
    }
    if (why) *why = "no forward kernel: " + reasons;
    return dnnl_unimplemented;
}

class flipped_kernel_t : public compiler::kernel_t {
public:
    flipped_kernel_t(const bwd_desc_t &b,
            std::shared_ptr<const compiler::kernel_t> fwd)
        : b_(b), fwd_(std::move(fwd)),
          name_(std::string("conv_bwd_data_flipped:") + fwd_->name()) {}
    const char *name() const override { return name_.c_str(); }

    bool sized_for_threads() const override {
        return fwd_->sized_for_threads();
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const conv_desc_t &d = b_.d;
        const float *w = static_cast<const float *>(ctx.inputs[b_.w]);
        const int64_t ksz = d.ksize(), ic = d.IC();
        scratch_frame_t frame;
        float *wf = static_cast<float *>(frame.take(
                static_cast<size_t>(ksz * d.OCg * ic) * sizeof(float)));
        // W'[k'][cyj][g*XCg + xi] = W[g*YCg + cyj][xi][K-1-k'], in 16 x 16
        // (cyj, xi) tiles so both sides stay within a few cache lines.
        constexpr int64_t T = 16;
        const int64_t ct = div_up(d.OCg, T), xt = div_up(d.ICg, T);
        parallel_for(ksz * d.G * ct, 1, [&](int64_t lo, int64_t hi) {
            for (int64_t t = lo; t < hi; ++t) {
                const int64_t c0 = t % ct * T, g = t / ct % d.G;
                const int64_t kf = t / (ct * d.G); // k'
                const int64_t kr = ksz - 1 - kf;
                const int64_t kd = kr / (d.KH * d.KW), kh = kr / d.KW % d.KH,
                              kw = kr % d.KW;
                const float *src = w + g * d.OCg * d.ws[0] + kd * d.ws[2]
                        + kh * d.ws[3] + kw * d.ws[4];
                float *dst = wf + kf * d.OCg * ic + g * d.ICg;
                const int64_t c1 = std::min(d.OCg, c0 + T);
                for (int64_t xb = 0; xb < xt; ++xb) {
                    const int64_t x0 = xb * T, x1 = std::min(d.ICg, x0 + T);
                    for (int64_t c = c0; c < c1; ++c)
                        for (int64_t xi = x0; xi < x1; ++xi)
                            dst[c * ic + xi] = src[c * d.ws[0] + xi * d.ws[1]];
                }
            }
        });
        compiler::exec_ctx_t fctx = ctx;
        fctx.inputs = {ctx.inputs[b_.y], wf};
        if (b_.bias >= 0) fctx.inputs.push_back(ctx.inputs[b_.bias]);
        fctx.outputs = {ctx.outputs[b_.x]};
        return fwd_->execute(fctx);
    }

private:
    bwd_desc_t b_;
    std::shared_ptr<const compiler::kernel_t> fwd_;
    std::string name_;
};

} // namespace

bool accepts_flipped(const compiler::plan_t &plan, const bwd_desc_t &b,
        isa_t isa, std::string *why) {
    compiler::plan_t fwd;
    return !b.compute_w && forward_plan(plan, b, fwd, why)
            && forward_kernel(fwd, isa, nullptr, why) == dnnl_success;
}

status_t make_flipped_kernel(const compiler::plan_t &plan, const bwd_desc_t &b,
        isa_t isa, std::shared_ptr<const compiler::kernel_t> &out) {
    compiler::plan_t fwd;
    std::string why;
    if (b.compute_w || !forward_plan(plan, b, fwd, &why))
        return fail(dnnl_unimplemented, "cpu conv_bwd: %s", why.c_str());
    std::shared_ptr<const compiler::kernel_t> k;
    if (forward_kernel(fwd, isa, &k, &why) != dnnl_success || !k)
        return fail(dnnl_unimplemented, "cpu conv_bwd: %s", why.c_str());
    out = std::make_shared<flipped_kernel_t>(b, std::move(k));
    return dnnl_success;
}

} // namespace conv_bwd
} // namespace cpu
} // namespace llga
