// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_single_op_test.cpp — end-to-end behaviours of one op
// through the C API: the graph's fpmath mode reaching kernels, host-scalar
// operands, the constant tensor cache (policy, usage, constant weights
// packed once by the JIT MatMul).
#include <algorithm>

#include "capi_test_util.hpp"

using namespace capi_test;

namespace {

// One op in its own graph, partitioned into a single partition and compiled
// with the given logical tensors; tensors made with bind() die with it.
struct single_op_t {
    const cpu_env_t &env;
    dnnl_graph_graph_t g = nullptr;
    dnnl_graph_partition_t part = nullptr;
    dnnl_graph_compiled_partition_t cp = nullptr;
    std::vector<dnnl_graph_tensor_t> tensors;
    bool ok = false;

    single_op_t(const cpu_env_t &e, dnnl_graph_op_kind_t kind,
            std::vector<dnnl_graph_logical_tensor_t> ins,
            std::vector<dnnl_graph_logical_tensor_t> outs,
            dnnl_fpmath_mode_t mode = dnnl_fpmath_mode_strict)
        : env(e) {
        dnnl_graph_op_t op = nullptr;
        if (dnnl_graph_graph_create_with_fpmath_mode(&g, dnnl_cpu, mode)
                        != dnnl_success
                || dnnl_graph_op_create(&op, 1, kind, "op") != dnnl_success)
            return;
        for (auto &t : ins)
            dnnl_graph_op_add_input(op, &t);
        for (auto &t : outs)
            dnnl_graph_op_add_output(op, &t);
        const dnnl_status_t added = dnnl_graph_add_op(g, op);
        dnnl_graph_op_destroy(op);
        size_t n = 0;
        if (added != dnnl_success || dnnl_graph_graph_finalize(g) != dnnl_success
                || dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion)
                        != dnnl_success
                || dnnl_graph_graph_get_partition_num(g, &n) != dnnl_success
                || n != 1
                || dnnl_graph_graph_get_partitions(g, 1, &part) != dnnl_success
                || dnnl_graph_compiled_partition_create(&cp, part) != dnnl_success)
            return;
        std::vector<const dnnl_graph_logical_tensor_t *> pi, po;
        for (auto &t : ins)
            pi.push_back(&t);
        for (auto &t : outs)
            po.push_back(&t);
        ok = dnnl_graph_partition_compile(part, cp, pi.size(), pi.data(),
                     po.size(), po.data(), env.engine)
                == dnnl_success;
    }
    ~single_op_t() {
        for (auto t : tensors)
            dnnl_graph_tensor_destroy(t);
        dnnl_graph_compiled_partition_destroy(cp);
        dnnl_graph_partition_destroy(part);
        dnnl_graph_graph_destroy(g);
    }
    dnnl_graph_logical_tensor_t query(size_t id) const {
        dnnl_graph_logical_tensor_t q;
        EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, id, &q),
                dnnl_success);
        return q;
    }
    dnnl_graph_tensor_t bind(const dnnl_graph_logical_tensor_t &lt, void *data) {
        dnnl_graph_tensor_t t = nullptr;
        EXPECT_EQ(dnnl_graph_tensor_create(&t, &lt, env.engine, data), dnnl_success);
        tensors.push_back(t);
        return t;
    }
    dnnl_graph_tensor_t bind_scalar(const dnnl_graph_logical_tensor_t &lt, void *v) {
        dnnl_graph_tensor_t t = nullptr;
        EXPECT_EQ(dnnl_graph_tensor_create_scalar(&t, &lt, v), dnnl_success);
        tensors.push_back(t);
        return t;
    }
    dnnl_status_t execute(std::vector<const_dnnl_graph_tensor_t> ins,
            std::vector<const_dnnl_graph_tensor_t> outs) const {
        return dnnl_graph_compiled_partition_execute(cp, env.stream, ins.size(),
                ins.data(), outs.size(), outs.data());
    }
};

} // namespace

