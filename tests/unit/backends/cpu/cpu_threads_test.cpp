// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/cpu_threads_test.cpp — the cpu kernels that split
// their work for the thread count they were made under say so
// (kernel_t::sized_for_threads), and a MatMul compiled under one thread
// but run under two is re-made for two: its GEMM then hands the thread
// pool more than one task, with the same result bit for bit (the K order
// of every sum is the same under both plans).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <tbb/task_arena.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/ref/ref_backend.hpp"
#include "base/parallel.hpp"
#include "compiler/compiled_partition.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::plan_builder_t;

class CpuThreads : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

std::shared_ptr<const compiler::kernel_t> kernel_of(
        const compiler::plan_t &p) {
    std::shared_ptr<const compiler::kernel_t> k;
    if (!cpu_backend().supports(p)) return k;
    EXPECT_EQ(cpu_backend().compile(p, k), dnnl_success);
    return k;
}

void conv_attrs(ir::op_t &op, int64_t k) {
    const int64_t pad = k / 2;
    op.set_attr(dnnl_graph_op_attr_strides, attr_value_t::make_s64s({1, 1}));
    op.set_attr(dnnl_graph_op_attr_dilations, attr_value_t::make_s64s({1, 1}));
    op.set_attr(dnnl_graph_op_attr_pads_begin,
            attr_value_t::make_s64s({pad, pad}));
    op.set_attr(dnnl_graph_op_attr_pads_end, attr_value_t::make_s64s({pad, pad}));
    op.set_attr(dnnl_graph_op_attr_data_format, attr_value_t::make_str("NXC"));
    op.set_attr(dnnl_graph_op_attr_weights_format,
            attr_value_t::make_str("XIO"));
}

void per_tensor(ir::op_t &op, float scale) {
    op.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str("per_tensor"));
    op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({scale}));
    op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(1));
}

struct named_plan_t {
    std::string what;
    compiler::plan_t plan;
};

std::vector<named_plan_t> sized_plans() {
    std::vector<named_plan_t> v;
    {
        plan_builder_t g;
        const auto a = g.in({64, 48}), b = g.in({48, 80});
        g.add(dnnl_graph_op_matmul, {a, b}, {64, 80});
        v.push_back({"MatMul f32", g.plan()});
    }
    {
        plan_builder_t g; // rounded operands around the strict kernel
        const auto a = g.in({64, 48}), b = g.in({48, 80});
        g.add(dnnl_graph_op_matmul, {a, b}, {64, 80}, dnnl_f32,
                [](ir::op_t &op) { op.fpmath = dnnl_fpmath_mode_bf16; });
        v.push_back({"MatMul f32 under fpmath bf16", g.plan()});
    }
    {
        plan_builder_t g; // bf16: native, or staged through f32 on AVX2
        const auto a = g.in({64, 48}, dnnl_bf16), b = g.in({48, 80}, dnnl_bf16);
        g.add(dnnl_graph_op_matmul, {a, b}, {64, 80}, dnnl_bf16);
        v.push_back({"MatMul bf16", g.plan()});
    }
    for (int64_t k : {1, 3}) {
        plan_builder_t g;
        const auto x = g.in({2, 9, 9, 16}), w = g.in({k, k, 16, 32});
        g.add(dnnl_graph_op_convolution, {x, w}, {2, 9, 9, 32}, dnnl_f32,
                [k](ir::op_t &op) { conv_attrs(op, k); });
        v.push_back({"Convolution " + std::to_string(k) + "x"
                        + std::to_string(k),
                g.plan()});
    }
    // Few pixels: GEMM + col2im; more: the flipped forward convolution.
    for (int64_t n : {2, 4}) {
        plan_builder_t g;
        const auto dy = g.in({n, 9, 9, 32}), w = g.in({3, 3, 16, 32});
        g.add(dnnl_graph_op_convolution_backward_data, {dy, w}, {n, 9, 9, 16},
                dnnl_f32, [n](ir::op_t &op) {
                    conv_attrs(op, 3);
                    op.set_attr(dnnl_graph_op_attr_dst_shape,
                            attr_value_t::make_s64s({n, 9, 9, 16}));
                });
        v.push_back({"ConvolutionBackwardData mb" + std::to_string(n),
                g.plan()});
    }
    {
        plan_builder_t g;
        const auto x = g.in({2, 9, 9, 16}), dy = g.in({2, 9, 9, 32});
        g.add(dnnl_graph_op_convolution_backward_weights, {x, dy},
                {3, 3, 16, 32}, dnnl_f32, [](ir::op_t &op) {
                    conv_attrs(op, 3);
                    op.set_attr(dnnl_graph_op_attr_weights_shape,
                            attr_value_t::make_s64s({3, 3, 16, 32}));
                });
        v.push_back({"ConvolutionBackwardWeights", g.plan()});
    }
    {
        plan_builder_t g;
        const auto a = g.in({32, 64}, dnnl_u8), b = g.in({64, 48}, dnnl_s8);
        const auto af = g.add(dnnl_graph_op_dequantize, {a}, {32, 64},
                dnnl_f32, [](ir::op_t &op) { per_tensor(op, 0.02f); });
        const auto bf = g.add(dnnl_graph_op_dequantize, {b}, {64, 48},
                dnnl_f32, [](ir::op_t &op) { per_tensor(op, 0.01f); });
        g.add(dnnl_graph_op_matmul, {af, bf}, {32, 48});
        v.push_back({"int8 MatMul", g.plan()});
    }
    {
        plan_builder_t g;
        const auto x = g.in({2, 9, 9, 16}, dnnl_u8);
        const auto w = g.in({3, 3, 16, 32}, dnnl_s8);
        const auto xf = g.add(dnnl_graph_op_dequantize, {x}, {2, 9, 9, 16},
                dnnl_f32, [](ir::op_t &op) { per_tensor(op, 0.02f); });
        const auto wf = g.add(dnnl_graph_op_dequantize, {w}, {3, 3, 16, 32},
                dnnl_f32, [](ir::op_t &op) { per_tensor(op, 0.01f); });
        g.add(dnnl_graph_op_convolution, {xf, wf}, {2, 9, 9, 32}, dnnl_f32,
                [](ir::op_t &op) { conv_attrs(op, 3); });
        v.push_back({"int8 Convolution", g.plan()});
    }
    {
        plan_builder_t g;
        const auto q = g.in({1, 2, 21, 16}), kt = g.in({1, 2, 16, 50});
        const dims_t sd = {1, 2, 21, 50};
        auto s = g.add(dnnl_graph_op_matmul, {q, kt}, sd);
        const auto scale = g.in({1});
        s = g.add(dnnl_graph_op_divide, {s, scale}, sd);
        s = g.add(dnnl_graph_op_softmax, {s}, sd, dnnl_f32, [](ir::op_t &op) {
            op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(-1));
        });
        const auto v2 = g.in({1, 2, 50, 12});
        g.add(dnnl_graph_op_matmul, {s, v2}, {1, 2, 21, 12});
        v.push_back({"SDPA", g.plan()});
    }
    return v;
}

