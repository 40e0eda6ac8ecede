// SPDX-License-Identifier: Apache-2.0
// tests/unit/runtime/runtime_test.cpp — allocator accounting, tensors,
// the compiled-partition LRU cache and cache capacity settings.
#include <memory>

#include <gtest/gtest.h>

#include "ir/logical_tensor.hpp"
#include "runtime/cache_settings.hpp"
#include "runtime/compiled_cache.hpp"
#include "runtime/engine.hpp"
#include "runtime/tensor.hpp"

namespace llga {
namespace rt {
namespace {

TEST(Allocator, DefaultIsAlignedAndCounted) {
    allocator_t a;
    void *p = a.allocate(100, lifetime_t::temp);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % allocator_t::default_alignment, 0u);
    EXPECT_EQ(a.live_bytes(), 100u);
    EXPECT_EQ(a.live_blocks(), 1u);
    a.deallocate(p, 100, lifetime_t::temp);
    EXPECT_EQ(a.live_bytes(lifetime_t::temp), 0u);
    EXPECT_EQ(a.live_bytes(), 0u);
    EXPECT_EQ(a.live_blocks(), 0u);
}

TEST(Tensor, OwnedBufferIsFreedAndHandleSwapReleasesIt) {
    engine_t eng(dnnl_cpu, 0, allocator_t());
    {
        tensor_t t;
        ASSERT_EQ(t.init(ir::make_lt(1, dnnl_f32, {4, 4}), &eng, DNNL_MEMORY_ALLOCATE),
                dnnl_success);
        EXPECT_EQ(eng.allocator().live_bytes(), 64u);
        float mine[16];
        ASSERT_EQ(t.set_handle(mine), dnnl_success); // library buffer released
        EXPECT_EQ(eng.allocator().live_bytes(), 0u);
        EXPECT_EQ(t.data(), mine);
    }
    EXPECT_EQ(eng.allocator().live_blocks(), 0u);
}

TEST(CompiledCache, LruEvictionAndCapacity) {
    compiled_cache_t &c = compiled_cache_t::instance();
    const size_t saved = c.capacity();
    c.set_capacity(0);
    c.set_capacity(2);
    auto v = [](int x) { return std::make_shared<const int>(x); };
    c.insert("a", v(1));
    c.insert("b", v(2));
    ASSERT_NE(c.find("a"), nullptr); // a becomes most recent
    c.insert("c", v(3));             // evicts b, the least recent
    EXPECT_EQ(c.find("b"), nullptr);
    EXPECT_NE(c.find("a"), nullptr);
    EXPECT_NE(c.find("c"), nullptr);
    EXPECT_EQ(c.size(), 2u);
    // An evicted value stays alive for whoever still holds it.
    std::shared_ptr<const void> held = c.find("a");
    c.set_capacity(0);
    EXPECT_EQ(c.size(), 0u);
    EXPECT_EQ(*std::static_pointer_cast<const int>(held), 1);
    c.insert("d", v(4)); // capacity 0: nothing is kept
    EXPECT_EQ(c.size(), 0u);
    c.set_capacity(saved);
}

TEST(CacheSettings, ConstantCacheEnvParsing) {
    size_t cpu = 0, gpu = 0;
    bool hc, hg;
    ASSERT_TRUE(parse_constant_cache_env("cpu:100;gpu:20", &cpu, &gpu, &hc, &hg));
    EXPECT_TRUE(hc && hg);
    EXPECT_EQ(cpu, 100u);
    EXPECT_EQ(gpu, 20u);
    ASSERT_TRUE(parse_constant_cache_env("gpu:5", &cpu, &gpu, &hc, &hg));
    EXPECT_FALSE(hc);
    EXPECT_TRUE(hg);
    EXPECT_FALSE(parse_constant_cache_env("cpu=1", &cpu, &gpu, &hc, &hg));
    EXPECT_FALSE(parse_constant_cache_env("npu:1", &cpu, &gpu, &hc, &hg));
    EXPECT_FALSE(parse_constant_cache_env("cpu:-1", &cpu, &gpu, &hc, &hg));
    EXPECT_EQ(set_compiled_partition_cache_capacity(-5), dnnl_invalid_arguments);
}

TEST(Engine, CountsAndChecks) {
    EXPECT_EQ(engine_t::count(dnnl_cpu), 1u);
    EXPECT_EQ(engine_t::count(dnnl_gpu), 0u);
    EXPECT_EQ(engine_t::check_create(dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(engine_t::check_create(dnnl_cpu, 1), dnnl_invalid_arguments);
    EXPECT_EQ(engine_t::check_create(dnnl_gpu, 0), dnnl_unimplemented);
}

} // namespace
} // namespace rt
} // namespace llga
