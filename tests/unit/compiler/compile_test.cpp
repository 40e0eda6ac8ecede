// SPDX-License-Identifier: Apache-2.0
// tests/unit/compiler/compile_test.cpp — the compile pipeline: port checks,
// shape inference through a multi-op partition, layout resolution, in-place
// pairs, the compiled-partition cache, and execution with the ref backend.
#include <atomic>
#include <cstdlib>

#include <gtest/gtest.h>

#include "backends/ref/ref_backend.hpp"
#include "compiler/compiled_partition.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/compiled_cache.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/layout_registry.hpp"

namespace llga {
namespace compiler {
namespace {

ir::op_t op(size_t id, op_kind_t kind, std::vector<logical_tensor_t> ins,
        std::vector<logical_tensor_t> outs) {
    ir::op_t o;
    o.id = id;
    o.kind = kind;
    o.inputs = std::move(ins);
    o.outputs = std::move(outs);
    EXPECT_EQ(ops::verify_op(o), dnnl_success);
    return o;
}

// A two-op partition built by hand: t3 = ReLU(t1 + t2).
std::shared_ptr<fusion::partition_t> add_relu() {
    auto p = std::make_shared<fusion::partition_t>();
    p->id = 1000;
    p->supported = true;
    const auto a = ir::make_lt(1, dnnl_f32, {2, 3}), b = ir::make_lt(2, dnnl_f32, {1, 3});
    const auto s = ir::make_lt_unknown(10, dnnl_f32), y = ir::make_lt_unknown(3, dnnl_f32);
    p->ops.push_back(op(1, dnnl_graph_op_add, {a, b}, {s}));
    p->ops.push_back(op(2, dnnl_graph_op_relu, {s}, {y}));
    p->inputs = {a, b};
    p->outputs = {y};
    return p;
}

TEST(Compile, InfersShapesThroughIntermediatesAndRuns) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    auto p = add_relu();
    logical_tensor_t y = ir::make_lt_unknown(3, dnnl_f32);
    y.layout_type = dnnl_graph_layout_type_any;
    std::shared_ptr<const compiled_t> c;
    const backend_list_t backends = {&ref::ref_backend()};
    ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng, backends, c), dnnl_success);
    logical_tensor_t q;
    ASSERT_TRUE(query_port(*c, 3, q));
    EXPECT_EQ(ir::dims_of(q), (dims_t {2, 3}));
    EXPECT_EQ(q.layout_type, dnnl_graph_layout_type_strided);
    EXPECT_TRUE(ir::is_dense(q));
    EXPECT_FALSE(query_port(*c, 10, q)); // intermediates are not ports

    float av[6] = {1, -2, 3, -4, 5, -6}, bv[3] = {-1, 1, 0}, yv[6];
    rt::tensor_t ta, tb, ty;
    ASSERT_EQ(ta.init(p->inputs[0], &eng, av), dnnl_success);
    ASSERT_EQ(tb.init(p->inputs[1], &eng, bv), dnnl_success);
    ASSERT_EQ(ty.init(q, &eng, yv), dnnl_success);
    ASSERT_EQ(execute_compiled(*c, strm, {&ta, &tb}, {&ty}), dnnl_success);
    // a + b (b broadcast over rows) = {0,-1,3,-5,6,-6} -> relu
    const float want[6] = {0, 0, 3, 0, 6, 0};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(yv[k], want[k]);
    // Intermediates came from the engine allocator and went back.
    EXPECT_EQ(eng.allocator().live_blocks(), 0u);
}