TEST_F(CpuThreads, KernelsThatSplitByThreadCountSaySo) {
    // Every level: the families differ by ISA (direct conv from AVX-512).
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core,
                 isa_t::avx512_core_bf16, isa_t::avx512_core_amx})) {
        test_isa::isa_guard_t guard(isa);
        for (const named_plan_t &np : sized_plans()) {
            const auto k = kernel_of(np.plan);
            ASSERT_TRUE(k) << np.what << " has no cpu kernel: " << last_error();
            EXPECT_TRUE(k->sized_for_threads())
                    << isa_name(isa) << ": " << np.what << " -> " << k->name();
        }
    }
    // An elementwise kernel splits by size alone.
    plan_builder_t g;
    const auto x = g.in({1000});
    g.add(dnnl_graph_op_relu, {x}, {1000});
    const auto k = kernel_of(g.plan());
    ASSERT_TRUE(k);
    EXPECT_FALSE(k->sized_for_threads()) << k->name();
}

// The largest parallel_for split requested while it is installed.
std::atomic<int64_t> g_widest {0};
parallel_impl_t g_inner = nullptr;
void recording_impl(int64_t n, int64_t grain, const range_body_t &body) {
    int64_t seen = g_widest.load();
    while (n > seen && !g_widest.compare_exchange_weak(seen, n)) {}
    g_inner(n, grain, body);
}

TEST_F(CpuThreads, MatmulCompiledForOneThreadUsesTwoWhenRunUnderTwo) {
    const logical_tensor_t a = ir::make_lt(1, dnnl_f32, {256, 128});
    const logical_tensor_t b = ir::make_lt(2, dnnl_f32, {128, 256});
    const logical_tensor_t c = ir::make_lt(3, dnnl_f32, {256, 256});
    auto p = std::make_shared<fusion::partition_t>();
    p->id = 3001;
    p->supported = true;
    ir::op_t op;
    op.id = 1;
    op.kind = dnnl_graph_op_matmul;
    op.inputs = {a, b};
    op.outputs = {c};
    p->ops = {op};
    p->inputs = {a, b};
    p->outputs = {c};

    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    rt::stream_t strm(&eng, dnnl_stream_in_order);
    std::shared_ptr<const compiler::compiled_t> cp;
    tbb::task_arena(1).execute([&] {
        ASSERT_EQ(compiler::compile_partition(p, p->inputs, p->outputs, eng,
                          {&cpu_backend(), &ref::ref_backend()}, cp),
                dnnl_success)
                << last_error();
    });
    ASSERT_TRUE(cp);
    ASSERT_EQ(cp->threads, 1) << cp->kernel->name();

    std::mt19937 gen(7);
    const auto av = plan_test::random_bytes(a, gen, -1.f, 1.f);
    const auto bv = plan_test::random_bytes(b, gen, -1.f, 1.f);
    std::vector<char> c1(ir::mem_size(c)), c2(ir::mem_size(c), 0);
    const auto run = [&](int threads, std::vector<char> &out) {
        rt::tensor_t ta, tb, tc;
        ASSERT_EQ(ta.init(a, &eng, const_cast<char *>(av.data())), dnnl_success);
        ASSERT_EQ(tb.init(b, &eng, const_cast<char *>(bv.data())), dnnl_success);
        ASSERT_EQ(tc.init(c, &eng, out.data()), dnnl_success);
        g_widest = 0;
        g_inner = parallel_impl();
        set_parallel_impl(recording_impl);
        tbb::task_arena(threads).execute([&] {
            EXPECT_EQ(compiler::execute_compiled(*cp, strm, {&ta, &tb}, {&tc}),
                    dnnl_success);
        });
        set_parallel_impl(g_inner);
    };
    run(1, c1);
    // One task (run inline, without the pool): the plan made for 1 thread.
    EXPECT_LE(g_widest.load(), 1);
    if (rt::max_threads() < 2) GTEST_SKIP() << "a one-core host";
    run(2, c2);
    EXPECT_GE(g_widest.load(), 2); // the plan made for 2
    EXPECT_EQ(std::memcmp(c1.data(), c2.data(), c1.size()), 0);
}

} // namespace
} // namespace cpu
} // namespace llga
