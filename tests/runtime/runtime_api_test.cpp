// SPDX-License-Identifier: Apache-2.0
// tests/runtime/runtime_api_test.cpp — the runtime through the C API:
// constant cache capacity set/get/override/flush/disable, constant weights
// prepared once, the compiled-partition cache hit/miss counts and its
// capacity-0 release, a counting allocator proving every library buffer goes
// through it and comes back, opaque layouts chained across partitions, and
// in-place execution. Internal counters are read white-box.
#include <cstring>

#include "runtime_test_util.hpp"

#include "backends/ref/ref_backend.hpp"
#include "capi/handles.hpp"
#include "runtime/compiled_cache.hpp"
#include "runtime/constant_cache.hpp"
#include "ops/registry.hpp"

using namespace rt_test;
namespace rt = llga::rt;

namespace {

struct env_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    explicit env_t(dnnl_graph_allocator_t a = nullptr) {
        if (a)
            EXPECT_EQ(dnnl_graph_make_engine_with_allocator(&engine, dnnl_cpu, 0, a),
                    dnnl_success);
        else
            EXPECT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags),
                dnnl_success);
    }
    ~env_t() {
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
};

rt::constant_cache_t &cpu_cache() { return rt::constant_cache_t::get(dnnl_cpu, 0); }

// y = BiasAdd(x, w), w a constant bias of 3; the tests that count the
// constant cache run it under reference_backend_only_t, so the reference
// backend prepares w through the cache.
struct mul_const_t {
    dnnl_graph_logical_tensor_t x = lt(1, {2, 3}),
                                w = lt(2, {3}, dnnl_graph_tensor_property_constant),
                                y = lt(3, {2, 3});
    compiled_op_t c;
    explicit mul_const_t(dnnl_engine_t e)
        : c(10, dnnl_graph_op_bias_add, {x, w}, {y}, e) {}
};

TEST(RuntimeApi, ConstantCacheCapacitySetGetFlushDisable) {
    const reference_backend_only_t ref_only;
    env_t env;
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 1), dnnl_success);
    size_t mb = 0;
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb), dnnl_success);
    EXPECT_EQ(mb, 1u);
    EXPECT_EQ(cpu_cache().capacity(), size_t(1) << 20);
    int flag = 0;
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache(&flag), dnnl_success);
    EXPECT_EQ(flag, 1);

    mul_const_t m(env.engine);
    float xv[6] = {1, 1, 1, 1, 1, 1}, wv[3] = {1, 2, 3}, yv[6] = {};
    auto tx = tensor(m.x, env.engine, xv), tw = tensor(m.w, env.engine, wv),
         ty = tensor(m.y, env.engine, yv);
    const auto before = cpu_cache().usage();
    for (int i = 0; i < 5; ++i)
        ASSERT_EQ(m.c.run(env.stream, {tx, tw}, {ty}), dnnl_success);
    EXPECT_EQ(yv[5], 4.f);
    auto u = cpu_cache().usage();
    EXPECT_EQ(u.computed - before.computed, 1u); // prepared once
    EXPECT_EQ(u.hits - before.hits, 4u);
    EXPECT_EQ(u.entries, 1u);
    EXPECT_EQ(u.bytes, 12u);

    // Setting a capacity (even the same one) flushes.
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 1), dnnl_success);
    EXPECT_EQ(cpu_cache().usage().entries, 0u);
    ASSERT_EQ(m.c.run(env.stream, {tx, tw}, {ty}), dnnl_success);
    EXPECT_EQ(cpu_cache().usage().entries, 1u);

    // 0 disables: nothing cached, results still right.
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(cpu_cache().usage().entries, 0u);
    std::memset(yv, 0, sizeof(yv));
    ASSERT_EQ(m.c.run(env.stream, {tx, tw}, {ty}), dnnl_success);
    EXPECT_EQ(yv[4], 3.f);
    EXPECT_EQ(cpu_cache().usage().entries, 0u);
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache(&flag), dnnl_success);
    EXPECT_EQ(flag, 0);

    // The deprecated switch maps onto the capacity: enable = unlimited
    // (SIZE_MAX MB, read back as SIZE_MAX / 2^20 as in oneDNN).
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache(1), dnnl_success);
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb), dnnl_success);
    EXPECT_EQ(mb, SIZE_MAX / (size_t(1) << 20));
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_gpu, &mb), dnnl_success);
    EXPECT_EQ(mb, SIZE_MAX / (size_t(1) << 20));
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache(0), dnnl_success);
    EXPECT_EQ(cpu_cache().capacity(), 0u);
    for (auto t : {tx, tw, ty})
        dnnl_graph_tensor_destroy(t);
}