// A user allocator that counts its allocations.
std::atomic<int> g_user_allocs {0};
void *counting_alloc(size_t size, size_t alignment) {
    ++g_user_allocs;
    return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
void counting_free(void *p) { std::free(p); }

// A backend that runs one-op ReLU plans only (dense f32), counting calls.
class relu_only_backend_t : public backend_t {
public:
    struct kernel_impl_t : kernel_t {
        std::atomic<int> *calls;
        int64_t n;
        const char *name() const override { return "test_relu"; }
        status_t execute(const exec_ctx_t &ctx) const override {
            ++*calls;
            const float *x = static_cast<const float *>(ctx.inputs[0]);
            float *y = static_cast<float *>(ctx.outputs[0]);
            for (int64_t i = 0; i < n; ++i)
                y[i] = x[i] > 0 ? x[i] : 0.f;
            return dnnl_success;
        }
    };
    mutable std::atomic<int> calls {0};
    const char *name() const override { return "relu_only"; }
    bool supports(const plan_t &plan) const override {
        return plan.ops.size() == 1 && plan.ops[0].kind == dnnl_graph_op_relu
                && ir::is_dense(plan.ops[0].inputs[0]);
    }
    status_t compile(const plan_t &plan,
            std::shared_ptr<const kernel_t> &out) const override {
        auto k = std::make_shared<kernel_impl_t>();
        k->calls = &calls;
        k->n = ir::nelems(plan.ops[0].inputs[0]);
        out = k;
        return dnnl_success;
    }
};

TEST(Compile, MultiOpPartitionRunsEachOpOnItsBestBackend) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    auto p = add_relu();
    p->id = 1001; // its own cache entry
    const logical_tensor_t y = ir::make_lt(3, dnnl_f32, {2, 3});
    relu_only_backend_t relu_only;
    std::shared_ptr<const compiled_t> c;
    ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng,
                      {&relu_only, &ref::ref_backend()}, c),
            dnnl_success);
    // Add has only the reference; ReLU gets the specialised kernel.
    EXPECT_STREQ(c->kernel->name(), "seq(ref+test_relu)");
    float av[6] = {1, -2, 3, -4, 5, -6}, bv[3] = {-1, 1, 0}, yv[6];
    rt::tensor_t ta, tb, ty;
    ASSERT_EQ(ta.init(p->inputs[0], &eng, av), dnnl_success);
    ASSERT_EQ(tb.init(p->inputs[1], &eng, bv), dnnl_success);
    ASSERT_EQ(ty.init(y, &eng, yv), dnnl_success);
    ASSERT_EQ(execute_compiled(*c, strm, {&ta, &tb}, {&ty}), dnnl_success);
    const float want[6] = {0, 0, 3, 0, 6, 0};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(yv[k], want[k]);
    EXPECT_EQ(relu_only.calls.load(), 1);
    EXPECT_EQ(eng.allocator().live_blocks(), 0u);

    // With a user allocator the intermediate (the sum) is asked of it on
    // every run and given back before execute returns; the default
    // allocator's engine keeps it in a per-thread arena instead.
    rt::engine_t ueng(dnnl_cpu, 0, rt::allocator_t(counting_alloc, counting_free));
    rt::stream_t ustrm(&ueng, dnnl_stream_in_order);
    std::shared_ptr<const compiled_t> uc;
    ASSERT_EQ(compile_partition(p, p->inputs, {y}, ueng,
                      {&relu_only, &ref::ref_backend()}, uc),
            dnnl_success);
    rt::tensor_t ua, ub, uy;
    ASSERT_EQ(ua.init(p->inputs[0], &ueng, av), dnnl_success);
    ASSERT_EQ(ub.init(p->inputs[1], &ueng, bv), dnnl_success);
    ASSERT_EQ(uy.init(y, &ueng, yv), dnnl_success);
    const int before = g_user_allocs.load();
    ASSERT_EQ(execute_compiled(*uc, ustrm, {&ua, &ub}, {&uy}), dnnl_success);
    ASSERT_EQ(execute_compiled(*uc, ustrm, {&ua, &ub}, {&uy}), dnnl_success);
    EXPECT_EQ(g_user_allocs.load() - before, 2); // one intermediate per run
    EXPECT_EQ(ueng.allocator().live_blocks(), 0u);

    // No specialised step at all: the reference runs the partition whole.
    auto q = add_relu();
    q->id = 1002;
    ASSERT_EQ(compile_partition(q, q->inputs, {y}, eng, {&ref::ref_backend()},
                      c),
            dnnl_success);
    EXPECT_STREQ(c->kernel->name(), "ref");
}

