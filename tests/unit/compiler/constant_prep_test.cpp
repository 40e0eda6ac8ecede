// SPDX-License-Identifier: Apache-2.0
// tests/unit/compiler/constant_prep_test.cpp — how kernels key what they
// prepare from constant inputs (compiler/constant_prep.hpp): by the user's
// buffer, also when a wrapper hands the kernel a converted copy and names
// the user's buffer in exec_ctx_t::const_keys (the staged bf16/f16
// kernels), so a copy's address never keys an entry.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "compiler/constant_prep.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"

namespace llga {
namespace compiler {
namespace {

struct dummy_kernel_t : kernel_t {
    const char *name() const override { return "dummy"; }
    status_t execute(const exec_ctx_t &) const override { return dnnl_success; }
};

// Whether the cache holds the entry of `k` for (slot, buffer).
bool cached(rt::constant_cache_t &cache, const kernel_t &k, size_t slot,
        const void *buffer) {
    rt::constant_key_t key;
    key.backend_id = 7;
    key.owner = k.id();
    key.slot = slot;
    key.buffer = buffer;
    key.detail = 99;
    const size_t before = cache.usage().entries;
    cache.remove_if_exist(key);
    return cache.usage().entries + 1 == before;
}

TEST(ConstantPrep, CopiesAreKeyedByTheUsersBuffer) {
    rt::engine_t eng(dnnl_cpu, 13, rt::allocator_t());
    rt::constant_cache_t &cache = rt::constant_cache_t::get(dnnl_cpu, 13);
    cache.set_capacity(size_t(1) << 20);
    dummy_kernel_t k;
    char user[256] = {}, copy[256] = {}, other[256] = {};
    const auto prepare = [&](const exec_ctx_t &ctx, size_t slot,
                                 const void *src) {
        constant_request_t req;
        req.backend = 7;
        req.slot = slot;
        req.src = src;
        req.bytes = 64;
        req.detail = 99;
        rt::constant_ptr_t out;
        ASSERT_EQ(get_prepared_constant(ctx, k, req,
                          [](void *dst) {
                              std::memset(dst, 1, 64);
                              return dnnl_success;
                          },
                          out),
                dnnl_success);
        ASSERT_TRUE(out);
    };
    exec_ctx_t ctx;
    ctx.engine = &eng;
    ctx.inputs = {other, copy};
    ctx.const_keys = {nullptr, user};
    // Slot 1 is a copy standing for `user`: keyed by user (at the same
    // offset), never by the copy's address.
    prepare(ctx, 1, copy);
    prepare(ctx, 1, copy + 32);
    EXPECT_TRUE(cached(cache, k, 1, user));
    EXPECT_TRUE(cached(cache, k, 1, user + 32));
    EXPECT_FALSE(cached(cache, k, 1, copy));
    // Slot 0 is the user's own buffer.
    prepare(ctx, 0, other);
    EXPECT_TRUE(cached(cache, k, 0, other));
    EXPECT_EQ(ctx.const_key(0), static_cast<const void *>(other));
    EXPECT_EQ(ctx.const_key(1), static_cast<const void *>(user));
    cache.flush();
}

} // namespace
} // namespace compiler
} // namespace llga
