// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/wrap/staged.cpp — runs a single bf16/f16 op (MatMul,
// Convolution, elementwise, ...) through the f32 kernel for the same op
// (see staged.hpp).
//
// Exactness: a bf16/f16 value widens to f32 exactly, and the reference
// computes single ops in f32 and rounds once into the output type, so the
// only differences are the f32 kernel's own (summation order, vector
// math accuracy), as for f32 itself. Copies
// keep the tensors' element strides (the whole memory span is converted),
// so the inner plan differs from the real one only in its data types.
//
// Cost: every call widens the variable inputs. Constant ones are widened
// once into the constant tensor cache (keyed by the user's buffer, as
// every prepared constant is) and reused, and stay constant for the inner
// kernel, which prepares (packs) them once too, keyed by the user's
// buffer through exec_ctx_t::const_keys. Both forms are held in the
// cache. bf16 res5_3x3_512 at mb 1 on AVX2 (the conv repacked 9.4 MB of
// widened weights per call before): see docs/cpu-coverage.md.
#include "backends/cpu/kernels/wrap/staged.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/common/prepacked_weights.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace staged {

namespace {

bool decline(std::string *why, const std::string &msg) {
    return cpu::decline(why, "staged f32: ", msg);
}

bool half(data_type_t t) { return t == dnnl_bf16 || t == dnnl_f16; }

// Elements a tensor's memory spans (mem_size over the element size).
int64_t span(const logical_tensor_t &lt) {
    return static_cast<int64_t>(ir::mem_size(lt)
            / ir::dtype_storage_bytes(lt.data_type, 1));
}

// The plan with every bf16/f16 tensor retyped to f32 (same strides).
// Constant ports stay constant: the inner kernel keys what it prepares
// from the copy by the user's buffer (exec_ctx_t::const_keys).
compiler::plan_t widened(const compiler::plan_t &p) {
    compiler::plan_t w = p;
    const auto f32 = [](logical_tensor_t &lt) {
        if (half(lt.data_type)) lt.data_type = dnnl_f32;
    };
    for (auto &op : w.ops) {
        op.fpmath = dnnl_fpmath_mode_strict; // see accepts()
        for (auto &lt : op.inputs)
            f32(lt);
        for (auto &lt : op.outputs)
            f32(lt);
    }
    for (auto &lt : w.inputs)
        f32(lt);
    for (auto &lt : w.outputs)
        f32(lt);
    return w;
}

using common::in_chunks;

class kernel_t : public compiler::kernel_t {
public:
    kernel_t(const compiler::plan_t &p, std::shared_ptr<const compiler::kernel_t> inner)
        : inner_(std::move(inner)) {
        name_ = std::string("staged_f32(") + inner_->name() + ")";
        for (const auto &lt : p.inputs) {
            in_dt_.push_back(lt.data_type);
            in_span_.push_back(half(lt.data_type) ? span(lt) : 0);
            in_const_.push_back(half(lt.data_type)
                    && lt.property == dnnl_graph_tensor_property_constant);
        }
        cached_.reset(new common::prepacked_weights_t[in_dt_.size()]);
        for (const auto &lt : p.outputs) {
            out_dt_.push_back(lt.data_type);
            out_span_.push_back(half(lt.data_type) ? span(lt) : 0);
            out_holes_.push_back(!ir::is_dense_any_order(lt));
        }
    }
    const char *name() const override { return name_.c_str(); }