// Takes exactly the run {Add, ReLU} on dense same-shape f32 tensors, as a
// fused kernel would: two inputs, one output (the ReLU's).
class add_relu_backend_t : public backend_t {
public:
    struct kernel_impl_t : kernel_t {
        int64_t n;
        const char *name() const override { return "test_add_relu"; }
        status_t execute(const exec_ctx_t &ctx) const override {
            const float *a = static_cast<const float *>(ctx.inputs[0]);
            const float *b = static_cast<const float *>(ctx.inputs[1]);
            float *y = static_cast<float *>(ctx.outputs[0]);
            for (int64_t i = 0; i < n; ++i)
                y[i] = a[i] + b[i] > 0 ? a[i] + b[i] : 0.f;
            return dnnl_success;
        }
    };
    const char *name() const override { return "add_relu"; }
    bool supports(const plan_t &plan) const override {
        return plan.ops.size() == 2 && plan.ops[0].kind == dnnl_graph_op_add
                && plan.ops[1].kind == dnnl_graph_op_relu
                && plan.inputs.size() == 2 && plan.outputs.size() == 1
                && plan.outputs[0].id == plan.ops[1].outputs[0].id
                && ir::dims_of(plan.inputs[0]) == ir::dims_of(plan.inputs[1]);
    }
    status_t compile(const plan_t &plan,
            std::shared_ptr<const kernel_t> &out) const override {
        auto k = std::make_shared<kernel_impl_t>();
        k->n = ir::nelems(plan.inputs[0]);
        out = k;
        return dnnl_success;
    }
};

TEST(Compile, SequenceStepsTakeTheLongestRunAKernelAccepts) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    // y = ReLU(a + b) - c: {Add, ReLU} is one step, Subtract another.
    auto p = std::make_shared<fusion::partition_t>();
    p->id = 1200;
    p->supported = true;
    const auto a = ir::make_lt(1, dnnl_f32, {2, 3}), b = ir::make_lt(2, dnnl_f32, {2, 3});
    const auto c = ir::make_lt(3, dnnl_f32, {2, 3});
    const auto s = ir::make_lt_unknown(10, dnnl_f32), r = ir::make_lt_unknown(11, dnnl_f32);
    const auto y = ir::make_lt(12, dnnl_f32, {2, 3});
    p->ops.push_back(op(1, dnnl_graph_op_add, {a, b}, {s}));
    p->ops.push_back(op(2, dnnl_graph_op_relu, {s}, {r}));
    p->ops.push_back(op(3, dnnl_graph_op_subtract, {r, c}, {y}));
    p->inputs = {a, b, c};
    p->outputs = {y};
    add_relu_backend_t pair;
    std::shared_ptr<const compiled_t> cp;
    ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng,
                      {&pair, &ref::ref_backend()}, cp),
            dnnl_success);
    EXPECT_STREQ(cp->kernel->name(), "seq(test_add_relu+ref)");
    float av[6] = {1, -2, 3, -4, 5, -6}, bv[6] = {0.5f, 1, -4, 2, -5, 7};
    float cv[6] = {1, 1, 1, 1, 1, 1}, yv[6] = {9, 9, 9, 9, 9, 9};
    rt::tensor_t ta, tb, tc, ty;
    ASSERT_EQ(ta.init(a, &eng, av), dnnl_success);
    ASSERT_EQ(tb.init(b, &eng, bv), dnnl_success);
    ASSERT_EQ(tc.init(c, &eng, cv), dnnl_success);
    ASSERT_EQ(ty.init(y, &eng, yv), dnnl_success);
    ASSERT_EQ(execute_compiled(*cp, strm, {&ta, &tb, &tc}, {&ty}), dnnl_success);
    // relu(a + b) = {1.5, 0, 0, 0, 0, 1}; minus 1
    const float want[6] = {0.5f, -1, -1, -1, -1, 0};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(yv[k], want[k]) << k;
    EXPECT_EQ(eng.allocator().live_blocks(), 0u);
}