// The graph's fpmath mode reaches the kernels: with bf16 permitted, an f32
// MatMul may read its operands as bf16. 1 + 2^-12 times 1 + 2^-9 is then
// exactly 1 (both round to 1 in bf16); in strict mode it is not.
TEST(CapiGraph, FpmathModeReachesKernels) {
    cpu_env_t env;
    for (dnnl_fpmath_mode_t mode : {dnnl_fpmath_mode_strict, dnnl_fpmath_mode_bf16}) {
        auto a = lt(1, dnnl_f32, {1, 1}), b = lt(2, dnnl_f32, {1, 1});
        auto c = lt(3, dnnl_f32, {1, 1});
        single_op_t s(env, dnnl_graph_op_matmul, {a, b}, {c}, mode);
        ASSERT_TRUE(s.ok) << last_error();
        float av = 1.0f + 1.0f / 4096, bv = 1.0f + 1.0f / 512, cv = 0;
        ASSERT_EQ(s.execute({s.bind(a, &av), s.bind(b, &bv)}, {s.bind(c, &cv)}),
                dnnl_success);
        if (mode == dnnl_fpmath_mode_bf16)
            EXPECT_EQ(cv, 1.0f);
        else
            EXPECT_EQ(cv, static_cast<float>(static_cast<double>(av) * bv));
    }
}

// A 0-D s32 host scalar as an Add operand (the pattern of causal-mask
// graphs): the value is copied when the scalar tensor is created.
TEST(CapiGraph, HostScalarOperandIsCopiedAtCreation) {
    cpu_env_t env;
    auto a = lt(1, dnnl_s32, {2, 3});
    dnnl_graph_logical_tensor_t sc;
    ASSERT_EQ(dnnl_graph_logical_tensor_init(&sc, 2, dnnl_s32, 0,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_host_scalar),
            dnnl_success);
    single_op_t s(env, dnnl_graph_op_add, {a, sc}, {lt_unknown(3, dnnl_s32)});
    ASSERT_TRUE(s.ok) << last_error();
    int32_t av[6] = {1, 2, 3, 4, 5, 6}, yv[6] = {0}, sv = 100;
    auto ta = s.bind(a, av);
    auto ts = s.bind_scalar(sc, &sv);
    auto ty = s.bind(s.query(3), yv);
    sv = -5; // too late: the scalar tensor holds 100
    ASSERT_EQ(s.execute({ta, ts}, {ty}), dnnl_success);
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(yv[k], av[k] + 100) << k;
}