    bool sized_for_threads() const override {
        return inner_->sized_for_threads();
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        // f32 copies in the per-thread scratch (see scratch_frame_t).
        scratch_frame_t frame;
        const auto take = [&](int64_t floats) {
            return static_cast<float *>(
                    frame.take(static_cast<size_t>(floats) * 4));
        };
        compiler::exec_ctx_t c = ctx;
        c.const_keys.resize(in_dt_.size(), nullptr);
        // Cached widened constants, held until the inner kernel is done.
        std::vector<rt::constant_ptr_t> held;
        for (size_t i = 0; i < in_dt_.size(); ++i) {
            if (!in_span_[i]) continue;
            const data_type_t dt = in_dt_[i];
            const int64_t n = in_span_[i];
            const auto widen = [dt, n](const void *src, void *dst) {
                const auto *h = static_cast<const uint16_t *>(src);
                float *f = static_cast<float *>(dst);
                in_chunks(n, [&](int64_t lo, int64_t len) {
                    common::widen_matrix(h + lo, dt, 1, len, 0, 1, f + lo);
                });
            };
            LLGA_RETURN_IF_ERROR(cached_[i].convert_input(ctx, *this, i,
                    in_const_[i], static_cast<size_t>(n) * 4,
                    static_cast<size_t>(dt) * 1000003u + static_cast<size_t>(n),
                    widen, [&](size_t bytes) { return frame.take(bytes); }, c,
                    held));
        }
        std::vector<float *> outs(out_dt_.size(), nullptr);
        for (size_t i = 0; i < out_dt_.size(); ++i) {
            if (!out_span_[i]) continue;
            outs[i] = take(out_span_[i]);
            // Padding the kernel does not write is narrowed too, so it is
            // zeroed first; a dense output is written whole.
            if (out_holes_[i])
                std::fill(outs[i], outs[i] + out_span_[i], 0.f);
            c.outputs[i] = outs[i];
        }
        const status_t st = inner_->execute(c);
        if (st == dnnl_success)
            for (size_t i = 0; i < out_dt_.size(); ++i) {
                if (!outs[i]) continue;
                auto *dst = static_cast<uint16_t *>(ctx.outputs[i]);
                const float *f = outs[i];
                const data_type_t dt = out_dt_[i];
                in_chunks(out_span_[i], [&](int64_t lo, int64_t n) {
                    common::narrow_row(f + lo, n, dst + lo, dt);
                });
            }
        return st;
    }

private:
    std::shared_ptr<const compiler::kernel_t> inner_;
    std::string name_;
    std::vector<data_type_t> in_dt_, out_dt_;
    std::vector<int64_t> in_span_, out_span_;
    // Constant half-precision inputs: widened once through the cache.
    std::vector<bool> in_const_;
    std::unique_ptr<common::prepacked_weights_t[]> cached_;
    std::vector<bool> out_holes_; // output strides leave gaps
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (plan.ops.size() != 1) return decline(why, "single ops only");
    const ir::op_t &op = plan.ops[0];
    switch (op.kind) {
        // Conversions and data movement are what they are in any type.
        case dnnl_graph_op_type_cast:
        case dnnl_graph_op_reorder:
        case dnnl_graph_op_quantize:
        case dnnl_graph_op_dequantize:
        case dnnl_graph_op_dynamic_quantize:
        case dnnl_graph_op_dynamic_dequantize:
        case dnnl_graph_op_static_reshape:
        case dnnl_graph_op_static_transpose:
        case dnnl_graph_op_concat:
            return decline(why, "conversion or data movement");
        default: break;
    }
    bool any = false;
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v) {
            if (half(lt.data_type)) any = true;
            else if (lt.data_type != dnnl_f32)
                return decline(why, "a tensor is not f32, bf16 or f16");
        }
    if (!any) return decline(why, "nothing to stage");
    // A non-strict fpmath mode lets MatMul and convolutions read f32
    // inputs at lower precision; bf16/f16 inputs are read as they are, so
    // with no f32 input the mode changes nothing (widened() drops it).
    if (op.fpmath != dnnl_fpmath_mode_strict && op.fpmath != dnnl_fpmath_mode_any)
        for (const auto &lt : op.inputs)
            if (lt.data_type == dnnl_f32)
                return decline(why, "fpmath mode with an f32 input");
    const compiler::plan_t w = widened(plan);
    if (!cpu_backend().supports(w))
        return decline(why, "no f32 kernel for the widened op");
    (void)isa;
    return true;
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    std::shared_ptr<const compiler::kernel_t> inner;
    LLGA_RETURN_IF_ERROR(cpu_backend().compile(widened(plan), inner));
    out = std::make_shared<kernel_t>(plan, inner);
    (void)isa;
    return dnnl_success;
}

} // namespace staged
} // namespace cpu
} // namespace llga
