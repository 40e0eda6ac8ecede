// SPDX-License-Identifier: Apache-2.0
// compiler/constant_prep.hpp — how a kernel gets the prepared form of a
// constant input (a weight reordered into its layout, a converted copy, a
// prepacked GEMM panel) from the unified constant tensor cache of the
// executing engine. The first execution computes it (once, even when many
// threads start together); later ones reuse it. When the cache is disabled
// or full the kernel still gets a correct buffer, private to the execution.
//
//   rt::constant_ptr_t w;
//   LLGA_RETURN_IF_ERROR(get_prepared_constant(ctx, *this,
//           {backend_id::cpu, slot, ctx.inputs[slot], bytes, detail},
//           [&](void *dst) { pack(ctx.inputs[slot], dst); return ok; }, w));
//   // use w->data(); keep `w` until the execution ends.
#pragma once

#include "compiler/kernel.hpp"
#include "runtime/constant_cache.hpp"

namespace llga {
namespace compiler {

// Backend ids of constant cache keys (keys of different backends never
// collide even if a kernel id were shared).
namespace backend_id {
constexpr size_t ref = 1, cpu = 2, ocl = 3;
}

struct constant_request_t {
    size_t backend = 0;
    size_t slot = 0;           // which constant of the kernel (input index)
    const void *src = nullptr; // the user's buffer (part of the key)
    size_t bytes = 0;          // size of the prepared form
    // Hash of everything else the prepared form depends on (shape, dtype,
    // source strides, target format). Same request, same bytes.
    size_t detail = 0;
};

// True when the engine's constant cache can hold anything (capacity > 0).
// Kernels may skip preparation when it cannot, and read the input directly.
bool constant_cache_enabled(const exec_ctx_t &ctx);

status_t get_prepared_constant(const exec_ctx_t &ctx, const kernel_t &kernel,
        const constant_request_t &req,
        const rt::constant_cache_t::fill_fn_t &fill, rt::constant_ptr_t &out);

} // namespace compiler
} // namespace llga