TEST(Compile, ElementwiseIntermediatesKeepAChannelLastInputLayout) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    // ReLU -> Abs on [2, 3, 4, 5] stored channel-last (strides 60,1,15,3):
    // the intermediate takes the same strides; a row-major input keeps a
    // row-major intermediate.
    for (bool channel_last : {true, false}) {
        auto p = std::make_shared<fusion::partition_t>();
        p->id = channel_last ? 1300 : 1301;
        p->supported = true;
        logical_tensor_t x = ir::make_lt(1, dnnl_f32, {2, 3, 4, 5});
        if (channel_last) {
            const int64_t st[4] = {60, 1, 15, 3};
            for (int d = 0; d < 4; ++d)
                x.layout.strides[d] = st[d];
        }
        const auto t = ir::make_lt_unknown(2, dnnl_f32);
        const auto y = ir::make_lt(3, dnnl_f32, {2, 3, 4, 5});
        p->ops.push_back(op(1, dnnl_graph_op_relu, {x}, {t}));
        p->ops.push_back(op(2, dnnl_graph_op_abs, {t}, {y}));
        p->inputs = {x};
        p->outputs = {y};
        std::shared_ptr<const compiled_t> c;
        ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng,
                          {&ref::ref_backend()}, c),
                dnnl_success);
        const logical_tensor_t &mid = c->plan.ops[0].outputs[0];
        EXPECT_EQ(ir::strides_of(mid), ir::strides_of(x)) << channel_last;
        EXPECT_EQ(ir::strides_of(c->plan.ops[1].inputs[0]), ir::strides_of(x));
    }
}

// MatMul -> BiasAdd(data_format) -> ReLU on [1, 2, 2] f32.
std::shared_ptr<fusion::partition_t> matmul_bias_relu(size_t id,
        const char *bias_format) {
    auto p = std::make_shared<fusion::partition_t>();
    p->id = id;
    p->supported = true;
    const auto a = ir::make_lt(1, dnnl_f32, {1, 2, 2});
    const auto w = ir::make_lt(2, dnnl_f32, {2, 2});
    const auto bias = ir::make_lt(3, dnnl_f32, {2});
    const auto m = ir::make_lt_unknown(4, dnnl_f32);
    const auto s = ir::make_lt_unknown(5, dnnl_f32);
    const auto y = ir::make_lt_unknown(6, dnnl_f32);
    p->ops.push_back(op(1, dnnl_graph_op_matmul, {a, w}, {m}));
    ir::op_t ba = op(2, dnnl_graph_op_bias_add, {m, bias}, {s});
    ba.set_attr(dnnl_graph_op_attr_data_format,
            ir::attr_value_t::make_str(bias_format));
    p->ops.push_back(ba);
    p->ops.push_back(op(3, dnnl_graph_op_relu, {s}, {y}));
    p->inputs = {a, w, bias};
    p->outputs = {y};
    return p;
}

TEST(Compile, BiasAddFoldsIntoTheMatmulBiasWhenOnItsColumns) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    const backend_list_t backends = {&ref::ref_backend()};
    const logical_tensor_t y = ir::make_lt(6, dnnl_f32, {1, 2, 2});
    // a = [[1, 2], [3, 4]], w = [[1, -1], [0, 1]], bias = {-2, 0.5}
    // a.w = [[1, 1], [3, 1]]; NXC bias on columns: [[-1, 1.5], [1, 1.5]];
    // NCX on rank 3 adds along dim 1 (rows): [[-1, -1], [3.5, 1.5]].
    float av[4] = {1, 2, 3, 4}, wv[4] = {1, -1, 0, 1}, bv[2] = {-2, 0.5f};
    struct want_t {
        const char *format;
        size_t ops;
        float y[4];
    } cases[] = {{"NXC", 2, {0, 1.5f, 1, 1.5f}}, {"NCX", 3, {0, 0, 3.5f, 1.5f}}};
    size_t id = 1100;
    for (const want_t &c : cases) {
        auto p = matmul_bias_relu(id++, c.format);
        std::shared_ptr<const compiled_t> cp;
        ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng, backends, cp),
                dnnl_success);
        ASSERT_EQ(cp->plan.ops.size(), c.ops) << c.format;
        if (c.ops == 2) {
            EXPECT_EQ(cp->plan.ops[0].inputs.size(), 3u); // bias input
            EXPECT_EQ(cp->plan.ops[0].outputs[0].id, 5u); // BiasAdd's output
        }
        float yv[4] = {9, 9, 9, 9};
        rt::tensor_t ta, tw, tb, ty;
        ASSERT_EQ(ta.init(p->inputs[0], &eng, av), dnnl_success);
        ASSERT_EQ(tw.init(p->inputs[1], &eng, wv), dnnl_success);
        ASSERT_EQ(tb.init(p->inputs[2], &eng, bv), dnnl_success);
        ASSERT_EQ(ty.init(y, &eng, yv), dnnl_success);
        ASSERT_EQ(execute_compiled(*cp, strm, {&ta, &tw, &tb}, {&ty}),
                dnnl_success);
        for (int k = 0; k < 4; ++k)
            EXPECT_EQ(yv[k], c.y[k]) << c.format << " " << k;
    }
}

