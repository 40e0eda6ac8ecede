// backends/cpu/kernels/prepacked_weights.hpp — constant weights packed once
// and served from the constant tensor cache, shared by the MatMul kernels
// (f32/bf16 GEMM and int8). One object per kernel: it also remembers when
// the cache proves not to keep the packed copy, and stops asking.
#pragma once

#include <atomic>
#include <functional>

#include "compiler/constant_prep.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {

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

private:
    mutable std::atomic<const void *> last_packed_ {nullptr};
    mutable std::atomic<bool> off_ {false};
};

} // namespace cpu
} // namespace llga
