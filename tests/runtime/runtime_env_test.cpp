// SPDX-License-Identifier: Apache-2.0
// tests/runtime/runtime_env_test.cpp — environment defaults of the cache
// capacities, read once, and overridden by the API. ctest runs this binary
// with ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY="cpu:7:lru;gpu:3" and
// DNNL_GRAPH_COMPILED_PARTITION_CACHE_CAPACITY=5.
#include <cstdlib>

#include "runtime_test_util.hpp"

#include "runtime/constant_cache.hpp"

namespace {

TEST(RuntimeEnv, EnvironmentSetsDefaultsAndTheApiOverrides) {
    ASSERT_STREQ(std::getenv("ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY"),
            "cpu:7:lru;gpu:3");
    size_t mb = 0;
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb), dnnl_success);
    EXPECT_EQ(mb, 7u);
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_gpu, &mb), dnnl_success);
    EXPECT_EQ(mb, 3u);
    auto &cache = llga::rt::constant_cache_t::get(dnnl_cpu, 0);
    EXPECT_EQ(cache.capacity(), size_t(7) << 20);
    EXPECT_EQ(cache.policy(), llga::rt::constant_cache_policy_t::lru);
    int cap = 0;
    ASSERT_EQ(dnnl_graph_get_compiled_partition_cache_capacity(&cap), dnnl_success);
    EXPECT_EQ(cap, 5);

    // Changing the environment later has no effect: it was read once.
    setenv("ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY", "cpu:99", 1);
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb), dnnl_success);
    EXPECT_EQ(mb, 7u);
    // The API overrides the environment.
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 2), dnnl_success);
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb), dnnl_success);
    EXPECT_EQ(mb, 2u);
    EXPECT_EQ(cache.capacity(), size_t(2) << 20);
    ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(9), dnnl_success);
    ASSERT_EQ(dnnl_graph_get_compiled_partition_cache_capacity(&cap), dnnl_success);
    EXPECT_EQ(cap, 9);
}

} // namespace