TEST(RuntimeApi, CompiledPartitionCacheHitsMissesAndRelease) {
    env_t env;
    auto &cache = rt::compiled_cache_t::instance();
    ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(0), dnnl_success);
    ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(8), dnnl_success);
    const size_t h0 = cache.hits(), m0 = cache.misses();
    {
        compiled_op_t a(1, dnnl_graph_op_relu, {lt(1, {4})}, {lt(2, {4})}, env.engine);
        compiled_op_t b(1, dnnl_graph_op_relu, {lt(1, {4})}, {lt(2, {4})}, env.engine);
        compiled_op_t c(1, dnnl_graph_op_relu, {lt(1, {5})}, {lt(2, {5})}, env.engine);
        EXPECT_EQ(cache.misses() - m0, 2u); // a and c
        EXPECT_EQ(cache.hits() - h0, 1u);   // b
        EXPECT_EQ(cache.size(), 2u);
        ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(0), dnnl_success);
        EXPECT_EQ(cache.size(), 0u);
        // Handles keep their compiled objects.
        float xv[4] = {-1, 2, -3, 4}, yv[4];
        auto tx = tensor(lt(1, {4}), env.engine, xv), ty = tensor(lt(2, {4}), env.engine, yv);
        EXPECT_EQ(b.run(env.stream, {tx}, {ty}), dnnl_success);
        EXPECT_EQ(yv[3], 4.f);
        dnnl_graph_tensor_destroy(tx);
        dnnl_graph_tensor_destroy(ty);
    }
    ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(1024), dnnl_success);
}

TEST(RuntimeApi, CountingAllocatorSeesEveryBufferAndAllComeBack) {
    const reference_backend_only_t ref_only;
    dnnl_graph_allocator_t alloc = nullptr;
    ASSERT_EQ(dnnl_graph_allocator_create(&alloc, counting_t::alloc, counting_t::free),
            dnnl_success);
    const long a0 = counting_t::allocs, f0 = counting_t::frees;
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 16), dnnl_success);
    {
        env_t env(alloc);
        dnnl_graph_allocator_destroy(alloc); // the engine keeps a copy
        const rt::allocator_t &ea = env.engine->allocator();
        mul_const_t m(env.engine);
        float xv[6] = {1, 2, 3, 4, 5, 6}, wv[3] = {2, 2, 2};
        auto tx = tensor(m.x, env.engine, xv), tw = tensor(m.w, env.engine, wv);
        auto ty = tensor(m.y, env.engine, DNNL_MEMORY_ALLOCATE); // output class
        EXPECT_EQ(counting_t::allocs - a0, 1);
        EXPECT_EQ(ea.live_bytes(rt::lifetime_t::output), 24u);
        for (int i = 0; i < 3; ++i)
            ASSERT_EQ(m.c.run(env.stream, {tx, tw}, {ty}), dnnl_success);
        void *yh = nullptr;
        ASSERT_EQ(dnnl_graph_tensor_get_data_handle(ty, &yh), dnnl_success);
        EXPECT_EQ(static_cast<float *>(yh)[5], 8.f);
        // The cached prepared weight: one persistent block.
        EXPECT_EQ(counting_t::allocs - a0, 2);
        EXPECT_EQ(ea.live_bytes(rt::lifetime_t::persistent), 12u);
        EXPECT_EQ(ea.live_bytes(rt::lifetime_t::temp), 0u);
        for (auto t : {tx, tw, ty})
            dnnl_graph_tensor_destroy(t);
        EXPECT_EQ(ea.live_bytes(rt::lifetime_t::output), 0u);
        // Still cached while the compiled partition lives.
        EXPECT_EQ(counting_t::live, 1);
    }
    // Handles are gone; clearing the compiled-partition cache destroys the
    // kernel and, synchronously, its cached constants.
    ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(0), dnnl_success);
    EXPECT_EQ(counting_t::live, 0);
    EXPECT_EQ(counting_t::allocs - a0, counting_t::frees - f0);
    ASSERT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(1024), dnnl_success);
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 0), dnnl_success);
}