// llga extension: the constant tensor cache policy and usage. A MatMul with
// constant weights packs them once; later executions hit the cache.
TEST(CapiGraph, ConstantCacheUsageAndPolicy) {
    cpu_env_t env;
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 1), dnnl_success);
    ASSERT_EQ(llga_set_constant_tensor_cache_policy(dnnl_cpu, llga_constant_cache_lru),
            dnnl_success);
    llga_constant_cache_policy_t pol = llga_constant_cache_no_evict;
    ASSERT_EQ(llga_get_constant_tensor_cache_policy(dnnl_cpu, &pol), dnnl_success);
    EXPECT_EQ(pol, llga_constant_cache_lru);
    llga_constant_cache_usage_t before, after;
    ASSERT_EQ(llga_get_constant_tensor_cache_usage(dnnl_cpu, &before), dnnl_success);
    EXPECT_EQ(before.capacity_bytes, size_t(1) << 20);
    {
        constexpr int n = 64;
        auto x = lt(1, dnnl_f32, {n, n});
        auto w = lt(2, dnnl_f32, {n, n}, dnnl_graph_layout_type_strided,
                dnnl_graph_tensor_property_constant);
        auto y = lt(3, dnnl_f32, {n, n});
        single_op_t s(env, dnnl_graph_op_matmul, {x, w}, {y});
        ASSERT_TRUE(s.ok) << last_error();
        // W = 2 I, so Y = 2 X exactly.
        std::vector<float> xv(n * n), wv(n * n, 0.f), yv(n * n);
        for (int k = 0; k < n * n; ++k)
            xv[k] = static_cast<float>(k % 97) - 40.f;
        for (int k = 0; k < n; ++k)
            wv[k * n + k] = 2.f;
        auto tx = s.bind(x, xv.data()), tw = s.bind(w, wv.data()),
             ty = s.bind(y, yv.data());
        for (int run = 0; run < 3; ++run) {
            ASSERT_EQ(s.execute({tx, tw}, {ty}), dnnl_success);
            for (int k = 0; k < n * n; ++k)
                ASSERT_EQ(yv[k], 2.f * xv[k]) << run << "," << k;
        }
        ASSERT_EQ(llga_get_constant_tensor_cache_usage(dnnl_cpu, &after),
                dnnl_success);
    }
    EXPECT_EQ(after.computed - before.computed, 1u); // prepared once
    EXPECT_GE(after.hits - before.hits, 2u);         // served twice
    EXPECT_GE(after.entries, 1u);
    EXPECT_LE(after.bytes, after.capacity_bytes);
    EXPECT_EQ(llga_set_constant_tensor_cache_policy(dnnl_any_engine, llga_constant_cache_lru),
            dnnl_invalid_arguments);
    EXPECT_EQ(llga_get_constant_tensor_cache_usage(dnnl_cpu, nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(llga_set_constant_tensor_cache_policy(dnnl_cpu, llga_constant_cache_no_evict),
            dnnl_success);
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 0), dnnl_success);
}

// Constant MatMul weights are packed once by the JIT kernel and served from
// the constant tensor cache on later executions; results match a naive
// product computed here every time.
TEST(CapiGraph, ConstantMatmulWeightsArePackedOnce) {
    cpu_env_t env;
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 8), dnnl_success);
    const int64_t M = 5, K = 300, N = 200;
    auto x = lt(1, dnnl_f32, {M, K});
    auto w = lt(2, dnnl_f32, {K, N}, dnnl_graph_layout_type_strided,
            dnnl_graph_tensor_property_constant);
    auto y = lt(3, dnnl_f32, {M, N});
    llga_constant_cache_usage_t before, after;
    {
        single_op_t s(env, dnnl_graph_op_matmul, {x, w}, {y});
        ASSERT_TRUE(s.ok) << last_error();
        std::vector<float> xv(M * K), wv(K * N), yv(M * N);
        for (int64_t i = 0; i < M * K; ++i)
            xv[i] = static_cast<float>(i % 7) - 3.f;
        for (int64_t i = 0; i < K * N; ++i)
            wv[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
        auto tx = s.bind(x, xv.data()), tw = s.bind(w, wv.data());
        auto ty = s.bind(y, yv.data());
        ASSERT_EQ(llga_get_constant_tensor_cache_usage(dnnl_cpu, &before),
                dnnl_success);
        for (int run = 0; run < 3; ++run) {
            std::fill(yv.begin(), yv.end(), -1.f);
            ASSERT_EQ(s.execute({tx, tw}, {ty}), dnnl_success);
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; n += 37) {
                    double want = 0; // exact: small integers and quarters
                    for (int64_t k = 0; k < K; ++k)
                        want += double(xv[m * K + k]) * wv[k * N + n];
                    ASSERT_EQ(yv[m * N + n], static_cast<float>(want)) << run;
                }
        }
        ASSERT_EQ(llga_get_constant_tensor_cache_usage(dnnl_cpu, &after),
                dnnl_success);
    }
    EXPECT_EQ(after.computed - before.computed, 1u); // packed once
    EXPECT_GE(after.hits - before.hits, 2u);         // reused twice
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 0), dnnl_success);
}