TEST(Compile, CacheReturnsTheSameObjectForTheSameKey) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    auto p = add_relu();
    const backend_list_t backends = {&ref::ref_backend()};
    auto &cache = rt::compiled_cache_t::instance();
    cache.set_capacity(0);
    cache.set_capacity(16);
    std::shared_ptr<const compiled_t> c1, c2, c3;
    const auto y = ir::make_lt_unknown(3, dnnl_f32);
    ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng, backends, c1), dnnl_success);
    const size_t hits = cache.hits();
    ASSERT_EQ(compile_partition(p, p->inputs, {y}, eng, backends, c2), dnnl_success);
    EXPECT_EQ(c1.get(), c2.get());
    EXPECT_EQ(cache.hits(), hits + 1);
    // Different concrete input shape: a different entry.
    auto ins = p->inputs;
    ins[0] = ir::make_lt(1, dnnl_f32, {4, 3});
    ASSERT_EQ(compile_partition(p, ins, {y}, eng, backends, c3), dnnl_success);
    EXPECT_NE(c1.get(), c3.get());
    logical_tensor_t q;
    ASSERT_TRUE(query_port(*c3, 3, q));
    EXPECT_EQ(ir::dims_of(q), (dims_t {4, 3}));
    cache.set_capacity(0); // releases everything; c1 stays valid
    EXPECT_EQ(cache.size(), 0u);
    ASSERT_TRUE(query_port(*c1, 3, q));
    cache.set_capacity(1024);
}

TEST(Compile, InplacePairOnlyWhenLayoutsMatch) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    const backend_list_t backends = {&ref::ref_backend()};
    auto make = [](logical_tensor_t x, logical_tensor_t y) {
        auto p = std::make_shared<fusion::partition_t>();
        p->supported = true;
        p->ops.push_back(op(1, dnnl_graph_op_relu, {x}, {y}));
        p->inputs = {x};
        p->outputs = {y};
        return p;
    };
    const auto x = ir::make_lt(1, dnnl_f32, {2, 3});
    std::shared_ptr<const compiled_t> c;
    auto p = make(x, ir::make_lt(2, dnnl_f32, {2, 3}));
    ASSERT_EQ(compile_partition(p, {x}, {p->outputs[0]}, eng, backends, c),
            dnnl_success);
    ASSERT_EQ(c->inplace.size(), 1u);
    EXPECT_EQ(c->inplace[0].input_id, 1u);
    EXPECT_EQ(c->inplace[0].output_id, 2u);
    // Output with transposed strides: no in-place pair.
    logical_tensor_t yt = ir::make_lt(2, dnnl_f32, {2, 3});
    yt.layout.strides[0] = 1;
    yt.layout.strides[1] = 2;
    auto pt = make(x, yt);
    ASSERT_EQ(compile_partition(pt, {x}, {yt}, eng, backends, c), dnnl_success);
    EXPECT_TRUE(c->inplace.empty());
}