TEST(RuntimeApi, IntermediatesGoThroughTheUserAllocator) {
    // A hand-built partition t3 = Add(t2, t2) with t2 = ReLU(t1): the
    // intermediate is read twice, so no whole-chain kernel takes it and it
    // runs as steps whose intermediate t2 comes from the user's allocator.
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t(counting_t::alloc, counting_t::free));
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    auto p = std::make_shared<llga::fusion::partition_t>();
    p->supported = true;
    auto t1 = lt(1, {8}), t2 = lt(2, {8}), t3 = lt(3, {8});
    llga::ir::op_t r, a;
    r.id = 1;
    r.kind = dnnl_graph_op_relu;
    r.inputs = {t1};
    r.outputs = {t2};
    a.id = 2;
    a.kind = dnnl_graph_op_add;
    a.inputs = {t2, t2};
    a.outputs = {t3};
    ASSERT_EQ(llga::ops::verify_op(r), dnnl_success);
    ASSERT_EQ(llga::ops::verify_op(a), dnnl_success);
    p->ops = {r, a};
    p->inputs = {t1};
    p->outputs = {t3};
    std::shared_ptr<const llga::compiler::compiled_t> c;
    ASSERT_EQ(llga::compiler::compile_partition(
                      p, {t1}, {t3}, eng, llga::capi::enabled_backends(), c),
            dnnl_success);
    float xv[8] = {-1, 2, -3, 4, -5, 6, -7, 8}, yv[8];
    rt::tensor_t tx, ty;
    ASSERT_EQ(tx.init(t1, &eng, xv), dnnl_success);
    ASSERT_EQ(ty.init(t3, &eng, yv), dnnl_success);
    const long a0 = counting_t::allocs, f0 = counting_t::frees;
    for (int i = 0; i < 4; ++i)
        ASSERT_EQ(llga::compiler::execute_compiled(*c, strm, {&tx}, {&ty}), dnnl_success);
    EXPECT_EQ(yv[7], 16.f);
    EXPECT_EQ(yv[0], 0.f);
    EXPECT_EQ(counting_t::allocs - a0, 4); // one temp per execution
    EXPECT_EQ(counting_t::frees - f0, 4);
    EXPECT_EQ(eng.allocator().live_blocks(), 0u);
}

