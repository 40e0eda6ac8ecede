// SPDX-License-Identifier: Apache-2.0
// compiler/constant_prep.cpp — kernel-facing wrapper of the constant cache.
#include "compiler/constant_prep.hpp"

#include "base/status.hpp"

namespace llga {
namespace compiler {

namespace {
rt::constant_cache_t &cache_of(const exec_ctx_t &ctx) {
    return rt::constant_cache_t::get(ctx.engine->kind(), ctx.engine->index());
}
} // namespace

bool constant_cache_enabled(const exec_ctx_t &ctx) {
    return ctx.engine && cache_of(ctx).capacity() != 0;
}

status_t get_prepared_constant(const exec_ctx_t &ctx, const kernel_t &kernel,
        const constant_request_t &req,
        const rt::constant_cache_t::fill_fn_t &fill, rt::constant_ptr_t &out) {
    if (!ctx.engine)
        return fail(dnnl_invalid_arguments,
                "kernel %s: no engine in the execution context", kernel.name());
    rt::constant_key_t key;
    key.backend_id = req.backend;
    key.owner = kernel.id();
    key.slot = req.slot;
    key.buffer = req.src;
    // A wrapper's converted copy stands for the user's buffer: key by the
    // same offset into that (see exec_ctx_t::const_keys).
    if (req.slot < ctx.inputs.size() && ctx.const_key(req.slot) != ctx.inputs[req.slot])
        key.buffer = static_cast<const char *>(ctx.const_key(req.slot))
                + (static_cast<const char *>(req.src)
                        - static_cast<const char *>(ctx.inputs[req.slot]));
    key.detail = req.detail;
    return cache_of(ctx).get_or_compute(
            key, req.bytes, ctx.engine->allocator_ptr(), fill, out);
}

} // namespace compiler
} // namespace llga
