// SPDX-License-Identifier: Apache-2.0
// tests/unit/runtime/constant_cache_test.cpp — the unified constant tensor
// cache: NO_EVICT and LRU at the capacity boundary, flush on capacity set,
// disable, the byte bound, one computation under concurrent first use,
// evicted-in-use buffers, owner removal, failures; the layout registry and
// strided copies it relies on; settings parsing with policies.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ir/logical_tensor.hpp"
#include "runtime/cache_settings.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/layout_registry.hpp"
#include "runtime/strided_copy.hpp"

namespace llga {
namespace rt {
namespace {

// Each test uses its own device index so caches do not interfere.
constant_cache_t &fresh(size_t index, size_t bytes,
        constant_cache_policy_t p = constant_cache_policy_t::no_evict) {
    constant_cache_t &c = constant_cache_t::get(dnnl_cpu, index);
    c.set_capacity(bytes);
    c.set_policy(p);
    return c;
}

constant_key_t key(size_t slot, size_t owner = 1) {
    constant_key_t k;
    k.backend_id = 99;
    k.owner = owner;
    k.slot = slot;
    return k;
}

std::shared_ptr<const allocator_t> alloc() {
    return std::make_shared<const allocator_t>();
}

status_t fill_byte(void *dst, size_t n, int v) {
    std::memset(dst, v, n);
    return dnnl_success;
}

TEST(ConstantCache, NoEvictKeepsOldEntriesAndRejectsAtTheBoundary) {
    auto a = alloc();
    constant_cache_t &c = fresh(101, 300);
    constant_ptr_t p;
    bool cached = false;
    for (size_t s = 0; s < 3; ++s) // exactly fills 300
        ASSERT_EQ(c.get_or_compute(key(s), 100, a,
                          [](void *d) { return fill_byte(d, 100, 1); }, p),
                dnnl_success);
    EXPECT_EQ(c.size(), 300u);
    EXPECT_EQ(a->live_bytes(lifetime_t::persistent), 300u);
    // One byte more does not fit: computed (temp) but not cached.
    ASSERT_EQ(c.get_or_compute(key(3), 1, a,
                      [](void *d) { return fill_byte(d, 1, 7); }, p, &cached),
            dnnl_success);
    EXPECT_FALSE(cached);
    EXPECT_EQ(static_cast<unsigned char *>(p->data())[0], 7);
    EXPECT_EQ(p->lifetime(), lifetime_t::temp);
    p.reset();
    EXPECT_EQ(a->live_bytes(lifetime_t::temp), 0u);
    // Old entries are still there (hits).
    ASSERT_EQ(c.get_or_compute(key(0), 100, a,
                      [](void *d) { return fill_byte(d, 100, 2); }, p, &cached),
            dnnl_success);
    EXPECT_TRUE(cached);
    EXPECT_EQ(static_cast<unsigned char *>(p->data())[0], 1);
    const constant_cache_usage_t u = c.usage();
    EXPECT_EQ(u.entries, 3u);
    EXPECT_EQ(u.bytes, 300u);
    EXPECT_EQ(u.hits, 1u);
    EXPECT_EQ(u.misses, 4u);
    EXPECT_EQ(u.rejected, 1u);
    EXPECT_EQ(u.computed, 4u);
    p.reset();
    c.set_capacity(0); // flush + disable
    EXPECT_EQ(a->live_bytes(), 0u);
}

TEST(ConstantCache, LruEvictsLeastRecentlyUsedToMakeRoom) {
    auto a = alloc();
    constant_cache_t &c = fresh(102, 300, constant_cache_policy_t::lru);
    constant_ptr_t p;
    auto get = [&](size_t s, size_t n, bool *hit = nullptr) {
        return c.get_or_compute(key(s), n, a,
                [n, s](void *d) { return fill_byte(d, n, int(s)); }, p, hit);
    };
    ASSERT_EQ(get(0, 100), dnnl_success);
    ASSERT_EQ(get(1, 100), dnnl_success);
    ASSERT_EQ(get(2, 100), dnnl_success);
    bool hit = false;
    ASSERT_EQ(get(0, 100, &hit), dnnl_success); // 0 becomes most recent
    EXPECT_TRUE(hit);
    ASSERT_EQ(get(3, 100), dnnl_success); // evicts 1, the least recent
    EXPECT_EQ(c.size(), 300u);
    EXPECT_EQ(c.usage().evictions, 1u);
    ASSERT_EQ(get(1, 100, &hit), dnnl_success);
    EXPECT_FALSE(hit); // was evicted (and now re-added, evicting 2)
    ASSERT_EQ(get(0, 100, &hit), dnnl_success);
    EXPECT_TRUE(hit);
    // Larger than the whole capacity: never cached, nothing evicted.
    const size_t before = c.usage().evictions;
    ASSERT_EQ(get(9, 301, &hit), dnnl_success);
    EXPECT_FALSE(hit);
    EXPECT_EQ(c.usage().evictions, before);
    EXPECT_LE(c.size(), 300u);
    p.reset();
    c.set_capacity(0);
    EXPECT_EQ(a->live_bytes(), 0u);
}

TEST(ConstantCache, NeverHoldsMoreThanCapacityUnderRandomSizes) {
    auto a = alloc();
    for (auto pol : {constant_cache_policy_t::no_evict, constant_cache_policy_t::lru}) {
        constant_cache_t &c = fresh(103, 1000, pol);
        constant_ptr_t p;
        unsigned seed = 7;
        for (int i = 0; i < 500; ++i) {
            seed = seed * 1103515245u + 12345u;
            const size_t n = 1 + (seed >> 8) % 400, s = (seed >> 4) % 37;
            ASSERT_EQ(c.get_or_compute(key(s, n), n, a,
                              [n](void *d) { return fill_byte(d, n, 0); }, p),
                    dnnl_success);
            ASSERT_LE(c.size(), 1000u);
            ASSERT_LE(a->live_bytes(lifetime_t::persistent), 1000u);
        }
        p.reset();
        c.set_capacity(0);
    }
    EXPECT_EQ(a->live_bytes(), 0u);
}

TEST(ConstantCache, SettingCapacityFlushesAndZeroDisables) {
    auto a = alloc();
    constant_cache_t &c = fresh(104, 1 << 20);
    constant_ptr_t p;
    ASSERT_EQ(c.get_or_compute(key(0), 64, a,
                      [](void *d) { return fill_byte(d, 64, 0); }, p),
            dnnl_success);
    p.reset();
    EXPECT_EQ(c.usage().entries, 1u);
    c.set_capacity(1 << 20); // same value still flushes
    EXPECT_EQ(c.usage().entries, 0u);
    EXPECT_EQ(a->live_bytes(), 0u);
    c.set_capacity(0);
    bool hit = true;
    ASSERT_EQ(c.get_or_compute(key(0), 64, a,
                      [](void *d) { return fill_byte(d, 64, 0); }, p, &hit),
            dnnl_success);
    EXPECT_FALSE(hit);
    EXPECT_EQ(c.usage().entries, 0u);
    EXPECT_EQ(p->lifetime(), lifetime_t::temp);
}

TEST(ConstantCache, EvictedEntryInUseStaysValid) {
    auto a = alloc();
    constant_cache_t &c = fresh(105, 1000);
    constant_ptr_t held;
    ASSERT_EQ(c.get_or_compute(key(0), 256, a,
                      [](void *d) { return fill_byte(d, 256, 0x5a); }, held),
            dnnl_success);
    c.remove_if_exist(key(0));
    c.set_capacity(0);
    EXPECT_EQ(c.size(), 0u);
    // Still readable: the execution holding it keeps it alive.
    EXPECT_EQ(static_cast<unsigned char *>(held->data())[255], 0x5a);
    EXPECT_EQ(a->live_bytes(), 256u);
    held.reset();
    EXPECT_EQ(a->live_bytes(), 0u);
}

TEST(ConstantCache, ConcurrentFirstUseComputesOnce) {
    auto a = alloc();
    constant_cache_t &c = fresh(106, 1 << 20);
    std::atomic<int> fills {0};
    std::atomic<int> bad {0};
    std::vector<std::thread> ts;
    for (int t = 0; t < 8; ++t)
        ts.emplace_back([&] {
            for (int i = 0; i < 200; ++i) {
                constant_ptr_t p;
                const size_t slot = i % 4;
                if (c.get_or_compute(key(slot), 128, a,
                            [&, slot](void *d) {
                                ++fills;
                                std::this_thread::yield();
                                return fill_byte(d, 128, int(slot) + 1);
                            },
                            p)
                                != dnnl_success
                        || static_cast<unsigned char *>(p->data())[127]
                                != slot + 1)
                    ++bad;
            }
        });
    for (auto &t : ts)
        t.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_EQ(fills.load(), 4); // one per key
    EXPECT_EQ(c.usage().computed, 4u);
    EXPECT_EQ(c.usage().hits, 8u * 200 - 4);
    c.set_capacity(0);
    EXPECT_EQ(a->live_bytes(), 0u);
}

TEST(ConstantCache, FailedComputationLeavesNoEntry) {
    auto a = alloc();
    constant_cache_t &c = fresh(107, 1000);
    constant_ptr_t p;
    EXPECT_EQ(c.get_or_compute(key(0), 10, a,
                      [](void *) { return dnnl_invalid_arguments; }, p),
            dnnl_invalid_arguments);
    EXPECT_EQ(p, nullptr);
    EXPECT_EQ(c.usage().entries, 0u);
    EXPECT_EQ(a->live_bytes(), 0u);
    ASSERT_EQ(c.get_or_compute(key(0), 10, a,
                      [](void *d) { return fill_byte(d, 10, 3); }, p),
            dnnl_success);
    p.reset();
    c.set_capacity(0);
}

TEST(ConstantCache, RemoveOwnerDropsOnlyThatOwner) {
    auto a = alloc();
    constant_cache_t &c = fresh(108, 1000);
    constant_ptr_t p;
    for (size_t owner : {1, 2})
        for (size_t s = 0; s < 2; ++s)
            ASSERT_EQ(c.get_or_compute(key(s, owner), 10, a,
                              [](void *d) { return fill_byte(d, 10, 0); }, p),
                    dnnl_success);
    p.reset();
    c.remove_owner(1);
    EXPECT_EQ(c.usage().entries, 2u);
    EXPECT_EQ(a->live_bytes(), 20u);
    c.set_capacity(0);
}

TEST(ConstantCache, KeysIncludeTheWeightBuffer) {
    auto a = alloc();
    constant_cache_t &c = fresh(109, 1000);
    float w1 = 1, w2 = 2;
    constant_ptr_t p1, p2;
    constant_key_t k1 = key(0), k2 = key(0);
    k1.buffer = &w1;
    k2.buffer = &w2;
    ASSERT_EQ(c.get_or_compute(k1, 4, a,
                      [&](void *d) { std::memcpy(d, &w1, 4); return dnnl_success; },
                      p1),
            dnnl_success);
    ASSERT_EQ(c.get_or_compute(k2, 4, a,
                      [&](void *d) { std::memcpy(d, &w2, 4); return dnnl_success; },
                      p2),
            dnnl_success);
    EXPECT_EQ(*static_cast<float *>(p1->data()), 1.f);
    EXPECT_EQ(*static_cast<float *>(p2->data()), 2.f);
    p1.reset();
    p2.reset();
    c.set_capacity(0);
}

TEST(ConstantCacheSettings, MegabytesPolicyAndEnvForms) {
    constant_cache_env_t e;
    ASSERT_TRUE(parse_constant_cache_env("cpu:100:lru;gpu:20", e));
    EXPECT_EQ(e.cpu_mb, 100u);
    EXPECT_EQ(e.cpu_policy, constant_cache_policy_t::lru);
    EXPECT_EQ(e.gpu_policy, constant_cache_policy_t::no_evict);
    EXPECT_FALSE(parse_constant_cache_env("cpu:1:fifo", e));
    EXPECT_FALSE(parse_constant_cache_env("cpu:99999999999999999999", e));
    // Setting the kind's capacity reaches every device cache of that kind.
    const size_t saved = constant_cache_capacity_mb(dnnl_cpu);
    constant_cache_t &c = constant_cache_t::get(dnnl_cpu, 110);
    ASSERT_EQ(set_constant_cache_capacity_mb(dnnl_cpu, 3), dnnl_success);
    EXPECT_EQ(c.capacity(), 3u << 20);
    EXPECT_EQ(constant_cache_t::get(dnnl_cpu, 111).capacity(), 3u << 20);
    ASSERT_EQ(set_constant_cache_capacity_mb(dnnl_cpu, SIZE_MAX), dnnl_success);
    EXPECT_EQ(c.capacity(), SIZE_MAX); // saturates
    // Read back in whole MB of the saturated byte count, as oneDNN.
    EXPECT_EQ(constant_cache_capacity_mb(dnnl_cpu), SIZE_MAX / (size_t(1) << 20));
    ASSERT_EQ(set_constant_cache_policy(dnnl_cpu, constant_cache_policy_t::lru),
            dnnl_success);
    EXPECT_EQ(c.policy(), constant_cache_policy_t::lru);
    ASSERT_EQ(set_constant_cache_policy(dnnl_cpu, constant_cache_policy_t::no_evict),
            dnnl_success);
    EXPECT_EQ(set_constant_cache_capacity_mb(dnnl_any_engine, 1),
            dnnl_invalid_arguments);
    ASSERT_EQ(set_constant_cache_capacity_mb(dnnl_cpu, saved), dnnl_success);
}

TEST(LayoutRegistry, OpaqueOrdersSizesAndStrides) {
    logical_tensor_t lt = ir::make_lt(1, dnnl_f32, {2, 3, 4});
    lt.layout_type = dnnl_graph_layout_type_any;
    ASSERT_EQ(layout_registry_t::apply_order(lt, {0, 2, 1}), dnnl_success);
    EXPECT_EQ(lt.layout_type, dnnl_graph_layout_type_opaque);
    EXPECT_GE(lt.layout.layout_id, layout_registry_t::first_id);
    EXPECT_EQ(layout_registry_t::mem_size(lt), 2u * 3 * 4 * 4);
    dims_t s;
    ASSERT_EQ(layout_registry_t::strides_of(lt, s), dnnl_success);
    EXPECT_EQ(s, (dims_t {12, 1, 3}));
    // Same order, same id; the identity order is plain strided.
    logical_tensor_t again = ir::make_lt(2, dnnl_f32, {5, 6, 7});
    ASSERT_EQ(layout_registry_t::apply_order(again, {0, 2, 1}), dnnl_success);
    EXPECT_EQ(again.layout.layout_id, lt.layout.layout_id);
    logical_tensor_t plain = ir::make_lt(3, dnnl_f32, {2, 3});
    ASSERT_EQ(layout_registry_t::apply_order(plain, {0, 1}), dnnl_success);
    EXPECT_EQ(plain.layout_type, dnnl_graph_layout_type_strided);
    EXPECT_EQ(layout_registry_t::apply_order(plain, {0, 0}), dnnl_invalid_arguments);
    // Unknown ids and rank mismatches are errors / size -1.
    logical_tensor_t bogus = lt;
    bogus.layout.layout_id = 7;
    EXPECT_EQ(layout_registry_t::mem_size(bogus), static_cast<size_t>(-1));
    EXPECT_EQ(layout_registry_t::strides_of(bogus, s), dnnl_invalid_arguments);
    logical_tensor_t wrong_rank = ir::make_lt(4, dnnl_f32, {6, 4});
    wrong_rank.layout_type = dnnl_graph_layout_type_opaque;
    wrong_rank.layout.layout_id = lt.layout.layout_id;
    EXPECT_EQ(layout_registry_t::mem_size(wrong_rank), static_cast<size_t>(-1));
}

TEST(StridedCopy, TransposesThroughStrides) {
    const float src[6] = {0, 1, 2, 3, 4, 5}; // 2x3 row-major
    float dst[6] = {};
    strided_copy(src, {3, 1}, dst, {1, 2}, {2, 3}, sizeof(float)); // col-major
    const float want[6] = {0, 3, 1, 4, 2, 5};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(dst[k], want[k]);
}

} // namespace
} // namespace rt
} // namespace llga