TEST(RuntimeApi, OpaqueLayoutChainsAcrossPartitionsAndReordersToStrided) {
    struct mode_guard_t {
        mode_guard_t() {
            llga::ref::set_any_layout_mode(llga::ref::any_layout_mode_t::permuted);
        }
        ~mode_guard_t() {
            llga::ref::set_any_layout_mode(llga::ref::any_layout_mode_t::plain);
        }
    } guard;
    env_t env;
    // Partition 1: y = Abs(x), y left as `any` -> opaque (kernel's choice).
    auto x = lt(1, {2, 3}), y_any = lt(2, {2, 3}, dnnl_graph_tensor_property_undef,
                                    dnnl_graph_layout_type_any);
    compiled_op_t p1(1, dnnl_graph_op_abs, {x}, {y_any}, env.engine);
    const auto y = p1.query(2);
    ASSERT_EQ(y.layout_type, dnnl_graph_layout_type_opaque);
    size_t bytes = 0;
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&y, &bytes), dnnl_success);
    EXPECT_EQ(bytes, 24u);
    // Partition 2 consumes the opaque tensor: z = ReLU(y), z also `any`.
    auto z_any = lt(3, {2, 3}, dnnl_graph_tensor_property_undef,
            dnnl_graph_layout_type_any);
    compiled_op_t p2(2, dnnl_graph_op_relu, {y}, {z_any}, env.engine);
    const auto z = p2.query(3);
    ASSERT_EQ(z.layout_type, dnnl_graph_layout_type_opaque);
    EXPECT_EQ(z.layout.layout_id, y.layout.layout_id);
    // Partition 3: reorder into plain strided.
    auto s = lt(4, {2, 3});
    compiled_op_t p3(3, dnnl_graph_op_reorder, {z}, {s}, env.engine);

    float xv[6] = {-1, 2, -3, 4, -5, 6}, sv[6] = {};
    auto tx = tensor(x, env.engine, xv);
    auto ty = tensor(y, env.engine, DNNL_MEMORY_ALLOCATE);
    auto tz = tensor(z, env.engine, DNNL_MEMORY_ALLOCATE);
    auto ts = tensor(s, env.engine, sv);
    ASSERT_EQ(p1.run(env.stream, {tx}, {ty}), dnnl_success);
    ASSERT_EQ(p2.run(env.stream, {ty}, {tz}), dnnl_success);
    ASSERT_EQ(p3.run(env.stream, {tz}, {ts}), dnnl_success);
    const float want[6] = {1, 2, 3, 4, 5, 6};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(sv[k], want[k]) << k;
    // Memory of the opaque tensor is column-major (last two dims swapped).
    void *zh = nullptr;
    ASSERT_EQ(dnnl_graph_tensor_get_data_handle(tz, &zh), dnnl_success);
    EXPECT_EQ(static_cast<float *>(zh)[1], 4.f);
    // is_equal: the opaque tensor equals its strided spelling.
    auto col = y;
    dnnl_dims_t d = {2, 3}, st = {1, 2};
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_strides(&col, 2, dnnl_f32, 2, d, st,
                      dnnl_graph_tensor_property_undef),
            dnnl_success);
    uint8_t eq = 0;
    ASSERT_EQ(dnnl_graph_logical_tensor_is_equal(&y, &col, &eq), dnnl_success);
    EXPECT_EQ(eq, 1u);
    for (auto t : {tx, ty, tz, ts})
        dnnl_graph_tensor_destroy(t);
}

TEST(RuntimeApi, InplaceExecutionMatchesOutOfPlace) {
    env_t env;
    auto x = lt(1, {4, 5}), y = lt(2, {4, 5});
    compiled_op_t c(1, dnnl_graph_op_tanh, {x}, {y}, env.engine);
    size_t n = 0;
    const dnnl_graph_inplace_pair_t *pairs = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_get_inplace_ports(c.cp, &n, &pairs),
            dnnl_success);
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(pairs[0].input_id, 1u);
    EXPECT_EQ(pairs[0].output_id, 2u);
    std::vector<float> a(20), out(20), shared(20);
    for (int k = 0; k < 20; ++k)
        a[k] = shared[k] = 0.25f * (k - 10);
    auto tx = tensor(x, env.engine, a.data()), ty = tensor(y, env.engine, out.data());
    ASSERT_EQ(c.run(env.stream, {tx}, {ty}), dnnl_success);
    auto sx = tensor(x, env.engine, shared.data()), sy = tensor(y, env.engine, shared.data());
    ASSERT_EQ(c.run(env.stream, {sx}, {sy}), dnnl_success);
    for (int k = 0; k < 20; ++k)
        EXPECT_EQ(shared[k], out[k]) << k;
    for (auto t : {tx, ty, sx, sy})
        dnnl_graph_tensor_destroy(t);
}

} // namespace
