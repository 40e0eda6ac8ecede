// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/prepacked_weights.hpp — constant weights packed
// once and served from the constant tensor cache, shared by the MatMul kernels
// (f32/bf16 GEMM and int8), and the converted inputs of the wrappers that run
// an inner f32 kernel (staged bf16/f16, fpmath rounding). One object per kernel
// input: it also remembers when the cache proves not to keep the packed copy,
// and stops asking.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace common {

class prepacked_weights_t {
public:
    using pack_fn_t = std::function<void(const void *src, void *dst)>;

    // Packed copy of the constant input `slot` (buffer `src`) of kernel
    // `k`, `bytes` long, built by `pack` on a miss; `detail` keys the
    // packing (blocking) in the cache. Leaves `out` empty when the cache is
    // off or has stopped keeping it: the caller then packs per task.
    status_t get(const compiler::exec_ctx_t &ctx, const compiler::kernel_t &k,
            size_t slot, const void *src, size_t bytes, size_t detail,
            const pack_fn_t &pack, rt::constant_ptr_t &out) const {
        if (off_.load() || !compiler::constant_cache_enabled(ctx))
            return dnnl_success;
        compiler::constant_request_t req;
        req.backend = compiler::backend_id::cpu;
        req.slot = slot;
        req.src = src;
        req.bytes = bytes;
        req.detail = detail;
        return compiler::get_prepared_constant(ctx, k, req,
                [&](void *dst) {
                    // Packing the same buffer twice means the cache did not
                    // keep it (full, no eviction): a private prepack per
                    // execution costs an extra pass over the weights, more
                    // than the tasks' own packing, so stop asking.
                    if (last_packed_.exchange(src) == src) off_.store(true);
                    pack(src, dst);
                    return dnnl_success;
                },
                out);
    }

    // A wrapper's input `slot` converted by `convert` into `bytes` for the
    // inner kernel's context `inner` (whose const_keys has an entry per
    // input). A constant input is converted once per user buffer through
    // the cache and held in `held` while the inner kernel runs;
    // inner.const_keys names the user's buffer, which keys what the inner
    // kernel prepares from the copy. Otherwise, or when the cache does not
    // keep the copy, it is converted into `scratch(bytes)` on every call.
    status_t convert_input(const compiler::exec_ctx_t &ctx,
            const compiler::kernel_t &k, size_t slot, bool constant,
            size_t bytes, size_t detail, const pack_fn_t &convert,
            const std::function<void *(size_t)> &scratch,
            compiler::exec_ctx_t &inner,
            std::vector<rt::constant_ptr_t> &held) const {
        if (constant) {
            inner.const_keys[slot] = ctx.const_key(slot);
            rt::constant_ptr_t w;
            LLGA_RETURN_IF_ERROR(get(ctx, k, slot, ctx.inputs[slot], bytes,
                    detail, convert, w));
            if (w) {
                inner.inputs[slot] = w->data();
                held.push_back(std::move(w));
                return dnnl_success;
            }
        }
        void *copy = scratch(bytes);
        convert(ctx.inputs[slot], copy);
        inner.inputs[slot] = copy;
        return dnnl_success;
    }

private:
    mutable std::atomic<const void *> last_packed_ {nullptr};
    mutable std::atomic<bool> off_ {false};
};

} // namespace common
} // namespace cpu
} // namespace llga