TEST(Compile, RejectsBadPorts) {
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    const backend_list_t backends = {&ref::ref_backend()};
    auto p = add_relu();
    std::shared_ptr<const compiled_t> c;
    const auto y = ir::make_lt_unknown(3, dnnl_f32);
    EXPECT_EQ(compile_partition(p, {p->inputs[0]}, {y}, eng, backends, c),
            dnnl_invalid_arguments);
    auto wrong = p->inputs;
    wrong[1] = ir::make_lt(2, dnnl_f32, {5, 5}); // cannot broadcast with 2x3
    EXPECT_EQ(compile_partition(p, wrong, {y}, eng, backends, c), dnnl_invalid_shape);
    auto unsupported = add_relu();
    unsupported->supported = false;
    EXPECT_EQ(compile_partition(unsupported, p->inputs, {y}, eng, backends, c),
            dnnl_invalid_arguments);
    EXPECT_EQ(compile_partition(p, p->inputs, {y}, eng, {}, c), dnnl_unimplemented);
}

// y = x * w with w a constant port: the ref kernel prepares w once through
// the engine's constant cache and drops it when the kernel dies.
TEST(Compile, ConstantInputsAreServedFromTheConstantCache) {
    rt::engine_t eng(dnnl_cpu, 7, rt::allocator_t()); // own cache (index 7)
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    rt::constant_cache_t &cc = rt::constant_cache_t::get(dnnl_cpu, 7);
    cc.set_capacity(1 << 20);
    const backend_list_t backends = {&ref::ref_backend()};
    auto x = ir::make_lt(1, dnnl_f32, {2, 3});
    // Transposed strides: the prepared copy is dense row-major.
    auto w = ir::make_lt(2, dnnl_f32, {2, 3}, dnnl_graph_layout_type_strided,
            dnnl_graph_tensor_property_constant);
    w.layout.strides[0] = 1;
    w.layout.strides[1] = 2;
    auto y = ir::make_lt(3, dnnl_f32, {2, 3});
    auto p = std::make_shared<fusion::partition_t>();
    p->supported = true;
    p->ops.push_back(op(1, dnnl_graph_op_multiply, {x, w}, {y}));
    p->inputs = {x, w};
    p->outputs = {y};
    {
        std::shared_ptr<const compiled_t> c;
        rt::compiled_cache_t::instance().set_capacity(0); // c is the only owner
        ASSERT_EQ(compile_partition(p, {x, w}, {y}, eng, backends, c), dnnl_success);
        float xv[6] = {1, 2, 3, 4, 5, 6}, wv[6] = {1, 2, 3, 4, 5, 6}, yv[6];
        // wv in column-major: w[i][j] = wv[i + 2j] -> rows {1,3,5},{2,4,6}
        rt::tensor_t tx, tw, ty;
        ASSERT_EQ(tx.init(x, &eng, xv), dnnl_success);
        ASSERT_EQ(tw.init(w, &eng, wv), dnnl_success);
        ASSERT_EQ(ty.init(y, &eng, yv), dnnl_success);
        for (int rep = 0; rep < 3; ++rep) {
            ASSERT_EQ(execute_compiled(*c, strm, {&tx, &tw}, {&ty}), dnnl_success);
            const float want[6] = {1, 6, 15, 8, 20, 36};
            for (int k = 0; k < 6; ++k)
                EXPECT_EQ(yv[k], want[k]) << k;
        }
        const auto u = cc.usage();
        EXPECT_EQ(u.computed, 1u);
        EXPECT_EQ(u.hits, 2u);
        EXPECT_EQ(u.entries, 1u);
        EXPECT_EQ(eng.allocator().live_bytes(rt::lifetime_t::persistent), 24u);
        // A different weight buffer: a second entry, correct results.
        float w2[6] = {2, 2, 2, 2, 2, 2};
        ASSERT_EQ(tw.set_handle(w2), dnnl_success);
        ASSERT_EQ(execute_compiled(*c, strm, {&tx, &tw}, {&ty}), dnnl_success);
        EXPECT_EQ(yv[5], 12.f);
        EXPECT_EQ(cc.usage().entries, 2u);
    }
    rt::compiled_cache_t::instance().set_capacity(1024);
    // The kernel is gone: its entries and their memory too.
    EXPECT_EQ(cc.usage().entries, 0u);
    EXPECT_EQ(eng.allocator().live_bytes(), 0u);
    cc.set_capacity(0);
}

