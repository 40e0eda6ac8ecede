// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_constant_cache_test.cpp — the constant stage of an OpenCL
// partition (backends/ocl/executor.hpp): a Dequantize of constant s8 weights
// before a MatMul runs once and its result is kept in the GPU constant
// tensor cache; later executions reuse it (proved by changing the weights
// behind the cache's back, which oneDNN's contract says users must not do),
// a disabled cache recomputes it every time, and destroying the compiled
// kernel drops its entry.
#include "ocl_test_util.hpp"

#include "compiler/plan.hpp"
#include "runtime/cache_settings.hpp"
#include "runtime/constant_cache.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;

constexpr int64_t M = 5, K = 7, N = 3;

// y = x · dequantize(w), w per-tensor scale 0.5, zero point 2.
std::vector<float> expected(
        const std::vector<float> &x, const std::vector<int8_t> &w) {
    std::vector<float> y(M * N, 0.f);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t k = 0; k < K; ++k)
                y[m * N + n] += x[m * K + k] * 0.5f * (w[k * N + n] - 2);
    return y;
}

struct setup_t {
    compiler::plan_t plan;
    std::shared_ptr<const compiler::kernel_t> kernel;
};

setup_t make_partition(bool weights_constant) {
    setup_t s;
    logical_tensor_t w = make_t(1, dnnl_s8, {K, N});
    if (weights_constant) w.property = dnnl_graph_tensor_property_constant;
    ir::op_t dq = make_op(dnnl_graph_op_dequantize, {w},
            {{dnnl_graph_op_attr_scales, attr_value_t::make_f32s({0.5f})},
                    {dnnl_graph_op_attr_zps, attr_value_t::make_s64s({2})},
                    {dnnl_graph_op_attr_qtype,
                            attr_value_t::make_str("per_tensor")}},
            dnnl_f32, 10);
    logical_tensor_t x = make_t(2, dnnl_f32, {M, K}, true);
    ir::op_t mm = make_op(dnnl_graph_op_matmul, {x, dq.outputs[0]}, {},
            dnnl_f32, 20);
    s.plan.ops = {dq, mm};
    s.plan.inputs = {w, x};
    s.plan.outputs = mm.outputs;
    const compiler::backend_t *b = ocl::backend_for(*gpu()->engine);
    EXPECT_EQ(b->compile(s.plan, s.kernel), dnnl_success)
            << llga_last_error_message();
    return s;
}

class OclConstantCache : public ::testing::Test {
protected:
    void SetUp() override {
        LLGA_NEED_GPU();
        saved_mb_ = rt::constant_cache_capacity_mb(dnnl_gpu);
        g_ = gpu();
        std::mt19937 gen(91);
        std::uniform_int_distribution<int> wi(-9, 9);
        std::uniform_real_distribution<float> xf(-1.f, 1.f);
        w_.resize(K * N);
        for (auto &v : w_)
            v = static_cast<int8_t>(wi(gen));
        x_host_.assign(static_cast<size_t>(M * K), 0.f);
        for (auto &v : x_host_)
            v = xf(gen);
    }
    void TearDown() override {
        if (!g_) return;
        EXPECT_EQ(rt::set_constant_cache_capacity_mb(dnnl_gpu, saved_mb_),
                dnnl_success);
        for (auto &p : bufs_)
            g_->engine->allocator().deallocate(
                    p.first, p.second, rt::lifetime_t::output);
    }
    void *device_buffer(const void *host, size_t n) {
        void *p = g_->engine->allocator().allocate(n, rt::lifetime_t::output);
        EXPECT_NE(p, nullptr);
        EXPECT_EQ(g_->dev->copy(g_->q, p, host, n), dnnl_success);
        bufs_.emplace_back(p, n);
        return p;
    }
    // Executes `s` on w_dev, x (odd strides) and returns y (dense).
    std::vector<float> run(const setup_t &s, void *w_dev) {
        const logical_tensor_t &x = s.plan.inputs[1];
        std::vector<char> xb(ir::mem_size(x), 0);
        for (int64_t m = 0; m < M; ++m)
            for (int64_t k = 0; k < K; ++k)
                ir::store_value(dnnl_f32, xb.data(),
                        m * x.layout.strides[0] + k * x.layout.strides[1],
                        x_host_[m * K + k]);
        void *x_dev = device_buffer(xb.data(), xb.size());
        const logical_tensor_t &y = s.plan.outputs[0];
        std::vector<char> yb(ir::mem_size(y), 0);
        void *y_dev = device_buffer(yb.data(), yb.size());
        compiler::exec_ctx_t ctx;
        ctx.stream = g_->stream;
        ctx.engine = g_->engine;
        ctx.allocator = &g_->engine->allocator();
        ctx.inputs = {w_dev, x_dev};
        ctx.outputs = {y_dev};
        EXPECT_EQ(s.kernel->execute(ctx), dnnl_success)
                << llga_last_error_message();
        EXPECT_EQ(g_->stream->wait(), dnnl_success);
        EXPECT_EQ(g_->dev->copy(g_->q, yb.data(), y_dev, yb.size()),
                dnnl_success);
        std::vector<float> out(M * N);
        for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < N; ++n)
                out[m * N + n] = ir::load_value(dnnl_f32, yb.data(),
                        m * y.layout.strides[0] + n * y.layout.strides[1]);
        return out;
    }
    static void expect_near(
            const std::vector<float> &got, const std::vector<float> &want) {
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-4f * (1.f + std::fabs(want[i])))
                    << "element " << i;
    }
    rt::constant_cache_usage_t usage() const {
        return rt::constant_cache_t::get(dnnl_gpu, g_->engine->index()).usage();
    }

    gpu_t *g_ = nullptr;
    size_t saved_mb_ = 0;
    std::vector<int8_t> w_;
    std::vector<float> x_host_;
    std::vector<std::pair<void *, size_t>> bufs_;
};

