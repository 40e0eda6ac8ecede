// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/wrap/cpu_staged_test.cpp — the staged f32 kernel
// (backends/cpu/kernels/staged.cpp): a bf16/f16 Convolution run through
// the f32 convolution on hosts without bf16/f16 arithmetic, against the
// reference, and constant weights in different buffers for calls of one
// compiled kernel (each widened and packed once, keyed by the user's
// buffer). (16-bit MatMuls on AVX2 have a line of their own, which widens
// the weights inside the GEMM: cpu_matmul_test.cpp.)
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using plan_test::plan_builder_t;

class CpuStaged : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// Products of small integers (exact in f16/bf16 and f32) summed over K:
// every result is an integer, so the reference and the f32 kernel agree
// exactly whatever the summation order.
bytes_t small_ints(const logical_tensor_t &lt, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> u(-4, 4);
    bytes_t b(ir::mem_size(lt));
    for (int64_t i = 0; i < ir::nelems(lt); ++i)
        ir::store_value(lt.data_type, b.data(), i, u(gen));
    return b;
}

// A 3x3 convolution, NXC src and XIO weights, 8 -> 12 channels, padding 1.
logical_tensor_t add_conv(plan_builder_t &g, const logical_tensor_t &src,
        const logical_tensor_t &wei, data_type_t dst_dt) {
    return g.add(dnnl_graph_op_convolution, {src, wei}, {1, 9, 9, 12}, dst_dt,
            [](ir::op_t &op) {
                using ir::attr_value_t;
                op.set_attr(dnnl_graph_op_attr_strides,
                        attr_value_t::make_s64s({1, 1}));
                op.set_attr(dnnl_graph_op_attr_dilations,
                        attr_value_t::make_s64s({1, 1}));
                op.set_attr(dnnl_graph_op_attr_pads_begin,
                        attr_value_t::make_s64s({1, 1}));
                op.set_attr(dnnl_graph_op_attr_pads_end,
                        attr_value_t::make_s64s({1, 1}));
                op.set_attr(dnnl_graph_op_attr_groups,
                        attr_value_t::make_s64(1));
                op.set_attr(dnnl_graph_op_attr_data_format,
                        attr_value_t::make_str("NXC"));
                op.set_attr(dnnl_graph_op_attr_weights_format,
                        attr_value_t::make_str("XIO"));
            });
}

TEST_F(CpuStaged, HalfPrecisionConvolutionRunsOnTheF32Kernel) {
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
            plan_builder_t g;
            const logical_tensor_t a = g.in({1, 9, 9, 8}, dt);
            const logical_tensor_t b = g.in({3, 3, 8, 12}, dt);
            add_conv(g, a, b, dt);
            const compiler::plan_t p = g.plan();
            const std::vector<bytes_t> in = {small_ints(a, 1), small_ints(b, 2)};
            bytes_t got;
            std::string kname;
            ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
            EXPECT_EQ(kname.rfind("staged_f32(conv_", 0), 0u) << kname;
            const bytes_t want = plan_test::run_ref(p, in).at(p.outputs[0].id);
            EXPECT_EQ(got, want) << ir::dtype_name(dt) << " at " << isa_name(isa);
        }
    }
}

// Constant half-precision weights are widened once per user buffer into
// the engine's constant cache: each distinct buffer gets its own f32 copy
// (a copy keyed by one scratch address would go stale when the weights
// change), and a repeated call with a buffer reuses its copy. The inner
// f32 kernel packs each copy once too, keyed by the user's buffer (not the
// copy's address, which another copy could reuse after an eviction).
TEST_F(CpuStaged, ConstantWeightsAreWidenedOncePerBuffer) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP();
    test_isa::isa_guard_t guard(isa_t::avx2);
    plan_builder_t g;
    const logical_tensor_t a = g.in({1, 9, 9, 8}, dnnl_f16);
    logical_tensor_t b = g.in({3, 3, 8, 12}, dnnl_f16);
    b.property = dnnl_graph_tensor_property_constant;
    g.ins.back() = b;
    add_conv(g, a, b, dnnl_f32);
    const compiler::plan_t p = g.plan();
    const compiler::backend_t &be = cpu_backend();
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(be.compile(p, k), dnnl_success);
    ASSERT_EQ(std::string(k->name()).rfind("staged_f32(", 0), 0u) << k->name();
    // An engine of its own, so the counts below are this test's.
    rt::engine_t eng(dnnl_cpu, 12, rt::allocator_t());
    rt::constant_cache_t &cache = rt::constant_cache_t::get(dnnl_cpu, 12);
    cache.set_capacity(size_t(64) << 20);
    const bytes_t av = small_ints(a, 3);
    // Three live buffers (distinct addresses, as the constant contract
    // requires of different weights), the first and last with equal values,
    // then the first again.
    const std::vector<bytes_t> bvs
            = {small_ints(b, 4), small_ints(b, 5), small_ints(b, 4)};
    const size_t computed0 = cache.usage().computed;
    plan_test::expect_weight_calls(*k, p, eng, av, bvs, {0, 1, 2, 0});
    // One widening and one packing per distinct buffer, none for the
    // repeated one (which hits both).
    EXPECT_EQ(cache.usage().computed - computed0, 6u);
    EXPECT_EQ(cache.usage().entries, 6u);
    EXPECT_GE(cache.size(), 6 * 3 * 3 * 8 * 12 * sizeof(float));
    cache.flush();
}

} // namespace
} // namespace cpu
} // namespace llga