// The ref backend's permuted mode makes `any` outputs opaque; a second
// partition consumes the opaque tensor, and a Reorder turns it strided.
TEST(Compile, OpaqueLayoutChainsIntoTheNextPartition) {
    struct mode_guard_t {
        mode_guard_t() { ref::set_any_layout_mode(ref::any_layout_mode_t::permuted); }
        ~mode_guard_t() { ref::set_any_layout_mode(ref::any_layout_mode_t::plain); }
    } guard;
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    const backend_list_t backends = {&ref::ref_backend()};
    auto x = ir::make_lt(1, dnnl_f32, {2, 3});
    auto y = ir::make_lt_unknown(2, dnnl_f32);
    y.layout_type = dnnl_graph_layout_type_any;
    auto p1 = std::make_shared<fusion::partition_t>();
    p1->supported = true;
    p1->ops.push_back(op(1, dnnl_graph_op_relu, {x}, {y}));
    p1->inputs = {x};
    p1->outputs = {y};
    std::shared_ptr<const compiled_t> c1, c2;
    ASSERT_EQ(compile_partition(p1, {x}, {y}, eng, backends, c1), dnnl_success);
    logical_tensor_t yq;
    ASSERT_TRUE(query_port(*c1, 2, yq));
    ASSERT_EQ(yq.layout_type, dnnl_graph_layout_type_opaque);
    EXPECT_EQ(rt::layout_registry_t::mem_size(yq), 24u);
    // Partition 2: z = Reorder(y) into plain strided.
    auto z = ir::make_lt(3, dnnl_f32, {2, 3});
    auto p2 = std::make_shared<fusion::partition_t>();
    p2->supported = true;
    p2->ops.push_back(op(2, dnnl_graph_op_reorder, {yq}, {z}));
    p2->inputs = {yq};
    p2->outputs = {z};
    ASSERT_EQ(compile_partition(p2, {yq}, {z}, eng, backends, c2), dnnl_success);
    logical_tensor_t in2;
    ASSERT_TRUE(query_port(*c2, 2, in2));
    EXPECT_EQ(in2.layout.layout_id, yq.layout.layout_id);
    float xv[6] = {1, -2, 3, -4, 5, -6}, yv[6], zv[6];
    rt::tensor_t tx, ty, tz;
    ASSERT_EQ(tx.init(x, &eng, xv), dnnl_success);
    ASSERT_EQ(ty.init(yq, &eng, yv), dnnl_success);
    ASSERT_EQ(tz.init(z, &eng, zv), dnnl_success);
    ASSERT_EQ(execute_compiled(*c1, strm, {&tx}, {&ty}), dnnl_success);
    // Column-major in memory: y[i][j] at yv[i + 2j].
    EXPECT_EQ(yv[1], 0.f);  // y[1][0] = relu(-4)
    EXPECT_EQ(yv[2], 0.f);  // y[0][1] = relu(-2)
    EXPECT_EQ(yv[4], 3.f);  // y[0][2]
    ASSERT_EQ(execute_compiled(*c2, strm, {&ty}, {&tz}), dnnl_success);
    const float want[6] = {1, 0, 3, 0, 5, 0};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(zv[k], want[k]) << k;
    // An unknown opaque id is rejected at compile time.
    logical_tensor_t bogus = yq;
    bogus.layout.layout_id = 12345;
    auto p3 = std::make_shared<fusion::partition_t>();
    p3->supported = true;
    p3->ops.push_back(op(3, dnnl_graph_op_reorder, {bogus}, {z}));
    p3->inputs = {bogus};
    p3->outputs = {z};
    EXPECT_EQ(compile_partition(p3, {bogus}, {z}, eng, backends, c2),
            dnnl_invalid_arguments);
}

} // namespace
} // namespace compiler
} // namespace llga