TEST_F(OclConstantCache, ConstantStageRunsOnceAndIsReused) {
    ASSERT_EQ(rt::set_constant_cache_capacity_mb(dnnl_gpu, 16), dnnl_success);
    setup_t s = make_partition(true);
    ASSERT_TRUE(s.kernel);
    void *w_dev = device_buffer(w_.data(), w_.size());
    const rt::constant_cache_usage_t before = usage();
    expect_near(run(s, w_dev), expected(x_host_, w_));
    const rt::constant_cache_usage_t first = usage();
    EXPECT_EQ(first.computed, before.computed + 1);
    EXPECT_EQ(first.entries, before.entries + 1);
    EXPECT_GE(first.bytes, before.bytes + size_t(K * N * 4));
    // Different weights behind the cache's back: the kept dequantized
    // weights are used, so the old result comes back.
    std::vector<int8_t> w2(w_.size());
    for (size_t i = 0; i < w2.size(); ++i)
        w2[i] = static_cast<int8_t>(-w_[i]);
    ASSERT_EQ(g_->dev->copy(g_->q, w_dev, w2.data(), w2.size()), dnnl_success);
    expect_near(run(s, w_dev), expected(x_host_, w_));
    const rt::constant_cache_usage_t second = usage();
    EXPECT_EQ(second.computed, first.computed);
    EXPECT_EQ(second.hits, first.hits + 1);
    // Another weights buffer is another key: computed from its own data.
    void *w3_dev = device_buffer(w2.data(), w2.size());
    expect_near(run(s, w3_dev), expected(x_host_, w2));
    EXPECT_EQ(usage().computed, second.computed + 1);
    // Destroying the compiled kernel drops its entries.
    const size_t entries = usage().entries;
    s.kernel.reset();
    EXPECT_EQ(usage().entries, entries - 2);
}

TEST_F(OclConstantCache, DisabledCacheRecomputesEveryExecution) {
    ASSERT_EQ(rt::set_constant_cache_capacity_mb(dnnl_gpu, 0), dnnl_success);
    setup_t s = make_partition(true);
    ASSERT_TRUE(s.kernel);
    void *w_dev = device_buffer(w_.data(), w_.size());
    expect_near(run(s, w_dev), expected(x_host_, w_));
    std::vector<int8_t> w2(w_.size());
    for (size_t i = 0; i < w2.size(); ++i)
        w2[i] = static_cast<int8_t>(w_[i] / 2);
    ASSERT_EQ(g_->dev->copy(g_->q, w_dev, w2.data(), w2.size()), dnnl_success);
    expect_near(run(s, w_dev), expected(x_host_, w2));
    EXPECT_EQ(usage().entries, 0u);
}

TEST_F(OclConstantCache, NonConstantWeightsAreNeverCached) {
    ASSERT_EQ(rt::set_constant_cache_capacity_mb(dnnl_gpu, 16), dnnl_success);
    setup_t s = make_partition(false);
    ASSERT_TRUE(s.kernel);
    const size_t computed = usage().computed;
    void *w_dev = device_buffer(w_.data(), w_.size());
    expect_near(run(s, w_dev), expected(x_host_, w_));
    std::vector<int8_t> w2(w_.begin(), w_.end());
    w2[0] = static_cast<int8_t>(w2[0] + 5);
    ASSERT_EQ(g_->dev->copy(g_->q, w_dev, w2.data(), w2.size()), dnnl_success);
    expect_near(run(s, w_dev), expected(x_host_, w2));
    EXPECT_EQ(usage().computed, computed);
}

} // namespace
} // namespace ocl_test
} // namespace llga
