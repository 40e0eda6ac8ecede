// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/wrap/fpmath_round.cpp — f32 Convolution (all six kinds)
// and MatMul under a graph fpmath mode of bf16, f16 or tf32 (see
// fpmath_round.hpp). The mode lets the implementation read f32 inputs at
// the lower precision, and the reference does exactly that: it rounds
// every src/weights value it loads (ir::round_for_fpmath) and accumulates
// the exact products. This kernel rounds those operands once per call
// into scratch copies (same strides; constant ones once per user buffer,
// into the constant cache) and runs the strict-mode kernel the table
// picks for the same partition. A product of two rounded values has
// at most 22 significant bits, so it is exact in f32: the results differ
// from the reference only by f32 accumulation, as in strict mode.
#include "backends/cpu/kernels/wrap/fpmath_round.hpp"

#include <cstring>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/kernels/common/prepacked_weights.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/conv_util.hpp"

namespace llga {
namespace cpu {
namespace fpmath_round {

namespace {

bool rounds(fpmath_mode_t m) {
    return m == dnnl_fpmath_mode_bf16 || m == dnnl_fpmath_mode_f16
            || m == dnnl_fpmath_mode_tf32;
}

bool is_conv(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_convolution:
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose:
        case dnnl_graph_op_conv_transpose_backward_data:
        case dnnl_graph_op_conv_transpose_backward_weights: return true;
        default: return false;
    }
}

// The inputs of `op` the reference reads rounded: MatMul's src and
// weights, a conv op's X/Y/W operands (not its bias or shape input).
std::vector<size_t> rounded_inputs(const ir::op_t &op) {
    if (op.kind == dnnl_graph_op_matmul) return {0, 1};
    std::vector<size_t> r;
    if (!is_conv(op.kind)) return r;
    const ops::conv_roles_t roles = ops::conv_roles(op.kind);
    for (int role : {roles.x, roles.y, roles.w})
        if (role >= 0) r.push_back(static_cast<size_t>(role));
    return r;
}

struct layout_t {
    fpmath_mode_t mode = dnnl_fpmath_mode_strict;
    std::vector<int> ports;      // plan inputs to round
    std::vector<int64_t> spans;  // elements each one's memory spans
    std::vector<bool> constant;  // the port is a constant (weights)
    compiler::plan_t inner;      // the plan in strict mode
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    std::vector<size_t> ids; // tensor ids read rounded
    for (const ir::op_t &op : plan.ops) {
        const std::vector<size_t> r = rounded_inputs(op);
        if (r.empty() || !rounds(op.fpmath)) continue;
        if (l.mode != dnnl_fpmath_mode_strict && l.mode != op.fpmath)
            return decline(why, "fpmath: ops with different modes");
        l.mode = op.fpmath;
        for (size_t k : r) {
            if (k >= op.inputs.size())
                return decline(why, "fpmath: unexpected port count");
            const logical_tensor_t &lt = op.inputs[k];
            if (lt.data_type != dnnl_f32)
                return decline(why, "fpmath: only f32 operands are rounded "
                                    "here (bf16/f16 already are that precise)");
            if (compiler::find_port(plan.inputs, lt.id) < 0)
                return decline(why, "fpmath: a rounded operand is computed "
                                    "inside the partition");
            ids.push_back(lt.id);
        }
    }
    if (l.mode == dnnl_fpmath_mode_strict)
        return decline(why, "fpmath: no MatMul or convolution reads f32 "
                            "inputs at lower precision");
    // A rounded port must not also feed an op that reads it exactly.
    for (const ir::op_t &op : plan.ops) {
        const std::vector<size_t> r = rounds(op.fpmath) ? rounded_inputs(op)
                                                        : std::vector<size_t>();
        for (size_t k = 0; k < op.inputs.size(); ++k) {
            bool rounded_here = false;
            for (size_t j : r)
                rounded_here = rounded_here || j == k;
            if (rounded_here) continue;
            for (size_t id : ids)
                if (op.inputs[k].id == id)
                    return decline(why, "fpmath: a rounded operand is also "
                                        "read exactly by another op");
        }
    }
    l.inner = plan;
    for (ir::op_t &op : l.inner.ops)
        op.fpmath = dnnl_fpmath_mode_strict;
    for (size_t i = 0; i < plan.inputs.size(); ++i) {
        bool take = false;
        for (size_t id : ids)
            take = take || plan.inputs[i].id == id;
        if (!take) continue;
        l.ports.push_back(static_cast<int>(i));
        l.spans.push_back(static_cast<int64_t>(ir::mem_size(plan.inputs[i]) / 4));
        // A constant stays constant for the inner kernel: its rounded copy
        // is made once into the constant cache, and what the inner kernel
        // prepares from it is keyed by the user's buffer
        // (exec_ctx_t::const_keys), as in the staged kernel.
        l.constant.push_back(
                plan.inputs[i].property == dnnl_graph_tensor_property_constant);
    }
    if (!cpu_backend().supports(l.inner))
        return decline(why, "fpmath: no strict-mode kernel for the partition");
    return true;
}

// ir::round_for_fpmath with the bf16 and tf32 bit operations inline (the
// same operations, so the same values), which lets the loop vectorize.
void round_span(fpmath_mode_t m, const float *src, float *dst, int64_t n) {
    parallel_for(n, 16384, [&](int64_t lo, int64_t hi) {
        if (m == dnnl_fpmath_mode_f16) {
            for (int64_t i = lo; i < hi; ++i)
                dst[i] = ir::round_for_fpmath(m, src[i]);
            return;
        }
        const bool bf16 = m == dnnl_fpmath_mode_bf16;
        for (int64_t i = lo; i < hi; ++i) {
            uint32_t u;
            std::memcpy(&u, &src[i], 4);
            const bool nan_or_inf = (u & 0x7f800000u) == 0x7f800000u;
            uint32_t r;
            if (bf16) {
                // NaN: its top half with the quiet bit; else round half to
                // even on the 16 dropped bits.
                r = (u & 0x7fffffffu) > 0x7f800000u
                        ? (u & 0xffff0000u) | 0x00400000u
                        : (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
            } else {
                r = nan_or_inf ? u
                               : (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;
            }
            std::memcpy(&dst[i], &r, 4);
        }
    });
}

class fpmath_kernel_t : public compiler::kernel_t {
public:
    fpmath_kernel_t(layout_t l, std::shared_ptr<const compiler::kernel_t> inner)
        : l_(std::move(l)), inner_(std::move(inner)) {
        name_ = std::string("fpmath_") + (l_.mode == dnnl_fpmath_mode_bf16 ? "bf16"
                        : l_.mode == dnnl_fpmath_mode_f16              ? "f16"
                                                                      : "tf32")
                + "(" + inner_->name() + ")";
    }
    const char *name() const override { return name_.c_str(); }
    bool sized_for_threads() const override {
        return inner_->sized_for_threads();
    }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        scratch_frame_t frame;
        compiler::exec_ctx_t c = ctx;
        c.const_keys.resize(ctx.inputs.size(), nullptr);
        std::vector<rt::constant_ptr_t> held; // cached copies in use
        for (size_t k = 0; k < l_.ports.size(); ++k) {
            const size_t p = static_cast<size_t>(l_.ports[k]);
            const int64_t n = l_.spans[k];
            const fpmath_mode_t mode = l_.mode;
            const auto round = [mode, n](const void *src, void *dst) {
                round_span(mode, static_cast<const float *>(src),
                        static_cast<float *>(dst), n);
            };
            LLGA_RETURN_IF_ERROR(cached_[k].convert_input(ctx, *this, p,
                    l_.constant[k], static_cast<size_t>(n) * 4,
                    static_cast<size_t>(mode) * 1000003u + static_cast<size_t>(n),
                    round, [&](size_t bytes) { return frame.take(bytes); }, c,
                    held));
        }
        return inner_->execute(c);
    }

private:
    layout_t l_;
    // Constant rounded ports: rounded once through the cache.
    std::unique_ptr<common::prepacked_weights_t[]> cached_ {
            new common::prepacked_weights_t[l_.ports.size()]};
    std::shared_ptr<const compiler::kernel_t> inner_;
    std::string name_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa;
    layout_t l;
    return analyse(plan, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu %s", why.c_str());
    std::shared_ptr<const compiler::kernel_t> inner;
    LLGA_RETURN_IF_ERROR(cpu_backend().compile(l.inner, inner));
    out = std::make_shared<fpmath_kernel_t>(std::move(l), std::move(inner));
    return dnnl_success;
}

} // namespace fpmath_round
} // namespace cpu
} // namespace llga
